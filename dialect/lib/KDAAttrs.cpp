//===- KDAAttrs.cpp - kda attributes --------------------------------------===//
#include "kda/Dialect/KDA/KDAAttrs.h"
#include "kda/Dialect/KDA/KDADialect.h"
#include "kda/Target/RecurrentRules.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include <cmath>

using namespace mlir;
using namespace mlir::kda;

#include "kda/Dialect/KDA/KDAEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "kda/Dialect/KDA/KDAAttrs.cpp.inc"

void KDADialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "kda/Dialect/KDA/KDAAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// LayerAttr
//===----------------------------------------------------------------------===//

static constexpr int64_t kMaxHeadDim = 256;

double LayerAttr::getEffectiveScale() const {
  double s = getScale().convertToDouble();
  return s > 0 ? s : 1.0 / std::sqrt(double(getHeadK()));
}

LogicalResult LayerAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                int64_t heads, int64_t valueHeads, int64_t headK,
                                int64_t headV, GateKind gate, APFloat lowerBoundF,
                                BetaMode beta, bool qkL2norm, APFloat scaleF,
                                Type actType, Type stateType,
                                StateLayout stateLayout) {
  const double lowerBound = lowerBoundF.convertToDouble();
  const double scale = scaleF.convertToDouble();
  if (heads <= 0)
    return emitError() << "heads must be positive, got " << heads;
  if (valueHeads <= 0 || valueHeads % heads != 0)
    return emitError() << "value_heads (" << valueHeads
                       << ") must be a positive multiple of heads (" << heads
                       << ")";
  if (headK <= 0 || headK > kMaxHeadDim)
    return emitError() << "head_k must be in [1, " << kMaxHeadDim << "], got "
                       << headK;
  if (headV <= 0 || headV > kMaxHeadDim)
    return emitError() << "head_v must be in [1, " << kMaxHeadDim << "], got "
                       << headV;
  // Finite too: an infinite bound or scale has no number in the manifest
  // (JSON) and no meaning in the gate.
  if (gate == GateKind::LowerBound &&
      (!(lowerBound < 0) || std::isinf(lowerBound)))
    return emitError() << "lower_bound gate needs a negative bound, got "
                       << lowerBound
                       << (std::isinf(lowerBound) ? " (not finite)" : "");
  if (gate != GateKind::LowerBound && lowerBound != 0)
    return emitError() << "only the lower_bound gate takes a bound";
  if (!(scale >= 0) || std::isinf(scale))
    return emitError() << "scale must be positive and finite, got " << scale;
  if (!actType || !(actType.isBF16() || actType.isF16() || actType.isF32()))
    return emitError() << "activation dtype must be bf16, f16 or f32, got "
                       << actType;
  if (!stateType || !(stateType.isF32() || stateType.isBF16()))
    return emitError() << "state dtype must be f32 or bf16, got " << stateType;
  return success();
}

// Keyword order in the printed form; parsing accepts any order.
static constexpr llvm::StringLiteral kLayerKeys[] = {
    "heads", "value_heads", "head_k", "head_v", "gate",  "beta",
    "qk_l2norm", "scale", "act", "state", "state_layout"};

Attribute LayerAttr::parse(AsmParser &parser, Type) {
  MLIRContext *ctx = parser.getContext();
  int64_t heads = 0, valueHeads = 0, headK = 0, headV = 0;
  GateKind gate = GateKind::None;
  double lowerBound = 0, scale = 0;
  BetaMode beta = BetaMode::Sigmoid;
  bool qkL2norm = false;
  Type actType, stateType;
  StateLayout layout = StateLayout::KV;
  llvm::StringSet<> seen;

  auto parseEntry = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return failure();
    if (!llvm::is_contained(kLayerKeys, key))
      return parser.emitError(loc) << "unknown #kda.layer key '" << key << "'";
    if (!seen.insert(key).second)
      return parser.emitError(loc) << "duplicate #kda.layer key '" << key
                                   << "'";
    if (key == "heads")
      return parser.parseInteger(heads);
    if (key == "value_heads")
      return parser.parseInteger(valueHeads);
    if (key == "head_k")
      return parser.parseInteger(headK);
    if (key == "head_v")
      return parser.parseInteger(headV);
    if (key == "scale") {
      APFloat v(0.0);
      if (parser.parseFloat(APFloat::IEEEdouble(), v))
        return failure();
      scale = v.convertToDouble();
      if (!(scale > 0))
        return parser.emitError(loc) << "scale must be positive";
      return success();
    }
    if (key == "act")
      return parser.parseType(actType);
    if (key == "state")
      return parser.parseType(stateType);
    if (key == "qk_l2norm") {
      StringRef b;
      SMLoc bl = parser.getCurrentLocation();
      if (parser.parseKeyword(&b))
        return failure();
      if (b != "true" && b != "false")
        return parser.emitError(bl) << "qk_l2norm must be true or false";
      qkL2norm = b == "true";
      return success();
    }
    StringRef word;
    SMLoc wl = parser.getCurrentLocation();
    if (parser.parseKeyword(&word))
      return failure();
    if (key == "gate") {
      std::optional<GateKind> g = symbolizeGateKind(word);
      if (!g)
        return parser.emitError(wl)
               << "unknown gate '" << word
               << "', expected none, softplus or lower_bound(<negative>)";
      gate = *g;
      if (gate == GateKind::LowerBound) {
        APFloat v(0.0);
        if (parser.parseLParen() ||
            parser.parseFloat(APFloat::IEEEdouble(), v) ||
            parser.parseRParen())
          return failure();
        lowerBound = v.convertToDouble();
      }
      return success();
    }
    if (key == "beta") {
      std::optional<BetaMode> b = symbolizeBetaMode(word);
      if (!b)
        return parser.emitError(wl) << "unknown beta '" << word
                                    << "', expected sigmoid, given or "
                                       "sigmoid_x2";
      beta = *b;
      return success();
    }
    // state_layout
    std::optional<StateLayout> l = symbolizeStateLayout(word);
    if (!l)
      return parser.emitError(wl)
             << "unknown state_layout '" << word << "', expected kv or vk";
    layout = *l;
    return success();
  };

  SMLoc start = parser.getCurrentLocation();
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::LessGreater,
                                     parseEntry))
    return {};
  for (StringRef required : {"heads", "value_heads", "head_k", "head_v", "gate",
                             "act", "state", "state_layout"})
    if (!seen.contains(required)) {
      parser.emitError(start) << "#kda.layer is missing '" << required << "'";
      return {};
    }
  return getChecked([&] { return parser.emitError(start); }, ctx, heads,
                    valueHeads, headK, headV, gate, APFloat(lowerBound), beta,
                    qkL2norm, APFloat(scale), actType, stateType, layout);
}

void LayerAttr::print(AsmPrinter &p) const {
  p << "<heads = " << getHeads() << ", value_heads = " << getValueHeads()
    << ", head_k = " << getHeadK() << ", head_v = " << getHeadV()
    << ", gate = " << stringifyGateKind(getGate());
  if (getGate() == GateKind::LowerBound) {
    p << "(";
    p.printFloat(getLowerBound());
    p << ")";
  }
  p << ", beta = " << stringifyBetaMode(getBeta())
    << ", qk_l2norm = " << (getQkL2norm() ? "true" : "false");
  if (getScale().convertToDouble() > 0) {
    p << ", scale = ";
    p.printFloat(getScale());
  }
  p << ", act = " << getActType() << ", state = " << getStateType()
    << ", state_layout = " << stringifyStateLayout(getStateLayout()) << ">";
}

//===----------------------------------------------------------------------===//
// TargetAttr / ConfigAttr
//===----------------------------------------------------------------------===//

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef name) {
  if (!lookupTarget(name))
    return emitError() << "unknown kda target '" << name
                       << "' (known: " << knownTargetNames() << ")";
  return success();
}

const TargetInfo &TargetAttr::getInfo() const {
  const TargetInfo *info = lookupTarget(getName());
  assert(info && "verified #kda.target names a table row");
  return *info;
}

const TargetInfo *mlir::kda::getEnclosingTarget(Operation *op) {
  for (; op; op = op->getParentOp())
    if (auto t = op->getAttrOfType<TargetAttr>(kTargetAttrName))
      return &t.getInfo();
  return nullptr;
}

const TargetInfo *mlir::kda::getEnclosingTargetOrEmit(Operation *op) {
  const TargetInfo *t = getEnclosingTarget(op);
  if (!t)
    op->emitError() << "no enclosing " << kTargetAttrName
                    << " attribute: run kda-lower-to-gpu, or put "
                       "`kda.target = #kda.target<\"NAME\">` on the gpu.module "
                       "(known: "
                    << knownTargetNames() << ")";
  return t;
}

static_assert(unsigned(CopyAtom::Staged) == unsigned(CopyAtomKind::Staged) &&
                  unsigned(CopyAtom::CpAsync) ==
                      unsigned(CopyAtomKind::CpAsync) &&
                  unsigned(CopyAtom::GlobalLoadLds) ==
                      unsigned(CopyAtomKind::GlobalLoadLds),
              "KDA_CopyAtom (KDAEnums.td) mirrors kda::CopyAtomKind");
CopyAtomKind mlir::kda::toCopyAtomKind(CopyAtom atom) {
  return static_cast<CopyAtomKind>(atom);
}
CopyAtom mlir::kda::toCopyAtom(CopyAtomKind kind) {
  return static_cast<CopyAtom>(kind);
}

const TargetInfo *mlir::kda::lookupTargetOrEmit(Operation *at,
                                                StringRef name) {
  const TargetInfo *t = lookupTarget(name);
  if (!t)
    at->emitError() << "unknown kda target '" << name
                    << "' (known: " << knownTargetNames() << ")";
  return t;
}

LogicalResult ConfigAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 unsigned blockK, unsigned blockV,
                                 unsigned blockT, unsigned warps,
                                 unsigned stages, unsigned lanesK,
                                 unsigned ldsStages, unsigned wavesK,
                                 unsigned vPasses, unsigned mma,
                                 unsigned sharedTerms) {
  // One statement of the ranges (RecurrentRules.h): the runtime checks a
  // bundle's config table with the same code.
  std::string rule =
      rules::checkConfigRanges({blockK, blockV, blockT, warps, stages, lanesK,
                                ldsStages, wavesK, vPasses, mma, sharedTerms});
  if (!rule.empty())
    return emitError() << rule;
  return success();
}

//===----------------------------------------------------------------------===//
// MmaKindAttr
//===----------------------------------------------------------------------===//

Attribute MmaKindAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef name;
  if (parser.parseLess() || parser.parseKeyword(&name) ||
      parser.parseGreater())
    return {};
  std::optional<MmaKind> kind = symbolizeMmaKind(name);
  if (!kind) {
    std::string known;
    for (MmaKind k : allMmaKinds())
      known += (known.empty() ? "" : ", ") + stringifyMmaKind(k).str();
    parser.emitError(loc) << "unknown matrix atom '" << name
                          << "' (known: " << known << ")";
    return {};
  }
  return MmaKindAttr::get(parser.getContext(), *kind);
}

void MmaKindAttr::print(AsmPrinter &printer) const {
  printer << "<" << stringifyMmaKind(getValue()) << ">";
}
