#!/usr/bin/env python3
"""What each chunk-form quantity's precision costs the results.

The chunk path keeps every product of its chunked form (KDA-MATH.md
section 2) near f32 accuracy: split bf16 operands, three atoms a product.
That triples the matrix work against bf16 peers. This script asks, in
float64, which quantities could drop to bf16 (one rounding, as a record
field stored as bf16 or a product taken as hi x (hi + lo)) without leaving
the bars: outputs within 1.5x of the error of the exact result rounded to
bf16, f32 states within 1e-5 (test/numeric/ChunkNumericsTest.cpp).

It evaluates the chunked form exactly (float64) with the named quantities
rounded to bf16 where the kernels would use them, and compares outputs and
the final state with the token-serial recurrence (float64):

    /usr/bin/python3 scripts/precision-budget.py            # the table
    /usr/bin/python3 scripts/precision-budget.py --tokens 300 --seeds 1

One sequence, K = V = 128, chunks of 64, bf16 inputs, l2-normalised q and
k, sigmoid beta, a random initial state. Gates: Kimi-K3's lower_bound(-5)
(fast decay: later rows of a chunk see little of the state entering it)
and slow decays (g = -|N(0, 1)| x s for s = 0.1, 0.01), where the state
entering a chunk carries most of each output.
"""
import argparse

import numpy as np

K = V = 128
C = 64

# Each variant: the quantities rounded to bf16. qg: q o exp(G) scaled (the
# inter-chunk output product's row operand); S_out: the state as that
# product's other operand; Aqk: the intra-chunk output matrix; W, U, kg:
# the state path (V_new = U - W S, S += kg^T V_new).
VARIANTS = [
    ("all split (as built)", ()),
    ("qg bf16", ("qg",)),
    ("qg, S (output product) bf16", ("qg", "S_out")),
    ("Aqk bf16", ("Aqk",)),
    ("W bf16", ("W",)),
    ("kg bf16", ("kg",)),
    ("W, U, kg bf16 (bf16 records)", ("W", "U", "kg")),
]


def bf16(x):
    """Round to nearest even bf16, back as float64."""
    x = np.asarray(x, dtype=np.float32)
    u = x.view(np.uint32).astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) << 16
    return r.astype(np.uint32).view(np.float32).astype(np.float64)


def relative_l2(a, b):
    return float(np.linalg.norm(a - b) / np.linalg.norm(b))


class Case:
    def __init__(self, seed, tokens, decay):
        rng = np.random.default_rng(seed)
        T = tokens
        self.q = bf16(rng.standard_normal((T, K)))
        self.k = bf16(rng.standard_normal((T, K)))
        self.v = bf16(rng.standard_normal((T, V)))
        graw = bf16(rng.standard_normal((T, K)))
        braw = bf16(rng.standard_normal(T))
        if decay is None:  # lower_bound(-5) with A_log and dt_bias
            a_log, dt = rng.uniform(-1, 0.5), rng.standard_normal(K) * 0.5
            self.g = -5.0 / (1 + np.exp(-(np.exp(a_log) * (graw + dt))))
        else:
            self.g = -np.abs(rng.standard_normal((T, K))) * decay
        self.b = 1 / (1 + np.exp(-braw))
        norm = lambda x: x / np.sqrt((x * x).sum(1, keepdims=True) + 1e-6)
        self.qn, self.kn = norm(self.q), norm(self.k)
        self.scale = K ** -0.5
        self.S0 = rng.standard_normal((K, V)) * 0.5
        self.T = T

    def recurrent(self):
        S, o = self.S0.copy(), np.zeros((self.T, V))
        for t in range(self.T):
            S = np.exp(self.g[t])[:, None] * S
            r = self.v[t] - S.T @ self.kn[t]
            S = S + self.b[t] * np.outer(self.kn[t], r)
            o[t] = S.T @ (self.scale * self.qn[t])
        return o, S

    def chunked(self, rounded):
        rd = lambda name, x: bf16(x) if name in rounded else x
        S, out = self.S0.copy(), np.zeros((self.T, V))
        for c0 in range(0, self.T, C):
            c1 = min(self.T, c0 + C)
            G = np.cumsum(self.g[c0:c1], 0)
            Q, Kc, B = self.qn[c0:c1], self.kn[c0:c1], self.b[c0:c1]
            # exp(G_i - G_j) pairwise: never a product that can overflow.
            E = np.exp(G[:, None, :] - G[None, :, :])
            Akk = np.tril(B[:, None] * np.einsum("id,jd,ijd->ij", Kc, Kc, E),
                          -1)
            Aqk = np.tril(self.scale * np.einsum("id,jd,ijd->ij", Q, Kc, E))
            Tm = np.linalg.inv(np.eye(c1 - c0) + Akk)
            W = rd("W", Tm @ (B[:, None] * Kc * np.exp(G)))
            U = rd("U", Tm @ (B[:, None] * self.v[c0:c1]))
            Vn = U - W @ S
            qg = rd("qg", self.scale * Q * np.exp(G))
            out[c0:c1] = qg @ rd("S_out", S) + rd("Aqk", Aqk) @ Vn
            kg = rd("kg", Kc * np.exp(G[-1] - G))
            S = np.exp(G[-1])[:, None] * S + kg.T @ Vn
        return out, S


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tokens", type=int, default=1000)
    p.add_argument("--seeds", type=int, default=2)
    o = p.parse_args()
    gates = [("lower_bound(-5)", None), ("slow decay s=0.1", 0.1),
             ("slow decay s=0.01", 0.01)]
    print(f"{o.tokens} tokens, chunks of {C}, K = V = {K}; outputs as a "
          "multiple of bf16 rounding's error (bar 1.5), f32 state relative "
          "L2 (bar 1e-5); the worst of", o.seeds, "seeds")
    print("| variant | " + " | ".join(f"{n}: out / state" for n, _ in gates)
          + " |")
    print("| --- |" + " --- |" * len(gates))
    cases = {n: [Case(s, o.tokens, d) for s in range(o.seeds)]
             for n, d in gates}
    truth = {n: [c.recurrent() for c in cs] for n, cs in cases.items()}
    for label, rounded in VARIANTS:
        cells = []
        for n, _ in gates:
            worst_out = worst_state = 0.0
            for c, (o_ref, s_ref) in zip(cases[n], truth[n]):
                out, state = c.chunked(set(rounded))
                base = relative_l2(bf16(o_ref), o_ref)
                worst_out = max(worst_out,
                                relative_l2(bf16(out), o_ref) / base)
                worst_state = max(worst_state, relative_l2(state, s_ref))
            cells.append(f"{worst_out:.2f}x / {worst_state:.1e}")
        print(f"| {label} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
