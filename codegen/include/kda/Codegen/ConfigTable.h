//===- ConfigTable.h - the tuned config table of a bundle -------*- C++ -*-===//
//
// kda-tune writes a config table (JSON): for a target, a layer shape, state
// layout and dtypes, and a range of sequences per launch (an N bucket), the
// recurrent kernel's config, with where it came from (measured on a device,
// or chosen by static figures where no hardware is at hand). kda-compile
// --config-table compiles one variant kernel per matching entry beside the
// default one; the runtime picks among them by N at launch. Format 1:
//
//   {"format": 1, "entries": [{
//      "target": "sm_90",
//      "layer": {"heads": 32, "value_heads": 32, "head_k": 128, "head_v": 128,
//                "state_layout": "vk", "state": "f32", "act": "bf16"},
//      "n_min": 1, "n_max": 8,
//      "config": {"block_k": 128, "block_v": 2, "warps": 2, "lanes_k": 32,
//                 "waves_k": 1, "lds_stages": 0},
//      "provenance": {"method": "measured", "machine": "...", ...}}]}
//
// An emulator target uses its own entries and those of the chip it stands
// for (emu32: sm_90), so every tuned variant runs in CI's emulated numeric
// cases.
//
//===----------------------------------------------------------------------===//
#ifndef KDA_CODEGEN_CONFIGTABLE_H
#define KDA_CODEGEN_CONFIGTABLE_H

#include "kda/Dialect/KDA/KDAAttrs.h"
#include "kda/Target/RecurrentRules.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace mlir::kda {

/// What a table entry's layer key names.
struct TableLayerKey {
  int64_t heads = 0, valueHeads = 0, headK = 0, headV = 0;
  std::string stateLayout, state, act;
  static TableLayerKey of(LayerAttr layer);
  bool operator==(const TableLayerKey &o) const;
  llvm::json::Object toJson() const;
  std::string describe() const;
};

struct ConfigTableEntry {
  std::string target;
  TableLayerKey layer;
  int64_t nMin = 1, nMax = 1;
  rules::ConfigValues config;
  llvm::json::Object provenance;
  llvm::json::Object toJson() const;
};

/// Reads the JSON file at `path` as the tools take their JSON inputs (a
/// config table, kda-bench's times, a bundle's manifest before replacing
/// it): a regular file of at most 64 MiB, nested at most 64 levels (the
/// reader recurses: 100000 levels crashed it), each key once in an object.
/// On failure false with `error` naming the file and why.
bool readJsonFile(llvm::StringRef path, llvm::json::Value &out,
                  std::string &error);

struct ConfigTable {
  std::vector<ConfigTableEntry> entries;
  /// Reads `path`; on failure `error` names the file, entry and field.
  static bool read(llvm::StringRef path, ConfigTable &out, std::string &error);
  bool write(llvm::StringRef path, std::string &error) const;
  /// Buckets of one (target, layer) must not overlap: the runtime's choice
  /// by N would be ambiguous. Empty when they do not, else which overlap.
  std::string overlaps() const;
};

/// The largest sequence count a launch takes (grid z).
inline constexpr int64_t kMaxSequences = 65535;

/// For each kda.recurrent of `spec` and each entry of `table` for `target`
/// (for an emulator, also the chip it stands for) with the op's layer, adds a
/// copy of its function `<fn>__n<min>_<max>` whose kda.recurrent carries
/// the entry's config, tagged `kda.variant` (of, n_min, n_max, provenance).
/// An entry whose config breaks a rule is refused here, naming the entry
/// and the rule; one the pipeline verifier rejects fails when it is built,
/// at a location naming the entry.
LogicalResult addTableVariants(ModuleOp spec, const ConfigTable &table,
                               llvm::StringRef tablePath,
                               const TargetInfo &target);

} // namespace mlir::kda

#endif // KDA_CODEGEN_CONFIGTABLE_H
