"""The Python package on the emulator: kda.forward on host memory (the
emulator's device memory) against the float64 numpy reference.

Needs KDA_TEST_BUNDLES (the numeric test bundles, built by the test build)
and the runtime (KDA_RUNTIME_LIB or the build folder); ctest sets both.
"""
import ctypes
import faulthandler
import gc
import mmap
import multiprocessing
import os
import signal
import sys
import unittest

import numpy as np

import kda
from kda import reference

BUNDLES = os.environ.get("KDA_TEST_BUNDLES", "")
# test/numeric/specs/k3_small.mlir: Kimi-K3's gate and vk pool, small heads.
K3_SMALL = reference.Layer(heads=2, value_heads=2, head_k=64, head_v=32)


# A kernel that faults on a guard page below dies with the Python stack of
# the call that launched it.
faulthandler.enable()
_LIBC = ctypes.CDLL(None, use_errno=True)


def aligned(nbytes, dtype):
    """A zeroed host array (the emulator's device memory) 16-byte aligned, as
    device pointers must be, between two inaccessible pages with its end
    flush against the one after it (as test::HostMemory in C++): a kernel
    that reads or writes past what it was given faults there instead of
    touching a neighbour."""
    page = mmap.PAGESIZE
    rounded = (nbytes + 15) // 16 * 16
    body = (rounded + page - 1) // page * page
    # Private: a forked child's writes (dies_by_segv) stay its own.
    mem = mmap.mmap(-1, body + 2 * page, flags=mmap.MAP_PRIVATE)
    base = ctypes.addressof(ctypes.c_char.from_buffer(mem))
    for at in (base, base + page + body):
        if _LIBC.mprotect(ctypes.c_void_p(at), ctypes.c_size_t(page), 0):
            raise OSError(ctypes.get_errno(), "mprotect of a guard page")
    return np.frombuffer(mem, dtype=np.uint8, count=nbytes,
                         offset=page + body - rounded).view(dtype)


def dies_by_segv(fn):
    """Whether fn() run in a forked child dies by SIGSEGV."""
    def quietly():
        faulthandler.disable()  # the planted fault needs no stack dump
        fn()

    child = multiprocessing.get_context("fork").Process(target=quietly)
    child.start()
    child.join()
    return child.exitcode == -signal.SIGSEGV


class Batch:
    """A random mixed batch in host memory, its bf16 inputs rounded the way
    the reference then sees them."""

    def __init__(self, layer, lengths, slots, has_init, num_slots, seed,
                 slot_stride=0, padding_below=1, num_accepted=None):
        """`slots` [N] or, for speculative rows, [N, S]; `slot_stride` in
        elements (0: contiguous slots)."""
        rng = np.random.default_rng(seed)
        self.layer = layer
        L = layer
        self.cu = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
        self.slots = np.asarray(slots, dtype=np.int32)
        self.has_init = np.asarray(has_init, dtype=np.uint8)
        self.padding_below = padding_below
        self.num_accepted = (None if num_accepted is None else
                             np.asarray(num_accepted, dtype=np.int32))
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
        self.slot_elems = slot_elems = int(np.prod(L.slot_shape()))
        self.stride = slot_stride or slot_elems
        self.slot_stride = slot_stride
        self.pool = aligned(4 * num_slots * self.stride, np.float32)
        self.pool[...] = 1e30  # what no row names must stay bit-identical
        for row, init in zip(self.slots.reshape(len(self.has_init), -1),
                             self.has_init):
            if row[0] < padding_below:
                continue
            for s in row:  # a row without initial state: stale NaN states
                at = s * self.stride
                self.pool[at:at + slot_elems] = (
                    rng.normal(0, 0.5, slot_elems) if init else np.nan)
        self.pool0 = self.pool.copy()
        self.num_slots = num_slots
        self.out = aligned(2 * T * L.value_heads * L.head_v, np.uint16)
        self.out[...] = 0xFFFF  # NaN: every row must be written
        self.cu_dev = aligned(self.cu.nbytes, np.int32)
        self.cu_dev[...] = self.cu
        self.slots_dev = aligned(max(self.slots.nbytes, 4), np.int32)
        self.slots_dev[:self.slots.size] = self.slots.reshape(-1)
        if self.num_accepted is not None:
            self.accepted_dev = aligned(self.num_accepted.nbytes, np.int32)
            self.accepted_dev[...] = self.num_accepted
        self.init_dev = aligned(max(self.has_init.nbytes, 1), np.uint8)
        self.init_dev[:len(self.has_init)] = self.has_init

    def args(self, num_decodes, **overrides):
        L = self.layer
        fields = dict(
            num_decodes=num_decodes,
            num_decode_tokens=int(self.cu[num_decodes]),
            num_prefills=len(self.has_init) - num_decodes, num_tokens=self.T,
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
            state_layout=L.layout, slot_stride=self.slot_stride,
            padding="negative" if self.padding_below == 0 else "nonpositive")
        if self.num_accepted is not None:
            fields.update(spec_tokens=self.slots.shape[1],
                          num_accepted_tokens=self.accepted_dev.ctypes.data,
                          num_accepted_tokens_host=self.num_accepted)
        fields.update(overrides)
        return kda.forward_args(**fields)

    def states(self, pool):
        """The states of a pool as [num_slots, *slot_shape] (the stride's
        gap left out)."""
        return pool.reshape(self.num_slots, self.stride)[
            :, :self.slot_elems].reshape(
                (self.num_slots,) + self.layer.slot_shape())

    def expected(self):
        pool = self.states(self.pool0).astype(np.float64)
        inputs = (self.layer, self.qf, self.kf, self.vf, self.gf, self.betaf,
                  self.a_log.astype(np.float64),
                  self.dt_bias.astype(np.float64), self.cu, self.slots)
        if self.num_accepted is None:
            out = reference.recurrent(*inputs, self.has_init, pool,
                                      self.padding_below)
        else:
            out = reference.speculative(*inputs, self.num_accepted,
                                        self.has_init, pool,
                                        self.padding_below)
        return out, pool

    def written_slots(self):
        """The slots the batch writes: a real row's slot, or the slots of
        a speculative row's tokens."""
        rows = self.slots.reshape(len(self.has_init), -1)
        written = []
        for n, row in enumerate(rows):
            if row[0] >= self.padding_below:
                count = 1 if rows.shape[1] == 1 else self.cu[n + 1] - self.cu[n]
                written += [int(s) for s in row[:count]]
        return written

    def check(self, test):
        """Outputs and written states against the reference; padding rows
        zero; every other pool element (other slots, the stride's gap)
        bit-identical."""
        want_out, want_pool = self.expected()
        got = reference.from_bf16_bits(self.out).reshape(want_out.shape)
        test.assertLessEqual(reference.relative_l2(got, want_out), 2e-3)
        written = self.written_slots()
        test.assertLessEqual(reference.relative_l2(
            self.states(self.pool)[written], want_pool[written]), 1e-5)
        rows = self.slots.reshape(len(self.has_init), -1)
        for n in range(len(rows)):
            if rows[n, 0] < self.padding_below:
                test.assertTrue(np.all(got[self.cu[n]:self.cu[n + 1]] == 0))
        kept = np.ones(self.pool.size, dtype=bool).reshape(
            self.num_slots, self.stride)
        kept[written, :self.slot_elems] = False
        test.assertTrue(np.array_equal(
            self.pool.view(np.uint32)[kept.reshape(-1)],
            self.pool0.view(np.uint32)[kept.reshape(-1)]))


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
                b.check(self)

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

    def test_short_host_copies_are_refused_before_the_call(self):
        # The C API cannot know a host copy's length; the binding can: one
        # entry short would be read past its end.
        kernel = self.open("emu")
        b = Batch(K3_SMALL, [1, 1, 3], [1, 2, 3], [1, 1, 1], num_slots=4,
                  seed=11)
        for field, short in (("query_start_loc_host", b.cu[:-1]),
                             ("slots_host", b.slots[:-1]),
                             ("has_initial_state_host", b.has_init[:-1])):
            with self.subTest(field=field):
                with self.assertRaisesRegex(ValueError,
                                            f"{field}: .* elements needed"):
                    b.args(2, **{field: short})

    def test_host_copies_of_another_type_are_refused(self):
        # Same width, other numbers: a uint32 0xFFFFFFFF would be read as
        # -1 (padding), a float32 as its bits.
        kernel = self.open("emu")
        b = Batch(K3_SMALL, [1, 1, 3], [1, 2, 3], [1, 1, 1], num_slots=4,
                  seed=13)
        for field, wrong in (
                ("query_start_loc_host", b.cu.astype(np.float32)),
                ("slots_host", b.slots.astype(np.uint32)),
                ("has_initial_state_host", b.has_init.astype(np.int8))):
            with self.subTest(field=field):
                with self.assertRaisesRegex(
                        ValueError, f"{field}: elements of .* expected, not "
                        f"{wrong.dtype}"):
                    b.args(2, **{field: wrong})
        # bool has_initial_state copies are what engines hold.
        kda.validate(kernel, b.args(
            2, has_initial_state_host=b.has_init.astype(bool)))

    def test_host_copies_of_the_other_byte_order_are_refused(self):
        # Read byte-swapped, slot 128 is INT32_MIN: padding to every check,
        # while the device copy names slot 128.
        b = Batch(K3_SMALL, [1, 1, 3], [1, 2, 3], [1, 1, 1], num_slots=4,
                  seed=13)
        swapped = b.slots.astype(">i4" if np.little_endian else "<i4")
        with self.assertRaisesRegex(ValueError, "slots_host: .* is not in "
                                                "this machine's byte order"):
            b.args(2, slots_host=swapped)

    def test_integers_past_their_c_fields_are_refused(self):
        # ctypes would store 2**32 in an int32 as 0 (the bundle's default
        # threshold), 2**64 + 4096 in an int64 as 4096.
        b = Batch(K3_SMALL, [1, 3], [1, 2], [1, 1], num_slots=4, seed=15)
        for field, value in (("recurrent_max_tokens", 2**32),
                             ("heads", 2**32 + 2),
                             ("slot_stride", 2**64 + 4096),
                             ("num_tokens", 2**63), ("q", -8),
                             ("out", 2**64)):
            with self.subTest(field=field):
                with self.assertRaisesRegex(
                        ValueError, f"{field} is {value}: outside the range "
                        "of its C field"):
                    b.args(1, **{field: value})
        with self.assertRaisesRegex(TypeError, "heads: an integer expected"):
            b.args(1, heads=2.0)

    def test_empty_target_is_refused_as_in_c(self):
        with self.assertRaisesRegex(kda.KdaError, "empty target name"):
            kda.Bundle(os.path.join(BUNDLES, "k3_small"), "emu", "")

    def test_negative_counts_are_named(self):
        b = Batch(K3_SMALL, [1, 3], [1, 2], [1, 1], num_slots=4, seed=15)
        with self.assertRaisesRegex(ValueError,
                                    r"num_prefills is -1: a count \(>= 0\)"):
            b.args(1, num_prefills=-1)

    def test_host_copies_made_in_the_call_stay_alive(self):
        # forward_args holds the arrays whose addresses it stores: a copy
        # made inline and freed at once would be read after other
        # allocations took its memory.
        kernel = self.open("emu")
        b = Batch(K3_SMALL, [1, 3, 2], [1, 2, 3], [1, 1, 1], num_slots=4,
                  seed=17)
        args = b.args(1, query_start_loc_host=np.array(b.cu.tolist(),
                                                       np.int32),
                      slots_host=np.array(b.slots.tolist(), np.int32))
        litter = [np.full(len(b.cu), 7, np.int32) for _ in range(64)]
        kda.forward(kernel, args)
        b.check(self)
        del litter

    def test_kernel_of_a_closed_bundle_raises(self):
        bundle = kda.Bundle(os.path.join(BUNDLES, "k3_small"), "emu", "emu")
        kernel = bundle.kernel("k3_small")
        bundle.close()
        b = Batch(K3_SMALL, [1, 2], [1, 2], [1, 1], num_slots=4, seed=15)
        with self.assertRaisesRegex(ValueError, "used after the bundle was "
                                                "closed"):
            kda.forward(kernel, b.args(1))
        with self.assertRaisesRegex(ValueError, "is closed"):
            bundle.kernel("k3_small")

    def test_failed_open_leaves_a_closed_bundle(self):
        # Its finalizer runs quietly (no "Exception ignored in __del__").
        unraisable = []
        hook, sys.unraisablehook = sys.unraisablehook, unraisable.append
        try:
            with self.assertRaises(kda.KdaError):
                kda.Bundle(os.path.join(BUNDLES, "no_such_bundle"), "emu")
            with self.assertRaises(ValueError):
                kda.Bundle(os.path.join(BUNDLES, "k3_small"), "no_backend")
            gc.collect()
        finally:
            sys.unraisablehook = hook
        self.assertEqual([u.exc_value for u in unraisable], [])

    def test_short_buffer_faults_at_the_overrun(self):
        # The harness's buffers end at a guard page, so a kernel given a q
        # one head row shorter than the batch needs faults on that row
        # rather than reading past it; the full buffer launches cleanly.
        kernel = self.open("emu")
        b = Batch(K3_SMALL, [1, 1, 3], [1, 2, 3], [1, 1, 1], num_slots=4,
                  seed=13)
        short = aligned(b.q.nbytes - 2 * K3_SMALL.head_k, np.uint16)
        short[...] = b.q.reshape(-1)[:short.size]
        self.assertTrue(dies_by_segv(
            lambda: kda.forward(kernel, b.args(2, q=short.ctypes.data))))
        kda.forward(kernel, b.args(2))
        b.check(self)

    def test_threshold_and_workspace(self):
        kernel = self.open("emu")
        self.assertEqual(kernel.bundle.recurrent_max_tokens(), (64, "default"))
        b = Batch(K3_SMALL, [1, 100], [1, 2], [1, 1], num_slots=4, seed=11)
        self.assertEqual(kda.workspace_bytes(kernel, b.args(1)), 0)


class KernelVariants(unittest.TestCase):
    """test/numeric/specs/k3_variants.mlir: speculative rows, slot < 0
    padding, a strided pool, each through kda.forward on both emulators."""

    @classmethod
    def setUpClass(cls):
        if not BUNDLES:
            raise RuntimeError("KDA_TEST_BUNDLES is not set")

    def kernels(self, name):
        for target in ("emu", "emu32"):
            bundle = kda.Bundle(os.path.join(BUNDLES, "k3_variants"), "emu",
                                target)
            self.addCleanup(bundle.close)
            yield target, bundle.kernel(name)

    def check_speculative_rows(self, name):
        # Rows of 3, 2, 1 and 3 tokens, 3 slots each; the row starts from
        # the slot of its last accepted token. Row 2 is padding (its first
        # slot 0), row 3 starts from zeros over NaN slots.
        for target, kernel in self.kernels(name):
            with self.subTest(target=target):
                b = Batch(K3_SMALL, [3, 2, 1, 3],
                          [[4, 7, 1], [2, 9, 5], [0, 0, 0], [3, 8, 6]],
                          [1, 1, 1, 0], num_slots=10, seed=17,
                          num_accepted=[2, 3, 1, 1])
                kda.forward(kernel, b.args(4))
                b.check(self)

    def test_speculative_rows_keep_the_state_after_each_token(self):
        self.check_speculative_rows("k3_spec")

    def test_speculative_rows_with_shared_terms(self):
        # Through a kernel walking its columns in 2 passes that share each
        # row's first token's terms (shared_terms = 1).
        self.check_speculative_rows("k3_spec_shared")

    def test_speculative_calls_are_checked_against_the_kernel(self):
        kernel = dict(self.kernels("k3_spec"))["emu"]
        b = Batch(K3_SMALL, [3, 4], [[1, 2, 3], [4, 5, 6]], [1, 1],
                  num_slots=8, seed=19, num_accepted=[1, 2])
        with self.assertRaisesRegex(kda.KdaError, "has 4 tokens"):
            kda.validate(kernel, b.args(2))
        with self.assertRaisesRegex(kda.KdaError, "built for 3 slot"):
            kda.validate(kernel, b.args(2, spec_tokens=0))
        with self.assertRaisesRegex(kda.KdaError,
                                    r"num_accepted_tokens\[1\] is 4"):
            kda.validate(kernel, b.args(
                2, num_accepted_tokens_host=np.array([1, 4], np.int32)))
        # A speculative call's slots are [N, spec_tokens]: a host copy of N
        # rows' worth (or one entry short) would be read past its end.
        with self.assertRaisesRegex(ValueError,
                                    "slots_host: 6 elements needed"):
            b.args(2, slots_host=np.ascontiguousarray(b.slots.reshape(-1)[:5]))

    def test_negative_padding_makes_slot_zero_a_real_slot(self):
        for target, kernel in self.kernels("k3_negative"):
            with self.subTest(target=target):
                b = Batch(K3_SMALL, [1, 1, 6, 2], [0, -1, 3, 1], [1, 1, 0, 1],
                          num_slots=5, seed=23, padding_below=0)
                kda.forward(kernel, b.args(2))
                b.check(self)
                with self.assertRaisesRegex(kda.KdaError, "names slot 0"):
                    kda.validate(kernel, b.args(2, padding="nonpositive"))

    def test_strided_pool_leaves_the_gap_alone(self):
        for target, kernel in self.kernels("k3_strided"):
            with self.subTest(target=target):
                b = Batch(K3_SMALL, [1, 1, 5], [2, 0, 1], [1, 1, 1],
                          num_slots=4, seed=29, slot_stride=8192)
                kda.forward(kernel, b.args(2))
                b.check(self)
                with self.assertRaisesRegex(kda.KdaError, "8192 elements"):
                    kda.validate(kernel, b.args(2, slot_stride=0))


if __name__ == "__main__":
    unittest.main()
