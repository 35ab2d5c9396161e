//===- ConfigTable.cpp - the tuned config table of a bundle ---------------===//
#include "kda/Codegen/ConfigTable.h"
#include "kda/Dialect/KDA/KDAOps.h"
#include "kda/Passes/RecurrentKernelBuilder.h"

#include "Manifest.h" // the runtime's JSON rule: each key once in an object

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace mlir;
using namespace mlir::kda;
namespace json = llvm::json;

static std::string typeName(Type t) {
  std::string s;
  llvm::raw_string_ostream(s) << t;
  return s;
}

TableLayerKey TableLayerKey::of(LayerAttr l) {
  return {l.getHeads(),
          l.getValueHeads(),
          l.getHeadK(),
          l.getHeadV(),
          stringifyStateLayout(l.getStateLayout()).str(),
          typeName(l.getStateType()),
          typeName(l.getActType())};
}

bool TableLayerKey::operator==(const TableLayerKey &o) const {
  return heads == o.heads && valueHeads == o.valueHeads && headK == o.headK &&
         headV == o.headV && stateLayout == o.stateLayout && state == o.state &&
         act == o.act;
}

json::Object TableLayerKey::toJson() const {
  return json::Object{{"heads", heads},         {"value_heads", valueHeads},
          {"head_k", headK},        {"head_v", headV},
          {"state_layout", stateLayout}, {"state", state},
          {"act", act}};
}

std::string TableLayerKey::describe() const {
  return llvm::formatv("H {0}, HV {1}, K {2}, V {3}, {4}, state {5}, act {6}",
                       heads, valueHeads, headK, headV, stateLayout, state,
                       act);
}

static json::Object configJson(const rules::ConfigValues &c) {
  return json::Object{{"block_k", c.blockK},
                      {"block_v", c.blockV},
                      {"warps", c.warps},
                      {"lanes_k", c.lanesK},
                      {"waves_k", c.wavesK},
                      {"lds_stages", c.ldsStages},
                      {"v_passes", c.vPasses},
                      {"mma", c.mma},
                      {"shared_terms", c.sharedTerms}};
}

json::Object ConfigTableEntry::toJson() const {
  return json::Object{{"target", target},
          {"layer", layer.toJson()},
          {"n_min", nMin},
          {"n_max", nMax},
          {"config", configJson(config)},
          {"provenance", json::Object(provenance)}};
}

namespace {
/// Field readers that name the entry and field in their message.
struct Reader {
  std::string where; // "<file>: entries[i]"
  std::string error;
  const json::Object *object(const json::Object &o, llvm::StringRef key) {
    const json::Object *v = o.getObject(key);
    if (!v && error.empty())
      error = where + "." + key.str() + ": missing or not an object";
    return v;
  }
  int64_t integer(const json::Object &o, llvm::StringRef key,
                  llvm::StringRef parent, int64_t lo, int64_t hi) {
    std::optional<int64_t> v = o.getInteger(key);
    std::string field = parent.empty() ? key.str() : (parent + "." + key).str();
    if (!v || *v < lo || *v > hi) {
      // What is there when it is not an integer: say so, not "missing".
      std::string got = "missing";
      if (v)
        got = std::to_string(*v);
      else if (const json::Value *x = o.get(key))
        got = llvm::formatv("{0} (not an integer)", *x).str();
      if (error.empty())
        error = llvm::formatv("{0}.{1}: {2}, expected an integer in [{3}, {4}]",
                              where, field, got, lo, hi);
      return lo;
    }
    return *v;
  }
  /// The keys of `o` must be among `known` (a misspelt key would be
  /// ignored and its default used).
  void onlyKeys(const json::Object &o, llvm::StringRef parent,
                std::initializer_list<llvm::StringRef> known) {
    for (const auto &kv : o) {
      if (llvm::is_contained(known, llvm::StringRef(kv.first)))
        continue;
      if (error.empty()) {
        std::string list;
        for (llvm::StringRef k : known)
          list += (list.empty() ? "" : ", ") + k.str();
        error = where + (parent.empty() ? "" : "." + parent.str()) + ": '" +
                kv.first.str() + "' is not a field (fields: " + list + ")";
      }
    }
  }
  /// `value` of field `key` must be one of `allowed`.
  void oneOf(const std::string &value, llvm::StringRef field,
             std::initializer_list<llvm::StringRef> allowed) {
    if (!error.empty() || llvm::is_contained(allowed, llvm::StringRef(value)))
      return;
    std::string list;
    for (llvm::StringRef k : allowed)
      list += (list.empty() ? "" : ", ") + k.str();
    error = where + "." + field.str() + ": '" + value + "' is none of " + list;
  }
  std::string string(const json::Object &o, llvm::StringRef key,
                     llvm::StringRef parent) {
    std::optional<llvm::StringRef> v = o.getString(key);
    if (!v && error.empty())
      error = where + "." + (parent + "." + key).str() + ": missing string";
    return v ? v->str() : "";
  }
};
} // namespace

/// The config rule that entry `i` of the table at `path` breaks on its own
/// target, named as addTableVariants names it, or "": the layer facts the
/// rules read are all in the table's layer key.
static std::string entryRuleError(const ConfigTableEntry &entry,
                                  llvm::StringRef path, size_t i) {
  const TargetInfo *target = lookupTarget(entry.target);
  if (!target) // read() refused it already
    return "";
  const TableLayerKey &k = entry.layer;
  rules::LayerFacts layer{unsigned(k.headK), unsigned(k.headV),
                          k.state == "f32" ? 4u : 2u, k.stateLayout == "vk"};
  RecurrentSchedule plan;
  std::string rule = rules::deriveRecurrentPlan(layer, entry.config,
                                                targetFacts(*target), plan);
  if (rule.empty())
    return "";
  return llvm::formatv("{0} entries[{1}] ({2}, N {3}..{4}): config refused "
                       "on {2}: {5}",
                       path, i, entry.target, entry.nMin, entry.nMax, rule);
}

bool mlir::kda::readJsonFile(llvm::StringRef path, json::Value &out,
                             std::string &error) {
  constexpr uintmax_t kMostBytes = 64u << 20;
  constexpr size_t kMostNesting = 64;
  std::string text;
  if (!::kda::manifest::readBoundedFile(path.str(), kMostBytes, text, error))
    return false;
  if (std::string deep = ::kda::manifest::jsonTooDeep(text, kMostNesting);
      !deep.empty()) {
    error = (path + ": " + deep).str();
    return false;
  }
  llvm::Expected<json::Value> parsed = json::parse(text);
  if (!parsed) {
    error = (path + ": not JSON: " + llvm::toString(parsed.takeError())).str();
    return false;
  }
  // llvm::json keeps the last of two equal keys: a table saying "warps"
  // twice would be read as whichever came second.
  if (std::string repeated = ::kda::manifest::repeatedJsonKey(text);
      !repeated.empty()) {
    error = (path + ": " + repeated).str();
    return false;
  }
  out = std::move(*parsed);
  return true;
}

bool ConfigTable::read(llvm::StringRef path, ConfigTable &out,
                       std::string &error) {
  json::Value value(nullptr);
  if (!readJsonFile(path, value, error))
    return false;
  const json::Value *parsed = &value;
  const json::Object *top = parsed->getAsObject();
  if (!top || top->getInteger("format") != 1 || !top->getArray("entries")) {
    error = (path + ": expected {\"format\": 1, \"entries\": [...]}").str();
    return false;
  }
  for (const auto &kv : *top)
    if (kv.first != "format" && kv.first != "entries") {
      error = (path + ": '" + kv.first.str() +
               "' is not a field (fields: format, entries)")
                  .str();
      return false;
    }
  out.entries.clear();
  for (auto [i, v] : llvm::enumerate(*top->getArray("entries"))) {
    Reader r{llvm::formatv("{0}: entries[{1}]", path, i).str(), ""};
    const json::Object *e = v.getAsObject();
    if (!e) {
      error = r.where + ": expected an object";
      return false;
    }
    ConfigTableEntry entry;
    r.onlyKeys(*e, "",
               {"target", "layer", "n_min", "n_max", "config", "provenance"});
    entry.target = r.string(*e, "target", "");
    if (r.error.empty() && !lookupTarget(entry.target))
      r.error = r.where + ".target: unknown target '" + entry.target +
                "' (known: " + knownTargetNames() + ")";
    if (const json::Object *l = r.object(*e, "layer")) {
      TableLayerKey &k = entry.layer;
      k.heads = r.integer(*l, "heads", "layer", 1, 1 << 20);
      k.valueHeads = r.integer(*l, "value_heads", "layer", 1, 1 << 20);
      k.headK = r.integer(*l, "head_k", "layer", 1, 256);
      k.headV = r.integer(*l, "head_v", "layer", 1, 256);
      k.stateLayout = r.string(*l, "state_layout", "layer");
      k.state = r.string(*l, "state", "layer");
      k.act = r.string(*l, "act", "layer");
      // What kda-tune writes (describeLayer's spelling): a value outside it
      // would match no layer and the entry would be dropped unsaid.
      r.onlyKeys(*l, "layer",
                 {"heads", "value_heads", "head_k", "head_v", "state_layout",
                  "state", "act"});
      r.oneOf(k.stateLayout, "layer.state_layout", {"kv", "vk"});
      r.oneOf(k.state, "layer.state", {"f32", "bf16"});
      r.oneOf(k.act, "layer.act", {"bf16", "f16", "f32"});
    }
    entry.nMin = r.integer(*e, "n_min", "", 1, kMaxSequences);
    entry.nMax = r.integer(*e, "n_max", "", entry.nMin, kMaxSequences);
    if (const json::Object *c = r.object(*e, "config")) {
      rules::ConfigValues &cv = entry.config;
      r.onlyKeys(*c, "config",
                 {"block_k", "block_v", "warps", "lanes_k", "waves_k",
                  "lds_stages", "v_passes", "mma", "shared_terms"});
      cv.blockK = r.integer(*c, "block_k", "config", 0, 1 << 20);
      cv.blockV = r.integer(*c, "block_v", "config", 0, 1 << 20);
      cv.warps = r.integer(*c, "warps", "config", 0, 1 << 20);
      cv.lanesK = r.integer(*c, "lanes_k", "config", 0, 1 << 20);
      cv.wavesK = r.integer(*c, "waves_k", "config", 0, 1 << 20);
      cv.ldsStages = r.integer(*c, "lds_stages", "config", 0, 1 << 20);
      // Optional (tables written before it existed): one pass.
      if (c->get("v_passes"))
        cv.vPasses = r.integer(*c, "v_passes", "config", 0, 1 << 20);
      if (c->get("mma"))
        cv.mma = r.integer(*c, "mma", "config", 0, 1 << 20);
      if (c->get("shared_terms"))
        cv.sharedTerms = r.integer(*c, "shared_terms", "config", 0, 1 << 20);
    }
    if (const json::Object *p = e->getObject("provenance"))
      entry.provenance = *p;
    else if (r.error.empty())
      r.error = r.where + ".provenance: missing (say how the entry was chosen)";
    // Every entry obeys its own target's config rules, not only the entries
    // a compile applies: a table is refused whole, not trusted in part.
    if (r.error.empty())
      r.error = entryRuleError(entry, path, i);
    if (!r.error.empty()) {
      error = r.error;
      return false;
    }
    out.entries.push_back(std::move(entry));
  }
  if (std::string o = out.overlaps(); !o.empty()) {
    error = (path + ": " + o).str();
    return false;
  }
  return true;
}

bool ConfigTable::write(llvm::StringRef path, std::string &error) const {
  json::Array list;
  for (const ConfigTableEntry &e : entries)
    list.push_back(e.toJson());
  json::Value table(json::Object{{"format", 1}, {"entries", std::move(list)}});
  // A temporary file renamed over the old table once written whole: written
  // in place, a full disk left half a table and lost the old one.
  if (llvm::Error e = llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
        os << llvm::formatv("{0:2}", table) << "\n";
        return llvm::Error::success();
      })) {
    error = (path + ": " + llvm::toString(std::move(e))).str();
    return false;
  }
  return true;
}

std::string ConfigTable::overlaps() const {
  for (size_t i = 0; i < entries.size(); ++i)
    for (size_t j = i + 1; j < entries.size(); ++j) {
      const ConfigTableEntry &a = entries[i], &b = entries[j];
      if (a.target == b.target && a.layer == b.layer && a.nMin <= b.nMax &&
          b.nMin <= a.nMax)
        return llvm::formatv("entries[{0}] (N {1}..{2}) and entries[{3}] (N "
                             "{4}..{5}) overlap for {6}, {7}",
                             i, a.nMin, a.nMax, j, b.nMin, b.nMax, a.target,
                             a.layer.describe());
    }
  return "";
}

/// The function of `op` with its config replaced by `config`, named `name`.
static func::FuncOp cloneWithConfig(func::FuncOp fn, StringRef name,
                                    ConfigAttr config, Location loc) {
  auto copy = cast<func::FuncOp>(fn->clone());
  copy.setName(name);
  copy.walk([&](RecurrentOp op) {
    op.setConfigAttr(config);
    op->setLoc(loc);
  });
  return copy;
}

LogicalResult mlir::kda::addTableVariants(ModuleOp spec,
                                          const ConfigTable &table,
                                          StringRef tablePath,
                                          const TargetInfo &target) {
  // An emulator compiles its own entries and those of the chip whose atoms
  // it executes.
  auto forTarget = [&](StringRef entryTarget) {
    return entryTarget == target.name ||
           (target.isEmulator() && entryTarget == target.chip);
  };
  SmallVector<std::pair<func::FuncOp, RecurrentOp>> ops;
  for (auto fn : spec.getOps<func::FuncOp>())
    fn.walk([&](RecurrentOp op) { ops.push_back({fn, op}); });
  MLIRContext *ctx = spec.getContext();
  for (auto [fn, op] : ops) {
    TableLayerKey key = TableLayerKey::of(op.getLayer());
    // The entries this target compiles for the layer, its own and (an
    // emulator) its chip's, must not overlap in N: the table's own check
    // compares entries of one target string only, and the runtime refuses
    // a bundle whose variants overlap.
    SmallVector<size_t> applying;
    for (auto [i, e] : llvm::enumerate(table.entries))
      if (forTarget(e.target) && e.layer == key)
        applying.push_back(i);
    for (auto [x, i] : llvm::enumerate(applying))
      for (size_t j : ArrayRef(applying).drop_front(x + 1)) {
        const ConfigTableEntry &a = table.entries[i], &b = table.entries[j];
        if (a.nMin <= b.nMax && b.nMin <= a.nMax)
          return op.emitOpError()
                 << "config table " << tablePath << ": entries[" << i << "] ("
                 << a.target << ", N " << a.nMin << ".." << a.nMax
                 << ") and entries[" << j << "] (" << b.target << ", N "
                 << b.nMin << ".." << b.nMax << ") both apply to "
                 << target.name << " and overlap";
      }
    for (auto [i, e] : llvm::enumerate(table.entries)) {
      if (!forTarget(e.target) || !(e.layer == key))
        continue;
      std::string entryName =
          llvm::formatv("{0} entries[{1}] ({2}, N {3}..{4})", tablePath, i,
                        e.target, e.nMin, e.nMax);
      // The rules first: the message names the entry and the rule. read()
      // checked the entry on its own target; this is the target compiling
      // it, which differs for an emulator compiling its chip's entries.
      RecurrentSchedule plan;
      std::string rule = rules::deriveRecurrentPlan(
          recurrentLayerFacts(op.getLayer()), e.config, targetFacts(target),
          plan);
      if (!rule.empty())
        return op.emitOpError() << "config table " << entryName
                                << ": config refused on " << target.name
                                << ": " << rule;
      std::string name =
          llvm::formatv("{0}__n{1}_{2}", fn.getName(), e.nMin, e.nMax);
      Location loc = NameLoc::get(StringAttr::get(ctx, entryName), op.getLoc());
      func::FuncOp copy =
          cloneWithConfig(fn, name, configAttr(ctx, e.config), loc);
      std::string provenance;
      llvm::raw_string_ostream(provenance)
          << json::Value(json::Object(e.provenance));
      OpBuilder b(ctx);
      copy->setAttr("kda.variant",
                    b.getDictionaryAttr(
                        {b.getNamedAttr("of", b.getStringAttr(fn.getName())),
                         b.getNamedAttr("n_min", b.getI64IntegerAttr(e.nMin)),
                         b.getNamedAttr("n_max", b.getI64IntegerAttr(e.nMax)),
                         b.getNamedAttr("provenance",
                                        b.getStringAttr(provenance))}));
      spec.getBody()->push_back(copy);
    }
  }
  return success();
}
