#ifndef KDA_DIALECT_TD
#define KDA_DIALECT_TD

include "mlir/IR/OpBase.td"

def KDA_Dialect : Dialect {
  let name = "kda";
  let cppNamespace = "::mlir::kda";
  let summary = "Kimi Delta Attention: layer descriptions and their computations";
  let description = [{
    The kda dialect describes a Kimi Delta Attention (KDA) layer - a gated
    delta-rule linear attention - and the two computations engines run on it:
    `kda.recurrent` (token-serial; decodes and short rows) and `kda.chunk`
    (chunked prefill). Both work on packed varlen batches (`cu_seqlens`) and a
    slot-indexed state pool updated in place. The math is in
    shared/design/KDA-MATH.md; the ground truth is the float64 token-serial
    oracle in test/oracle.

    Attributes describe the layer (`#kda.layer`), the target a kernel is built
    for (`#kda.target`) and a kernel configuration (`#kda.config`).
  }];
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
  }];
}

#endif // KDA_DIALECT_TD
