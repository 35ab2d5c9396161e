"""Checks a bundle manifest's static figures against target limits.

usage: check_figures.py MANIFEST TARGET LDS_LIMIT
Fails (exit 1) when a kernel of TARGET spills, uses scratch, or uses more LDS
(static plus the dynamic bytes it launches with) than LDS_LIMIT bytes; prints
the figures it checked.
"""
import json
import sys

manifest, target, lds_limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
kernels = [k for k in json.load(open(manifest))["kernels"] if k["target"] == target]
if not kernels:
    sys.exit(f"no kernels for {target}")
ok = True
for k in kernels:
    f = k["figures"]
    print(f"{target} {k['symbol']}: " + ", ".join(f"{n} {f[n]}" for n in sorted(f)))
    if f.get("spills", 0) != 0 or f.get("scratch_bytes", 0) != 0:
        print(f"  error: spills or scratch in {k['symbol']}")
        ok = False
    lds = f.get("lds_bytes", 0) + k.get("dynamic_lds_bytes", 0)
    if lds > lds_limit:
        print(f"  error: LDS {lds} (static + dynamic) > {lds_limit}")
        ok = False
sys.exit(0 if ok else 1)
