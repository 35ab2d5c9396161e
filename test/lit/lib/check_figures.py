"""Checks a bundle manifest's static figures against target limits.

usage: check_figures.py MANIFEST TARGET LDS_LIMIT [SYMBOL=SPILLS,SCRATCH ...]
Fails (exit 1) when a kernel of TARGET spills, uses scratch, or uses more LDS
(static plus the dynamic bytes it launches with) than LDS_LIMIT bytes; prints
the figures it checked. SYMBOL=SPILLS,SCRATCH names a kernel known to spill
exactly that many bytes with that much scratch (a measured trade,
documented where the test names it): it must, so a change either way is
seen. Kernels are named as their builders named them: the digest of the
manifest entry that kda-compile adds (`_kd` and 16 hex digits) is left out.
"""
import json
import re
import sys

manifest, target, lds_limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
known = {s: tuple(int(n) for n in b.split(","))
         for s, b in (a.split("=") for a in sys.argv[4:])}
kernels = [k for k in json.load(open(manifest))["kernels"] if k["target"] == target]
if not kernels:
    sys.exit(f"no kernels for {target}")
ok = True
for k in kernels:
    f = k["figures"]
    name = re.sub(r"_kd[0-9a-f]{16}(?=$|_)", "", k["symbol"])
    print(f"{target} {name}: " + ", ".join(f"{n} {f[n]}" for n in sorted(f)))
    spills, scratch = known.pop(name, (0, 0))
    if f.get("spills", 0) != spills or f.get("scratch_bytes", 0) != scratch:
        print(f"  error: spills or scratch in {name} (expected {spills}, {scratch})")
        ok = False
    lds = f.get("lds_bytes", 0) + k.get("dynamic_lds_bytes", 0)
    if lds > lds_limit:
        print(f"  error: LDS {lds} (static + dynamic) > {lds_limit}")
        ok = False
for symbol in known:
    print(f"  error: no kernel {symbol} of {target}")
    ok = False
sys.exit(0 if ok else 1)
