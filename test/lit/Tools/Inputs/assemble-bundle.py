#!/usr/bin/env python3
"""assemble-bundle.py BASE OTHER OUT (--variants | --stages K[,K...])

A bundle put together from two compiles of one function (for
Tools/assembled-bundles.mlir): a copy of BASE whose config-table variants
(--variants) or whose chunk-plan stages of the listed kinds (--stages
chunk_scan,...) are OTHER's entries of the same name, kind, stage and
target. Each taken entry keeps its own symbol (its digest holds) and points
at OTHER's code object, copied into OUT/other/. Only a check that the
entries belong together refuses it.
"""
import json
import shutil
import sys


def key(k):
    return (k["name"], k["kind"], k.get("stage"), k["target"],
            json.dumps(k.get("variant", {}).get("of")),
            json.dumps(k.get("config", {}).get("block_v")))


def main():
    base, other, out, mode = sys.argv[1:5]
    kinds = set(sys.argv[5].split(",")) if mode == "--stages" else set()
    shutil.copytree(base, out)
    shutil.copytree(other, f"{out}/other", ignore=shutil.ignore_patterns(
        "manifest.json"))
    theirs = {key(k): k for k in json.load(open(f"{other}/manifest.json"))[
        "kernels"]}
    m = json.load(open(f"{base}/manifest.json"))
    taken = 0
    for i, k in enumerate(m["kernels"]):
        wanted = "variant" in k if mode == "--variants" else k["kind"] in kinds
        if not wanted or key(k) not in theirs:
            continue
        entry = dict(theirs[key(k)])
        entry["file"] = "other/" + entry["file"]
        m["kernels"][i] = entry
        taken += 1
    if not taken:
        sys.exit("assemble-bundle.py: no entry of OTHER matched")
    json.dump(m, open(f"{out}/manifest.json", "w"), indent=1)


if __name__ == "__main__":
    main()
