"""The custom op torch.ops.kda.forward (needs torch; imported on demand).

It mutates `state` (the layer's state cache) and `out`, declared as such so
torch.compile and functionalization order it correctly; its fake
implementation lets torch.compile trace it without running a kernel. Every
launch goes to the current CUDA stream of the tensors' device, with nothing
read back, so a decode-only batch can be captured in a CUDA graph and
replayed (new contents, same buffers, same host counts). On the emulator
(bundle target emu*), CPU tensors are the device memory.

A custom op takes no Python objects: kernels are registered once with
`register_kernel` and named by the integer it returns.
"""
from typing import Optional

import torch

from . import runtime

_DTYPES = {torch.float32: "f32", torch.bfloat16: "bf16", torch.float16: "f16"}
_kernels = []


def register_kernel(kernel: runtime.Kernel) -> int:
    """An id for `kernel` to pass to torch.ops.kda.forward (the bundle must
    stay open while the op is used)."""
    _kernels.append(kernel)
    return len(_kernels) - 1


def _dtype(t: torch.Tensor, what: str) -> str:
    if t.dtype not in _DTYPES:
        raise TypeError(f"{what}: dtype {t.dtype} is not f32, bf16 or f16")
    return _DTYPES[t.dtype]


def _contiguous(t: torch.Tensor, what: str) -> int:
    if not t.is_contiguous():
        raise ValueError(f"{what} must be contiguous (token-major, packed)")
    return t.data_ptr()


def _expect(t: torch.Tensor, what: str, dtypes, shape,
            at_least: bool = False) -> None:
    """`t` of one of `dtypes` and of `shape` (None: any extent there; with
    `at_least`, extents of at least those, as an engine's padded index
    arrays are): the kernels read what the C API is told, so a tensor that
    differs (an int64 slots tensor read as int32 pairs, an `out` shorter
    than T) is refused here, not misread."""
    if t.dtype not in dtypes:
        names = ", ".join(str(d) for d in dtypes)
        raise TypeError(f"{what}: dtype {t.dtype}, expected {names}")
    if t.dim() != len(shape) or any(
            want is not None and (got < want if at_least else got != want)
            for got, want in zip(t.shape, shape)):
        want = ", ".join("*" if w is None else str(w) for w in shape)
        raise ValueError(f"{what}: shape {list(t.shape)}, expected "
                         f"{'at least ' if at_least else ''}[{want}]")


def _check_devices(kernel: runtime.Kernel, chunk, named) -> None:
    """Every tensor the kernels read or write on q's device, the host copies
    on the CPU, and q's device the one the kernel's bundle runs on (an
    emulator bundle reads CPU tensors, a GPU bundle device memory): the C API
    sees addresses only, and a tensor elsewhere would be read as if it were
    there (a crash, or another allocation's bytes)."""
    q = named[0][1]
    emulated = kernel.bundle.target.startswith("emu")
    if chunk is not None and chunk.bundle.target != kernel.bundle.target:
        raise ValueError(f"the chunk kernel's bundle is for target "
                         f"{chunk.bundle.target}, the recurrent kernel's for "
                         f"{kernel.bundle.target}")
    if emulated != (q.device.type == "cpu"):
        raise ValueError(f"q is on {q.device}, but the kernel's bundle runs on "
                         f"{'the emulator (CPU tensors)' if emulated else 'a GPU'}"
                         f" (target {kernel.bundle.target})")
    for name, t in named[1:]:
        if t is None:
            continue
        if name.endswith("_cpu"):
            if t.device.type != "cpu":
                raise ValueError(f"{name} is on {t.device}: the host copy must "
                                 "be a CPU tensor")
        elif t.device != q.device:
            raise ValueError(f"{name} is on {t.device}, q on {q.device}: every "
                             "tensor of the call must be on one device")


def _check_batch(q, k, v, g, beta, a_log, dt_bias, query_start_loc,
                 query_start_loc_cpu, slots, slots_cpu, has_initial_state,
                 out, rows: int) -> None:
    T, H, K = q.shape
    HV, V = v.shape[1], v.shape[2]
    act = (q.dtype,)
    _expect(k, "k", act, (T, H, K))
    _expect(v, "v", act, (T, HV, V))
    _expect(out, "out", act, (T, HV, V))
    _expect(g, "g", tuple(_DTYPES), (T, HV, K))
    _expect(beta, "beta", tuple(_DTYPES), (T, HV))
    _expect(query_start_loc, "query_start_loc", (torch.int32,), (rows + 1,),
            at_least=True)
    _expect(slots, "slots", (torch.int32,), (rows,), at_least=True)
    # The CPU copies as the device ones: int32 (an int64 copy narrowed here
    # would wrap where the device copy does not).
    _expect(query_start_loc_cpu, "query_start_loc_cpu", (torch.int32,),
            (rows + 1,), at_least=True)
    _expect(slots_cpu, "slots_cpu", (torch.int32,), (rows,), at_least=True)
    _expect(has_initial_state, "has_initial_state", (torch.bool, torch.uint8),
            (rows,), at_least=True)
    # A_log is one value a value head, dt_bias one a value head and key
    # column, in whatever shape the model keeps them (vLLM's A_log is
    # [1, 1, HV, 1]): the kernel reads that many floats.
    for name, t, count in (("a_log", a_log, HV), ("dt_bias", dt_bias, HV * K)):
        if t is not None:
            _expect(t, name, (torch.float32,), (None,) * t.dim())
            if t.numel() != count:
                raise ValueError(f"{name}: {t.numel()} elements, expected "
                                 f"{count} ({'HV' if count == HV else 'HV x K'}"
                                 f" = {count})")
            _contiguous(t, name)


def _slot_stride(state: torch.Tensor, layout: str, HV: int, K: int,
                 V: int) -> int:
    """Elements between slots; a slot itself must be contiguous (a view of
    a larger cache may space its slots further apart) and of the layout's
    shape (the C API sees only the stride, so a kv pool passed as vk with
    K != V would be misread)."""
    if state.dim() != 4:
        raise ValueError("state must be [slots, HV, V, K] (vk) or [slots, HV, "
                         f"K, V] (kv), not of {state.dim()} dimensions")
    slot = (HV, V, K) if layout == "vk" else (HV, K, V)
    if tuple(state.shape[1:]) != slot:
        raise ValueError(f"state: a {layout} slot is [{', '.join(map(str, slot))}]"
                         f", not {list(state.shape[1:])}")
    inner = state[0] if state.shape[0] > 0 else state.new_empty(state.shape[1:])
    if not inner.is_contiguous():
        raise ValueError("state: each slot must be contiguous")
    return state.stride(0)


@torch.library.custom_op("kda::forward", mutates_args=("state", "out"))
def forward(kernel_id: int, q: torch.Tensor, k: torch.Tensor,
            v: torch.Tensor, g: torch.Tensor, beta: torch.Tensor,
            a_log: Optional[torch.Tensor], dt_bias: Optional[torch.Tensor],
            query_start_loc: torch.Tensor, query_start_loc_cpu: torch.Tensor,
            slots: torch.Tensor, slots_cpu: torch.Tensor,
            has_initial_state: torch.Tensor, state: torch.Tensor,
            out: torch.Tensor, num_decodes: int, num_decode_tokens: int,
            num_prefills: int, state_layout: str = "vk",
            padding: str = "nonpositive", chunk_id: int = -1) -> None:
    """One KDA layer over a mixed batch in vLLM's terms (kda_forward):
    q, k [T, H, K]; v, out [T, HV, V]; g [T, HV, K] raw gate; beta [T, HV]
    raw; query_start_loc [N+1] int32 and its CPU copy; slots [N] int32 and
    its CPU copy; has_initial_state [N] bool or uint8; state the layer's
    cache. chunk_id: the layer's chunk kernel (register_kernel of its
    kda.chunk function), for rows over the planner's threshold; -1 keeps
    every row on the recurrent kernel. The workspace the call needs is
    allocated here (torch's allocator; a graph capture draws from its pool)."""
    kernel = _kernels[kernel_id]
    chunk = _kernels[chunk_id] if chunk_id >= 0 else None
    T, H, K = q.shape
    HV, V = v.shape[1], v.shape[2]
    if state_layout not in ("vk", "kv"):
        raise ValueError(f"state_layout {state_layout!r} is not vk or kv")
    _check_devices(kernel, chunk, (
        ("q", q), ("k", k), ("v", v), ("g", g), ("beta", beta),
        ("a_log", a_log), ("dt_bias", dt_bias),
        ("query_start_loc", query_start_loc),
        ("query_start_loc_cpu", query_start_loc_cpu), ("slots", slots),
        ("slots_cpu", slots_cpu), ("has_initial_state", has_initial_state),
        ("state", state), ("out", out)))
    _check_batch(q, k, v, g, beta, a_log, dt_bias, query_start_loc,
                 query_start_loc_cpu, slots, slots_cpu, has_initial_state,
                 out, num_decodes + num_prefills)
    host = query_start_loc_cpu.contiguous().numpy()
    slots_host = slots_cpu.contiguous().numpy()
    args = runtime.forward_args(
        num_decodes=num_decodes, num_decode_tokens=num_decode_tokens,
        num_prefills=num_prefills, num_tokens=T,
        query_start_loc=_contiguous(query_start_loc, "query_start_loc"),
        query_start_loc_host=host,
        slots=_contiguous(slots, "slots"), slots_host=slots_host,
        has_initial_state=_contiguous(has_initial_state, "has_initial_state"),
        q=_contiguous(q, "q"), k=_contiguous(k, "k"), v=_contiguous(v, "v"),
        g=_contiguous(g, "g"), beta=_contiguous(beta, "beta"),
        a_log=a_log.data_ptr() if a_log is not None else None,
        dt_bias=dt_bias.data_ptr() if dt_bias is not None else None,
        state=state.data_ptr(), num_slots=state.shape[0],
        slot_stride=_slot_stride(state, state_layout, HV, K, V),
        state_dtype=_dtype(state, "state"),
        state_layout=state_layout, out=_contiguous(out, "out"),
        heads=H, value_heads=HV, head_k=K, head_v=V,
        act_dtype=_dtype(q, "q"), g_dtype=_dtype(g, "g"),
        beta_dtype=_dtype(beta, "beta"), padding=padding)
    stream = (torch.cuda.current_stream(q.device).cuda_stream
              if q.is_cuda else None)
    need = runtime.workspace_bytes(kernel, args, chunk=chunk)
    if need > 0:
        workspace = torch.empty(need, dtype=torch.uint8, device=q.device)
        args.workspace, args.workspace_bytes = workspace.data_ptr(), need
    runtime.forward(kernel, args, chunk=chunk, stream=stream)


@forward.register_fake
def _(kernel_id, q, k, v, g, beta, a_log, dt_bias, query_start_loc,
      query_start_loc_cpu, slots, slots_cpu, has_initial_state, state, out,
      num_decodes, num_decode_tokens, num_prefills, state_layout="vk",
      padding="nonpositive", chunk_id=-1):
    # The op only writes `state` and `out` in place: nothing to allocate.
    return None
