#ifndef KDA_ENUMS_TD
#define KDA_ENUMS_TD

include "mlir/IR/EnumAttr.td"

def KDA_GateKind : I32EnumAttr<"GateKind", "per-channel log-decay gate", [
    I32EnumAttrCase<"None", 0, "none">,
    I32EnumAttrCase<"Softplus", 1, "softplus">,
    I32EnumAttrCase<"LowerBound", 2, "lower_bound">]> {
  let cppNamespace = "::mlir::kda";
  let genSpecializedAttr = 0;
}

def KDA_BetaMode : I32EnumAttr<"BetaMode", "how beta is derived from its input", [
    I32EnumAttrCase<"Sigmoid", 0, "sigmoid">,
    I32EnumAttrCase<"Given", 1, "given">,
    I32EnumAttrCase<"SigmoidX2", 2, "sigmoid_x2">]> {
  let cppNamespace = "::mlir::kda";
  let genSpecializedAttr = 0;
}

def KDA_StateLayout : I32EnumAttr<"StateLayout", "layout of one head's state in the pool", [
    I32EnumAttrCase<"KV", 0, "kv">,
    I32EnumAttrCase<"VK", 1, "vk">]> {
  let cppNamespace = "::mlir::kda";
  let genSpecializedAttr = 0;
}

def KDA_ArgRole : I32EnumAttr<"ArgRole", "what a kernel does with a pointer argument", [
    I32EnumAttrCase<"Input", 0, "input">,
    I32EnumAttrCase<"Output", 1, "output">,
    I32EnumAttrCase<"InOut", 2, "inout">,
    I32EnumAttrCase<"Workspace", 3, "workspace">]> {
  let cppNamespace = "::mlir::kda";
  let genSpecializedAttr = 0;
}

// Mirrors mlir::kda::CopyAtomKind of the target table (kda/Target/TargetInfo.h).
def KDA_CopyAtom : I32EnumAttr<"CopyAtom", "a global -> LDS copy atom", [
    I32EnumAttrCase<"Staged", 0, "staged">,
    I32EnumAttrCase<"CpAsync", 1, "cp_async">,
    I32EnumAttrCase<"GlobalLoadLds", 2, "global_load_lds">]> {
  let cppNamespace = "::mlir::kda";
  let genSpecializedAttr = 0;
}

// The kernels kda-decompose splits kda.chunk into (KDA-MATH.md section 2).
def KDA_ChunkStage : I32EnumAttr<"ChunkStage", "one kernel of the chunked form", [
    I32EnumAttrCase<"Prep", 0, "prep">,
    I32EnumAttrCase<"Scan", 1, "scan">,
    I32EnumAttrCase<"Maps", 2, "maps">,
    I32EnumAttrCase<"Join", 3, "join">,
    I32EnumAttrCase<"Segments", 4, "segments">]> {
  let cppNamespace = "::mlir::kda";
  let genSpecializedAttr = 0;
}

#endif // KDA_ENUMS_TD
