#!/usr/bin/env python3
"""Times fla's fused_recurrent_kda on the device the way kda-bench times kda.

    python3 test/device/fla-bench.py --n 1,8,32,128,256 --heads 12,32 --out DIR

Writes DIR/fla_h<H>_kv.json in kda-bench's schema ("impl": "fla", "layer",
"decode_N<n>": {"us", "us_graph", "bytes"}), both methods of kda-bench:
CUDA events around the call after an L2 flush ("us": includes fla's Python
launch overhead), and CUDA-graph replay of [flush, call] minus [flush]
("us_graph": the kernel alone). One-token decodes, K = V = 128, bf16
activations, f32 state [N, H, K, V] (fla's layout: kv; fla has no vk pool,
so the vk rows of the plot are compared with the same fla kernel). The gate
is passed as the log decay (fla computes no gate here: less work than kda's
kernel, which applies the lower_bound gate with A_log and dt_bias).
Exits 0 with a note when fla or torch is not importable (nothing written).
"""
import argparse
import json
import os
import statistics
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", default="1,8,32,128,256")
    ap.add_argument("--heads", default="12,32")
    ap.add_argument("--reps", type=int, default=50)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    try:
        import torch
        from fla.ops.kda import fused_recurrent_kda
    except Exception as e:  # the device may lack fla: say so, write nothing
        print(f"fla-bench: fla not importable here ({e}); skipped")
        return 0
    os.makedirs(args.out, exist_ok=True)
    dev = "cuda"
    K = V = 128
    flush = torch.empty(256 << 20, dtype=torch.int8, device=dev)
    start, end = torch.cuda.Event(True), torch.cuda.Event(True)

    def events_us(call):
        for _ in range(5):
            call()
        times = []
        for i in range(args.reps):
            flush.fill_(i & 0xFF)
            start.record()
            call()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end) * 1e3)
        return statistics.median(times)

    def graph_us(call):
        stream = torch.cuda.Stream()
        stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):  # warm-up outside capture (compiles)
            for _ in range(3):
                call()
        torch.cuda.current_stream().wait_stream(stream)
        both, only = torch.cuda.CUDAGraph(), torch.cuda.CUDAGraph()
        with torch.cuda.graph(both):
            flush.zero_()
            call()
        with torch.cuda.graph(only):
            flush.zero_()
        with_k, without = [], []

        def replay(g):
            start.record()
            g.replay()
            end.record()
            end.synchronize()
            return start.elapsed_time(end) * 1e3

        for _ in range(5):
            replay(both), replay(only)
        for _ in range(args.reps):  # alternate: drifts cancel
            with_k.append(replay(both))
            without.append(replay(only))
        return statistics.median(with_k) - statistics.median(without)

    for H in [int(h) for h in args.heads.split(",")]:
        result = {
            "impl": "fla",
            "kernel": "fla.ops.kda.fused_recurrent_kda",
            "machine": torch.cuda.get_device_name(),
            "layer": {"heads": H, "value_heads": H, "head_k": K, "head_v": V,
                      "state_layout": "kv"},
        }
        for n in [int(x) for x in args.n.split(",")]:
            g = torch.Generator(device=dev).manual_seed(n)
            q = torch.randn(1, n, H, K, device=dev, dtype=torch.bfloat16, generator=g)
            k = torch.randn(1, n, H, K, device=dev, dtype=torch.bfloat16, generator=g)
            v = torch.randn(1, n, H, V, device=dev, dtype=torch.bfloat16, generator=g)
            gate = -torch.rand(1, n, H, K, device=dev, dtype=torch.bfloat16, generator=g)
            beta = torch.rand(1, n, H, device=dev, dtype=torch.bfloat16, generator=g)
            h0 = torch.randn(n, H, K, V, device=dev, dtype=torch.float32, generator=g)
            cu = torch.arange(n + 1, device=dev, dtype=torch.long)

            def call():
                fused_recurrent_kda(q, k, v, gate, beta, initial_state=h0,
                                    output_final_state=True,
                                    use_qk_l2norm_in_kernel=True, cu_seqlens=cu)

            # Bytes as kda-bench counts them: state in and out, q k v o, g, beta.
            nbytes = n * H * K * V * 4 * 2 + n * (2 * H * K + 2 * H * V) * 2 \
                + n * H * (K * 2 + 2)
            result[f"decode_N{n}"] = {"us": events_us(call),
                                      "us_graph": graph_us(call),
                                      "bytes": nbytes}
            print(f"fla H {H} N {n}: {result[f'decode_N{n}']}")
        with open(os.path.join(args.out, f"fla_h{H}_kv.json"), "w") as f:
            json.dump(result, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
