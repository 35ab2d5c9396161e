"""The token-serial KDA recurrence in float64 numpy (KDA-MATH.md section 1).

The same ground truth as the C++ oracle (test/oracle), for checks made from
Python (the package's tests on the emulator, the H200 script with torch);
vectorised over heads, serial over tokens. Also the bf16 rounding the
kernels' inputs go through, so the reference sees what the kernel sees.
"""
from dataclasses import dataclass

import numpy as np


@dataclass
class Layer:
    heads: int
    value_heads: int
    head_k: int
    head_v: int
    gate: str = "lower_bound"   # none | softplus | lower_bound
    lower_bound: float = -5.0
    beta: str = "sigmoid"       # sigmoid | given | sigmoid_x2
    qk_l2norm: bool = True
    scale: float = 0.0          # <= 0: head_k ** -0.5
    layout: str = "vk"          # kv: [HV, K, V] per slot; vk: [HV, V, K]

    def slot_shape(self):
        hv, k, v = self.value_heads, self.head_k, self.head_v
        return (hv, v, k) if self.layout == "vk" else (hv, k, v)


def to_bf16_bits(x):
    """float32 -> bf16 bits, round to nearest even (NaN kept NaN)."""
    bits = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    nan = np.isnan(np.asarray(x, dtype=np.float32))
    return np.where(nan, (bits >> 16) | 0x40, rounded).astype(np.uint16)


def from_bf16_bits(h):
    return (np.asarray(h, dtype=np.uint32) << 16).view(np.float32)


def _softplus(x):
    return np.where(x > 20, x, np.log1p(np.exp(np.minimum(x, 20))))


def _sigmoid(x):
    return 0.5 * (1 + np.tanh(0.5 * x))  # no overflow at +-1000


def gate(layer, g_raw, a_log, dt_bias):
    """The log decay g [HV, K] of one token from its raw gate [HV, K]."""
    x = g_raw + (dt_bias.reshape(g_raw.shape) if dt_bias is not None else 0)
    if layer.gate == "none":
        return g_raw
    if layer.gate == "softplus":
        return -np.exp(a_log)[:, None] * _softplus(x)
    if a_log is not None:
        x = np.exp(a_log)[:, None] * x
    return layer.lower_bound * _sigmoid(x)


def beta_value(layer, b_raw):
    if layer.beta == "given":
        return b_raw
    return _sigmoid(b_raw) * (2.0 if layer.beta == "sigmoid_x2" else 1.0)


class _Rows:
    """What every token of a batch needs: inputs, gate parameters, the
    layer's head grouping and scale."""

    def __init__(self, layer, q, k, v, g, beta, a_log, dt_bias):
        self.layer, self.q, self.k, self.v = layer, q, k, v
        self.g, self.beta, self.a_log, self.dt_bias = g, beta, a_log, dt_bias
        self.group = layer.value_heads // layer.heads
        self.scale = layer.scale if layer.scale > 0 else layer.head_k ** -0.5

    def load(self, pool, slot):
        """The state [HV, K, V] of a slot (zeros for None)."""
        L = self.layer
        if slot is None:
            return np.zeros((L.value_heads, L.head_k, L.head_v))
        s = pool[slot] if L.layout == "kv" else pool[slot].transpose(0, 2, 1)
        return np.array(s, dtype=np.float64)

    def store(self, pool, slot, state):
        pool[slot] = state if self.layer.layout == "kv" else \
            state.transpose(0, 2, 1)

    def token(self, state, t):
        """Advances `state` by token t in place; returns its output [HV, V]."""
        L = self.layer
        qt = np.repeat(self.q[t], self.group, axis=0)
        kt = np.repeat(self.k[t], self.group, axis=0)
        if L.qk_l2norm:
            qt = qt / np.sqrt((qt * qt).sum(-1, keepdims=True) + 1e-6)
            kt = kt / np.sqrt((kt * kt).sum(-1, keepdims=True) + 1e-6)
        state *= np.exp(gate(L, self.g[t], self.a_log, self.dt_bias))[:, :, None]
        r = self.v[t] - np.einsum("hk,hkv->hv", kt, state)
        b = beta_value(L, self.beta[t])
        state += b[:, None, None] * kt[:, :, None] * r[:, None, :]
        return np.einsum("hk,hkv->hv", self.scale * qt, state)


def recurrent(layer, q, k, v, g, beta, a_log, dt_bias, cu, slots, has_init,
              pool, padding_below=1):
    """Runs a batch: q, k [T, H, K], v [T, HV, V], g [T, HV, K] raw, beta
    [T, HV] raw (float64); cu [N+1], slots [N], has_init [N]; `pool` [slots,
    *slot_shape] float64, updated in place. Returns out [T, HV, V]; padding
    rows (slot < padding_below) are zero and touch no state."""
    rows = _Rows(layer, q, k, v, g, beta, a_log, dt_bias)
    out = np.zeros((q.shape[0], layer.value_heads, layer.head_v))
    for n, slot in enumerate(int(s) for s in slots):
        if slot < padding_below:
            continue
        state = rows.load(pool, slot if has_init[n] else None)
        for t in range(int(cu[n]), int(cu[n + 1])):
            out[t] = rows.token(state, t)
        rows.store(pool, slot, state)
    return out


def speculative(layer, q, k, v, g, beta, a_log, dt_bias, cu, slots,
                num_accepted, has_init, pool, padding_below=1):
    """Speculative rows (vLLM's spec decode): slots [N, S]; row n starts from
    slots[n, num_accepted[n] - 1] and stores the state after its token i in
    slots[n, i]. A row whose first slot is padding is padding."""
    rows = _Rows(layer, q, k, v, g, beta, a_log, dt_bias)
    out = np.zeros((q.shape[0], layer.value_heads, layer.head_v))
    S = slots.shape[1]
    for n in range(slots.shape[0]):
        if slots[n, 0] < padding_below:
            continue
        start = int(slots[n, min(max(int(num_accepted[n]) - 1, 0), S - 1)])
        state = rows.load(pool, start if has_init[n] else None)
        for i, t in enumerate(range(int(cu[n]), int(cu[n + 1]))):
            out[t] = rows.token(state, t)
            rows.store(pool, int(slots[n, i]), state)
    return out


def relative_l2(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if not np.all(np.isfinite(a)):
        return float("inf")
    nb = np.linalg.norm(b)
    return float(np.linalg.norm(a - b) / nb) if nb else float(np.linalg.norm(a))
