"""kda: Kimi Delta Attention kernels from Python.

A ctypes binding of the kda runtime's C API (no build step, no torch needed
to import it). `kda.runtime` opens bundles and calls kda_forward with
device addresses; `kda.torch_ops` (imported on demand, needs torch) adds
the custom op `kda::forward` for engines and torch.compile; `kda.layer`
shows how an engine's KDA layer calls it.
"""
from .runtime import (Bundle, Kernel, KdaError, forward, forward_args,
                      validate, workspace_bytes)

__all__ = ["Bundle", "Kernel", "KdaError", "forward", "forward_args",
           "validate", "workspace_bytes"]
