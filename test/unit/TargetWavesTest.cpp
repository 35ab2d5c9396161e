//===- TargetWavesTest.cpp - the runtime's wave sizes vs the target table -===//
//
// The runtime links no LLVM, so it restates each target's wave size
// (kda::manifest::targetWaveSize) to refuse a manifest whose wave_size is
// not its target's. This holds the restatement to the compiler's table.
//
//===----------------------------------------------------------------------===//
#include "Manifest.h"
#include "kda/Target/TargetInfo.h"

#include <gtest/gtest.h>

namespace {

TEST(TargetWaves, RuntimeKnowsEachTargetsWave) {
  for (const mlir::kda::TargetInfo &t : mlir::kda::allTargets())
    EXPECT_EQ(kda::manifest::targetWaveSize(t.name.str()), t.waveSize)
        << t.name.str();
  EXPECT_EQ(kda::manifest::targetWaveSize("sm_80"), 0u);
}

// Which targets' code objects export `<symbol>_packed` (the binding's
// suffix, Manifest.h): the compiler's emulators and no other.
TEST(TargetWaves, RuntimeKnowsWhichTargetsAreEmulators) {
  for (const mlir::kda::TargetInfo &t : mlir::kda::allTargets())
    EXPECT_EQ(kda::manifest::isEmulatorTarget(t.name.str()), t.isEmulator())
        << t.name.str();
  EXPECT_FALSE(kda::manifest::isEmulatorTarget("emu64"));
}

} // namespace
