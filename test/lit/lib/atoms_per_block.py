"""Counts a kernel's matrix atoms per basic block of its assembly.

usage: atoms_per_block.py ASM KERNEL PATTERN
Prints "KERNEL: most N in one block" for the basic block (PTX `$L__BB`,
AMDGPU `.LBB` labels) of KERNEL with the most lines matching PATTERN (a
regular expression: mma.sync, v_mfma). A k loop's body is one block, so
this is how many atoms each of its steps issues. KERNEL is the name its
builder gave it: kda-compile's bundles add the digest of its manifest entry
(`_kd` and 16 hex digits), which is matched too.
"""
import re
import sys

asm, kernel, pattern = sys.argv[1], sys.argv[2], re.compile(sys.argv[3])
lines = open(asm).read().splitlines()
start = next((i for i, l in enumerate(lines)
              if re.match(rf"^(\.visible \.entry )?{re.escape(kernel)}(_kd[0-9a-f]{{16}})?[:(]", l)),
             None)
if start is None:
    sys.exit(f"no kernel {kernel} in {asm}")
counts, block = {}, None
for line in lines[start + 1:]:
    if re.match(r"^(\.Lfunc_end\d+:|\}$|\.visible \.entry )", line):
        break
    label = re.match(r"^(\$L__BB\w+|\.LBB\w+):", line)
    if label:
        block = label.group(1)
    elif pattern.search(line):
        counts[block] = counts.get(block, 0) + 1
print(f"{kernel}: most {max(counts.values(), default=0)} in one block")
