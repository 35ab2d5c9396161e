"""kda_forward on the H200 from Python with torch, through the package
(runtime/python) and its custom op torch.ops.kda.forward.

  PYTHONPATH=runtime/python KDA_RUNTIME_LIB=<build>/runtime/libkda_runtime.so \
    python3 test/device/forward_h200.py --bundles device-bundles --json out.json

run-h200.sh's `forward` section runs it. Checks, each against the float64
numpy reference (kda/reference.py):
  - the seed scenario (64 decodes + 4 prefills, 4096 tokens, Kimi-K3 TP8:
    H = HV = 12, K = V = 128, lower_bound -5, vk f32 pool), one row without
    initial state over a NaN slot: outputs, states, no NaN, unnamed slots
    bit-identical; its time (median of CUDA events) and, when fla is
    importable (carry flash-linear-attention, PYTHONPATH), fla's split path
    in the same run (fused_recurrent_kda on the decodes, chunk_kda on the
    prefills, states gathered and scattered);
  - a decode-only batch (padded to 72 rows with slot 0, as an engine pads a
    graph's batch) captured in a CUDA graph and replayed with new inputs:
    bitwise the eager result of the same inputs, and the reference;
  - torch.compile(fullgraph=True) of a function calling the op (the fake
    implementation traces it): bitwise the eager result;
  - speculative rows (k3_variants' k3_spec, 3 slots per row) on sm_90;
  - hostile calls through the op (short dt_bias, int64 index copies, a
    state pool of another shape or layout, a slot named twice or past the
    pool, miscounted rows): each refused with an exception, the pool and
    `out` bit-identical.
Exit status 1 when a check fails.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

import numpy as np
import torch

import kda
from kda import reference, torch_ops

K3 = reference.Layer(heads=12, value_heads=12, head_k=128, head_v=128)
K3_SMALL = reference.Layer(heads=2, value_heads=2, head_k=64, head_v=32)
SEED_PREFILLS = (1500, 1200, 900, 432)
results = {}
failed = []


def check(name, ok, detail):
    print(f"{name}: {'ok' if ok else 'FAIL'} ({detail})")
    results[name] = {"ok": bool(ok), "detail": detail}
    if not ok:
        failed.append(name)


class Batch:
    """A batch on the GPU with its float64 copy for the reference."""

    def __init__(self, layer, lengths, slots, has_init, num_slots, seed,
                 num_accepted=None):
        g = torch.Generator().manual_seed(seed)
        L, dev = layer, "cuda"
        self.layer = layer
        self.lengths = list(lengths)
        T = sum(lengths)
        cu = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
        self.cu_cpu = torch.from_numpy(cu)
        self.slots_cpu = torch.tensor(slots, dtype=torch.int32)
        self.has_init_cpu = torch.tensor(has_init, dtype=torch.bool)
        self.cu, self.slots = self.cu_cpu.to(dev), self.slots_cpu.to(dev)
        self.has_init = self.has_init_cpu.to(dev)

        def rand(*shape):
            return torch.randn(*shape, generator=g).to(torch.bfloat16).to(dev)

        self.q = rand(T, L.heads, L.head_k)
        self.k = rand(T, L.heads, L.head_k)
        self.v = rand(T, L.value_heads, L.head_v)
        self.g = rand(T, L.value_heads, L.head_k)
        self.beta = rand(T, L.value_heads)
        self.a_log = (torch.rand(L.value_heads, generator=g) * 1.5 - 1).to(dev)
        self.dt_bias = (torch.randn(L.value_heads * L.head_k, generator=g) *
                        0.5).to(dev)
        self.pool = torch.full((num_slots,) + L.slot_shape(), 1e30,
                               dtype=torch.float32)
        rows = self.slots_cpu.reshape(len(lengths), -1)
        for row, init in zip(rows, has_init):
            if row[0] > 0:
                for s in row.tolist():
                    self.pool[s] = (torch.randn(L.slot_shape(), generator=g) *
                                    0.5 if init else float("nan"))
        self.pool = self.pool.to(dev)
        self.pool0 = self.pool.clone()
        self.num_accepted = (None if num_accepted is None else
                             torch.tensor(num_accepted, dtype=torch.int32,
                                          device=dev))
        self.out = torch.full((T, L.value_heads, L.head_v), float("nan"),
                              dtype=torch.bfloat16, device=dev)

    def f64(self, t):
        return t.detach().float().cpu().numpy().astype(np.float64)

    def expected(self):
        pool = self.f64(self.pool0)
        args = (self.layer, self.f64(self.q), self.f64(self.k),
                self.f64(self.v), self.f64(self.g), self.f64(self.beta),
                self.f64(self.a_log), self.f64(self.dt_bias),
                self.cu_cpu.numpy(), self.slots_cpu.numpy())
        if self.num_accepted is None:
            out = reference.recurrent(*args, self.has_init_cpu.numpy(), pool)
        else:
            out = reference.speculative(
                *args, self.num_accepted.cpu().numpy(),
                self.has_init_cpu.numpy(), pool)
        return out, pool

    def compare(self, name):
        want_out, want_pool = self.expected()
        out = self.f64(self.out)
        pool = self.f64(self.pool)
        rows = self.slots_cpu.reshape(len(self.lengths), -1).numpy()
        spec = rows.shape[1] > 1
        written = []
        for n, row in enumerate(rows):
            if row[0] > 0:
                written += list(row[:self.lengths[n]] if spec else row[:1])
        out_err = reference.relative_l2(out, want_out)
        state_err = reference.relative_l2(pool[written], want_pool[written])
        kept = [s for s in range(pool.shape[0]) if s not in written]
        same = torch.equal(self.pool[kept].view(torch.int32),
                           self.pool0[kept].view(torch.int32))
        pad_zero = all(np.all(out[int(self.cu_cpu[n]):int(self.cu_cpu[n + 1])]
                              == 0) for n in range(len(rows)) if rows[n, 0] <= 0)
        check(name, out_err <= 2e-3 and state_err <= 1e-5 and same and pad_zero,
              f"out rel L2 {out_err:.3g}, state rel L2 {state_err:.3g}, "
              f"unnamed slots {'identical' if same else 'CHANGED'}, padding "
              f"{'zero' if pad_zero else 'NOT zero'}")

    def call(self, kernel_id, num_decodes, out=None, chunk_id=-1):
        torch.ops.kda.forward(
            kernel_id, self.q, self.k, self.v, self.g, self.beta, self.a_log,
            self.dt_bias, self.cu, self.cu_cpu, self.slots, self.slots_cpu,
            self.has_init, self.pool, self.out if out is None else out,
            num_decodes, int(self.cu_cpu[num_decodes]),
            len(self.lengths) - num_decodes, "vk", "nonpositive", chunk_id)


def seed_batch(seed=9):
    rng = np.random.default_rng(seed)
    slots = [int(s) for s in rng.permutation(np.arange(1, 81))]
    lengths = [1] * 64 + list(SEED_PREFILLS)
    has_init = [1] * 64 + [int(n != 900) for n in SEED_PREFILLS]
    return Batch(K3, lengths, slots[:68], has_init, 96, seed)


def median_ms(fn, reps=30):
    start = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    end = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    fn()
    torch.cuda.synchronize()
    for i in range(reps):
        start[i].record()
        fn()
        end[i].record()
    torch.cuda.synchronize()
    return float(np.median([s.elapsed_time(e) for s, e in zip(start, end)]))


def fla_split_path(b):
    """fla's way for the same batch: the gate in torch, fused_recurrent_kda on
    the decodes and chunk_kda on the prefills, states gathered from and
    scattered to the pool (kv layout for fla)."""
    from fla.ops.kda import chunk_kda, fused_recurrent_kda
    L = b.layer
    pool = b.pool0.transpose(-1, -2).contiguous()  # fla's kv pool
    nd = 64
    cu = b.cu.long()

    def gate():
        x = b.g.float() + b.dt_bias.view(L.value_heads, L.head_k)
        return L.lower_bound * torch.sigmoid(b.a_log.exp()[:, None] * x)

    def run():
        g = gate()
        t_dec = int(b.cu_cpu[nd])
        dec_slots, pre_slots = b.slots[:nd].long(), b.slots[nd:].long()
        h0 = pool[dec_slots]
        _, ht = fused_recurrent_kda(
            b.q[None, :t_dec], b.k[None, :t_dec], b.v[None, :t_dec],
            g[None, :t_dec], b.beta[None, :t_dec].float().sigmoid(),
            initial_state=h0, output_final_state=True,
            use_qk_l2norm_in_kernel=True, cu_seqlens=cu[:nd + 1])
        pool[dec_slots] = ht
        h0 = pool[pre_slots] * b.has_init[nd:, None, None, None]
        _, ht = chunk_kda(
            b.q[None, t_dec:], b.k[None, t_dec:], b.v[None, t_dec:],
            g[None, t_dec:], b.beta[None, t_dec:].float().sigmoid(),
            initial_state=h0, output_final_state=True,
            use_qk_l2norm_in_kernel=True, cu_seqlens=cu[nd:] - t_dec)
        pool[pre_slots] = ht

    return median_ms(run)


def seed_scenario(kernel_id, chunk_id):
    # With the chunk kernel (the planner sends the four prefills there),
    # then every row on the recurrent kernel.
    for name, cid in (("planner split", chunk_id), ("recurrent only", -1)):
        b = seed_batch()
        b.call(kernel_id, 64, chunk_id=cid)
        torch.cuda.synchronize()
        check(f"seed scenario ({name})",
              bool(torch.isfinite(b.out.float()).all()), "no NaN in outputs")
        b.compare(f"seed scenario ({name}) vs float64")
        b.pool.copy_(b.pool0)
        ms = median_ms(lambda: b.call(kernel_id, 64, chunk_id=cid))
        results["seed_kda_ms" if cid >= 0 else "seed_kda_recurrent_ms"] = ms
        print(f"seed scenario: kda_forward, {name}: {ms * 1e3:.1f} us "
              "(median of 30)")
    ms = results["seed_kda_ms"]
    try:
        fla_ms = fla_split_path(b)
        results["seed_fla_ms"] = fla_ms
        print(f"seed scenario: fla split path {fla_ms * 1e3:.1f} us; "
              f"kda / fla = {ms / fla_ms:.2f}")
    except Exception as e:  # fla is carried by the caller, or not
        results["seed_fla"] = f"not timed: {type(e).__name__}: {e}"
        print(f"seed scenario: fla not timed ({type(e).__name__}: {e})")


def graph_replay(kernel_id):
    """vLLM's decode graphs: capture once, replay with new inputs copied
    into the captured buffers (same host counts and slots)."""
    rng = np.random.default_rng(3)
    slots = [int(s) for s in rng.permutation(np.arange(1, 65))] + [0] * 8
    b = Batch(K3, [1] * 72, slots, [1] * 72, 80, 31)
    for _ in range(2):  # warm up outside the capture
        b.call(kernel_id, 72)
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        b.call(kernel_id, 72)
    fresh = Batch(K3, [1] * 72, slots, [1] * 72, 80, 77)
    for name in ("q", "k", "v", "g", "beta", "pool", "pool0"):
        getattr(b, name).copy_(getattr(fresh, name))
    b.pool.copy_(b.pool0)
    b.out.fill_(float("nan"))
    graph.replay()
    torch.cuda.synchronize()
    replayed_out, replayed_pool = b.out.clone(), b.pool.clone()
    b.pool.copy_(b.pool0)
    b.out.fill_(float("nan"))
    b.call(kernel_id, 72)  # eager, same inputs
    torch.cuda.synchronize()
    same = (torch.equal(replayed_out.view(torch.int16), b.out.view(torch.int16))
            and torch.equal(replayed_pool.view(torch.int32),
                            b.pool.view(torch.int32)))
    check("CUDA graph replay", same, "replayed with new inputs vs eager: "
          + ("bitwise equal" if same else "DIFFERENT"))
    b.compare("CUDA graph replay vs float64")


def compiled(kernel_id):
    b = seed_batch(seed=5)

    def step(q, k, v, g, beta, pool, out):
        torch.ops.kda.forward(kernel_id, q, k, v, g, beta, b.a_log, b.dt_bias,
                              b.cu, b.cu_cpu, b.slots, b.slots_cpu,
                              b.has_init, pool, out, 64,
                              int(b.cu_cpu[64]), 4, "vk", "nonpositive")
        return out

    fn = torch.compile(step, fullgraph=True)
    fn(b.q, b.k, b.v, b.g, b.beta, b.pool, b.out)
    torch.cuda.synchronize()
    got_out, got_pool = b.out.clone(), b.pool.clone()
    b.pool.copy_(b.pool0)
    step(b.q, b.k, b.v, b.g, b.beta, b.pool, b.out)
    torch.cuda.synchronize()
    same = (torch.equal(got_out.view(torch.int16), b.out.view(torch.int16))
            and torch.equal(got_pool.view(torch.int32), b.pool.view(torch.int32)))
    check("torch.compile", same, "compiled vs eager: "
          + ("bitwise equal" if same else "DIFFERENT"))


def refusals(kernel_id, only=None):
    """Hostile calls through torch.ops.kda.forward: each is refused with an
    exception (the op's own checks, or the C API's refusal raised by the
    binding) and leaves the state pool and `out` bit-identical. `only`: the
    calls whose name contains it (to run one that crashed on its own)."""
    b = seed_batch(seed=13)
    out0 = b.out.clone()

    def attempt(name, **change):
        if only and only not in name:
            return
        print(f"trying: {name}", file=sys.stderr, flush=True)
        a = dict(q=b.q, k=b.k, v=b.v, g=b.g, beta=b.beta, a_log=b.a_log,
                 dt_bias=b.dt_bias, cu=b.cu, cu_cpu=b.cu_cpu, slots=b.slots,
                 slots_cpu=b.slots_cpu, has_init=b.has_init, pool=b.pool,
                 out=b.out, nd=64, ndt=int(b.cu_cpu[64]), npf=4, layout="vk")
        a.update(change)
        try:
            torch.ops.kda.forward(
                kernel_id, a["q"], a["k"], a["v"], a["g"], a["beta"],
                a["a_log"], a["dt_bias"], a["cu"], a["cu_cpu"], a["slots"],
                a["slots_cpu"], a["has_init"], a["pool"], a["out"], a["nd"],
                a["ndt"], a["npf"], a["layout"], "nonpositive", -1)
            torch.cuda.synchronize()
            raised = "nothing raised"
        except Exception as e:  # the refusal is what is checked
            raised = f"{type(e).__name__}: {str(e).splitlines()[0][:100]}"
        torch.cuda.synchronize()
        kept = (torch.equal(b.pool.view(torch.int32), b.pool0.view(torch.int32))
                and torch.equal(b.out.view(torch.int16), out0.view(torch.int16)))
        check(f"refused: {name}", raised != "nothing raised" and kept,
              f"{raised}; pool and out {'unchanged' if kept else 'WRITTEN'}")
        b.pool.copy_(b.pool0)
        b.out.copy_(out0)

    dup = b.slots_cpu.clone()
    dup[1] = dup[0]
    far = b.slots_cpu.clone()
    far[3] = b.pool.shape[0]
    shifted = b.cu_cpu.clone()
    shifted[0] = 1
    attempt("dt_bias one short", dt_bias=b.dt_bias[:-1])
    attempt("a_log one long", a_log=torch.cat([b.a_log, b.a_log[:1]]))
    attempt("slots_cpu int64", slots_cpu=b.slots_cpu.long())
    attempt("query_start_loc_cpu int64", cu_cpu=b.cu_cpu.long())
    attempt("slots int64 on the device", slots=b.slots.long())
    attempt("out one token short", out=b.out[:-1])
    attempt("q not contiguous", q=b.q.transpose(1, 2).contiguous()
            .transpose(1, 2))
    attempt("state slot of another shape", pool=b.pool[..., :-1])
    attempt("kv layout on a vk bundle", layout="kv")
    attempt("two rows naming one slot", slots=dup.cuda(), slots_cpu=dup)
    attempt("slot past the pool", slots=far.cuda(), slots_cpu=far)
    attempt("query_start_loc_cpu not from 0", cu_cpu=shifted, cu=shifted.cuda())
    attempt("negative num_decodes", nd=-1, npf=69)
    attempt("decode tokens miscounted", ndt=int(b.cu_cpu[64]) + 1)
    attempt("beta of another token count", beta=b.beta[:-1])
    attempt("query_start_loc on the CPU", cu=b.cu_cpu)
    attempt("q on the CPU", q=b.q.cpu())
    attempt("slots_cpu on the GPU", slots_cpu=b.slots_cpu.cuda())


def example_layer(kernel):
    """kda.layer.KimiDeltaAttention on a mixed batch: the engine's call
    shape (projections, metadata, the op) runs and its states are the
    reference's for the activations the projections produced."""
    from kda.layer import BatchMetadata, KimiDeltaAttention
    torch.manual_seed(0)
    layer = KimiDeltaAttention(kernel, hidden=256, heads=12, head_dim=128,
                               device="cuda")
    b = Batch(K3, [1, 1, 1, 40], [5, 2, 0, 7], [1, 1, 1, 0], 8, 41)
    meta = BatchMetadata(3, 3, 1, b.cu, b.cu_cpu, b.slots, b.slots_cpu,
                         b.has_init)
    hidden = torch.randn(43, 256, dtype=torch.bfloat16, device="cuda")
    with torch.no_grad():
        y = layer(hidden, meta, b.pool)
    torch.cuda.synchronize()
    changed = not torch.equal(b.pool[[5, 2, 7]], b.pool0[[5, 2, 7]])
    check("example layer", bool(torch.isfinite(y.float()).all()) and changed,
          f"output {tuple(y.shape)} finite, named slots updated: {changed}")


def speculative(bundles):
    bundle = kda.Bundle(os.path.join(bundles, "k3_variants"), "cuda", "sm_90")
    kernel = bundle.kernel("k3_spec")
    b = Batch(K3_SMALL, [3, 2, 1, 3],
              [[4, 7, 1], [2, 9, 5], [0, 0, 0], [3, 8, 6]], [1, 1, 1, 0], 10,
              17, num_accepted=[2, 3, 1, 1])
    L = K3_SMALL
    args = kda.forward_args(
        num_decodes=4, num_decode_tokens=9, num_prefills=0, num_tokens=9,
        query_start_loc=b.cu.data_ptr(), query_start_loc_host=b.cu_cpu.numpy(),
        slots=b.slots.data_ptr(), slots_host=b.slots_cpu.reshape(-1).numpy(),
        has_initial_state=b.has_init.data_ptr(), q=b.q.data_ptr(),
        k=b.k.data_ptr(), v=b.v.data_ptr(), g=b.g.data_ptr(),
        beta=b.beta.data_ptr(), a_log=b.a_log.data_ptr(),
        dt_bias=b.dt_bias.data_ptr(), state=b.pool.data_ptr(), num_slots=10,
        out=b.out.data_ptr(), heads=L.heads, value_heads=L.value_heads,
        head_k=L.head_k, head_v=L.head_v, spec_tokens=3,
        num_accepted_tokens=b.num_accepted.data_ptr())
    kda.forward(kernel, args, stream=torch.cuda.current_stream().cuda_stream)
    torch.cuda.synchronize()
    b.compare("speculative rows vs float64")
    bundle.close()


def refusals_apart(bundles):
    """refusals() in a process of its own (faulthandler on), so that a
    crash on a hostile call is reported as a failed check with the call it
    died in, and the checks after it still run."""
    command = [sys.executable, "-X", "faulthandler", os.path.abspath(__file__),
               "--bundles", bundles, "--refusals-only"]
    # Under gdb where the machine has it: a crash's native frames, which
    # faulthandler (Python frames only) does not show.
    gdb = shutil.which("gdb")
    if gdb:
        command = [gdb, "-q", "-batch", "-ex", "run", "-ex", "bt 40",
                   "--args"] + command
    child = subprocess.run(command, capture_output=True, text=True,
                           timeout=300)
    if os.environ.get("OUT"):
        with open(os.path.join(os.environ["OUT"], "refusals.stderr"),
                  "w") as f:
            f.write(child.stderr)
    lines = [line for line in child.stdout.splitlines()
             if line.startswith("refused: ")]
    crashed = any(m in child.stdout + child.stderr for m in
                  ("Fatal Python error", "received signal SIGSEGV",
                   "received signal SIGABRT"))
    for line in lines:
        print(line)
        name, _, rest = line.partition(": ")
        if name.startswith("refused: "):
            ok = rest.startswith("ok ")
            results[name] = {"ok": ok, "detail": rest}
            if not ok:
                failed.append(name)
    if child.returncode != 0 or crashed:
        last = lines[-1] if lines else "(no check finished)"
        # faulthandler and gdb print the innermost frames first: keep the
        # report from the crash's first line on.
        err = (child.stdout + child.stderr).splitlines()
        start = next((i for i, line in enumerate(err)
                      if "Fatal Python error" in line
                      or "received signal" in line), max(0, len(err) - 40))
        check("refusals process", False,
              f"exit status {child.returncode} after: {last}; crash: "
              + " | ".join(err[start:start + 40]))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bundles", required=True)
    p.add_argument("--json")
    p.add_argument("--refusals-only", action="store_true",
                   help="only the hostile calls (refusals_apart's child)")
    p.add_argument("--only", help="with --refusals-only: the hostile calls "
                   "whose name contains this")
    o = p.parse_args()
    torch.cuda.init()
    torch.zeros(1, device="cuda")  # the primary context the runtime joins
    bundle = kda.Bundle(os.path.join(o.bundles, "kimi-k3-tp8"), "cuda",
                        "sm_90")
    kernel_id = torch_ops.register_kernel(
        bundle.kernel("kimi_k3_tp8_recurrent"))
    chunk_id = torch_ops.register_kernel(bundle.kernel("kimi_k3_tp8_chunk"))
    if o.refusals_only:
        refusals(kernel_id, o.only)
        return 1 if failed else 0
    t0 = time.time()
    seed_scenario(kernel_id, chunk_id)
    graph_replay(kernel_id)
    compiled(kernel_id)
    refusals_apart(o.bundles)
    example_layer(bundle.kernel("kimi_k3_tp8_recurrent"))
    speculative(o.bundles)
    results["seconds"] = time.time() - t0
    if o.json:
        with open(o.json, "w") as f:
            json.dump(results, f, indent=2)
    print("forward: " + ("all ok" if not failed else
                         "FAILED: " + ", ".join(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
