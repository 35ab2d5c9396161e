"""An example KDA layer as an engine writes it around torch.ops.kda.forward.

The projections stand in for a model's (Kimi-Linear and Kimi-K3 add short
convolutions on q, k, v and a low-rank gate projection; they change the
inputs, not the call). What matters is the call: token-major activations
straight from the projections, the raw gate and beta (the kernel applies
the gate, A_log, dt_bias and the sigmoid), and the engine's attention
metadata as it stands: query_start_loc and slot indices on the device with
their CPU copies, decode-first counts, has_initial_state, and the layer's
state cache, updated in place.
"""
from dataclasses import dataclass

import torch

from . import torch_ops


@dataclass
class BatchMetadata:
    """What vLLM's linear-attention metadata holds for one step."""
    num_decodes: int
    num_decode_tokens: int
    num_prefills: int
    query_start_loc: torch.Tensor      # [N+1] int32, device
    query_start_loc_cpu: torch.Tensor  # [N+1] int32, host
    slots: torch.Tensor                # [N] int32, device (state cache slots)
    slots_cpu: torch.Tensor            # [N] int32, host
    has_initial_state: torch.Tensor    # [N] bool, device


class KimiDeltaAttention(torch.nn.Module):
    def __init__(self, kernel, hidden: int, heads: int, head_dim: int,
                 state_layout: str = "vk", dtype=torch.bfloat16,
                 device=None):
        super().__init__()
        self.kernel_id = torch_ops.register_kernel(kernel)
        self.heads, self.head_dim = heads, head_dim
        self.state_layout = state_layout
        width = heads * head_dim
        make = dict(bias=False, dtype=dtype, device=device)
        self.q_proj = torch.nn.Linear(hidden, width, **make)
        self.k_proj = torch.nn.Linear(hidden, width, **make)
        self.v_proj = torch.nn.Linear(hidden, width, **make)
        self.g_proj = torch.nn.Linear(hidden, width, **make)
        self.b_proj = torch.nn.Linear(hidden, heads, **make)
        self.o_proj = torch.nn.Linear(width, hidden, **make)
        self.A_log = torch.nn.Parameter(
            torch.zeros(heads, dtype=torch.float32, device=device))
        self.dt_bias = torch.nn.Parameter(
            torch.zeros(width, dtype=torch.float32, device=device))

    def forward(self, hidden: torch.Tensor, meta: BatchMetadata,
                state_cache: torch.Tensor) -> torch.Tensor:
        T = hidden.shape[0]
        shape = (T, self.heads, self.head_dim)
        q = self.q_proj(hidden).view(shape)
        k = self.k_proj(hidden).view(shape)
        v = self.v_proj(hidden).view(shape)
        g = self.g_proj(hidden).view(shape)
        beta = self.b_proj(hidden)
        out = torch.empty_like(v)
        torch.ops.kda.forward(
            self.kernel_id, q, k, v, g, beta, self.A_log, self.dt_bias,
            meta.query_start_loc, meta.query_start_loc_cpu, meta.slots,
            meta.slots_cpu, meta.has_initial_state, state_cache, out,
            meta.num_decodes, meta.num_decode_tokens, meta.num_prefills,
            self.state_layout, "nonpositive")
        return self.o_proj(out.view(T, -1))
