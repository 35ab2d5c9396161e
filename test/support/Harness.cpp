//===- Harness.cpp - run a kda bundle against the float64 oracle ----------===//
#include "Harness.h"

#include "GuardedMemory.h"
#include "Manifest.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <stdexcept>

namespace kda::test {

void *HostMemory::alloc(size_t bytes) { return guardedAlloc(bytes); }
void HostMemory::upload(void *dst, const void *src, size_t bytes) {
  std::memcpy(dst, src, bytes);
}
void HostMemory::download(void *dst, const void *src, size_t bytes) {
  std::memcpy(dst, src, bytes);
}
void HostMemory::release(void *p) { guardedRelease(p); }

static uint32_t bitsOf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  return x;
}
static float floatOf(uint32_t x) {
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

uint16_t toBf16(float f) {
  uint32_t x = bitsOf(f);
  if (std::isnan(f))
    return uint16_t((x >> 16) | 0x40);
  x += 0x7fff + ((x >> 16) & 1); // round to nearest even
  return uint16_t(x >> 16);
}
float fromBf16(uint16_t h) { return floatOf(uint32_t(h) << 16); }

uint16_t toF16(float f) {
  uint32_t x = bitsOf(f);
  uint32_t sign = (x >> 16) & 0x8000, mant = x & 0x7fffff;
  int32_t e8 = int32_t((x >> 23) & 0xff), exp = e8 - 127 + 15;
  if (e8 == 0xff)
    return uint16_t(sign | 0x7c00 | (mant ? 0x200 : 0));
  if (exp >= 31)
    return uint16_t(sign | 0x7c00);
  if (exp <= 0) { // subnormal half
    if (exp < -10)
      return uint16_t(sign);
    mant |= 0x800000;
    uint32_t shift = uint32_t(14 - exp), h = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1)))
      ++h;
    return uint16_t(sign | h);
  }
  uint32_t h = (uint32_t(exp) << 10) | (mant >> 13), rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
    ++h; // a carry into the exponent is the right rounding
  return uint16_t(sign | h);
}

float fromF16(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16, exp = (h >> 10) & 0x1f,
           mant = h & 0x3ff;
  if (exp == 0) {
    float v = std::ldexp(float(mant), -24);
    return sign ? -v : v;
  }
  if (exp == 31)
    return floatOf(sign | 0x7f800000 | (mant << 13));
  return floatOf(sign | ((exp - 15 + 127) << 23) | (mant << 13));
}

static kda_dtype dtypeOf(const std::string &s) {
  if (s == "f32")
    return KDA_F32;
  if (s == "f16")
    return KDA_F16;
  return KDA_BF16;
}

KernelLayer readKernelLayer(const std::string &dir, const std::string &name,
                            const std::string &target) {
  manifest::Manifest m;
  std::string error;
  if (!manifest::readManifest(dir, m, error))
    throw std::runtime_error(error);
  const manifest::Kernel *k = m.find(name, target);
  if (!k)
    throw std::runtime_error("no kernel " + name + " for " + target + " in " +
                             dir);
  if (!k->hasLayer)
    throw std::runtime_error("kernel " + name + " (" + target +
                             ") computes no layer (kind " + k->kind + ")");
  const manifest::Layer &l = k->layer;
  KernelLayer kl;
  ref::Layer &r = kl.layer;
  r.H = l.heads;
  r.HV = l.valueHeads;
  r.K = l.headK;
  r.V = l.headV;
  r.gate = l.gate == "softplus"      ? ref::Gate::Softplus
           : l.gate == "lower_bound" ? ref::Gate::LowerBound
                                     : ref::Gate::None;
  r.lowerBound = l.lowerBound;
  r.beta = l.beta == "given"        ? ref::Beta::Given
           : l.beta == "sigmoid_x2" ? ref::Beta::SigmoidX2
                                    : ref::Beta::Sigmoid;
  r.qkL2norm = l.qkL2norm;
  r.scale = l.scale;
  r.layout = l.stateLayout == "vk" ? ref::Layout::VK : ref::Layout::KV;
  kl.chunk = k->kind == "chunk_prep";
  kl.act = dtypeOf(k->act);
  kl.g = dtypeOf(k->g);
  kl.beta = dtypeOf(k->beta);
  kl.state = dtypeOf(k->state);
  kl.usesALog = k->usesOperand("a_log");
  kl.usesDtBias = k->usesOperand("dt_bias");
  return kl;
}

/// Rounds `values` to `type` in place (the oracle then sees what the kernel
/// sees) and returns the device encoding.
static std::vector<uint8_t> encode(std::vector<double> &values,
                                   kda_dtype type) {
  std::vector<uint8_t> bytes(values.size() * (type == KDA_F32 ? 4 : 2));
  for (size_t i = 0; i < values.size(); ++i) {
    float f = float(values[i]);
    if (type == KDA_F32) {
      std::memcpy(&bytes[i * 4], &f, 4);
      values[i] = f;
    } else {
      uint16_t h = type == KDA_BF16 ? toBf16(f) : toF16(f);
      std::memcpy(&bytes[i * 2], &h, 2);
      values[i] = type == KDA_BF16 ? fromBf16(h) : fromF16(h);
    }
  }
  return bytes;
}

void *Harness::put(const std::vector<double> &values, kda_dtype type) {
  std::vector<double> copy = values;
  std::vector<uint8_t> bytes = encode(copy, type);
  void *p = mem.alloc(bytes.size());
  if (!bytes.empty())
    mem.upload(p, bytes.data(), bytes.size());
  buffers.push_back(p);
  return p;
}

kda_status launchLayer(const KernelLayer &kl, const kda_kernel *kernel,
                       const kda_batch &batch, void *stream) {
  return kl.chunk ? kda_launch_chunk(kernel, &batch, stream)
                  : kda_launch_recurrent(kernel, &batch, stream);
}

void Harness::allocateWorkspace(int64_t bytes) {
  if (bytes <= 0)
    return;
  void *p = mem.alloc(size_t(bytes));
  buffers.push_back(p);
  desc.workspace = p;
  desc.workspace_bytes = bytes;
}

void Harness::freeAll() {
  for (void *p : buffers)
    mem.release(p);
  buffers.clear();
}

Harness::~Harness() { freeAll(); }

void Harness::prepare(const BatchShape &shape, int64_t slots, uint64_t seed) {
  freeAll();
  const ref::Layer &l = kl.layer;
  host = makeBatch(l, shape, seed);
  numSlots = slots;
  // Round the oracle's inputs to what the kernel reads.
  encode(host.q, kl.act);
  encode(host.k, kl.act);
  encode(host.v, kl.act);
  encode(host.g, kl.g);
  encode(host.beta, kl.beta);
  encode(host.aLog, KDA_F32);
  encode(host.dtBias, KDA_F32);
  if (!kl.usesALog)
    host.aLog.clear();
  if (!kl.usesDtBias)
    host.dtBias.clear();

  desc = kda_batch{};
  desc.num_seqs = host.numSequences();
  desc.num_tokens = host.T;
  desc.cu_seqlens_host = host.cuSeqlens.data();
  desc.slots_host = host.slots.data();
  desc.q = put(host.q, kl.act);
  desc.k = put(host.k, kl.act);
  desc.v = put(host.v, kl.act);
  desc.g = put(host.g, kl.g);
  desc.beta = put(host.beta, kl.beta);
  if (kl.usesALog)
    desc.a_log = static_cast<const float *>(put(host.aLog, KDA_F32));
  if (kl.usesDtBias)
    desc.dt_bias = static_cast<const float *>(put(host.dtBias, KDA_F32));
  auto putInts = [&](const void *src, size_t bytes) {
    void *p = mem.alloc(bytes);
    mem.upload(p, src, bytes);
    buffers.push_back(p);
    return p;
  };
  desc.cu_seqlens = static_cast<const int32_t *>(
      putInts(host.cuSeqlens.data(), host.cuSeqlens.size() * 4));
  desc.slots = static_cast<const int32_t *>(
      putInts(host.slots.data(), host.slots.size() * 4));
  desc.has_initial_state = static_cast<const uint8_t *>(
      putInts(host.hasInitialState.data(), host.hasInitialState.size()));

  // The pool: named slots random, every other slot 1e30 (must survive
  // bit-identical).
  pool0.assign(size_t(numSlots * l.slotElems()), 1e30);
  std::mt19937_64 rng(seed ^ 0x5eed);
  std::normal_distribution<float> normal(0.0f, 0.5f);
  for (int n = 0; n < host.numSequences(); ++n) {
    const int32_t s = host.slots[size_t(n)];
    // A slot without initial state holds a stale state; NaN when asked, so
    // a kernel that reads it (even to multiply by 0) fails.
    const bool stale = shape.staleNaN && !host.hasInitialState[size_t(n)];
    if (s > 0)
      for (int64_t i = 0; i < l.slotElems(); ++i)
        pool0[size_t(s * l.slotElems() + i)] =
            stale ? std::nan("") : normal(rng);
  }
  poolBytes0 = encode(pool0, kl.state); // the oracle starts from the rounded pool
  desc.state = mem.alloc(poolBytes0.size());
  buffers.push_back(desc.state);
  restoreState();
  desc.num_slots = numSlots;
  size_t outBytes = size_t(host.T) * l.HV * l.V * (kl.act == KDA_F32 ? 4 : 2);
  desc.out = mem.alloc(outBytes);
  buffers.push_back(desc.out);
  std::vector<uint8_t> poison(outBytes, 0xff); // NaN in bf16 and f16
  if (outBytes)
    mem.upload(desc.out, poison.data(), outBytes);

  desc.heads = l.H;
  desc.value_heads = l.HV;
  desc.head_k = l.K;
  desc.head_v = l.V;
  desc.act_dtype = kl.act;
  desc.g_dtype = kl.g;
  desc.beta_dtype = kl.beta;
  desc.state_dtype = kl.state;
  desc.state_layout = l.layout == ref::Layout::VK ? KDA_LAYOUT_VK : KDA_LAYOUT_KV;
}

void Harness::restoreState() {
  if (!poolBytes0.empty())
    mem.upload(desc.state, poolBytes0.data(), poolBytes0.size());
}

std::vector<uint8_t> Harness::snapshot() {
  mem.synchronize();
  const ref::Layer &l = kl.layer;
  size_t outBytes = size_t(host.T) * l.HV * l.V * (kl.act == KDA_F32 ? 4 : 2);
  const size_t poolBytes = poolBytes0.size();
  std::vector<uint8_t> all(poolBytes + outBytes);
  mem.download(all.data(), desc.state, poolBytes);
  if (outBytes)
    mem.download(all.data() + poolBytes, desc.out, outBytes);
  return all;
}

double roundTo(double x, kda_dtype type) {
  switch (type) {
  case KDA_F32:
    return double(float(x));
  case KDA_BF16:
    return fromBf16(toBf16(float(x)));
  case KDA_F16:
    return fromF16(toF16(float(x)));
  }
  return x;
}

std::vector<double> Harness::outputs() {
  mem.synchronize();
  const ref::Layer &l = kl.layer;
  const size_t outElems = size_t(host.T) * l.HV * l.V;
  std::vector<double> out(outElems);
  if (kl.act == KDA_F32) {
    std::vector<float> raw(outElems);
    mem.download(raw.data(), desc.out, outElems * 4);
    for (size_t i = 0; i < outElems; ++i)
      out[i] = raw[i];
  } else {
    std::vector<uint16_t> raw(outElems);
    mem.download(raw.data(), desc.out, outElems * 2);
    for (size_t i = 0; i < outElems; ++i)
      out[i] = kl.act == KDA_BF16 ? fromBf16(raw[i]) : fromF16(raw[i]);
  }
  return out;
}

CaseResult Harness::check() {
  const ref::Layer &l = kl.layer;
  const size_t outElems = size_t(host.T) * l.HV * l.V;
  std::vector<double> out = outputs();
  std::vector<uint8_t> poolBytes(poolBytes0.size());
  mem.download(poolBytes.data(), desc.state, poolBytes.size());
  const size_t elemBytes = kl.state == KDA_F32 ? 4 : 2;
  std::vector<double> pool(pool0.size());
  for (size_t i = 0; i < pool.size(); ++i) {
    if (elemBytes == 4) {
      float f;
      std::memcpy(&f, &poolBytes[i * 4], 4);
      pool[i] = f;
    } else {
      uint16_t h;
      std::memcpy(&h, &poolBytes[i * 2], 2);
      pool[i] = kl.state == KDA_BF16 ? fromBf16(h) : fromF16(h);
    }
  }

  std::vector<double> refPool = pool0;
  std::vector<double> refOut(outElems, 0.0);
  ref::recurrent(l, host, refPool.data(), numSlots, refOut.data());

  CaseResult r;
  for (double x : out)
    r.finite &= std::isfinite(x);
  r.outErr = outElems ? ref::relativeL2(out.data(), refOut.data(),
                                        int64_t(outElems))
                      : 0.0;
  // States of the named, non-padding slots; every other slot bit-identical.
  std::vector<bool> named(size_t(numSlots), false);
  for (int n = 0; n < host.numSequences(); ++n)
    if (host.slots[n] > 0)
      named[size_t(host.slots[n])] = true;
  std::vector<double> got, want;
  for (int64_t s = 0; s < numSlots; ++s) {
    const size_t base = size_t(s * l.slotElems());
    if (named[size_t(s)]) {
      for (int64_t i = 0; i < l.slotElems(); ++i) {
        got.push_back(pool[base + i]);
        want.push_back(refPool[base + i]);
        r.finite &= std::isfinite(pool[base + i]);
      }
    } else if (std::memcmp(&poolBytes[base * elemBytes],
                           &poolBytes0[base * elemBytes],
                           l.slotElems() * elemBytes)) {
      r.untouchedIdentical = false;
    }
  }
  r.stateErr = got.empty() ? 0.0
                           : ref::relativeL2(got.data(), want.data(),
                                             int64_t(got.size()));
  // The error the oracle's own result has once rounded to the kernel's
  // output and state types: the floor any kernel is measured against.
  auto roundedErr = [&](const std::vector<double> &ref, kda_dtype type) {
    if (ref.empty())
      return 0.0;
    std::vector<double> rounded(ref.size());
    for (size_t i = 0; i < ref.size(); ++i)
      rounded[i] = roundTo(ref[i], type);
    return ref::relativeL2(rounded.data(), ref.data(), int64_t(ref.size()));
  };
  r.outRoundErr = roundedErr(refOut, kl.act);
  r.stateRoundErr = roundedErr(want, kl.state);
  for (int n = 0; n < host.numSequences(); ++n)
    if (host.slots[n] <= 0)
      for (int64_t t = host.cuSeqlens[n]; t < host.cuSeqlens[n + 1]; ++t)
        for (int64_t i = 0; i < int64_t(l.HV) * l.V; ++i)
          r.paddingZero &= out[size_t(t * l.HV * l.V + i)] == 0.0;
  return r;
}

kda_forward_args forwardArgs(const kda_batch &b, int32_t numDecodes) {
  kda_forward_args a{};
  a.num_decodes = numDecodes;
  a.num_decode_tokens = b.cu_seqlens_host[numDecodes];
  a.num_prefills = b.num_seqs - numDecodes;
  a.num_tokens = b.num_tokens;
  a.query_start_loc = b.cu_seqlens;
  a.query_start_loc_host = b.cu_seqlens_host;
  a.slots = b.slots;
  a.slots_host = b.slots_host;
  a.padding = KDA_PADDING_NONPOSITIVE;
  a.has_initial_state = b.has_initial_state;
  a.q = b.q, a.k = b.k, a.v = b.v, a.g = b.g, a.beta = b.beta;
  a.a_log = b.a_log, a.dt_bias = b.dt_bias;
  a.state = {b.state, b.num_slots, 0, b.state_dtype, b.state_layout};
  a.out = b.out;
  a.heads = b.heads, a.value_heads = b.value_heads;
  a.head_k = b.head_k, a.head_v = b.head_v;
  a.act_dtype = b.act_dtype, a.g_dtype = b.g_dtype, a.beta_dtype = b.beta_dtype;
  return a;
}

double Harness::minimumBytes() const {
  const ref::Layer &l = kl.layer;
  auto size = [](kda_dtype t) { return t == KDA_F32 ? 4.0 : 2.0; };
  double named = 0;
  for (int n = 0; n < host.numSequences(); ++n)
    named += host.slots[n] > 0 ? 1 : 0;
  double state = named * double(l.slotElems()) * size(kl.state) * 2; // read + write
  double T = double(host.T);
  double act = T * (2.0 * l.H * l.K + 2.0 * l.HV * l.V) * size(kl.act); // q k v o
  double gb = T * l.HV * (l.K * size(kl.g) + size(kl.beta));
  return state + act + gb;
}

} // namespace kda::test
