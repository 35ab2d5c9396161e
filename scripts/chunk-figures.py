#!/usr/bin/env python3
"""Prints the static figures of a bundle's chunk kernels as a markdown table.

usage: chunk-figures.py BUNDLE_DIR [NAME_REGEX]

For every chunk kernel of every target in BUNDLE_DIR/manifest.json (kinds
chunk_prep, chunk_scan, chunk_maps, chunk_join, chunk_segments): registers
(VGPRs on AMDGPU), SGPRs, spills and scratch bytes, dynamic LDS, occupancy
(waves a SIMD, AMDGPU) and the matrix instructions in the kernel's code
(v_mfma in the .s, mma.sync in the .ptx; loops are counted once). The
README's table of the chunk kernels is this script's output for
test/device/chunk-bench.mlir compiled by kda-compile.
"""
import json
import re
import sys

bundle = sys.argv[1]
pattern = re.compile(sys.argv[2] if len(sys.argv) > 2 else ".")
manifest = json.load(open(f"{bundle}/manifest.json"))
chunk = {"chunk_prep", "chunk_scan", "chunk_maps", "chunk_join", "chunk_segments"}


def bodies(target, path):
    """Kernel name -> its code in the target's text output."""
    text = open(path).read()
    if target.startswith("sm_"):
        parts = re.split(r"(?=\.visible \.entry )", text)
        return {m.group(1): p for p in parts
                if (m := re.match(r"\.visible \.entry (\w+)", p))}
    return {m.group(1): m.group(2) for m in
            re.finditer(r"\n(\w+):\n(.*?)\.Lfunc_end", text, re.S)}


texts = {}
print("| target | kernel | VGPRs / registers | SGPRs | spills, scratch (B) "
      "| dynamic LDS (B) | waves a SIMD | matrix instructions |")
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
for k in manifest["kernels"]:
    if k.get("kind") not in chunk or not pattern.search(k["symbol"]):
        continue
    t = k["target"]
    if t.startswith("emu"):
        continue
    if t not in texts:
        suffix = "ptx" if t.startswith("sm_") else "s"
        texts[t] = bodies(t, f"{bundle}/{t}/kda_kernels.{suffix}")
    f = k["figures"]
    code = texts[t].get(k["symbol"], "")
    atoms = len(re.findall(r"mma\.sync" if t.startswith("sm_") else r"v_mfma",
                           code))
    regs = f.get("vgprs", f.get("registers", "-"))
    # The entry digest (_kd<16 hex>, kda-compile's binding of a symbol to
    # its manifest entry) changes with any entry field: the table names the
    # kernel without it.
    name = re.sub(r"_kd[0-9a-f]{16}", "", k["symbol"])
    print(f"| {t} | {name} | {regs} | {f.get('sgprs', '-')} | "
          f"{f.get('spills', 0)}, {f.get('scratch_bytes', 0)} | "
          f"{k.get('dynamic_lds_bytes', 0)} | "
          f"{f.get('occupancy_waves_per_simd', '-')} | {atoms} |")
