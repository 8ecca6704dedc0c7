// SPDX-License-Identifier: MIT
// src/kernels/sm90/policy.cpp: where BWGEMM_POLICY_AUTO runs the sm90 kernel.
// Expectations are worked out by hand from the rule policy.cpp documents:
// same-type output, not cuBLAS's fast path (m, n or k not a multiple of 16),
// k >= 512, and at least sm_count / 2 cluster tiles of 256 x 256 (one wave
// of 2-CTA clusters), counting every batch.
#include <cstdint>
#include <cstring>
#include <initializer_list>

#include "kernels/common/kernel_view.h"
#include "kernels/decode/check.h"
#include "kernels/decode/config.h"
#include "kernels/sm90/policy.h"
#include "kernels/sm90/selection.h"
#include "kernels/sm90/variants.h"
#include "support/cmocka_cxx.h"

// The nvcc-built per-type variant tables, which selection never calls.
namespace bwgemm::sm90 {
#define NO_VARIANTS_(name, AB, Out) \
  const KernelVariant* variants_##name(int, bool, bool) { return nullptr; }
BWGEMM_FOR_EACH_TYPE_PAIR(NO_VARIANTS_)
#undef NO_VARIANTS_
}  // namespace bwgemm::sm90

// The driver's map encoder, which selection never reaches (it asks only how
// a configuration would load a problem).
bool bwgemm::encode_tma_map(const TmaMapSpec&, CUtensorMap*) { return false; }

using bwgemm::DeviceCaps;
using bwgemm::DType;
using bwgemm::GemmProblem;

namespace {

struct Case {
  int64_t m, n, k, batch;
  DType ab, out;
  int sm_count;
  bool kernel;
};

constexpr DType F16 = DType::F16, BF16 = DType::BF16, F32 = DType::F32;

GemmProblem problem(const Case& c) {
  GemmProblem p{};
  p.ab_type = c.ab;
  p.c_type = c.out;
  p.m = c.m;
  p.n = c.n;
  p.k = c.k;
  p.lda = p.ldb = p.ldc = p.ldd = 16384;
  p.batch = c.batch;
  return p;
}

void check(const Case* cases, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    const Case& c = cases[i];
    const DeviceCaps caps{0, 9, 0, c.sm_count, 232448};
    // The kernel: the large-tile class, on 256x256 tiles or on 256x128 ones
    // where they fill the last wave better; otherwise cuBLAS.
    const int config = bwgemm::sm90::select_config(problem(c), caps).config;
    const bool large_tiles =
        config == 0 || config == bwgemm::sm90::config_by_name("sm90_256x128x64_5stage_2cta");
    if (c.kernel ? !large_tiles : config >= 0)
      fail_msg("m %lld n %lld k %lld batch %lld on %d SMs: expected %s",
               static_cast<long long>(c.m), static_cast<long long>(c.n),
               static_cast<long long>(c.k), static_cast<long long>(c.batch), c.sm_count,
               c.kernel ? "the kernel" : "cuBLAS");
  }
}

template <size_t N>
void check(const Case (&cases)[N]) {
  check(cases, N);
}

// m, n and k all multiples of 16: cuBLAS's fast path, whatever the size.
void cublas_keeps_its_fast_path(void**) {
  const Case cases[] = {
      {4096, 8192, 4096, 1, F16, F16, 132, false},  {8192, 8192, 8192, 1, BF16, BF16, 132, false},
      {16, 16, 16, 1, F16, F16, 132, false},        {4096, 4096, 512, 1, F16, F16, 132, false},
      {14336, 4096, 4096, 8, F16, F16, 132, false}, {4096, 128, 4096, 1, BF16, BF16, 132, false},
      {1024, 1024, 1024, 1, F16, F16, 132, false},  {65536, 65536, 16384, 1, F16, F16, 16, false},
  };
  check(cases);
}

// Off the fast path (any one of m, n, k not a multiple of 16) with k >= 512
// and a wave of cluster tiles (66 on 132 SMs).
void odd_sizes_with_a_wave_of_tiles_take_the_kernel(void**) {
  const Case cases[] = {
      // 16 x 17 = 272 tiles
      {4095, 4097, 4096, 1, F16, F16, 132, true},
      // 8 x 9 = 72
      {2047, 2049, 1023, 1, BF16, BF16, 132, true},
      // 12 x 20 = 240
      {3000, 5000, 700, 1, F16, F16, 132, true},
      // only k odd: 16 x 16
      {4096, 4096, 4095, 1, F16, F16, 132, true},
      // only n off by 8: 16 x 17
      {4096, 4104, 4096, 1, BF16, BF16, 132, true},
      // only m off by 4: 17 x 16
      {4100, 4096, 4096, 1, F16, F16, 132, true},
      // k = 512 exactly
      {4095, 4097, 512, 1, F16, F16, 132, true},
  };
  check(cases);
}

void small_shapes_and_short_k_stay_with_cublas(void**) {
  const Case cases[] = {
      // 1000^3: 4 x 4 = 16 cluster tiles, most SMs idle
      {1000, 1000, 1000, 1, F16, F16, 132, false},
      // k = 511 < 512, however many tiles
      {4095, 4097, 511, 1, F16, F16, 132, false},
      {16383, 16385, 100, 1, BF16, BF16, 132, false},
      // 6 x 10 = 60 < 66
      {1535, 2560, 4096, 1, F16, F16, 132, false},
      // one tile
      {100, 100, 10000, 1, F16, F16, 132, false},
  };
  check(cases);
}

// Fewer than 256 rows on the narrow side (a decode: an LLM's vocabulary
// projection at a few tokens) fill a sliver of each 256 x 256 tile: with A,
// B and D aligned, however many tiles, cuBLAS keeps them off its fast path
// too; with D alone unaligned (cuBLAS then on slow align-1 kernels) the
// kernel takes them, but for one token.
void skinny_calls_stay_with_cublas_where_it_is_aligned(void**) {
  const Case cases[] = {
      {32000, 1, 4096, 1, BF16, BF16, 132, false},   {32000, 24, 4096, 1, BF16, BF16, 132, false},
      {32000, 200, 4096, 1, F16, F16, 132, false},   {128256, 8, 4096, 1, BF16, BF16, 132, false},
      {1, 32000, 4096, 1, BF16, BF16, 132, false},   {16896, 1, 4096, 1, BF16, BF16, 132, false},
      {32000, 255, 4096, 1, BF16, BF16, 132, false}, {32000, 257, 4096, 1, BF16, BF16, 132, true},
  };
  check(cases);
  const DeviceCaps caps{0, 9, 0, 132, 232448};
  // GPT-2's logits at generation: D's leading dimension 50257.
  GemmProblem p = problem({50257, 8, 768, 1, BF16, BF16, 132, true});
  p.trans_a = true;
  p.lda = p.ldb = 768;
  p.ldc = p.ldd = 50257;
  assert_int_equal(bwgemm::sm90::select_config(p, caps).config, 0);
  p.n = 1;
  assert_int_equal(bwgemm::sm90::select_config(p, caps).config, -1);
  // An unaligned weight (a copy of it first) was not measured: cuBLAS.
  p = problem({32000, 8, 4095, 1, BF16, BF16, 132, false});
  p.trans_a = true;
  p.lda = p.ldb = 4095;
  p.ldc = p.ldd = 32000;
  assert_int_equal(bwgemm::sm90::select_config(p, caps).config, -1);
}

// Only same-type outputs were measured.
void fp32_outputs_stay_with_cublas(void**) {
  const Case cases[] = {
      {4095, 4097, 4096, 1, F16, F32, 132, false},
      {2047, 2049, 1023, 1, BF16, F32, 132, false},
      {3000, 5000, 700, 4, F16, F32, 132, false},
  };
  check(cases);
}

// The wave is sm_count / 2 clusters (rounded down), batches count.
void the_wave_scales_with_the_sms_and_the_batch(void**) {
  const Case cases[] = {
      // 6 x 11 = 66 tiles: a wave on 132 and 133 SMs, not on 134
      {1535, 2816, 4096, 1, F16, F16, 132, true},
      {1535, 2816, 4096, 1, F16, F16, 133, true},
      {1535, 2816, 4096, 1, F16, F16, 134, false},
      // 6 x 10 = 60 tiles: enough on an H100 PCIe (114 SMs: 57), not on 132
      {1535, 2560, 4096, 1, BF16, BF16, 114, true},
      {1535, 2560, 4096, 1, BF16, BF16, 132, false},
      // ... and on 132 SMs as a batch of 2 (120 tiles)
      {1535, 2560, 4096, 2, BF16, BF16, 132, true},
      // 1000^3 (16 tiles): 5 batches make 80
      {1000, 1000, 1000, 5, F16, F16, 132, true},
      {1000, 1000, 1000, 4, F16, F16, 132, false},
      // a small device: 16 tiles fill 32 SMs
      {1000, 1000, 1000, 1, F16, F16, 32, true},
      {1000, 1000, 1000, 1, F16, F16, 34, false},
  };
  check(cases);
}

// Decode, <= 64 tokens (n, or m), from a weight of 2113..4224 rows and up to
// 32 MB: the split-K pair measured slower than cuBLAS (policy.cpp), so its
// row says cuBLAS, and names itself; so do the other decode and small rows.
void decode_rows_say_cublas_with_their_rule(void**) {
  const DeviceCaps caps{0, 9, 0, 132, 232448};
  const auto config = [&](int64_t m, int64_t n, int64_t k, DType out) {
    return bwgemm::sm90::select_config(problem({m, n, k, 1, BF16, out, 132, false}), caps);
  };
  // (NN from 4096 x 4096 at 1-8 tokens: the decode kernel,
  // decode_kernel_takes_few_tokens_in_one_wave; at 9..32 this row,
  // decode_pair_runs_only_when_named.)
  for (int64_t n : {16, 32, 64}) {
    assert_int_equal(config(4000, n, 4096, BF16).config, -1);
    assert_non_null(std::strstr(config(4000, n, 4096, BF16).rule, "2113..4224"));
  }
  assert_int_equal(config(4096, 64, 4096, BF16).config, -1);
  // Tokens as m (C = tokens x weight rows): the same row.
  assert_non_null(std::strstr(config(16, 4096, 4096, BF16).rule, "2113..4224"));
  assert_non_null(std::strstr(config(64, 3000, 2048, BF16).rule, "2113..4224"));
  assert_int_equal(config(4096, 65, 4096, BF16).config, -1);  // n past decode
  assert_int_equal(config(2048, 16, 4096, BF16).config, -1);  // m <= 2112: its own row
  assert_non_null(std::strstr(config(2048, 16, 4096, BF16).rule, "<= 2112 rows"));
}

// TN decode with <= 16 tokens (<= 8 with K > 4096) from a weight whose rows
// fit one wave of the decode kernel's CTAs (2 x 16 rows per SM) runs the
// decode kernel, as does TN fp16 with <= 8 tokens from an 8192 x 8192
// weight, and NN with <= 8 tokens from a 4096..4224 x <= 4096 weight;
// more tokens (decode_pair_runs_only_when_named), more rows, other NN weights,
// unaligned tokens, K % 8 != 0 or an SM count target keep the rows above.
void decode_kernel_takes_few_tokens_in_one_wave(void**) {
  const DeviceCaps caps{0, 9, 0, 132, 232448};
  const auto tn = [](int64_t m, int64_t n, int64_t k) {
    GemmProblem p = problem({m, n, k, 1, BF16, BF16, 132, false});
    p.trans_a = true;
    p.lda = p.ldb = k;
    p.ldc = p.ldd = m;
    return p;
  };
  for (int64_t n : {1, 8, 16}) {
    const bwgemm::ConfigChoice c = bwgemm::sm90::select_config(tn(4096, n, 4096), caps);
    assert_int_equal(c.config, bwgemm::sm90::kDecodeConfig);
    assert_non_null(std::strstr(c.rule, "decode kernel measured faster"));
    assert_int_equal(bwgemm::sm90::select_config(tn(4224, n, 14336), caps).config,
                     n <= 8 ? bwgemm::sm90::kDecodeConfig : -1);
    assert_int_equal(bwgemm::sm90::select_config(tn(4096, n, 4104), caps).config,
                     n <= 8 ? bwgemm::sm90::kDecodeConfig : -1);
  }
  assert_int_equal(bwgemm::sm90::select_config(tn(4225, 16, 4096), caps).config, -1);
  assert_int_equal(bwgemm::sm90::select_config(tn(14336, 1, 4096), caps).config, -1);
  // Past one wave only TN fp16 from an 8192 x 8192 weight at <= 8 tokens,
  // where cuBLAS's fp16 kernel is slow; bf16, more tokens, other weights and
  // NN keep cuBLAS.
  const auto tn16 = [&](int64_t m, int64_t n, int64_t k) {
    GemmProblem q = tn(m, n, k);
    q.ab_type = q.c_type = bwgemm::DType::F16;
    return q;
  };
  for (int64_t n : {1, 8}) {
    const bwgemm::ConfigChoice c = bwgemm::sm90::select_config(tn16(8192, n, 8192), caps);
    assert_int_equal(c.config, bwgemm::sm90::kDecodeConfig);
    assert_non_null(std::strstr(c.rule, "fp16"));
    assert_int_equal(bwgemm::sm90::select_config(tn(8192, n, 8192), caps).config, -1);
  }
  assert_int_equal(bwgemm::sm90::select_config(tn16(8192, 9, 8192), caps).config, -1);
  assert_int_equal(bwgemm::sm90::select_config(tn16(8192, 8, 4096), caps).config, -1);
  assert_int_equal(bwgemm::sm90::select_config(tn16(14336, 8, 4096), caps).config, -1);
  assert_int_equal(bwgemm::sm90::select_config(tn16(8200, 8, 8192), caps).config, -1);
  const DeviceCaps h100_pcie{0, 9, 0, 114, 232448};  // 512 CTAs: three waves, unmeasured
  assert_int_equal(bwgemm::sm90::select_config(tn16(8192, 8, 8192), h100_pcie).config, -1);
  GemmProblem fp16_nn = tn16(8192, 8, 8192);
  fp16_nn.trans_a = false;
  fp16_nn.lda = 8192;
  assert_int_equal(bwgemm::sm90::select_config(fp16_nn, caps).config, -1);
  // NN (the weight contiguous along its rows, 32 rows per CTA): <= 8 tokens
  // from a 4096..4224 x <= 4096 weight; m a multiple of 8.
  const auto nn = [&](int64_t m, int64_t n, int64_t k) {
    GemmProblem q = tn(m, n, k);
    q.trans_a = false;
    q.lda = m;
    return q;
  };
  for (int64_t n : {1, 8}) {
    const bwgemm::ConfigChoice c = bwgemm::sm90::select_config(nn(4096, n, 4096), caps);
    assert_int_equal(c.config, bwgemm::sm90::kDecodeConfig);
    assert_non_null(std::strstr(c.rule, "NN decode"));
  }
  assert_int_equal(bwgemm::decode::ctas(nn(4096, 8, 4096)), 128);
  assert_int_equal(bwgemm::decode::ctas(tn(4096, 8, 4096)), 256);
  assert_int_equal(bwgemm::sm90::select_config(nn(4096, 16, 4096), caps).config, -1);
  assert_int_equal(bwgemm::sm90::select_config(nn(4096, 8, 14336), caps).config, -1);
  assert_int_equal(bwgemm::sm90::select_config(nn(8192, 8, 4096), caps).config, -1);
  assert_int_equal(bwgemm::sm90::select_config(nn(4224, 8, 4096), caps).config,
                   bwgemm::sm90::kDecodeConfig);
  assert_int_equal(bwgemm::sm90::select_config(nn(4232, 8, 4096), caps).config, -1);
  assert_int_equal(bwgemm::sm90::select_config(nn(4088, 8, 4096), caps).config, -1);
  assert_int_equal(bwgemm::sm90::select_config(nn(4096, 8, 4104), caps).config, -1);
  // m not a multiple of 8 (lda aligned): a lane's 8 rows would run past m.
  GemmProblem p = nn(4092, 8, 4096);
  p.lda = 4096;
  assert_int_equal(bwgemm::decode::check(p, caps), BWGEMM_REASON_UNSUPPORTED_LAYOUT);
  // ... unless A is the library's packed copy, zeros past m up to lda (a
  // ragged edge's weight: 4095 x 4097 NN with lda 4095).
  p.a_padded = true;
  assert_int_equal(bwgemm::decode::check(p, caps), BWGEMM_REASON_KERNEL_SELECTED);
  p.a_padded = false;
  p.m = p.ldc = p.ldd = 4096;
  assert_int_equal(bwgemm::decode::check(p, caps), BWGEMM_REASON_KERNEL_SELECTED);
  p = tn(4096, 8, 4096);
  p.ldb = 4100;  // tokens' rows not 16-byte aligned
  assert_int_equal(bwgemm::sm90::select_config(p, caps).config, -1);
  p = tn(4096, 8, 4092);  // K % 8 != 0
  assert_int_equal(bwgemm::sm90::select_config(p, caps).config, -1);
  p = tn(4096, 8, 4096);
  p.sm_count_target = 66;  // the decode grid is not persistent
  assert_int_equal(bwgemm::sm90::select_config(p, caps).config, -1);
  // Named, it runs where it can; elsewhere the table's choice stands.
  assert_int_equal(
      bwgemm::sm90::choose(tn(4096, 32, 4104), caps, false, bwgemm::sm90::kDecodeConfig).config,
      -1);
  assert_int_equal(
      bwgemm::sm90::choose(tn(4096, 32, 4104), caps, true, bwgemm::sm90::kDecodeConfig).config,
      bwgemm::sm90::kDecodeConfig);
  assert_int_equal(
      bwgemm::sm90::choose(tn(4096, 16, 4096), caps, false, bwgemm::sm90::kDecodeConfig).config,
      bwgemm::sm90::kDecodeConfig);
  assert_int_equal(
      bwgemm::sm90::choose(tn(4096, 32, 4096), caps, false, bwgemm::sm90::kDecodeConfig).config,
      -1);  // a cuBLAS row, not forced
  assert_int_equal(
      bwgemm::sm90::choose(tn(4096, 33, 4096), caps, true, bwgemm::sm90::kDecodeConfig).config, 0);
  assert_string_equal(bwgemm::sm90::config_name(bwgemm::sm90::kDecodeConfig), "sm90_decode_n32");
}

// In the large-tile class, 256 x 128 cluster tiles where 256 x 256 ones
// leave much of the last wave idle: 768 x 8192 x 50257 with B aligned (96
// tiles of 256 x 256 on 66 clusters fill 0.73 of two waves, 192 of 256 x 128
// 0.97 of three); not where 256 x 256 tiles fill their waves, nor where B is
// read by row classes (GPT-2's input gradient, ldb 50257), which count the
// half-wide tiles slower.
// TN decode with <= 8 tokens and K <= 4096 from a weight whose decode-kernel
// CTAs fill 95 % or more of one wave three an SM (377..396 CTAs of 16 rows
// on 132 SMs: 6032..6336 rows) runs the decode kernel three CTAs an SM;
// emptier or fuller grids, more tokens, longer K, NN and fewer SMs keep
// cuBLAS.
void decode_kernel_three_an_sm_takes_a_full_wave(void**) {
  const DeviceCaps caps{0, 9, 0, 132, 232448};
  const auto tn = [](int64_t m, int64_t n, int64_t k, bwgemm::DType t) {
    GemmProblem p = problem({m, n, k, 1, t, t, 132, false});
    p.trans_a = true;
    p.lda = p.ldb = k;
    p.ldc = p.ldd = m;
    return p;
  };
  for (bwgemm::DType t : {BF16, F16})
    for (int64_t n : {1, 8}) {
      const GemmProblem p = tn(6144, n, 4096, t);
      const bwgemm::ConfigChoice c = bwgemm::sm90::select_config(p, caps);
      assert_int_equal(c.config, bwgemm::sm90::kDecodeConfig);
      assert_non_null(std::strstr(c.rule, "three CTAs an SM"));
      assert_int_equal(bwgemm::decode::shape_of(p, caps), bwgemm::decode::kThreeAnSmShape);
    }
  assert_int_equal(bwgemm::sm90::select_config(tn(6032, 8, 4096, BF16), caps).config,
                   bwgemm::sm90::kDecodeConfig);  // 377 CTAs
  assert_int_equal(bwgemm::sm90::select_config(tn(6336, 8, 4096, BF16), caps).config,
                   bwgemm::sm90::kDecodeConfig);  // 396
  assert_int_equal(bwgemm::sm90::select_config(tn(6016, 8, 4096, BF16), caps).config, -1);
  assert_int_equal(bwgemm::sm90::select_config(tn(6352, 8, 4096, BF16), caps).config, -1);
  assert_int_equal(bwgemm::sm90::select_config(tn(5120, 1, 4096, BF16), caps).config, -1);
  assert_int_equal(bwgemm::sm90::select_config(tn(6144, 9, 4096, BF16), caps).config, -1);
  assert_int_equal(bwgemm::sm90::select_config(tn(6144, 8, 4104, BF16), caps).config, -1);
  GemmProblem nn = tn(6144, 8, 4096, BF16);
  nn.trans_a = false;
  nn.lda = 6144;
  assert_int_equal(bwgemm::sm90::select_config(nn, caps).config, -1);
  const DeviceCaps h100_pcie{0, 9, 0, 114, 232448};
  assert_int_equal(bwgemm::sm90::select_config(tn(6144, 8, 4096, BF16), h100_pcie).config, -1);
}

void half_columns_where_they_fill_the_last_wave(void**) {
  const DeviceCaps caps{0, 9, 0, 132, 232448};
  const int half = bwgemm::sm90::config_by_name("sm90_256x128x64_5stage_2cta");
  assert_true(half > 0);
  const auto config = [&](int64_t m, int64_t n, int64_t k) {
    return bwgemm::sm90::select_config(problem({m, n, k, 1, BF16, BF16, 132, true}), caps).config;
  };
  assert_int_equal(config(768, 8192, 50257), half);  // NN, every ld 16384
  assert_int_equal(config(50257, 8192, 768), 0);     // logits: 6304 tiles
  assert_int_equal(config(768, 50257, 8192), 0);     // weight gradient: 591 tiles
  assert_int_equal(config(4095, 4097, 4096), 0);     // 256 tiles, 0.97 of 4 waves
  assert_int_equal(config(2047, 2049, 1023), half);  // 72 tiles: 0.55 of 2 waves, 0.73 of 3
  // On 66 SMs (33 clusters), 96 tiles fill 0.97 of three waves.
  const DeviceCaps half_gpu{0, 9, 0, 66, 232448};
  assert_int_equal(
      bwgemm::sm90::select_config(problem({768, 8192, 50257, 1, BF16, BF16, 66, true}), half_gpu)
          .config,
      0);
  // B read by row classes (NN, ldb 50257, as PyTorch calls the input
  // gradient): half-wide tiles are too slow on them to pay for the fill.
  for (int64_t m : {768, 1280}) {
    GemmProblem p = problem({m, 8192, 50257, 1, BF16, BF16, 132, true});
    p.lda = p.ldc = p.ldd = m;
    p.ldb = 50257;
    assert_int_equal(bwgemm::sm90::select_config(p, caps).config, 0);
    p.ldb = 50264;  // aligned B: no row classes
    assert_int_equal(bwgemm::sm90::select_config(p, caps).config, half);
  }
}

// Decode from a 4096 x 4096 weight with 17..32 tokens (TN) or 11..32 (NN)
// keeps cuBLAS: the split-K pair with 32-row stages, faster back to back, made
// a whole model's decode step slower (docs/perf.md v35). TN <= 16 and NN <= 8
// run the decode kernel. The pair still runs where named; its stages hold 32
// token rows, so it takes no call with more, even when named.
void decode_pair_runs_only_when_named(void**) {
  const DeviceCaps caps{0, 9, 0, 132, 232448};
  const int pair = bwgemm::sm90::config_by_name("sm90_32x64x64_6stage_2cta_splitk");
  assert_true(pair > 0);
  const auto call = [](bool tn, int64_t m, int64_t n, int64_t k) {
    GemmProblem p = problem({m, n, k, 1, BF16, BF16, 132, false});
    p.trans_a = tn;
    p.lda = tn ? k : m;
    p.ldb = k;
    p.ldc = p.ldd = m;
    return p;
  };
  for (const GemmProblem& p :
       {call(true, 4096, 17, 4096), call(true, 4096, 24, 4096), call(true, 4096, 32, 4096),
        call(false, 4096, 9, 4096), call(false, 4096, 11, 4096), call(false, 4096, 16, 4096),
        call(false, 4096, 32, 4096)}) {
    const bwgemm::ConfigChoice c = bwgemm::sm90::select_config(p, caps);
    assert_int_equal(c.config, -1);
    assert_non_null(std::strstr(c.rule, "2113..4224"));
  }
  // Fewer tokens: the decode kernel.
  assert_int_equal(bwgemm::sm90::select_config(call(true, 4096, 16, 4096), caps).config,
                   bwgemm::sm90::kDecodeConfig);
  assert_int_equal(bwgemm::sm90::select_config(call(false, 4096, 8, 4096), caps).config,
                   bwgemm::sm90::kDecodeConfig);
  // Named: 32 tokens run it; 33 fall back to configuration 0 when forced.
  assert_int_equal(bwgemm::sm90::choose(call(false, 4096, 32, 4000), caps, true, pair).config,
                   pair);
  assert_int_equal(bwgemm::sm90::choose(call(true, 4096, 24, 4096), caps, true, pair).config, pair);
  assert_int_equal(bwgemm::sm90::choose(call(true, 4096, 33, 4096), caps, true, pair).config, 0);
}

// choose(): a configuration named (BWGEMM_SM90_CONFIG) replaces the table's
// wherever the kernel runs and it is compiled for the layout; it never turns
// a cuBLAS row into a kernel run unless forced.
void a_named_configuration_replaces_the_choice(void**) {
  const DeviceCaps caps{0, 9, 0, 132, 232448};
  const int split4 = bwgemm::sm90::config_by_name("sm90_64x64x64_10stage_4cta_splitk");
  assert_true(split4 > 0);
  GemmProblem decode = problem({4224, 16, 4096, 1, BF16, BF16, 132, false});
  assert_int_equal(bwgemm::sm90::choose(decode, caps, false, -1).config, -1);
  assert_int_equal(bwgemm::sm90::choose(decode, caps, true, split4).config, split4);
  assert_string_equal(bwgemm::sm90::choose(decode, caps, true, split4).rule,
                      "named by BWGEMM_SM90_CONFIG");
  // A cuBLAS row stays cuBLAS under AUTO; forced, the named configuration.
  const GemmProblem cube = problem({1024, 1024, 1024, 1, F16, F16, 132, false});
  assert_int_equal(bwgemm::sm90::choose(cube, caps, false, split4).config, -1);
  assert_int_equal(bwgemm::sm90::choose(cube, caps, true, -1).config, 0);
  assert_int_equal(bwgemm::sm90::choose(cube, caps, true, split4).config, split4);
  // B transposed (an M/N-major row operand): decode configurations are not
  // compiled for it, so configuration 0 runs when forced, cuBLAS otherwise.
  decode.trans_b = true;
  assert_int_equal(bwgemm::sm90::choose(decode, caps, true, split4).config, 0);
  assert_int_equal(bwgemm::sm90::choose(decode, caps, false, -1).config, -1);
}

// An M/N-major B that TMA cannot address (GPT-2's weight gradient, NT with
// ldb 50257) on 256 x 256 tiles, m <= 1024: a configuration with row windows
// reads it, into registers where A is M-major and k a multiple of 8, else
// shifted. Aligned, batched, K-major or on 256 x 128 tiles: not.
void row_windows_for_unaligned_mn_major_b(void**) {
  const DeviceCaps caps{0, 9, 0, 132, 232448};
  const int windows = bwgemm::sm90::config_by_name("sm90_256x256x64_3stage_2cta_windows");
  const int registers = bwgemm::sm90::config_by_name("sm90_256x256x64_3stage_2cta_regwindows");
  assert_true(windows > 0 && registers > 0);
  GemmProblem p = problem({768, 50257, 8192, 1, BF16, BF16, 132, true});
  p.trans_b = true;
  p.lda = p.ldd = p.ldc = 768;
  p.ldb = 50257;
  bwgemm::ConfigChoice c = bwgemm::sm90::select_config(p, caps);
  assert_int_equal(c.config, registers);
  assert_non_null(std::strstr(c.rule, "row windows into registers"));
  p.m = p.lda = p.ldc = p.ldd = 1024;
  assert_int_equal(bwgemm::sm90::select_config(p, caps).config, registers);
  p.m = p.lda = p.ldc = p.ldd = 1032;
  assert_int_equal(bwgemm::sm90::select_config(p, caps).config, 0);
  // k not a multiple of 8, or A K-major (TT): the shifted windows.
  p.m = p.lda = p.ldc = p.ldd = 768;
  p.k = 8196;
  c = bwgemm::sm90::select_config(p, caps);
  assert_int_equal(c.config, windows);
  assert_non_null(std::strstr(c.rule, "row windows"));
  assert_null(std::strstr(c.rule, "registers"));
  p.k = 8192;
  p.trans_a = true;
  p.lda = 8192;
  assert_int_equal(bwgemm::sm90::select_config(p, caps).config, windows);
  p.m = p.ldc = p.ldd = 1024;  // the widest D measured faster
  assert_int_equal(bwgemm::sm90::select_config(p, caps).config, windows);
  p.m = p.ldc = p.ldd = 1032;
  assert_int_equal(bwgemm::sm90::select_config(p, caps).config, 0);
  p.trans_a = false;
  p.k = 8196;
  p.lda = 1032;
  assert_int_equal(bwgemm::sm90::select_config(p, caps).config, 0);
  p.k = 8192;
  p.m = p.lda = p.ldc = p.ldd = 768;
  p.ldb = 50264;  // 16-byte rows: TMA reads B as it is
  assert_int_equal(bwgemm::sm90::select_config(p, caps).config, 0);
  p.b = reinterpret_cast<const void*>(uintptr_t{2});  // or an unaligned base
  p.ldb = 50264;
  assert_int_equal(bwgemm::sm90::select_config(p, caps).config, registers);
  p.batch = 2;
  assert_int_equal(bwgemm::sm90::select_config(p, caps).config, 0);
  p.batch = 1;
  p.trans_b = false;  // NN: B is K-major (row classes, configuration 0's)
  p.b = nullptr;
  p.ldb = 50257;
  assert_int_equal(bwgemm::sm90::select_config(p, caps).config, 0);
  // 768 x 8192 x 50257 NT: 96 tiles of 256 x 256 fill the last wave worse
  // than 192 of 256 x 128, which keep the packed copy.
  GemmProblem q = problem({768, 8192, 50257, 1, BF16, BF16, 132, true});
  q.trans_b = true;
  q.ldb = 8191;
  assert_int_equal(bwgemm::sm90::select_config(q, caps).config,
                   bwgemm::sm90::config_by_name("sm90_256x128x64_5stage_2cta"));
  // Wide D (4095 x 4097 x 4096 NT): the copy costs less than the windows.
  GemmProblem wide = problem({4095, 4097, 4096, 1, BF16, BF16, 132, true});
  wide.trans_b = true;
  wide.ldb = 4097;
  assert_int_equal(bwgemm::sm90::select_config(wide, caps).config, 0);
  // Named, the configuration runs what its windows can read, and a problem
  // they cannot (batches) has the choice it would have had.
  assert_int_equal(bwgemm::sm90::choose(wide, caps, true, windows).config, windows);
  wide.batch = 2;
  assert_int_equal(bwgemm::sm90::choose(wide, caps, true, windows).config, 0);
}

// plan_grid_split, the last wave: configuration 0's 256 x 256 tiles, whose
// last wave would run mostly idle, cut by columns (cuBLAS's m) into whole
// waves of them and a tail of 256 x 128 tiles, where the model of policy.cpp
// (half tiles take half the time, at the measured speed of half-wide tiles)
// saves a twentieth.
void last_waves_split_off_by_columns(void**) {
  const DeviceCaps caps{0, 9, 0, 132, 232448};
  const int half = bwgemm::sm90::config_by_name("sm90_256x128x64_5stage_2cta");
  const auto input_gradient = [](int64_t m, int64_t k) {
    GemmProblem p = problem({m, 8192, k, 1, BF16, BF16, 132, true});
    p.lda = p.ldc = p.ldd = m;
    p.ldb = k;
    p.a = reinterpret_cast<const void*>(uintptr_t{1} << 20);
    p.b = reinterpret_cast<const void*>(uintptr_t{1} << 30);
    p.d = reinterpret_cast<void*>(uintptr_t{1} << 40);
    p.c = p.d;
    return p;
  };
  bwgemm::sm90::GridSplit s;
  const auto split = [&](const GemmProblem& p, int config = 0) {
    return bwgemm::sm90::plan_grid_split(p, caps, config, false, &s);
  };
  // 96 tiles (32 row blocks by 3) on 66 clusters: 512 columns fill a wave
  // (64 tiles); the other 256 make 64 half tiles, one wave at 0.70 speed:
  // 1.71 waves' time against 2.
  GemmProblem p = input_gradient(768, 50257);
  p.epilogue.bias = reinterpret_cast<const void*>(uintptr_t{1} << 44);
  p.epilogue.bias_type = F32;
  // Where the whole grid splits its last wave over K instead, no columns.
  assert_false(bwgemm::sm90::plan_grid_split(p, caps, 0, true, &s));
  assert_true(split(p));
  assert_int_equal(s.edge_config, half);
  assert_false(s.edge_may_decode);
  assert_int_equal(s.parts.body.m, 512);
  assert_int_equal(s.parts.edge.m, 256);
  assert_int_equal(s.parts.edge.n, 8192);
  assert_int_equal(s.parts.edge.k, 50257);
  assert_ptr_equal(s.parts.body.a, p.a);
  assert_ptr_equal(s.parts.edge.b, p.b);
  assert_int_equal(uintptr_t(s.parts.edge.a), uintptr_t(p.a) + 2 * 512);
  assert_int_equal(uintptr_t(s.parts.edge.d), uintptr_t(p.d) + 2 * 512);
  assert_int_equal(uintptr_t(s.parts.edge.c), uintptr_t(p.c) + 2 * 512);
  assert_int_equal(uintptr_t(s.parts.edge.epilogue.bias), uintptr_t(p.epilogue.bias) + 4 * 512);
  // A transposed: the tail's rows of op(A) start 512 columns of A in.
  p.trans_a = true;
  p.lda = 50257;
  assert_true(split(p));
  assert_int_equal(uintptr_t(s.parts.edge.a), uintptr_t(p.a) + 2 * 512 * 50257);
  // Aligned B: half tiles run at 0.85, the tail wave costs 0.59.
  assert_true(split(input_gradient(768, 50264)));
  // 1280 columns: 160 tiles, 3 waves; split, 128 tiles in 2 and 64 half
  // tiles in one: 2.71.
  assert_true(split(input_gradient(1280, 50257)));
  assert_int_equal(s.parts.body.m, 1024);
  // Not: another configuration, a short k, batches.
  p = input_gradient(768, 50257);
  assert_false(split(p, half));
  p.k = 2047;
  assert_false(split(p));
  p.k = 2048;
  assert_true(split(p));
  p.batch = 2;
  assert_false(split(p));
  // The handle's SM count target sets the clusters: on a 240-SM device, 132
  // SMs split as above; not the same 96 tiles on 33 clusters (target 66; 3
  // waves, split: 2 + 2 x 0.71), on 48 (two full waves), on 120 (one wave).
  const DeviceCaps more{0, 9, 0, 240, 232448};
  p = input_gradient(768, 50257);
  p.sm_count_target = 132;
  assert_true(bwgemm::sm90::plan_grid_split(p, more, 0, false, &s));
  assert_int_equal(s.parts.body.m, 512);
  for (int sms : {66, 96, 240}) {
    p.sm_count_target = sms;
    assert_false(bwgemm::sm90::plan_grid_split(p, more, 0, false, &s));
  }
  // fp32 C and D: their rows move by 4 bytes an element, A's by 2.
  p = input_gradient(768, 50257);
  p.c_type = F32;
  assert_true(split(p));
  assert_int_equal(uintptr_t(s.parts.edge.a), uintptr_t(p.a) + 2 * 512);
  assert_int_equal(uintptr_t(s.parts.edge.d), uintptr_t(p.d) + 4 * 512);
  assert_int_equal(uintptr_t(s.parts.edge.c), uintptr_t(p.c) + 4 * 512);
  assert_ptr_equal(s.parts.body.d, p.d);
  assert_int_equal(s.parts.body.n, 8192);
  // Not: a nearly full last wave (50257 x 8192 x 4096: 6304 tiles, 95.5
  // waves; split: 95 waves and 96 half tiles in 2, 96.2) or a tail that costs
  // more than it saves (2048 x 8192: 256 tiles, 4 waves; split: 192 tiles in
  // 3 and 128 half tiles in 2, 4.43).
  assert_false(split(input_gradient(50257, 4096)));
  assert_false(split(input_gradient(2048, 50257)));
}

// plan_grid_split, the ragged edge first (ragged_edge.h): 4095 x 4097 x 4096
// on 256 x 256 tiles leaves cuBLAS's last column of op(B) and D alone, which
// may run on the decode kernel, else on 64 x 128 tiles; on any
// configuration.
void ragged_edges_split_before_last_waves(void**) {
  const DeviceCaps caps{0, 9, 0, 132, 232448};
  const int edge = bwgemm::sm90::config_by_name("sm90_64x128x64_8stage_1cta");
  bwgemm::sm90::GridSplit s;
  for (int config : {0, bwgemm::sm90::config_by_name("sm90_256x256x64_3stage_2cta_windows")}) {
    const GemmProblem p = problem({4095, 4097, 4096, 1, BF16, BF16, 132, true});
    assert_true(bwgemm::sm90::plan_grid_split(p, caps, config, false, &s));
    assert_int_equal(s.edge_config, edge);
    assert_true(s.edge_may_decode);
    assert_int_equal(s.parts.body.n, 4096);
    assert_int_equal(s.parts.edge.n, 1);
    assert_int_equal(s.parts.edge.m, 4095);
  }
  // Aligned 4096^3: nothing to split.
  assert_false(bwgemm::sm90::plan_grid_split(problem({4096, 4096, 4096, 1, BF16, BF16, 132, true}),
                                             caps, 0, false, &s));
}

// decode_edge_from_copy: NT and TT's ragged edge (one N-major column of
// op(B), the packed B's last row) as a decode GEMM on a K-major copy in the
// workspace dispatch left, where it fits and the decode kernel takes it.
void n_major_edge_tokens_are_copied_for_the_decode_kernel(void**) {
  const DeviceCaps caps{0, 9, 0, 132, 232448};
  alignas(256) static uint8_t room[32 * 4096 * 2];
  GemmProblem p = problem({4095, 4097, 4096, 1, BF16, BF16, 132, true});
  p.trans_b = true;  // NT: B is n x k, packed
  p.lda = p.ldb = 4160;
  p.a_padded = true;  // A packed too
  p.a = reinterpret_cast<const void*>(uintptr_t{1} << 20);
  p.b = reinterpret_cast<const void*>(uintptr_t{1} << 30);
  p.workspace = room;
  p.workspace_bytes = sizeof room;
  bwgemm::sm90::GridSplit s;
  assert_true(bwgemm::sm90::plan_grid_split(p, caps, 0, false, &s));
  const GemmProblem& edge = s.parts.edge;
  assert_int_equal(uintptr_t(edge.b), uintptr_t(p.b) + 2 * 4096);
  GemmProblem copied{};
  bwgemm::Matrix16 tokens{};
  assert_true(bwgemm::sm90::decode_edge_from_copy(edge, caps, &copied, &tokens));
  assert_false(copied.trans_b);
  assert_ptr_equal(copied.b, room);
  assert_int_equal(copied.ldb, 4096);
  assert_int_equal(copied.n, 1);
  assert_ptr_equal(copied.a, edge.a);
  assert_ptr_equal(copied.d, edge.d);
  assert_null(copied.workspace);
  assert_ptr_equal(tokens.base, edge.b);
  assert_int_equal(tokens.rows, 1);
  assert_int_equal(tokens.cols, 4096);
  assert_int_equal(tokens.ld, 4160);
  assert_int_equal(bwgemm::decode::check(copied, caps), BWGEMM_REASON_KERNEL_SELECTED);
  // TT: the weight K-major.
  GemmProblem tt = edge;
  tt.trans_a = true;
  tt.lda = 4096;
  tt.a_padded = false;
  assert_true(bwgemm::sm90::decode_edge_from_copy(tt, caps, &copied, &tokens));
  // Not: no room or too little, misaligned room, K-major tokens already (NN,
  // TN), a weight the decode kernel does not read (m % 8 != 0, not padded),
  // k not a multiple of 8, more columns than the room is sized for.
  const auto refused = [&](GemmProblem q) {
    return !bwgemm::sm90::decode_edge_from_copy(q, caps, &copied, &tokens);
  };
  GemmProblem q = edge;
  q.workspace = nullptr;
  assert_true(refused(q));
  q = edge;
  q.workspace_bytes = 4096 * 2 - 1;
  assert_true(refused(q));
  q.workspace_bytes = 4096 * 2;
  assert_false(refused(q));
  q.workspace = room + 8;
  assert_true(refused(q));
  q = edge;
  q.trans_b = false;
  q.ldb = 4096;
  assert_true(refused(q));
  q = edge;
  q.a_padded = false;
  assert_true(refused(q));
  q = edge;
  q.k = 4092;
  assert_true(refused(q));
  q = edge;
  q.n = bwgemm::kMaxTransposedColumns + 1;
  assert_true(refused(q));
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(cublas_keeps_its_fast_path),
      cmocka_unit_test(n_major_edge_tokens_are_copied_for_the_decode_kernel),
      cmocka_unit_test(decode_kernel_takes_few_tokens_in_one_wave),
      cmocka_unit_test(decode_pair_runs_only_when_named),
      cmocka_unit_test(odd_sizes_with_a_wave_of_tiles_take_the_kernel),
      cmocka_unit_test(small_shapes_and_short_k_stay_with_cublas),
      cmocka_unit_test(skinny_calls_stay_with_cublas_where_it_is_aligned),
      cmocka_unit_test(fp32_outputs_stay_with_cublas),
      cmocka_unit_test(the_wave_scales_with_the_sms_and_the_batch),
      cmocka_unit_test(decode_rows_say_cublas_with_their_rule),
      cmocka_unit_test(decode_kernel_three_an_sm_takes_a_full_wave),
      cmocka_unit_test(half_columns_where_they_fill_the_last_wave),
      cmocka_unit_test(a_named_configuration_replaces_the_choice),
      cmocka_unit_test(row_windows_for_unaligned_mn_major_b),
      cmocka_unit_test(last_waves_split_off_by_columns),
      cmocka_unit_test(ragged_edges_split_before_last_waves),
  };
  return cmocka_run_group_tests_name("sm90_policy", tests, nullptr, nullptr);
}
