"""ctypes mirror of runtime/include/kda/kda_runtime.h (the parts Python uses).

The structs are checked against the library when it is loaded
(kda_forward_args_size), so a header change that this file misses fails at
import instead of corrupting a launch.
"""
import ctypes
import os

KDA_OK = 0
STATUS_NAMES = {
    1: "KDA_ERROR_INVALID_ARGUMENT",
    2: "KDA_ERROR_NOT_FOUND",
    3: "KDA_ERROR_BACKEND",
    4: "KDA_ERROR_UNSUPPORTED",
    5: "KDA_ERROR_BAD_BUNDLE",
}

BACKENDS = {"auto": 0, "hip": 1, "cuda": 2, "emu": 3}
DTYPES = {"f32": 0, "bf16": 1, "f16": 2}
LAYOUTS = {"kv": 0, "vk": 1}
# Which slot indices mark padding rows: vLLM's NULL_BLOCK_ID = 0 (slot <= 0)
# or fla's / older vLLM's -1 (slot < 0; slot 0 is a real slot).
PADDINGS = {"nonpositive": 0, "negative": 1}

_p = ctypes.c_void_p


class StateCache(ctypes.Structure):
    _fields_ = [
        ("data", _p),
        ("num_slots", ctypes.c_int64),
        ("slot_stride", ctypes.c_int64),
        ("dtype", ctypes.c_int),
        ("layout", ctypes.c_int),
    ]


class ForwardArgs(ctypes.Structure):
    _fields_ = [
        ("num_decodes", ctypes.c_int32),
        ("num_decode_tokens", ctypes.c_int64),
        ("num_prefills", ctypes.c_int32),
        ("num_tokens", ctypes.c_int64),
        ("query_start_loc", _p),
        ("query_start_loc_host", _p),
        ("slots", _p),
        ("slots_host", _p),
        ("padding", ctypes.c_int),
        ("has_initial_state", _p),
        ("has_initial_state_host", _p),
        ("q", _p),
        ("k", _p),
        ("v", _p),
        ("g", _p),
        ("beta", _p),
        ("a_log", _p),
        ("dt_bias", _p),
        ("state", StateCache),
        ("out", _p),
        ("heads", ctypes.c_int32),
        ("value_heads", ctypes.c_int32),
        ("head_k", ctypes.c_int32),
        ("head_v", ctypes.c_int32),
        ("act_dtype", ctypes.c_int),
        ("g_dtype", ctypes.c_int),
        ("beta_dtype", ctypes.c_int),
        ("recurrent_max_tokens", ctypes.c_int32),
        ("workspace", _p),
        ("workspace_bytes", ctypes.c_int64),
        ("spec_tokens", ctypes.c_int32),
        ("num_accepted_tokens", _p),
        ("num_accepted_tokens_host", _p),
    ]


def _candidates():
    """Where libkda_runtime.so may be: $KDA_RUNTIME_LIB, then the build
    folders of this checkout ($KDA_BUILD_DIR or build/)."""
    env = os.environ.get("KDA_RUNTIME_LIB")
    if env:
        return [env]
    root = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))))
    build = os.environ.get("KDA_BUILD_DIR", os.path.join(root, "build"))
    return [os.path.join(build, "runtime", "libkda_runtime.so"),
            "libkda_runtime.so"]


def _declare(lib):
    c = ctypes
    sigs = {
        "kda_bundle_open_target": (c.c_int, [c.c_char_p, c.c_int, c.c_char_p,
                                             c.POINTER(_p)]),
        "kda_bundle_close": (None, [_p]),
        "kda_bundle_target": (c.c_char_p, [_p]),
        "kda_bundle_find": (c.c_int, [_p, c.c_char_p, c.POINTER(_p)]),
        "kda_bundle_recurrent_max_tokens": (c.c_int32,
                                            [_p, c.POINTER(c.c_char_p)]),
        "kda_forward": (c.c_int, [_p, _p, c.POINTER(ForwardArgs), _p]),
        "kda_forward_validate": (c.c_int, [_p, _p, c.POINTER(ForwardArgs)]),
        "kda_forward_workspace_bytes": (c.c_int, [_p, _p,
                                                  c.POINTER(ForwardArgs),
                                                  c.POINTER(c.c_int64)]),
        "kda_forward_args_size": (c.c_int64, []),
        "kda_last_error": (c.c_char_p, []),
    }
    for name, (res, args) in sigs.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = res, args


_lib = None


def lib():
    """The loaded runtime (once); raises OSError naming what was tried."""
    global _lib
    if _lib is not None:
        return _lib
    tried = []
    for path in _candidates():
        try:
            loaded = ctypes.CDLL(path)
        except OSError as e:
            tried.append(f"{path}: {e}")
            continue
        _declare(loaded)
        size = loaded.kda_forward_args_size()
        if size != ctypes.sizeof(ForwardArgs):
            raise OSError(
                f"{path}: kda_forward_args is {size} bytes in the library but "
                f"{ctypes.sizeof(ForwardArgs)} in kda/_capi.py (update the "
                "mirror of kda_runtime.h)")
        _lib = loaded
        return _lib
    raise OSError("cannot load libkda_runtime.so (set KDA_RUNTIME_LIB): " +
                  "; ".join(tried))
