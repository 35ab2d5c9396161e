"""Checks a bundle manifest's static figures against target limits.

usage: check_figures.py MANIFEST TARGET LDS_LIMIT
Fails (exit 1) when a kernel of TARGET spills, uses scratch, or uses more LDS
than LDS_LIMIT bytes; prints the figures it checked.
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
    if f.get("lds_bytes", 0) > lds_limit:
        print(f"  error: LDS {f['lds_bytes']} > {lds_limit}")
        ok = False
sys.exit(0 if ok else 1)
