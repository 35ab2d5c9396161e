#!/usr/bin/env python3
"""Plots decode time and % of copy against N from kda-bench / fla-bench JSON.

    python3 scripts/plot-decode.py OUT_DIR [-o decode.png]

Reads OUT_DIR/decode_h<H>_<layout>.json (kda-bench --decode ... --copy
--json) and OUT_DIR/fla_h<H>_kv.json (test/device/fla-bench.py), one panel
pair per (H, layout): time (us, CUDA-graph replay where measured, else
events) against N for kda, fla and the copy ceiling (the batch's bytes at
the copy bandwidth measured in the same run), and % of copy. Needs
python3-matplotlib (Debian).
"""
import argparse
import glob
import json
import os
import re
import sys


def series(doc):
    """N -> (us, bytes) of one JSON file."""
    out = {}
    for key, v in doc.items():
        m = re.fullmatch(r"decode_N(\d+)", key)
        if m and isinstance(v, dict):
            us = v.get("us_graph", -1)
            if us is None or us <= 0:
                us = v["us"]
            out[int(m.group(1))] = (us, v["bytes"])
    return dict(sorted(out.items()))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("-o", "--output", default=None)
    args = ap.parse_args()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    kda = {}
    for path in glob.glob(os.path.join(args.dir, "decode_h*_*.json")):
        m = re.search(r"decode_h(\d+)_(vk|kv)\.json$", path)
        if m:
            kda[(int(m.group(1)), m.group(2))] = json.load(open(path))
    fla = {}
    for path in glob.glob(os.path.join(args.dir, "fla_h*_kv.json")):
        m = re.search(r"fla_h(\d+)_kv\.json$", path)
        fla[int(m.group(1))] = json.load(open(path))
    if not kda:
        print(f"plot-decode: no decode_h<H>_<layout>.json in {args.dir}")
        return 1
    keys = sorted(kda)
    fig, axes = plt.subplots(2, len(keys), figsize=(4.2 * len(keys), 7),
                             squeeze=False)
    for col, (H, layout) in enumerate(keys):
        doc = kda[(H, layout)]
        copy = doc.get("copy_TBps", 0)
        ks = series(doc)
        ns = list(ks)
        t_ax, p_ax = axes[0][col], axes[1][col]
        t_ax.plot(ns, [ks[n][0] for n in ns], "o-", label=f"kda ({layout})")
        if copy > 0:
            ceiling = [ks[n][1] / (copy * 1e12) * 1e6 for n in ns]
            t_ax.plot(ns, ceiling, "k--", label="copy ceiling")
            p_ax.plot(ns, [100 * c / ks[n][0] for c, n in zip(ceiling, ns)],
                      "o-", label="kda")
        if H in fla:
            fs = series(fla[H])
            fn = [n for n in ns if n in fs]
            t_ax.plot(fn, [fs[n][0] for n in fn], "s-", label="fla (kv)")
            if copy > 0:
                p_ax.plot(fn, [100 * fs[n][1] / (copy * 1e12) * 1e6 / fs[n][0]
                               for n in fn], "s-", label="fla")
        for ax in (t_ax, p_ax):
            ax.set_xscale("log", base=2)
            ax.set_xlabel("N (sequences, one token each)")
            ax.grid(True, alpha=0.3)
            if ax.get_legend_handles_labels()[0]:
                ax.legend(fontsize=8)
        t_ax.set_yscale("log")
        t_ax.set_ylabel("time (us; graph replay minus flush)")
        t_ax.set_title(f"H = {H}, {layout}, K = V = 128")
        p_ax.set_ylabel("% of copy bandwidth")
        p_ax.set_ylim(0, 105)
    machine = next(iter(kda.values())).get("machine", "")
    fig.suptitle(f"KDA decode on {machine}")
    fig.tight_layout()
    out = args.output or os.path.join(args.dir, "decode.png")
    fig.savefig(out, dpi=110)
    print(f"plot-decode: wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
