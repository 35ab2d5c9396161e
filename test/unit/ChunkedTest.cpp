//===- ChunkedTest.cpp - chunked float64 form vs the token-serial oracle --===//
//
// The chunked algebra of KDA-MATH.md section 2, and the same with the state
// scan split within each sequence, must reproduce the recurrence to float64
// rounding (<= 1e-10 relative L2) on outputs and final states.
//
//===----------------------------------------------------------------------===//
#include "RandomBatch.h"
#include "kda/Oracle/Reference.h"

#include <cmath>
#include <gtest/gtest.h>
#include <ostream>
#include <stdexcept>
#include <string>

using namespace kda;

namespace {

struct ChunkCase {
  const char *name;
  std::vector<int> lengths;
  ref::Gate gate;
  ref::Layout layout;
  int groupSize;             // HV / H
  int chunk;                 // chunk size
  bool someWithoutInitial;   // every other sequence has no initial state
  bool somePadding;          // the last sequence (or two) is padding
  double extremeGate;        // see BatchShape
  bool l2norm = true;
};

void PrintTo(const ChunkCase &c, std::ostream *os) { *os << c.name; }

using G = ref::Gate;
using L = ref::Layout;

// Lengths 1, 2, 15, 16, 17, 63, 64, 65 and several hundred; lower_bound -5;
// softplus with g near -1000; GVA; both layouts; with and without initial
// state; padding slots.
const ChunkCase kCases[] = {
    {"len1_lb", {1}, G::LowerBound, L::KV, 1, 64, false, false, 0},
    {"len2_lb_vk", {2}, G::LowerBound, L::VK, 1, 64, false, false, 0},
    {"len15_softplus", {15}, G::Softplus, L::KV, 1, 16, false, false, 0},
    {"len16_lb_gva", {16}, G::LowerBound, L::KV, 2, 16, false, false, 0},
    {"len17_lb_noinit", {17}, G::LowerBound, L::VK, 1, 16, true, false, 0},
    {"len63_softplus_vk", {63}, G::Softplus, L::VK, 1, 64, false, false, 0},
    {"len64_lb", {64}, G::LowerBound, L::KV, 1, 64, false, false, 0},
    {"len65_lb_gva_vk", {65}, G::LowerBound, L::VK, 2, 64, false, false, 0},
    {"len300_lb", {300}, G::LowerBound, L::KV, 1, 64, false, false, 0},
    {"len417_softplus_gva", {417}, G::Softplus, L::VK, 2, 64, false, false, 0},
    {"len300_softplus_g1000", {300}, G::Softplus, L::KV, 1, 64, false, false, 1000},
    {"mixed_g1000_chunk16", {1, 40, 17}, G::Softplus, L::VK, 2, 16, true, false, 1000},
    {"decodes_and_prefills", {1, 200, 1, 77, 1, 64, 1}, G::LowerBound, L::VK, 1, 64, true, false, 0},
    {"long_then_decode", {300, 1}, G::LowerBound, L::KV, 2, 64, false, false, 0},
    {"short_then_long", {5, 130}, G::Softplus, L::KV, 1, 64, true, false, 0},
    {"padding_mix", {3, 65, 2, 1}, G::LowerBound, L::VK, 1, 64, false, true, 0},
    {"padding_gva", {16, 17, 15}, G::Softplus, L::KV, 2, 16, true, true, 0},
    {"gate_none", {33, 64, 1}, G::None, L::KV, 1, 32, true, false, 0},
    {"gate_none_vk_gva", {65, 2}, G::None, L::VK, 2, 32, false, false, 0},
    {"all_decodes", {1, 1, 1, 1}, G::LowerBound, L::VK, 1, 64, true, true, 0},
    {"no_l2norm_lb", {100, 7}, G::LowerBound, L::KV, 1, 64, false, false, 0, false},
    {"no_l2norm_softplus_chunk32", {64, 65}, G::Softplus, L::VK, 2, 32, true, false, 0, false},
    {"empty_sequence", {0, 5, 0}, G::LowerBound, L::KV, 1, 16, false, false, 0},
    {"lb_several_hundred_chunk16", {513}, G::LowerBound, L::VK, 1, 16, true, false, 0},
};

/// Runs `form` (the chunked form, or its split-scan variant) and the
/// token-serial recurrence on the case's batch and pool, and checks outputs
/// and final states agree to float64 rounding.
template <typename Form> void expectAgrees(const ChunkCase &c, Form form) {
  ref::Layer l;
  l.H = 2;
  l.HV = 2 * c.groupSize;
  l.K = 16;
  l.V = 8;
  l.gate = c.gate;
  l.lowerBound = c.gate == G::LowerBound ? -5.0 : 0.0;
  l.layout = c.layout;
  l.qkL2norm = c.l2norm;

  test::BatchShape shape;
  shape.lengths = c.lengths;
  const int n = int(c.lengths.size());
  shape.hasInitial.assign(n, 1);
  for (int i = 0; i < n; ++i) {
    shape.slots.push_back(i + 1);
    if (c.someWithoutInitial && i % 2 == 1)
      shape.hasInitial[i] = 0;
  }
  if (c.somePadding) {
    shape.slots[n - 1] = 0;
    if (n > 2)
      shape.slots[n - 2] = -1;
  }
  shape.extremeGate = c.extremeGate;
  const uint64_t seed = std::hash<std::string>{}(c.name);
  ref::Batch b = test::makeBatch(l, shape, seed);
  const int64_t slots = n + 1;
  std::vector<double> poolSerial = test::makePool(l, slots, seed + 1);
  std::vector<double> poolChunk = poolSerial;
  std::vector<double> outSerial(size_t(b.T) * l.HV * l.V, NAN);
  std::vector<double> outChunk(outSerial.size(), NAN);

  ref::recurrent(l, b, poolSerial.data(), slots, outSerial.data());
  form(l, b, poolChunk.data(), slots, outChunk.data());

  for (double x : outChunk)
    ASSERT_FALSE(std::isnan(x));
  if (b.T > 0) {
    double errOut = ref::relativeL2(outChunk.data(), outSerial.data(),
                                    int64_t(outSerial.size()));
    EXPECT_LE(errOut, 1e-10) << "outputs";
  }
  double errState = ref::relativeL2(poolChunk.data(), poolSerial.data(),
                                    int64_t(poolSerial.size()));
  EXPECT_LE(errState, 1e-10) << "states";
}

class ChunkedVsSerial : public ::testing::TestWithParam<ChunkCase> {};

TEST_P(ChunkedVsSerial, AgreesToFloat64Rounding) {
  const ChunkCase &c = GetParam();
  expectAgrees(c, [&](const ref::Layer &l, const ref::Batch &b, double *pool,
                      int64_t slots, double *out) {
    ref::chunked(l, b, c.chunk, pool, slots, out);
  });
}

// The scan split within each sequence, segments of 1, 2 and 3 chunks (a
// segment per chunk; segments ending mid-sequence and a short last one):
// the composed maps (M, B), the serial pass over segments and each
// segment's outputs from its entering state reproduce the recurrence.
TEST_P(ChunkedVsSerial, SplitScanAgreesToFloat64Rounding) {
  const ChunkCase &c = GetParam();
  for (int segmentChunks : {1, 2, 3}) {
    SCOPED_TRACE("chunks a segment: " + std::to_string(segmentChunks));
    expectAgrees(c, [&](const ref::Layer &l, const ref::Batch &b, double *pool,
                        int64_t slots, double *out) {
      ref::segmented(l, b, c.chunk, segmentChunks, pool, slots, out);
    });
  }
}

TEST(ChunkedVsSerial, SplitScanRefusesEmptySegments) {
  ref::Layer l;
  ref::Batch b;
  b.cuSeqlens = {0};
  EXPECT_THROW(ref::segmented(l, b, 16, 0, nullptr, 0, nullptr),
               std::invalid_argument);
}

INSTANTIATE_TEST_SUITE_P(Cases, ChunkedVsSerial, ::testing::ValuesIn(kCases),
                         [](const auto &info) { return info.param.name; });

} // namespace
