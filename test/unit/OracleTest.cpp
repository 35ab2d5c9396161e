//===- OracleTest.cpp - the token-serial float64 oracle -------------------===//
#include "RandomBatch.h"
#include "kda/Oracle/Reference.h"

#include <gtest/gtest.h>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

using namespace kda;
using kda::test::BatchShape;
using kda::test::makeBatch;
using kda::test::makePool;

namespace {

ref::Batch oneSequence(int64_t T) {
  ref::Batch b;
  b.T = T;
  b.cuSeqlens = {0, int32_t(T)};
  b.slots = {1};
  b.hasInitialState = {1};
  return b;
}

bool bitIdentical(const std::vector<double> &a, const std::vector<double> &b,
                  size_t from, size_t count) {
  return std::memcmp(a.data() + from, b.data() + from,
                     count * sizeof(double)) == 0;
}

} // namespace

// H = HV = K = V = 1, gate none, beta given, scale 1, S0 = 0. By hand:
//  t0: decay 0.5 -> S = 0; r = 2 - 0 = 2; S = 0.5 * 1 * 2 = 1;     o = 1 * 1
//  t1: decay 0.5 -> S = 0.5; r = 3 - 0.5 = 2.5; S = 0.5 + 1.25 = 1.75; o = 2 * 1.75
TEST(Oracle, HandComputedScalarRecurrence) {
  ref::Layer l;
  l.beta = ref::Beta::Given;
  l.scale = 1.0;
  ref::Batch b = oneSequence(2);
  b.q = {1, 2};
  b.k = {1, 1};
  b.v = {2, 3};
  b.g = {std::log(0.5), std::log(0.5)};
  b.beta = {0.5, 0.5};
  b.hasInitialState = {0};
  std::vector<double> pool(2, 123.0), out(2, -1);
  ref::recurrent(l, b, pool.data(), 2, out.data());
  EXPECT_DOUBLE_EQ(out[0], 1.0);
  EXPECT_DOUBLE_EQ(out[1], 3.5);
  EXPECT_DOUBLE_EQ(pool[1], 1.75);
  EXPECT_EQ(pool[0], 123.0); // slot 0 is never named
}

// K = 2, V = 1, lower_bound -5 with raw gate 0 (g = -5 * sigmoid(0) = -2.5),
// beta = sigmoid(0) = 0.5, l2norm, default scale 2^-1/2, S0 = [1; 2].
//  kn = (3, 4) / sqrt(25 + 1e-6), qn = (0, 1) / sqrt(1 + 1e-6), e = exp(-2.5)
//  decayed S = (e, 2e); r = 1 - (kn0 e + kn1 2e)
//  S' = (e + 0.5 kn0 r, 2e + 0.5 kn1 r); o = S'1 * qn1 * 2^-1/2
TEST(Oracle, HandComputedLowerBoundL2Norm) {
  ref::Layer l;
  l.K = 2;
  l.gate = ref::Gate::LowerBound;
  l.lowerBound = -5;
  l.qkL2norm = true;
  ref::Batch b = oneSequence(1);
  b.q = {0, 1};
  b.k = {3, 4};
  b.v = {1};
  b.g = {0, 0};
  b.beta = {0};
  std::vector<double> pool = {9, 9, 1, 2}, out(1);
  ref::recurrent(l, b, pool.data(), 2, out.data());

  const double e = std::exp(-2.5);
  const double kn0 = 3 / std::sqrt(25 + 1e-6), kn1 = 4 / std::sqrt(25 + 1e-6);
  const double r = 1 - (kn0 * e + kn1 * 2 * e);
  const double s0 = e + 0.5 * kn0 * r, s1 = 2 * e + 0.5 * kn1 * r;
  EXPECT_NEAR(out[0], s1 / std::sqrt(1 + 1e-6) / std::sqrt(2.0), 1e-15);
  EXPECT_NEAR(pool[2], s0, 1e-15);
  EXPECT_NEAR(pool[3], s1, 1e-15);
  // Numerically, by hand: e = 0.0820849986, r = 0.8194130, S' = (0.3279089,
  // 0.4919352), o = 0.3478505.
  EXPECT_NEAR(out[0], 0.3478505, 1e-6);
}

TEST(Oracle, GateFormulas) {
  ref::Layer l;
  l.K = 2;
  l.gate = ref::Gate::Softplus;
  ref::Batch b = oneSequence(1);
  b.g = {0, 30};
  b.aLog = {0};
  // softplus(0) = log 2; softplus(30) = 30 (the x > 20 branch).
  EXPECT_DOUBLE_EQ(ref::gateValue(l, b, 0, 0, 0), -std::log(2.0));
  EXPECT_DOUBLE_EQ(ref::gateValue(l, b, 0, 0, 1), -30.0);
  b.aLog = {std::log(2.0)};
  b.dtBias = {1, 0};
  EXPECT_NEAR(ref::gateValue(l, b, 0, 0, 0), -2 * std::log1p(std::exp(1.0)),
              1e-15);

  l.gate = ref::Gate::LowerBound;
  l.lowerBound = -5;
  b.aLog = {};
  b.dtBias = {};
  EXPECT_DOUBLE_EQ(ref::gateValue(l, b, 0, 0, 0), -2.5);
  b.aLog = {std::log(0.5)}; // exp(A_log) = 0.5 scales the input: 0.5 * 30
  EXPECT_NEAR(ref::gateValue(l, b, 0, 0, 1), -5 / (1 + std::exp(-15.0)), 1e-15);

  b.beta = {0};
  l.beta = ref::Beta::SigmoidX2;
  EXPECT_DOUBLE_EQ(ref::betaValue(l, b, 0, 0), 1.0);
}

ref::Layer smallLayer(ref::Layout layout = ref::Layout::KV) {
  ref::Layer l;
  l.H = 2;
  l.HV = 2;
  l.K = 8;
  l.V = 4;
  l.gate = ref::Gate::LowerBound;
  l.lowerBound = -5;
  l.qkL2norm = true;
  l.layout = layout;
  return l;
}

TEST(Oracle, PaddingWritesZerosAndTouchesNoState) {
  ref::Layer l = smallLayer();
  BatchShape shape{{3, 2, 4}, {1, 0, -1}, {1, 1, 1}};
  ref::Batch b = makeBatch(l, shape, 7);
  std::vector<double> pool = makePool(l, 3, 8), before = pool;
  std::vector<double> out(size_t(b.T) * l.HV * l.V, std::nan(""));
  ref::recurrent(l, b, pool.data(), 3, out.data());
  for (int64_t t = 3; t < b.T; ++t)
    for (int i = 0; i < l.HV * l.V; ++i)
      EXPECT_EQ(out[t * l.HV * l.V + i], 0.0) << "token " << t;
  // Slots 0 and 2 are not named by a real sequence: untouched, bitwise.
  EXPECT_TRUE(bitIdentical(pool, before, 0, l.slotElems()));
  EXPECT_TRUE(bitIdentical(pool, before, 2 * l.slotElems(), l.slotElems()));
  EXPECT_FALSE(bitIdentical(pool, before, l.slotElems(), l.slotElems()));
  for (int i = 0; i < 3 * l.HV * l.V; ++i)
    EXPECT_TRUE(std::isfinite(out[i]));
}

TEST(Oracle, NoInitialStateNeverReadsTheSlot) {
  ref::Layer l = smallLayer();
  BatchShape shape{{5}, {1}, {0}};
  ref::Batch b = makeBatch(l, shape, 11);
  std::vector<double> poisoned(2 * l.slotElems(),
                               std::numeric_limits<double>::quiet_NaN());
  std::vector<double> zeros(2 * l.slotElems(), 0.0);
  std::vector<double> out1(size_t(b.T) * l.HV * l.V), out2(out1.size());
  ref::recurrent(l, b, poisoned.data(), 2, out1.data());
  b.hasInitialState = {1};
  ref::recurrent(l, b, zeros.data(), 2, out2.data());
  EXPECT_EQ(out1, out2);
  // The final state is written into the slot.
  for (int64_t i = l.slotElems(); i < 2 * l.slotElems(); ++i)
    ASSERT_EQ(poisoned[i], zeros[i]);
}

TEST(Oracle, InvalidBatchThrowsAndWritesNothing) {
  ref::Layer l = smallLayer();
  ref::Batch b = makeBatch(l, BatchShape{{2, 2}}, 3);
  std::vector<double> pool = makePool(l, 3, 4), before = pool;
  std::vector<double> out(size_t(b.T) * l.HV * l.V, 42.0);
  b.slots = {1, 3}; // pool has 3 slots: 3 is out of range
  EXPECT_THROW(ref::recurrent(l, b, pool.data(), 3, out.data()),
               std::invalid_argument);
  EXPECT_THROW(ref::chunked(l, b, 16, pool.data(), 3, out.data()),
               std::invalid_argument);
  b.slots = {1, 2};
  b.cuSeqlens = {0, 3, 2}; // not monotonic
  EXPECT_NE(ref::validate(l, b, 3), "");
  EXPECT_THROW(ref::recurrent(l, b, pool.data(), 3, out.data()),
               std::invalid_argument);
  EXPECT_EQ(pool, before);
  for (double x : out)
    EXPECT_EQ(x, 42.0);
}

// GVA: with HV = 2H, value heads 2i and 2i+1 read q/k head i. The same batch
// through an HV = H layer whose q/k heads are duplicated must agree exactly.
TEST(Oracle, GroupedValueAttentionSharesQueryKeyHeads) {
  ref::Layer gva = smallLayer();
  gva.H = 1;
  gva.HV = 2;
  ref::Batch b = makeBatch(gva, BatchShape{{4, 3}}, 5);
  ref::Layer full = gva;
  full.H = 2;
  ref::Batch bf = b;
  bf.q.clear();
  bf.k.clear();
  for (int64_t t = 0; t < b.T; ++t)
    for (int rep = 0; rep < 2; ++rep)
      for (int d = 0; d < gva.K; ++d) {
        bf.q.push_back(b.q[t * gva.K + d]);
        bf.k.push_back(b.k[t * gva.K + d]);
      }
  std::vector<double> p1 = makePool(gva, 3, 6), p2 = p1;
  std::vector<double> o1(size_t(b.T) * gva.HV * gva.V), o2(o1.size());
  ref::recurrent(gva, b, p1.data(), 3, o1.data());
  ref::recurrent(full, bf, p2.data(), 3, o2.data());
  EXPECT_EQ(o1, o2);
  EXPECT_EQ(p1, p2);
}

// vk stores S transposed per head; outputs must not change.
TEST(Oracle, StateLayoutsAgree) {
  ref::Layer kv = smallLayer(ref::Layout::KV), vk = smallLayer(ref::Layout::VK);
  ref::Batch b = makeBatch(kv, BatchShape{{6, 1}}, 9);
  std::vector<double> pkv = makePool(kv, 3, 10), pvk(pkv.size());
  for (int s = 0; s < 3; ++s)
    for (int h = 0; h < kv.HV; ++h)
      for (int dk = 0; dk < kv.K; ++dk)
        for (int dv = 0; dv < kv.V; ++dv)
          pvk[s * vk.slotElems() + vk.stateIndex(h, dk, dv)] =
              pkv[s * kv.slotElems() + kv.stateIndex(h, dk, dv)];
  std::vector<double> o1(size_t(b.T) * kv.HV * kv.V), o2(o1.size());
  ref::recurrent(kv, b, pkv.data(), 3, o1.data());
  ref::recurrent(vk, b, pvk.data(), 3, o2.data());
  EXPECT_EQ(o1, o2);
  for (int s = 0; s < 3; ++s)
    for (int h = 0; h < kv.HV; ++h)
      for (int dk = 0; dk < kv.K; ++dk)
        for (int dv = 0; dv < kv.V; ++dv)
          ASSERT_EQ(pvk[s * vk.slotElems() + vk.stateIndex(h, dk, dv)],
                    pkv[s * kv.slotElems() + kv.stateIndex(h, dk, dv)]);
}
