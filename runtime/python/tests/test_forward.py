"""The Python package on the emulator: kda.forward on host memory (the
emulator's device memory) against the float64 numpy reference.

Needs KDA_TEST_BUNDLES (the numeric test bundles, built by the test build)
and the runtime (KDA_RUNTIME_LIB or the build folder); ctest sets both.
"""
import os
import unittest

import numpy as np

import kda
from kda import reference

BUNDLES = os.environ.get("KDA_TEST_BUNDLES", "")
# test/numeric/specs/k3_small.mlir: Kimi-K3's gate and vk pool, small heads.
K3_SMALL = reference.Layer(heads=2, value_heads=2, head_k=64, head_v=32)


def aligned(nbytes, dtype):
    """A zeroed host array at a 64-byte boundary (device pointers must be
    16-byte aligned)."""
    raw = np.zeros(nbytes + 64, dtype=np.uint8)
    start = (-raw.ctypes.data) % 64
    return raw[start:start + nbytes].view(dtype)


class Batch:
    """A random mixed batch in host memory, its bf16 inputs rounded the way
    the reference then sees them."""

    def __init__(self, layer, lengths, slots, has_init, num_slots, seed):
        rng = np.random.default_rng(seed)
        self.layer = layer
        L = layer
        self.cu = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
        self.slots = np.asarray(slots, dtype=np.int32)
        self.has_init = np.asarray(has_init, dtype=np.uint8)
        T = int(self.cu[-1])
        self.T = T

        def bf16(shape, scale=1.0):
            bits = reference.to_bf16_bits(rng.normal(0, scale, shape))
            dev = aligned(bits.nbytes, np.uint16)
            dev[...] = bits.reshape(-1)
            return dev, reference.from_bf16_bits(bits).astype(np.float64)

        self.q, self.qf = bf16((T, L.heads, L.head_k))
        self.k, self.kf = bf16((T, L.heads, L.head_k))
        self.v, self.vf = bf16((T, L.value_heads, L.head_v))
        self.g, self.gf = bf16((T, L.value_heads, L.head_k))
        self.beta, self.betaf = bf16((T, L.value_heads))
        self.a_log = aligned(4 * L.value_heads, np.float32)
        self.a_log[...] = rng.uniform(-1, 0.5, L.value_heads)
        self.dt_bias = aligned(4 * L.value_heads * L.head_k, np.float32)
        self.dt_bias[...] = rng.normal(0, 0.5, L.value_heads * L.head_k)
        slot_elems = int(np.prod(L.slot_shape()))
        self.pool = aligned(4 * num_slots * slot_elems, np.float32)
        self.pool[...] = 1e30  # slots no row names must stay bit-identical
        for s, init in zip(self.slots, self.has_init):
            if s > 0:  # a slot without initial state holds a stale NaN state
                block = self.pool[s * slot_elems:(s + 1) * slot_elems]
                block[...] = rng.normal(0, 0.5, slot_elems) if init else np.nan
        self.pool0 = self.pool.copy()
        self.num_slots = num_slots
        self.out = aligned(2 * T * L.value_heads * L.head_v, np.uint16)
        self.out[...] = 0xFFFF  # NaN: every row must be written
        self.cu_dev = aligned(self.cu.nbytes, np.int32)
        self.cu_dev[...] = self.cu
        self.slots_dev = aligned(max(self.slots.nbytes, 4), np.int32)
        self.slots_dev[:len(self.slots)] = self.slots
        self.init_dev = aligned(max(self.has_init.nbytes, 1), np.uint8)
        self.init_dev[:len(self.has_init)] = self.has_init

    def args(self, num_decodes, **overrides):
        L = self.layer
        fields = dict(
            num_decodes=num_decodes,
            num_decode_tokens=int(self.cu[num_decodes]),
            num_prefills=len(self.slots) - num_decodes, num_tokens=self.T,
            query_start_loc=self.cu_dev.ctypes.data,
            query_start_loc_host=self.cu, slots=self.slots_dev.ctypes.data,
            slots_host=self.slots, has_initial_state=self.init_dev.ctypes.data,
            has_initial_state_host=self.has_init,
            q=self.q.ctypes.data, k=self.k.ctypes.data, v=self.v.ctypes.data,
            g=self.g.ctypes.data, beta=self.beta.ctypes.data,
            a_log=self.a_log.ctypes.data, dt_bias=self.dt_bias.ctypes.data,
            state=self.pool.ctypes.data, num_slots=self.num_slots,
            out=self.out.ctypes.data, heads=L.heads,
            value_heads=L.value_heads, head_k=L.head_k, head_v=L.head_v,
            state_layout=L.layout)
        fields.update(overrides)
        return kda.forward_args(**fields)

    def expected(self):
        pool = self.pool0.astype(np.float64).reshape(
            (self.num_slots,) + self.layer.slot_shape())
        out = reference.recurrent(
            self.layer, self.qf, self.kf, self.vf, self.gf, self.betaf,
            self.a_log.astype(np.float64), self.dt_bias.astype(np.float64),
            self.cu, self.slots, self.has_init, pool)
        return out, pool


class ForwardOnTheEmulator(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not BUNDLES:
            raise RuntimeError("KDA_TEST_BUNDLES is not set (ctest sets it: "
                               "ctest -R kda-python)")

    def open(self, target):
        bundle = kda.Bundle(os.path.join(BUNDLES, "k3_small"), "emu", target)
        self.addCleanup(bundle.close)
        self.assertEqual(bundle.target, target)
        return bundle.kernel("k3_small")

    def test_mixed_batch_matches_the_reference(self):
        for target in ("emu", "emu32"):
            with self.subTest(target=target):
                kernel = self.open(target)
                # 3 decodes (one padding, one from zeros), then prefills of
                # 9, 1 and 14 tokens (one padding with -1).
                b = Batch(K3_SMALL, [1, 1, 1, 9, 1, 14], [4, 0, 2, 7, -1, 1],
                          [1, 1, 0, 0, 1, 1], num_slots=9, seed=3)
                kda.forward(kernel, b.args(3))
                want_out, want_pool = b.expected()
                got = reference.from_bf16_bits(b.out).reshape(want_out.shape)
                self.assertLessEqual(reference.relative_l2(got, want_out), 2e-3)
                pool = b.pool.reshape(want_pool.shape)
                named = [int(s) for s in b.slots if s > 0]
                self.assertLessEqual(reference.relative_l2(
                    pool[named], want_pool[named]), 1e-5)
                for n, s in enumerate(b.slots):  # padding rows: zeros
                    if s <= 0:
                        rows = got[b.cu[n]:b.cu[n + 1]]
                        self.assertTrue(np.all(rows == 0))
                others = [s for s in range(9) if s not in named]
                self.assertTrue(np.array_equal(
                    b.pool.reshape(9, -1)[others].view(np.uint32),
                    b.pool0.reshape(9, -1)[others].view(np.uint32)))

    def test_refused_call_raises_and_writes_nothing(self):
        kernel = self.open("emu")
        b = Batch(K3_SMALL, [1, 1, 5], [3, 3, 1], [1, 1, 1], num_slots=4,
                  seed=5)
        before = (b.pool.copy(), b.out.copy())
        with self.assertRaises(kda.KdaError) as caught:
            kda.forward(kernel, b.args(2))
        self.assertEqual(caught.exception.status, "KDA_ERROR_INVALID_ARGUMENT")
        self.assertIn("rows 0 and 1 both name slot 3", caught.exception.message)
        self.assertTrue(np.array_equal(b.pool.view(np.uint32),
                                       before[0].view(np.uint32)))
        self.assertTrue(np.array_equal(b.out, before[1]))

    def test_padding_convention_is_an_argument(self):
        kernel = self.open("emu32")
        b = Batch(K3_SMALL, [1, 4], [0, 2], [1, 1], num_slots=4, seed=7)
        # slot < 0: slot 0 would be a real slot, which this kernel (vLLM's
        # slot <= 0) cannot honour: refused by name.
        with self.assertRaisesRegex(kda.KdaError, "row 0 names slot 0"):
            kda.validate(kernel, b.args(1, padding="negative"))
        kda.validate(kernel, b.args(1, padding="nonpositive"))

    def test_has_initial_state_host_copy_is_checked(self):
        kernel = self.open("emu")
        b = Batch(K3_SMALL, [1, 2], [1, 2], [1, 1], num_slots=4, seed=9)
        with self.assertRaisesRegex(kda.KdaError,
                                    r"has_initial_state\[1\] is 2"):
            kda.validate(kernel, b.args(
                1, has_initial_state_host=np.array([1, 2], np.uint8)))

    def test_threshold_and_workspace(self):
        kernel = self.open("emu")
        self.assertEqual(kernel.bundle.recurrent_max_tokens(), (64, "default"))
        b = Batch(K3_SMALL, [1, 100], [1, 2], [1, 1], num_slots=4, seed=11)
        self.assertEqual(kda.workspace_bytes(kernel, b.args(1)), 0)


if __name__ == "__main__":
    unittest.main()
