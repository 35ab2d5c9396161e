"""Bundles and kda_forward over the C API, framework-free.

Device buffers are passed as integer addresses (a torch tensor's
data_ptr(), a CUDA allocation, or host memory for the emulator); host
copies (query_start_loc, slots, has_initial_state) as numpy arrays or any
object with the buffer protocol, of their C element type (int32, uint8 or
bool), read during the call that uses them.
"""
import ctypes
import operator

from . import _capi


class KdaError(RuntimeError):
    """A refused call: `status` is the C status name, the message the
    runtime's kda_last_error()."""

    def __init__(self, status, message):
        super().__init__(f"{_capi.STATUS_NAMES.get(status, status)}: {message}")
        self.status = _capi.STATUS_NAMES.get(status, str(status))
        self.message = message


def _check(status):
    if status != _capi.KDA_OK:
        raise KdaError(status, _capi.lib().kda_last_error().decode())


class Kernel:
    """A kernel of an open bundle (valid while the bundle is open: its C
    handle dies with the bundle, so using it after close raises)."""

    def __init__(self, bundle, name, handle):
        self.bundle, self.name, self._handle = bundle, name, handle

    @property
    def handle(self):
        if not self.bundle.is_open:
            raise ValueError(f"kernel {self.name!r} of bundle "
                             f"{self.bundle.directory!r} used after the "
                             "bundle was closed")
        return self._handle


class Bundle:
    """A bundle written by kda-compile, opened on a backend and target.

    `target` None takes the first target of the manifest the backend runs;
    the environment variable KDA_TARGET overrides it (see kda_runtime.h).
    """

    def __init__(self, directory, backend="auto", target=None):
        self._handle = None  # closed until the open succeeds
        self.directory = str(directory)
        if backend not in _capi.BACKENDS:
            raise ValueError(f"backend {backend!r} is not one of "
                             f"{', '.join(_capi.BACKENDS)}")
        handle = ctypes.c_void_p()
        _check(_capi.lib().kda_bundle_open_target(
            str(directory).encode(), _capi.BACKENDS[backend],
            target.encode() if target is not None else None,
            ctypes.byref(handle)))
        self._handle = handle

    @property
    def is_open(self):
        return bool(self._handle)

    def _open_handle(self):
        if not self._handle:
            raise ValueError(f"bundle {self.directory!r} is closed")
        return self._handle

    @property
    def target(self):
        return _capi.lib().kda_bundle_target(self._open_handle()).decode()

    def recurrent_max_tokens(self):
        """(threshold, provenance) kda_forward uses when a call gives none."""
        prov = ctypes.c_char_p()
        n = _capi.lib().kda_bundle_recurrent_max_tokens(self._open_handle(),
                                                        ctypes.byref(prov))
        return n, prov.value.decode()

    def kernel(self, name):
        handle = ctypes.c_void_p()
        _check(_capi.lib().kda_bundle_find(self._open_handle(), name.encode(),
                                           ctypes.byref(handle)))
        return Kernel(self, name, handle)

    def close(self):
        if getattr(self, "_handle", None):
            _capi.lib().kda_bundle_close(self._handle)
            self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()


# The elements a host copy may hold, by its C type: a name, numpy dtype
# kinds and buffer formats. An int32 copy given as float32 or uint32 has the
# right width and would be read as other numbers (0xFFFFFFFF as -1: padding).
_HOST_KINDS = {
    ctypes.c_int32: ("int32", "i", ("i", "<i", "=i")),
    ctypes.c_uint8: ("uint8 or bool", "ub", ("B", "<B", "=B", "?")),
}


def _host_address(array, what, dtype, count):
    """The address of a host copy, checked to hold at least `count`
    elements of `dtype` (the runtime reads that many: a shorter one would
    be read past its end)."""
    if array is None:
        return None
    itemsize = ctypes.sizeof(dtype)
    name, kinds, formats = _HOST_KINDS[dtype]
    view = memoryview(array)
    numpy_dtype = getattr(array, "dtype", None)
    if view.itemsize != itemsize or (
            numpy_dtype.kind not in kinds if numpy_dtype is not None
            else view.format not in formats):
        raise ValueError(f"{what}: elements of {name} expected, not "
                         f"{numpy_dtype if numpy_dtype is not None else view.format}")
    # The runtime reads the machine's byte order: a swapped copy would turn
    # slot 128 into INT32_MIN (padding) past every check.
    if numpy_dtype is not None and not numpy_dtype.isnative:
        raise ValueError(f"{what}: {numpy_dtype.str} is not in this machine's "
                         f"byte order (convert it, e.g. astype('{name}'))")
    length = view.nbytes // itemsize
    if length < count:
        raise ValueError(f"{what}: {count} elements needed (the batch's "
                         f"rows, times spec_tokens for speculative slots), "
                         f"{length} given")
    if hasattr(array, "ctypes"):  # numpy
        if not array.flags["C_CONTIGUOUS"]:
            raise ValueError(f"{what}: a contiguous array is expected")
        return array.ctypes.data
    return ctypes.addressof(ctypes.c_char.from_buffer(array))


def _fits(what, value, ctype, *, optional=False):
    """`value` as the C field of type `ctype` holds it: ctypes would wrap or
    truncate an integer out of its range (2**32 into an int32 as 0) and
    the runtime would check the wrapped value."""
    if value is None and optional:
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            value = operator.index(value)  # numpy integers
        except TypeError:
            raise TypeError(f"{what}: an integer expected, not "
                            f"{type(value).__name__}") from None
    bits = 8 * ctypes.sizeof(ctype)
    if ctype is ctypes.c_void_p:
        lo, hi = 0, (1 << bits) - 1
    else:
        lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    if not lo <= value <= hi:
        raise ValueError(f"{what} is {value}: outside the range of its C "
                         f"field ({bits}-bit{' address' if lo == 0 else ''}, "
                         f"{lo} .. {hi})")
    return value


def forward_args(*, num_decodes, num_decode_tokens, num_prefills, num_tokens,
                 query_start_loc, query_start_loc_host, slots, slots_host,
                 has_initial_state, q, k, v, g, beta, state, num_slots,
                 out, heads, value_heads, head_k, head_v, act_dtype="bf16",
                 g_dtype=None, beta_dtype=None, state_dtype="f32",
                 state_layout="vk", slot_stride=0, a_log=None, dt_bias=None,
                 padding="nonpositive", has_initial_state_host=None,
                 recurrent_max_tokens=0, workspace=None, workspace_bytes=0,
                 spec_tokens=0, num_accepted_tokens=None,
                 num_accepted_tokens_host=None):
    """A kda_forward_args from device addresses (ints) and host arrays.

    The result holds the host arrays (the runtime reads them during the
    call that uses it), so arrays made in the call's arguments stay alive
    with it."""
    i32, i64, ptr = ctypes.c_int32, ctypes.c_int64, ctypes.c_void_p
    for name, count, ctype in (("num_decodes", num_decodes, i32),
                               ("num_decode_tokens", num_decode_tokens, i64),
                               ("num_prefills", num_prefills, i32),
                               ("num_tokens", num_tokens, i64)):
        if _fits(name, count, ctype) < 0:
            raise ValueError(f"{name} is {count}: a count (>= 0)")
    for name, value, ctype in (
            ("heads", heads, i32), ("value_heads", value_heads, i32),
            ("head_k", head_k, i32), ("head_v", head_v, i32),
            ("num_slots", num_slots, i64), ("slot_stride", slot_stride, i64),
            ("recurrent_max_tokens", recurrent_max_tokens, i32),
            ("workspace_bytes", workspace_bytes, i64),
            ("spec_tokens", spec_tokens, i32)):
        _fits(name, value, ctype)
    for name, value in (
            ("query_start_loc", query_start_loc), ("slots", slots),
            ("has_initial_state", has_initial_state), ("q", q), ("k", k),
            ("v", v), ("g", g), ("beta", beta), ("state", state),
            ("out", out), ("a_log", a_log), ("dt_bias", dt_bias),
            ("workspace", workspace),
            ("num_accepted_tokens", num_accepted_tokens)):
        _fits(name, value, ptr, optional=True)
    a = _capi.ForwardArgs()
    a.num_decodes, a.num_decode_tokens = num_decodes, num_decode_tokens
    a.num_prefills, a.num_tokens = num_prefills, num_tokens
    a.query_start_loc, a.slots = query_start_loc, slots
    a.has_initial_state = has_initial_state
    rows = num_decodes + num_prefills
    a.query_start_loc_host = _host_address(query_start_loc_host,
                                           "query_start_loc_host",
                                           ctypes.c_int32, rows + 1)
    # Speculative rows name a slot a token: slots is [N, spec_tokens] (the
    # runtime's slotsPerRow).
    slots_per_row = spec_tokens if spec_tokens > 1 else 1
    a.slots_host = _host_address(slots_host, "slots_host", ctypes.c_int32,
                                 rows * slots_per_row)
    a.has_initial_state_host = _host_address(
        has_initial_state_host, "has_initial_state_host", ctypes.c_uint8,
        rows)
    a.padding = _capi.PADDINGS[padding]
    a.q, a.k, a.v, a.g, a.beta = q, k, v, g, beta
    a.a_log, a.dt_bias = a_log, dt_bias
    a.state = _capi.StateCache(state, num_slots, slot_stride,
                               _capi.DTYPES[state_dtype],
                               _capi.LAYOUTS[state_layout])
    a.out = out
    a.heads, a.value_heads, a.head_k, a.head_v = (heads, value_heads, head_k,
                                                  head_v)
    a.act_dtype = _capi.DTYPES[act_dtype]
    a.g_dtype = _capi.DTYPES[g_dtype or act_dtype]
    a.beta_dtype = _capi.DTYPES[beta_dtype or act_dtype]
    a.recurrent_max_tokens = recurrent_max_tokens
    a.workspace, a.workspace_bytes = workspace, workspace_bytes
    a.spec_tokens = spec_tokens
    a.num_accepted_tokens = num_accepted_tokens
    a.num_accepted_tokens_host = _host_address(
        num_accepted_tokens_host, "num_accepted_tokens_host", ctypes.c_int32,
        rows)
    # The struct holds only their addresses.
    a._host_arrays = (query_start_loc_host, slots_host,
                      has_initial_state_host, num_accepted_tokens_host)
    return a


def _chunk_handle(chunk):
    return chunk.handle if chunk is not None else None


def forward(recurrent, args, *, chunk=None, stream=None):
    """kda_forward: validates, plans and enqueues one layer's batch on
    `stream` (an integer CUstream/hipStream_t; None for the emulator or the
    default stream). Raises KdaError, with nothing written, when refused."""
    _check(_capi.lib().kda_forward(recurrent.handle, _chunk_handle(chunk),
                                   ctypes.byref(args), stream))


def validate(recurrent, args, *, chunk=None):
    """What forward checks first, without launching."""
    _check(_capi.lib().kda_forward_validate(recurrent.handle,
                                            _chunk_handle(chunk),
                                            ctypes.byref(args)))


def workspace_bytes(recurrent, args, *, chunk=None):
    n = ctypes.c_int64()
    _check(_capi.lib().kda_forward_workspace_bytes(
        recurrent.handle, _chunk_handle(chunk), ctypes.byref(args),
        ctypes.byref(n)))
    return n.value
