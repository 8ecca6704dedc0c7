// SPDX-License-Identifier: MIT
// src/kernels/common/{kernel_view,launch_params,kernel_launch}.cpp with the
// sm90 tile shape and variant table (src/kernels/sm90/variants.cpp): cuBLAS
// calls, decoded as the library decodes them, mapped to the row-major kernel
// view, its variant key, TMA map specs, the kernel's parameter block and the
// shared launcher. encode_tma_map and launch_persistent are replaced by
// recorders.
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "api/decode.h"
#include "core/env_config.h"
#include "core/launch_order.h"
#include "kernels/common/kernel_launch.h"
#include "kernels/common/kernel_view.h"
#include "kernels/common/launch_params.h"
#include "kernels/common/ragged_edge.h"
#include "kernels/common/tile_split.h"
#include "kernels/sm90/config.h"
#include "kernels/sm90/variants.h"
#include "support/cmocka_cxx.h"
#include "support/test_env.h"

using bwgemm::DType;
using bwgemm::GemmParams;
using bwgemm::GemmProblem;
using bwgemm::KernelView;
using bwgemm::LaunchMaps;
using bwgemm::TileShape;
using bwgemm::TmaMapSpec;

// ---- replaced pieces ----------------------------------------------------------

namespace {

struct EncodeCall {
  TmaMapSpec spec;
  CUtensorMap* out;
};
std::vector<EncodeCall> g_encoded;
int g_fail_call = -1;  // the encode call (0-based) that fails; -1: none

}  // namespace

// The driver's encoder: records the spec, marks the map with the call's index.
bool bwgemm::encode_tma_map(const TmaMapSpec& spec, CUtensorMap* out) {
  const int index = static_cast<int>(g_encoded.size());
  g_encoded.push_back({spec, out});
  out->opaque[0] = 0xC0DE0000u + index;
  return index != g_fail_call;
}

// The per-type instantiation tables (kernels/sm90/variants_*.cu need nvcc):
// each returns its own entry, at the variant's index, or NULL where the
// configuration is not compiled for the layout.
namespace {
bwgemm::KernelVariant g_fake_variants[bwgemm::kVariantsPerConfig * bwgemm::sm90::kConfigCount];
}  // namespace
namespace bwgemm::sm90 {
#define FAKE_VARIANTS_(name, AB, Out)                                                     \
  const KernelVariant* variants_##name(int config, bool row_mn, bool col_mn) {            \
    if (!layout_compiled(config, row_mn, col_mn)) return nullptr;                         \
    return &g_fake_variants[config * kVariantsPerConfig +                                 \
                            variant_ordinal(std::is_same_v<AB, __nv_bfloat16>,            \
                                            std::is_same_v<Out, float>, row_mn, col_mn)]; \
  }
BWGEMM_FOR_EACH_TYPE_PAIR(FAKE_VARIANTS_)
#undef FAKE_VARIANTS_
}  // namespace bwgemm::sm90

// The persistent launch (it needs the CUDA runtime): records what it was
// given and answers as the test says.
namespace {
const bwgemm::KernelVariant* g_launched_variant;
bwgemm::GemmParams g_launched_params;
int g_launched_sm_count_target;
bool g_launched_after_releasing_grid;
cudaError_t g_launch_error = cudaSuccess;
}  // namespace
cudaError_t bwgemm::launch_persistent(const KernelVariant& v, const GemmParams& params,
                                      const DeviceCaps&, int sm_count_target, cudaStream_t,
                                      bool after_releasing_grid) {
  g_launched_after_releasing_grid = after_releasing_grid;
  g_launched_variant = &v;
  g_launched_params = params;
  g_launched_sm_count_target = sm_count_target;
  return g_launch_error;
}

namespace {

// ---- calls --------------------------------------------------------------------

constexpr cublasOperation_t kOps[] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};

struct Types {
  cudaDataType ab, out;
  DType ab_dtype, out_dtype;
};
constexpr Types kTypes[] = {
    {CUDA_R_16F, CUDA_R_16F, DType::F16, DType::F16},
    {CUDA_R_16F, CUDA_R_32F, DType::F16, DType::F32},
    {CUDA_R_16BF, CUDA_R_16BF, DType::BF16, DType::BF16},
    {CUDA_R_16BF, CUDA_R_32F, DType::BF16, DType::F32},
};

struct Size {
  int64_t m, n, k, batch;
  bool broadcast_a, broadcast_b;  // stride 0 across the batch
};
// Partial tiles, one tile, batches with and without broadcast operands, k = 0.
constexpr Size kSizes[] = {
    {300, 200, 100, 1, false, false}, {257, 513, 64, 3, false, false}, {64, 32, 16, 2, true, false},
    {40, 24, 40, 2, false, true},     {8, 300, 0, 1, false, false},    {4, 6, 1000, 4, true, true},
};

const float kAlpha = 1.25f;
const float kBeta = -0.75f;
const float* const kDeviceAlpha = reinterpret_cast<const float*>(0xA1000);
const float* const kDeviceBeta = reinterpret_cast<const float*>(0xB1000);
const cudaStream_t kStream = reinterpret_cast<cudaStream_t>(0x5100);

int64_t round_up(int64_t v, int64_t to) { return (v + to - 1) / to * to; }

// A strided-batched call with distinct, 16-byte multiple leading dimensions
// and strides (none equals another, so a swap shows).
bwgemm::RawCall make_call(cublasOperation_t transa, cublasOperation_t transb, const Types& t,
                          const Size& s) {
  bwgemm::RawCall c{};
  c.entry = bwgemm::EntryPoint::GemmStridedBatchedEx_64;
  c.handle = reinterpret_cast<cublasHandle_t>(0x7000);
  c.transa = transa;
  c.transb = transb;
  c.m = s.m;
  c.n = s.n;
  c.k = s.k;
  c.alpha = &kAlpha;
  c.beta = &kBeta;
  c.Atype = c.Btype = t.ab;
  c.Ctype = t.out;
  c.A = reinterpret_cast<const void*>(0x1000000);
  c.B = reinterpret_cast<const void*>(0x2000000);
  c.C = reinterpret_cast<void*>(0x3000000);
  const int64_t rows_a = transa == CUBLAS_OP_N ? s.m : s.k;
  const int64_t rows_b = transb == CUBLAS_OP_N ? s.k : s.n;
  c.lda = round_up(rows_a, 8) + 8;
  c.ldb = round_up(rows_b, 8) + 16;
  c.ldc = round_up(s.m, 8) + 24;
  c.strideA = s.broadcast_a ? 0 : c.lda * (transa == CUBLAS_OP_N ? s.k : s.m) + 64;
  c.strideB = s.broadcast_b ? 0 : c.ldb * (transb == CUBLAS_OP_N ? s.n : s.k) + 128;
  c.strideC = c.ldc * s.n + 256;
  c.batch = s.batch;
  c.compute = CUBLAS_COMPUTE_32F;
  c.algo = CUBLAS_GEMM_DEFAULT_TENSOR_OP;
  return c;
}

// The problem the library builds for the call, which must be one it runs.
GemmProblem problem_of(const bwgemm::RawCall& c, cublasPointerMode_t mode) {
  assert_int_equal(bwgemm::classify_call(c), BWGEMM_REASON_KERNEL_SELECTED);
  const GemmProblem p = bwgemm::make_problem(c, mode, kStream);
  assert_int_equal(bwgemm::check_layout(p), BWGEMM_REASON_KERNEL_SELECTED);
  return p;
}

// Runs `check` for every op pair, type pair and size, host pointer mode.
template <class Check>
void for_every_call(Check check) {
  for (cublasOperation_t transa : kOps)
    for (cublasOperation_t transb : kOps)
      for (const Types& t : kTypes)
        for (const Size& s : kSizes) {
          const bwgemm::RawCall c = make_call(transa, transb, t, s);
          check(c, t, problem_of(c, CUBLAS_POINTER_MODE_HOST));
        }
}

// The launcher's shape for an output type (family.cpp: one 128-byte row of
// the output per epilogue chunk).
TileShape shape_for(DType out) { return bwgemm::sm90::tile_shape(0, out); }

size_t elem(DType t) { return t == DType::F32 ? 4 : 2; }

CUtensorMapDataType tma_type(DType t) {
  return t == DType::F16    ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16
         : t == DType::BF16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                            : CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
}

// ---- tests --------------------------------------------------------------------

// The sm90 kernel's tile (config.h) as the launcher sees it.
template <class AB, class Out>
void check_chunk_matches_config(DType out) {
  using Cfg = bwgemm::sm90::Config<AB, Out, false, false>;
  const TileShape s = shape_for(out);
  assert_int_equal(s.out_box_cols, Cfg::kChunkCols);
  assert_int_equal(uint32_t(s.out_box_cols) * sizeof(Out) * s.out_box_rows, Cfg::kChunkBytes);
}

void tile_shape_is_the_sm90_config(void**) {
  using Cfg = bwgemm::sm90::Config<__half, __half, false, false>;
  const TileShape s = bwgemm::sm90::tile_shape(0, DType::F16);
  assert_int_equal(s.cluster_size, Cfg::kClusterSize);
  assert_int_equal(s.cluster_size, 2);
  assert_int_equal(s.block_rows, Cfg::kBlockRows);
  assert_int_equal(s.block_rows, 128);
  assert_int_equal(s.block_cols, Cfg::kBlockCols);
  assert_int_equal(s.block_cols, 256);
  assert_int_equal(s.block_k, Cfg::kBlockK);
  assert_int_equal(s.block_k, 64);
  assert_int_equal(s.mn_box, Cfg::kMNBox);
  // One chunk is 64 rows (one consumer's rows) of 128 bytes.
  assert_int_equal(s.out_box_rows, 64);
  assert_int_equal(s.group, 8);
  check_chunk_matches_config<__half, __half>(DType::F16);
  check_chunk_matches_config<__nv_bfloat16, __nv_bfloat16>(DType::BF16);
  check_chunk_matches_config<__nv_bfloat16, float>(DType::F32);
}

// kernel_view.h: D[n x m] = op(B)^T op(A)^T, row operand B (M/N-major exactly
// when B is transposed), column operand A (M/N-major exactly when A is not),
// strides only across a batch.
void kernel_view_is_the_transposed_product(void**) {
  for_every_call([](const bwgemm::RawCall& c, const Types& t, const GemmProblem& p) {
    const KernelView v = bwgemm::to_kernel_view(p);
    assert_int_equal(v.ab_type, t.ab_dtype);
    assert_int_equal(v.out_type, t.out_dtype);
    assert_int_equal(v.rows, c.n);
    assert_int_equal(v.cols, c.m);
    assert_int_equal(v.depth, c.k);
    assert_int_equal(v.batch, c.batch);
    assert_ptr_equal(v.row_operand.base, c.B);
    assert_int_equal(v.row_operand.ld, c.ldb);
    assert_int_equal(v.row_operand.stride, c.batch > 1 ? c.strideB : 0);
    assert_int_equal(v.row_operand.mn_major, c.transb != CUBLAS_OP_N);
    assert_ptr_equal(v.col_operand.base, c.A);
    assert_int_equal(v.col_operand.ld, c.lda);
    assert_int_equal(v.col_operand.stride, c.batch > 1 ? c.strideA : 0);
    assert_int_equal(v.col_operand.mn_major, c.transa == CUBLAS_OP_N);
    assert_ptr_equal(v.out, c.C);
    assert_int_equal(v.out_ld, c.ldc);
    assert_int_equal(v.out_stride, c.batch > 1 ? c.strideC : 0);
  });
}

void a_single_matrix_has_no_strides(void**) {
  GemmProblem p{};
  p.m = p.n = p.k = 64;
  p.lda = p.ldb = p.ldc = p.ldd = 64;
  p.stride_a = p.stride_b = p.stride_c = p.stride_d = 4096;
  p.batch = 1;
  const KernelView v = bwgemm::to_kernel_view(p);
  assert_int_equal(v.row_operand.stride, 0);
  assert_int_equal(v.col_operand.stride, 0);
  assert_int_equal(v.out_stride, 0);
}

// The batch dimension: one plane for a single matrix or a broadcast operand,
// whose stride is never used but must be one the driver accepts.
void check_batch_dim(const TmaMapSpec& m, int64_t batch, int64_t stride, size_t bytes) {
  if (batch > 1 && stride != 0) {
    assert_int_equal(m.dims[2], batch);
    assert_int_equal(m.strides[1], uint64_t(stride) * bytes);
  } else {
    assert_int_equal(m.dims[2], 1);
    assert_true(m.strides[1] > 0 && m.strides[1] % 16 == 0 && m.strides[1] < (uint64_t{1} << 40));
  }
}

// A map over an operand of mn_extent x depth: K-major boxes are
// block_k x k_major_box, M/N-major ones mn_box x block_k.
void check_operand_map(const TmaMapSpec& m, DType type, const void* base, bool mn_major,
                       int64_t mn_extent, int64_t depth, int64_t ld, int64_t batch, int64_t stride,
                       const TileShape& s, uint32_t k_major_box) {
  assert_int_equal(m.dtype, tma_type(type));
  assert_ptr_equal(m.base, base);
  assert_int_equal(m.swizzle, CU_TENSOR_MAP_SWIZZLE_128B);
  if (mn_major) {
    assert_int_equal(m.dims[0], mn_extent);
    assert_int_equal(m.dims[1], depth);
    assert_int_equal(m.box[0], s.mn_box);
    assert_int_equal(m.box[1], s.block_k);
  } else {
    assert_int_equal(m.dims[0], depth);
    assert_int_equal(m.dims[1], mn_extent);
    assert_int_equal(m.box[0], s.block_k);
    assert_int_equal(m.box[1], k_major_box);
  }
  assert_int_equal(m.box[2], 1);
  assert_int_equal(m.strides[0], uint64_t(ld) * elem(type));
  check_batch_dim(m, batch, stride, elem(type));
}

void check_output_map(const TmaMapSpec& m, const bwgemm::RawCall& c, DType out,
                      const TileShape& s) {
  assert_int_equal(m.dtype, tma_type(out));
  assert_ptr_equal(m.base, c.C);
  assert_int_equal(m.swizzle, CU_TENSOR_MAP_SWIZZLE_128B);
  assert_int_equal(m.dims[0], c.m);
  assert_int_equal(m.dims[1], c.n);
  assert_int_equal(m.box[0], s.out_box_cols);
  assert_int_equal(m.box[1], s.out_box_rows);
  assert_int_equal(m.box[2], 1);
  assert_int_equal(m.strides[0], uint64_t(c.ldc) * elem(out));
  check_batch_dim(m, c.batch, c.strideC, elem(out));
}

// Row operand op(B)^T (n x k): K-major boxes are one CTA's block of rows.
// Column operand op(A)^T (k x m): K-major boxes are each CTA's share of the
// cluster's columns. D (m contiguous): one epilogue chunk per box.
void check_maps(const LaunchMaps& maps, const bwgemm::RawCall& c, const Types& t,
                const TileShape& s) {
  assert_true(maps.plan.supported);
  check_operand_map(maps.row, t.ab_dtype, c.B, c.transb != CUBLAS_OP_N, c.n, c.k, c.ldb, c.batch,
                    c.strideB, s, uint32_t(s.block_rows));
  check_operand_map(maps.col, t.ab_dtype, c.A, c.transa == CUBLAS_OP_N, c.m, c.k, c.lda, c.batch,
                    c.strideA, s, uint32_t(s.block_cols / s.cluster_size));
  check_output_map(maps.out, c, t.out_dtype, s);
}

void map_specs_describe_the_operands_and_the_output(void**) {
  for_every_call([](const bwgemm::RawCall& c, const Types& t, const GemmProblem& p) {
    const TileShape s = shape_for(t.out_dtype);
    const LaunchMaps maps = bwgemm::launch_map_specs(bwgemm::to_kernel_view(p), s);
    check_maps(maps, c, t, s);
    // sm90: 128 x 64 row boxes, 128 x 64 column boxes (K-major), and every
    // inner box one 128-byte swizzle span.
    if (c.transb == CUBLAS_OP_N) assert_int_equal(maps.row.box[1], 128);
    if (c.transa != CUBLAS_OP_N) assert_int_equal(maps.col.box[1], 128);
    for (const TmaMapSpec* m : {&maps.row, &maps.col})
      assert_int_equal(m->box[0] * elem(t.ab_dtype), 128);
    assert_int_equal(maps.out.box[0] * elem(t.out_dtype), 128);
    assert_int_equal(maps.out.box[1], 64);
  });
}

// A shape whose every extent differs, so that no field can stand in for
// another: boxes and scheduler follow the shape they are given.
const TileShape kOddShape = {2, 96, 160, 32, 48, 24, 40, 3, false, false, false};

void maps_and_scheduler_follow_the_tile_shape(void**) {
  for_every_call([](const bwgemm::RawCall& c, const Types& t, const GemmProblem& p) {
    check_maps(bwgemm::launch_map_specs(bwgemm::to_kernel_view(p), kOddShape), c, t, kOddShape);
    const GemmParams g = bwgemm::launch_params_without_maps(bwgemm::to_kernel_view(p), kOddShape);
    assert_int_equal(g.scheduler.row_blocks, (c.n + 191) / 192);
    assert_int_equal(g.scheduler.col_blocks, (c.m + 159) / 160);
    assert_int_equal(g.scheduler.group, 3);
    // Split-K: the cluster's CTAs share one 96-row tile and each loads all
    // 160 columns (one box when K-major).
    TileShape split = kOddShape;
    split.split_k = true;
    const KernelView v = bwgemm::to_kernel_view(p);
    const GemmParams gs = bwgemm::launch_params_without_maps(v, split);
    assert_int_equal(gs.scheduler.row_blocks, (c.n + 95) / 96);
    assert_int_equal(gs.scheduler.col_blocks, (c.m + 159) / 160);
    if (!v.col_operand.mn_major && v.depth > 0)
      assert_int_equal(bwgemm::launch_map_specs(v, split).col.box[1], 160);
  });
}

// What one pipeline stage's TMA loads deliver to each CTA of a cluster, with
// the boxes of these maps and the loads gemm_kernel.cuh's producer issues
// (row: kBlockRows / kMNBox boxes when M/N-major, else one; column: each CTA
// loads kLoadedCols / kMNBox boxes, or one, multicast to every CTA or not),
// must be the bytes the full barrier expects (kStageBytes), and an output box
// one staging chunk; in every configuration.
bwgemm::RawCall minimal_call(cublasOperation_t transa, cublasOperation_t transb, int64_t m,
                             int64_t n, int64_t k, int offset);

template <bool kRowMN, bool kColMN, int kConfig>
void check_stage_bytes() {
  if constexpr (bwgemm::sm90::layout_compiled(kConfig, kRowMN, kColMN) &&
                bwgemm::sm90::kShapes[kConfig].register_windows) {
    using Cfg = bwgemm::sm90::Config<__half, __half, kRowMN, kColMN, kConfig>;
    // A stage: the window's 8 class boxes (in a row tile of whole KB) and
    // the column tile in the windows' k order, multicast.
    const LaunchMaps maps = bwgemm::launch_map_specs(
        bwgemm::to_kernel_view(problem_of(
            minimal_call(CUBLAS_OP_N, CUBLAS_OP_T, 768, 50257, 8192, 0), CUBLAS_POINTER_MODE_HOST)),
        bwgemm::sm90::tile_shape(kConfig, DType::F16));
    assert_int_equal(int(maps.plan.classes), int(bwgemm::RowClassUse::kRowWindows));
    uint32_t window = 0;
    for (const TmaMapSpec& c : maps.class_row) window += c.box[0] * c.box[1] * c.box[2] * 2;
    assert_int_equal(window, Cfg::kWindowBytes);
    assert_true(window <= Cfg::kRowTileBytes && Cfg::kRowTileBytes % 1024 == 0);
    const TmaMapSpec& col = maps.col;
    assert_int_equal(Cfg::kLoadedCols / Cfg::kMNBox * Cfg::kClusterSize * col.box[0] * col.box[1] *
                         col.box[2] * 2,
                     Cfg::kColTileBytes);
    assert_int_equal(maps.out.box[0] * maps.out.box[1] * 2, Cfg::kChunkBytes);
  } else if constexpr (bwgemm::sm90::layout_compiled(kConfig, kRowMN, kColMN)) {
    using Cfg = bwgemm::sm90::Config<__half, __half, kRowMN, kColMN, kConfig>;
    const bwgemm::RawCall c = make_call(kColMN ? CUBLAS_OP_N : CUBLAS_OP_T,
                                        kRowMN ? CUBLAS_OP_T : CUBLAS_OP_N, kTypes[0], kSizes[1]);
    const LaunchMaps maps =
        bwgemm::launch_map_specs(bwgemm::to_kernel_view(problem_of(c, CUBLAS_POINTER_MODE_HOST)),
                                 bwgemm::sm90::tile_shape(kConfig, DType::F16));
    const uint32_t row_loads = kRowMN ? Cfg::kBlockRows / Cfg::kMNBox : 1;
    const uint32_t col_loads =
        (kColMN ? Cfg::kLoadedCols / Cfg::kMNBox : 1) * (Cfg::kMulticast ? Cfg::kClusterSize : 1);
    const TmaMapSpec& row = maps.row;
    const TmaMapSpec& col = maps.col;
    const uint32_t bytes =
        row_loads * row.box[0] * row.box[1] * 2 + col_loads * col.box[0] * col.box[1] * 2;
    assert_int_equal(bytes, Cfg::kStageBytes);
    assert_int_equal(row_loads * row.box[0] * row.box[1] * 2, Cfg::kRowTileBytes);
    if (kRowMN) assert_int_equal(row.box[0] * row.box[1] * 2, Cfg::kBoxBytes);
    if (kColMN) assert_int_equal(col.box[0] * col.box[1] * 2, Cfg::kBoxBytes);
    assert_int_equal(maps.out.box[0] * maps.out.box[1] * 2, Cfg::kChunkBytes);
  }
}

template <int... kConfigs>
void check_stage_bytes_of(std::integer_sequence<int, kConfigs...>) {
  (check_stage_bytes<false, false, kConfigs>(), ...);
  (check_stage_bytes<false, true, kConfigs>(), ...);
  (check_stage_bytes<true, false, kConfigs>(), ...);
  (check_stage_bytes<true, true, kConfigs>(), ...);
}

void a_stage_of_boxes_is_the_expected_bytes(void**) {
  check_stage_bytes_of(std::make_integer_sequence<int, bwgemm::sm90::kConfigCount>{});
}

int32_t cluster_tiles(int64_t extent, int64_t tile) {
  return static_cast<int32_t>((extent + tile - 1) / tile);
}

void params_without_maps(void**) {
  for_every_call([](const bwgemm::RawCall& c, const Types& t, const GemmProblem& p) {
    const GemmParams g =
        bwgemm::launch_params_without_maps(bwgemm::to_kernel_view(p), shape_for(t.out_dtype));
    // Clusters of 2 x 128 rows by 256 columns.
    assert_int_equal(g.scheduler.row_blocks, cluster_tiles(c.n, 256));
    assert_int_equal(g.scheduler.col_blocks, cluster_tiles(c.m, 256));
    assert_int_equal(g.scheduler.batch, c.batch);
    assert_int_equal(g.scheduler.group, 8);
    assert_int_equal(g.rows, c.n);
    assert_int_equal(g.cols, c.m);
    assert_int_equal(g.depth, c.k);
    assert_int_equal(g.row.batched, c.batch > 1 && c.strideB != 0);
    assert_int_equal(g.col.batched, c.batch > 1 && c.strideA != 0);
    assert_false(g.out_rotated);
    assert_int_equal(g.out_batched, c.batch > 1);
    // A TMA store clips m exactly only at 16-byte multiples.
    assert_int_equal(g.out_store_exact, (c.m * int64_t(elem(t.out_dtype))) % 16 == 0);
    assert_ptr_equal(g.out, c.C);
    assert_int_equal(g.out_ld, c.ldc);
    assert_int_equal(g.out_stride, c.batch > 1 ? c.strideC : 0);
    assert_true(g.stage.alpha.value == kAlpha);
    assert_null(g.stage.alpha.device);
    assert_true(g.stage.beta.value == kBeta);
    assert_null(g.stage.beta.device);
  });
}

void exact_stores_at_16_byte_multiples_only(void**) {
  const struct {
    const Types& types;
    int64_t m;
    bool exact;
  } cases[] = {{kTypes[0], 8, true},    {kTypes[0], 300, false}, {kTypes[0], 4, false},
               {kTypes[2], 256, true},  {kTypes[2], 257, false}, {kTypes[1], 4, true},
               {kTypes[1], 300, true},  {kTypes[1], 6, false},   {kTypes[3], 257, false},
               {kTypes[3], 1000, true}, {kTypes[0], 4104, true}, {kTypes[0], 4100, false}};
  for (const auto& e : cases) {
    const Size s{e.m, 64, 64, 1, false, false};
    const GemmProblem p =
        problem_of(make_call(CUBLAS_OP_N, CUBLAS_OP_N, e.types, s), CUBLAS_POINTER_MODE_HOST);
    assert_int_equal(
        bwgemm::launch_params_without_maps(bwgemm::to_kernel_view(p), shape_for(e.types.out_dtype))
            .out_store_exact,
        e.exact);
  }
}

void device_scalars_are_passed_as_pointers(void**) {
  bwgemm::RawCall c = make_call(CUBLAS_OP_T, CUBLAS_OP_N, kTypes[2], kSizes[1]);
  c.alpha = kDeviceAlpha;
  c.beta = kDeviceBeta;
  const GemmParams g = bwgemm::launch_params_without_maps(
      bwgemm::to_kernel_view(problem_of(c, CUBLAS_POINTER_MODE_DEVICE)), shape_for(DType::BF16));
  assert_ptr_equal(g.stage.alpha.device, kDeviceAlpha);
  assert_ptr_equal(g.stage.beta.device, kDeviceBeta);
  assert_true(g.stage.alpha.value == 0.0f);
  assert_true(g.stage.beta.value == 0.0f);
}

int reset_encoder(void**) {
  g_encoded.clear();
  g_fail_call = -1;
  return 0;
}

bool same_spec(const TmaMapSpec& a, const TmaMapSpec& b) {
  return a.dtype == b.dtype && a.base == b.base && a.swizzle == b.swizzle &&
         a.dims[0] == b.dims[0] && a.dims[1] == b.dims[1] && a.dims[2] == b.dims[2] &&
         a.strides[0] == b.strides[0] && a.strides[1] == b.strides[1] && a.box[0] == b.box[0] &&
         a.box[1] == b.box[1] && a.box[2] == b.box[2];
}

// make_launch_params: the specs of launch_map_specs, each encoded into its
// own map; with k == 0 only the output map (no operand is ever loaded).
void make_launch_params_encodes_each_map(void**) {
  for (const Size& s : kSizes) {
    reset_encoder(nullptr);
    const GemmProblem p =
        problem_of(make_call(CUBLAS_OP_N, CUBLAS_OP_T, kTypes[1], s), CUBLAS_POINTER_MODE_HOST);
    const TileShape shape = shape_for(DType::F32);
    GemmParams g;
    assert_true(bwgemm::make_launch_params(bwgemm::to_kernel_view(p), shape, &g));
    const LaunchMaps maps = bwgemm::launch_map_specs(bwgemm::to_kernel_view(p), shape);
    const GemmParams without = bwgemm::launch_params_without_maps(bwgemm::to_kernel_view(p), shape);
    assert_int_equal(g.scheduler.tile_count(), without.scheduler.tile_count());
    assert_int_equal(g.out_store_exact, without.out_store_exact);
    if (s.k == 0) {
      assert_int_equal(g_encoded.size(), 1);
      assert_true(same_spec(g_encoded[0].spec, maps.out));
      assert_ptr_equal(g_encoded[0].out, &g.out_map);
      continue;
    }
    assert_int_equal(g_encoded.size(), 3);
    const struct {
      const TmaMapSpec& spec;
      const CUtensorMap& map;
    } expected[] = {{maps.out, g.out_map}, {maps.row, g.row.map}, {maps.col, g.col.map}};
    for (size_t i = 0; i < 3; ++i) {
      assert_true(same_spec(g_encoded[i].spec, expected[i].spec));
      assert_ptr_equal(g_encoded[i].out, &expected[i].map);
      assert_int_equal(expected[i].map.opaque[0], 0xC0DE0000u + i);
    }
  }
}

void a_rejected_map_fails_the_launch(void**) {
  const GemmProblem p = problem_of(make_call(CUBLAS_OP_T, CUBLAS_OP_N, kTypes[0], kSizes[0]),
                                   CUBLAS_POINTER_MODE_HOST);
  for (int fail : {0, 1, 2}) {
    reset_encoder(nullptr);
    g_fail_call = fail;
    GemmParams g;
    assert_false(bwgemm::make_launch_params(bwgemm::to_kernel_view(p), shape_for(DType::F16), &g));
  }
}

// ---- layouts TMA cannot address directly ----------------------------------------

// A call with the given transposes whose leading dimensions are the minimal
// ones (m, k or n, odd where the extent is), bases offset by `offset`
// elements.
bwgemm::RawCall minimal_call(cublasOperation_t transa, cublasOperation_t transb, int64_t m,
                             int64_t n, int64_t k, int offset) {
  bwgemm::RawCall c = make_call(transa, transb, kTypes[2], Size{m, n, k, 1, false, false});
  c.entry = bwgemm::EntryPoint::GemmEx_64;
  c.lda = transa == CUBLAS_OP_N ? m : k;
  c.ldb = transb == CUBLAS_OP_N ? k : n;
  c.ldc = m;
  c.A = static_cast<const uint16_t*>(c.A) + offset;
  c.B = static_cast<const uint16_t*>(c.B) + offset;
  c.C = static_cast<uint16_t*>(c.C) + offset;
  return c;
}

// minimal_call as a strided batch of `batch` matrices, each right after the
// last.
bwgemm::RawCall strided_call(cublasOperation_t transa, cublasOperation_t transb, int64_t m,
                             int64_t n, int64_t k, int64_t batch) {
  bwgemm::RawCall c = minimal_call(transa, transb, m, n, k, 0);
  c.entry = bwgemm::EntryPoint::GemmStridedBatchedEx_64;
  c.batch = batch;
  c.strideA = m * k;
  c.strideB = k * n;
  c.strideC = m * n;
  return c;
}

bwgemm::LoadPlan plan_of(const bwgemm::RawCall& c,
                         const TileShape& shape = shape_for(DType::BF16)) {
  return bwgemm::plan_loads(bwgemm::to_kernel_view(problem_of(c, CUBLAS_POINTER_MODE_HOST)), shape);
}

uintptr_t address(const void* p) { return reinterpret_cast<uintptr_t>(p); }

// Row classes (gemm_params.h) on GPT-2's lm_head calls (cuBLAS terms, bf16,
// minimal leading dimensions, vocabulary 50257 = 1 mod 8, so class c's first
// row is c elements past its rounded base).
void row_classes_take_gpt2_lm_head(void**) {
  using bwgemm::RowClassUse;
  const TileShape shape = shape_for(DType::BF16);
  // Input gradient, NN: B's columns (the kernel's rows) start unaligned.
  const bwgemm::RawCall igrad = minimal_call(CUBLAS_OP_N, CUBLAS_OP_N, 768, 8192, 50257, 0);
  bwgemm::LoadPlan plan = plan_of(igrad);
  assert_true(plan.supported);
  assert_false(plan.out_rotated);
  assert_int_equal(int(plan.classes), int(RowClassUse::kRowOperand));
  const bwgemm::KernelView iv = bwgemm::to_kernel_view(problem_of(igrad, CUBLAS_POINTER_MODE_HOST));
  GemmParams g = bwgemm::launch_params_without_maps(iv, shape);
  assert_int_equal(int(g.classes.use), int(RowClassUse::kRowOperand));
  assert_int_equal(g.scheduler.batch, 8);
  assert_int_equal(g.scheduler.row_blocks, 1024 / 256);
  assert_int_equal(g.rows, 1024);
  assert_int_equal(g.depth, 50257 + 7);  // the largest shift
  assert_int_equal(g.out_ld, 8 * 768);
  assert_int_equal(g.out_stride, 768);
  bwgemm::LaunchMaps maps = bwgemm::launch_map_specs(iv, shape);
  for (int c = 0; c < 8; ++c) {
    assert_int_equal(g.classes.shift[c], c);
    assert_int_equal(g.classes.rows[c], 1024);
    const TmaMapSpec& r = maps.class_row[c];
    assert_int_equal(address(r.base) % 16, 0);
    assert_int_equal(address(r.base), address(igrad.B) + 2 * (c * 50257 - c));
    assert_int_equal(r.dims[0], 50257 + c);
    assert_int_equal(r.dims[1], 1024);
    assert_int_equal(r.strides[0], 8 * 50257 * 2);
    assert_int_equal(r.box[0], 64);
    assert_int_equal(r.box[1], 128);
    const TmaMapSpec& o = maps.class_out[c];
    assert_int_equal(address(o.base), address(igrad.C) + 2 * c * 768);
    assert_int_equal(o.dims[0], 768);
    assert_int_equal(o.strides[0], 8 * 768 * 2);
  }
  // Logits, TN: D's rows (ldc 50257) start unaligned; A and B are aligned.
  const bwgemm::RawCall logits = minimal_call(CUBLAS_OP_T, CUBLAS_OP_N, 50257, 8192, 768, 0);
  plan = plan_of(logits);
  assert_true(plan.supported);
  assert_false(plan.out_rotated);
  assert_int_equal(int(plan.classes), int(RowClassUse::kOut));
  const bwgemm::KernelView lv =
      bwgemm::to_kernel_view(problem_of(logits, CUBLAS_POINTER_MODE_HOST));
  g = bwgemm::launch_params_without_maps(lv, shape);
  assert_int_equal(g.depth, 768);
  assert_int_equal(g.scheduler.col_blocks, (50257 + 7 + 255) / 256);
  assert_false(g.out_store_exact);
  maps = bwgemm::launch_map_specs(lv, shape);
  for (int c = 0; c < 8; ++c) {
    assert_int_equal(g.classes.shift[c], c);
    assert_int_equal(address(maps.class_row[c].base), address(logits.B) + 2 * c * 768);
    assert_int_equal(maps.class_row[c].dims[0], 768);
    const TmaMapSpec& o = maps.class_out[c];
    assert_int_equal(address(o.base) % 16, 0);
    assert_int_equal(address(o.base), address(logits.C) + 2 * (c * 50257 - c));
    assert_int_equal(o.dims[0], 50257 + c);
    assert_int_equal(o.dims[1], 1024);
  }
  // Weight gradient, NT: B is M/N-major, its rows cannot be classes.
  assert_false(plan_of(minimal_call(CUBLAS_OP_N, CUBLAS_OP_T, 768, 50257, 8192, 0)).supported);
  // TN with B unaligned: the column operand is K-major, its k cannot shift.
  assert_false(plan_of(minimal_call(CUBLAS_OP_T, CUBLAS_OP_N, 512, 8192, 1001, 0)).supported);
  // kOut widens the columns by the largest shift (7): 4095 columns would
  // take a 17th block of 256, so D stays rotated; 4089 fit in 16.
  assert_true(plan_of(minimal_call(CUBLAS_OP_T, CUBLAS_OP_N, 4095, 8192, 768, 0)).out_rotated);
  plan = plan_of(minimal_call(CUBLAS_OP_T, CUBLAS_OP_N, 4089, 8192, 768, 0));
  assert_int_equal(int(plan.classes), int(RowClassUse::kOut));
  // Too few rows for eight classes to fill the tiles: packed, or rotated.
  assert_false(plan_of(minimal_call(CUBLAS_OP_N, CUBLAS_OP_N, 768, 300, 50257, 0)).supported);
  assert_true(plan_of(minimal_call(CUBLAS_OP_T, CUBLAS_OP_N, 50257, 300, 768, 0)).out_rotated);
  // A family without row classes (sm100's shapes).
  TileShape without = shape;
  without.row_classes = false;
  assert_false(plan_of(igrad, without).supported);
  assert_true(plan_of(logits, without).out_rotated);
}

// GPT-2's weight gradient: NT, ldb 50257 = 1 mod 8, so B's column k starts
// k mod 8 elements past a 16-byte boundary.
bwgemm::RawCall gpt2_weight_gradient() {
  return minimal_call(CUBLAS_OP_N, CUBLAS_OP_T, 768, 50257, 8192, 0);
}

// The named row-windows configuration's shape; its plan takes GPT-2's weight
// gradient as row windows, D not rotated.
TileShape row_windows_shape(const char* name) {
  const int config = bwgemm::sm90::config_by_name(name);
  assert_true(config > 0);
  const TileShape shape = bwgemm::sm90::tile_shape(config, DType::BF16);
  assert_true(shape.row_windows);
  const bwgemm::LoadPlan plan = plan_of(gpt2_weight_gradient(), shape);
  assert_true(plan.supported);
  assert_false(plan.out_rotated);
  assert_int_equal(int(plan.classes), int(bwgemm::RowClassUse::kRowWindows));
  return shape;
}

// Row windows (gemm_params.h) on GPT-2's weight gradient, with the
// configuration that has them.
void row_windows_take_gpt2_weight_gradient(void**) {
  using bwgemm::RowClassUse;
  const TileShape shape = row_windows_shape("sm90_256x256x64_3stage_2cta_windows");
  assert_false(shape.row_classes);
  const bwgemm::RawCall wgrad = gpt2_weight_gradient();
  const KernelView v = bwgemm::to_kernel_view(problem_of(wgrad, CUBLAS_POINTER_MODE_HOST));
  const GemmParams g = bwgemm::launch_params_without_maps(v, shape);
  // The plain scheduler, rows and depth: the classes cut k, not D.
  assert_int_equal(int(g.classes.use), int(RowClassUse::kRowWindows));
  assert_int_equal(g.scheduler.batch, 1);
  assert_int_equal(g.rows, 50257);
  assert_int_equal(g.depth, 8192);
  assert_int_equal(g.out_ld, 768);
  const LaunchMaps maps = bwgemm::launch_map_specs(v, shape);
  for (int c = 0; c < 8; ++c) {
    assert_int_equal(g.classes.shift[c], c);
    const TmaMapSpec& r = maps.class_row[c];
    assert_int_equal(address(r.base) % 16, 0);
    assert_int_equal(address(r.base), address(wgrad.B) + 2 * (c * 50257 - c));
    assert_int_equal(r.dims[0], 50257 + c);  // row 0 at the shift
    assert_int_equal(r.dims[1], 1024);       // k = c + 8i, i < 1024
    assert_int_equal(r.strides[0], 8 * 50257 * 2);
    assert_int_equal(r.box[0], 128 + 8);  // the CTA's rows and the largest shift
    assert_int_equal(r.box[1], 8);
    assert_int_equal(int(r.swizzle), int(CU_TENSOR_MAP_SWIZZLE_NONE));
  }
  // k = 8193: classes 0 and 1 have 1025 columns, the others 1024.
  const bwgemm::RawCall longer = minimal_call(CUBLAS_OP_N, CUBLAS_OP_T, 768, 50257, 8193, 0);
  const LaunchMaps longer_maps = bwgemm::launch_map_specs(
      bwgemm::to_kernel_view(problem_of(longer, CUBLAS_POINTER_MODE_HOST)), shape);
  assert_int_equal(longer_maps.class_row[0].dims[1], 1025);
  assert_int_equal(longer_maps.class_row[1].dims[1], 1024);
  // Not the configuration's: a K-major row operand (NN), fewer k than
  // classes, batches. Its plan refuses them (dispatch sends them to cuBLAS).
  assert_false(
      plan_of(minimal_call(CUBLAS_OP_N, CUBLAS_OP_N, 768, 8192, 50257, 0), shape).supported);
  assert_false(plan_of(minimal_call(CUBLAS_OP_N, CUBLAS_OP_T, 768, 50257, 7, 0), shape).supported);
  assert_false(plan_of(strided_call(CUBLAS_OP_N, CUBLAS_OP_T, 512, 512, 256, 2), shape).supported);
  // Configuration 0 packs such a B first: its plan cannot load it.
  assert_false(plan_of(wgrad).supported);
}

// Register windows: the same row windows, and A (the column operand,
// M-major) read in the windows' k order, (m, k / 8, k % 8); only where A is
// M/N-major and k a multiple of 8.
void register_windows_read_a_by_class(void**) {
  const TileShape shape = row_windows_shape("sm90_256x256x64_3stage_2cta_regwindows");
  assert_true(shape.register_windows);
  const bwgemm::RawCall wgrad = gpt2_weight_gradient();
  const LaunchMaps maps = bwgemm::launch_map_specs(
      bwgemm::to_kernel_view(problem_of(wgrad, CUBLAS_POINTER_MODE_HOST)), shape);
  const TmaMapSpec& a = maps.col;
  assert_int_equal(address(a.base), address(wgrad.A));
  assert_int_equal(a.dims[0], 768);
  assert_int_equal(a.dims[1], 1024);  // k / 8
  assert_int_equal(a.dims[2], 8);     // k % 8
  assert_int_equal(a.strides[0], 8 * 768 * 2);
  assert_int_equal(a.strides[1], 768 * 2);
  assert_int_equal(a.box[0], 64);
  assert_int_equal(a.box[1], 8);
  assert_int_equal(a.box[2], 8);
  assert_int_equal(int(a.swizzle), int(CU_TENSOR_MAP_SWIZZLE_128B));
  // The row windows are the shifters' configuration's.
  const LaunchMaps shifted =
      bwgemm::launch_map_specs(bwgemm::to_kernel_view(problem_of(wgrad, CUBLAS_POINTER_MODE_HOST)),
                               row_windows_shape("sm90_256x256x64_3stage_2cta_windows"));
  for (int c = 0; c < 8; ++c) assert_true(maps.class_row[c] == shifted.class_row[c]);
  // k not a multiple of 8 (A's last rows would be read past k), or A K-major
  // (TT): not taken.
  assert_false(
      plan_of(minimal_call(CUBLAS_OP_N, CUBLAS_OP_T, 768, 50257, 8196, 0), shape).supported);
  assert_false(
      plan_of(minimal_call(CUBLAS_OP_T, CUBLAS_OP_T, 768, 50257, 8192, 0), shape).supported);
  assert_true(
      plan_of(minimal_call(CUBLAS_OP_N, CUBLAS_OP_T, 768, 50257, 8200, 0), shape).supported);
}

// A configuration whose stages hold fewer rows than its wgmma reads
// (TileShape::max_rows: the decode split-K pair's 32 token rows) takes at
// most that many kernel rows (cuBLAS's n); past them its load plan refuses
// the call, whatever path chose the configuration.
void plan_loads_refuses_rows_past_max_rows(void**) {
  const int pair = bwgemm::sm90::config_by_name("sm90_32x64x64_6stage_2cta_splitk");
  assert_true(pair > 0);
  const TileShape shape = bwgemm::sm90::tile_shape(pair, DType::BF16);
  assert_int_equal(shape.max_rows, 32);
  assert_int_equal(shape.block_rows, 32);
  assert_true(plan_of(minimal_call(CUBLAS_OP_T, CUBLAS_OP_N, 4096, 32, 4096, 0), shape).supported);
  assert_false(plan_of(minimal_call(CUBLAS_OP_T, CUBLAS_OP_N, 4096, 33, 4096, 0), shape).supported);
  assert_true(plan_of(minimal_call(CUBLAS_OP_T, CUBLAS_OP_N, 4096, 33, 4096, 0)).supported);
}

// GPT-2's lm_head calls with the vocabulary 50257 (cuBLAS terms): the logits
// (TN, ldc odd) run with D stored by threads; the gradients (NT and NN, ldb
// odd) and unaligned bases of A or B cannot be loaded as they are (dispatch
// packs them first, dispatch/launch.cpp).
void plan_loads_takes_unaligned_outputs_only(void**) {
  bwgemm::LoadPlan plan = plan_of(minimal_call(CUBLAS_OP_T, CUBLAS_OP_N, 50257, 64, 768, 0));
  assert_true(plan.supported);
  assert_true(plan.out_rotated);
  plan = plan_of(minimal_call(CUBLAS_OP_T, CUBLAS_OP_N, 512, 64, 768, 0));
  assert_true(plan.supported);
  assert_false(plan.out_rotated);
  assert_false(plan_of(minimal_call(CUBLAS_OP_N, CUBLAS_OP_T, 768, 50257, 64, 0)).supported);
  assert_false(plan_of(minimal_call(CUBLAS_OP_N, CUBLAS_OP_N, 768, 64, 50257, 0)).supported);
  assert_false(plan_of(minimal_call(CUBLAS_OP_T, CUBLAS_OP_N, 512, 256, 128, 1)).supported);
  // k == 0 loads no operand, whatever its layout.
  bwgemm::RawCall empty = minimal_call(CUBLAS_OP_N, CUBLAS_OP_N, 63, 64, 0, 1);
  empty.ldb = 1;  // at least 1, as cuBLAS asks
  assert_true(plan_of(empty).supported);
  // An odd batch stride of B.
  bwgemm::RawCall batched = minimal_call(CUBLAS_OP_T, CUBLAS_OP_N, 512, 64, 768, 0);
  batched.entry = bwgemm::EntryPoint::GemmStridedBatchedEx_64;
  batched.batch = 2;
  batched.strideA = 512 * 768;
  batched.strideB = 768 * 64 + 1;
  batched.strideC = 512 * 64 + 3;  // C's stride may be anything
  assert_false(plan_of(batched).supported);
  batched.strideB = 768 * 64 + 8;
  plan = plan_of(batched);
  assert_true(plan.supported);
  assert_true(plan.out_rotated);
}

// split_ragged_edge: 4097 rows of 256-row cluster tiles on 66 clusters are
// 17 x 16 = 272 tiles, 5 waves; the body's 256 tiles take 4, the last row
// (cuBLAS's last column of op(B), C and D) runs alone. No split by columns,
// nor where the remainder is thick, the waves do not drop or k is short.
void ragged_edges_split_off_a_wave(void**) {
  const TileShape shape = shape_for(DType::BF16);
  for (bool trans : {false, true}) {
    GemmProblem p = problem_of(minimal_call(trans ? CUBLAS_OP_T : CUBLAS_OP_N,
                                            trans ? CUBLAS_OP_T : CUBLAS_OP_N, 4095, 4097, 4096, 0),
                               CUBLAS_POINTER_MODE_HOST);
    bwgemm::EdgeSplit split;
    assert_true(bwgemm::split_ragged_edge(p, shape, 66, &split));
    assert_int_equal(split.body.n, 4096);
    assert_int_equal(split.edge.n, 1);
    assert_int_equal(split.body.m, 4095);
    assert_int_equal(split.edge.m, 4095);
    assert_ptr_equal(split.body.b, p.b);
    const int64_t b_offset = trans ? 4096 : 4096 * p.ldb;
    assert_int_equal(address(split.edge.b), address(p.b) + 2 * b_offset);
    assert_ptr_equal(split.edge.a, p.a);
    assert_int_equal(address(split.edge.d), address(p.d) + 2 * 4096 * p.ldd);
    assert_int_equal(address(split.edge.c), address(p.c) + 2 * 4096 * p.ldc);
    // Columns are not split (m = 4097).
    p = problem_of(
        minimal_call(trans ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, 4097, 4095, 4096, 0),
        CUBLAS_POINTER_MODE_HOST);
    assert_false(bwgemm::split_ragged_edge(p, shape, 66, &split));
  }
  bwgemm::EdgeSplit split;
  const auto split_of = [&](int64_t m, int64_t n, int64_t clusters, int64_t k = 4096) {
    return bwgemm::split_ragged_edge(
        problem_of(minimal_call(CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, 0), CUBLAS_POINTER_MODE_HOST),
        shape, clusters, &split);
  };
  assert_false(split_of(4095, 4096 + 65, 66));   // more than a quarter of a tile left
  assert_false(split_of(4095, 4097, 80));        // 272 tiles: 4 waves either way
  assert_false(split_of(4095, 257, 66));         // 2 x 16 tiles: one wave either way
  assert_false(split_of(4096, 4096, 66));        // no remainder
  assert_true(split_of(2047, 2049, 66));         // 9 x 8 = 72 tiles: 2 waves, 64: 1
  assert_false(split_of(2047, 2049, 66, 1023));  // too short a k to gain
}

// D with rows not 16-byte aligned gets no map: the threads store it.
void unaligned_output_is_stored_by_threads(void**) {
  const bwgemm::RawCall c = minimal_call(CUBLAS_OP_T, CUBLAS_OP_N, 301, 64, 64, 0);
  const bwgemm::KernelView v = bwgemm::to_kernel_view(problem_of(c, CUBLAS_POINTER_MODE_HOST));
  reset_encoder(nullptr);
  GemmParams g;
  assert_true(bwgemm::make_launch_params(v, shape_for(DType::BF16), &g));
  assert_true(g.out_rotated);
  assert_int_equal(g_encoded.size(), 2);  // the two operand maps only
}

// select_variant: the kernel view's key picks the variant at its ordinal;
// the view says B's op is the row operand's majorness and A's the column
// operand's (kernel_view.h).
void select_variant_takes_types_and_majorness(void**) {
  for_every_call([](const bwgemm::RawCall& c, const Types& t, const GemmProblem& p) {
    const bwgemm::VariantKey key = bwgemm::variant_key(bwgemm::to_kernel_view(p));
    assert_int_equal(key.ab_type, t.ab_dtype);
    assert_int_equal(key.out_type, t.out_dtype);
    assert_int_equal(key.row_mn, c.transb != CUBLAS_OP_N);
    assert_int_equal(key.col_mn, c.transa == CUBLAS_OP_N);
    const int ordinal = bwgemm::variant_ordinal(t.ab_dtype == DType::BF16,
                                                t.out_dtype == DType::F32, key.row_mn, key.col_mn);
    for (int config = 0; config < bwgemm::sm90::kConfigCount; ++config) {
      const bwgemm::KernelVariant* v = bwgemm::sm90::select_variant(config, key);
      if (bwgemm::sm90::config_compiled(config, key))
        assert_ptr_equal(v, &g_fake_variants[config * bwgemm::kVariantsPerConfig + ordinal]);
      else
        assert_null(v);
    }
    // Configuration 0 takes every layout; the decode ones only a K-major B.
    assert_true(bwgemm::sm90::config_compiled(0, key));
    assert_int_equal(bwgemm::sm90::config_compiled(
                         bwgemm::sm90::config_by_name("sm90_64x64x64_12stage_2cta_splitk"), key),
                     !key.row_mn);
  });
}

// launch_gemm: one view, the key's variant, the family's shape for the output
// type and the guard's flag reach the launch; a rejected map or launch sends
// the call to cuBLAS, with one warning naming the family the first time (the
// defect: a warning on every call, whatever BWGEMM_LOG said).
void launch_gemm_enqueues_or_forwards_with_a_warning(void**) {
  const bwgemm::VariantCatalog catalog = {"sm90", bwgemm::sm90::select_variant,
                                          bwgemm::sm90::tile_shape, true};
  const bwgemm::DeviceCaps caps{0, 9, 0, 132, 232448};
  uint32_t flag = 0;
  test::TempFile log;
  setenv("BWGEMM_LOG_FILE", log.path(), 1);
  bwgemm::env_config_reload();
  int calls = 0;
  for_every_call([&](const bwgemm::RawCall&, const Types& t, const GemmProblem& p) {
    ++calls;
    g_encoded.clear();
    g_fail_call = -1;
    g_launch_error = cudaSuccess;
    bwgemm::LaunchResult r = bwgemm::launch_gemm(catalog, p, caps, 0, {&flag, 7});
    assert_int_equal(int(r.status), int(bwgemm::LaunchStatus::kEnqueued));
    const KernelView v = bwgemm::to_kernel_view(p);
    assert_ptr_equal(g_launched_variant, bwgemm::sm90::select_variant(0, bwgemm::variant_key(v)));
    assert_ptr_equal(g_launched_params.error_flag.word, &flag);
    assert_int_equal(g_launched_params.error_flag.tag, 7);
    // The bounded waits' budget: 100 ms (BWGEMM_WAIT_TIMEOUT_MS unset) plus
    // 10 us per k block of 64.
    assert_int_equal(g_launched_params.wait_budget_ns, 100000000 + (v.depth + 63) / 64 * 10000);
    const GemmParams expected = bwgemm::launch_params_without_maps(v, shape_for(t.out_dtype));
    assert_int_equal(g_launched_params.scheduler.tile_count(), expected.scheduler.tile_count());

    g_launch_error = cudaErrorLaunchOutOfResources;
    r = bwgemm::launch_gemm(catalog, p, caps, 0, {&flag, 7});
    assert_int_equal(int(r.status), int(bwgemm::LaunchStatus::kForward));
    assert_int_equal(r.reason, BWGEMM_REASON_LAUNCH_FAILED);

    // (Another problem: the call above's build is kept, and copied, not encoded.)
    g_launch_error = cudaSuccess;
    g_launched_variant = nullptr;
    g_encoded.clear();
    g_fail_call = 0;
    GemmProblem moved = p;
    moved.a = static_cast<const char*>(p.a) + 4096;
    r = bwgemm::launch_gemm(catalog, moved, caps, 0, {&flag, 8});
    assert_int_equal(int(r.status), int(bwgemm::LaunchStatus::kForward));
    assert_null(g_launched_variant);
    g_fail_call = -1;

    // BWGEMM_WAIT_TIMEOUT_MS replaces the base.
    setenv("BWGEMM_WAIT_TIMEOUT_MS", "2500", 1);
    bwgemm::env_config_reload();
    r = bwgemm::launch_gemm(catalog, p, caps, 0, {&flag, 7});
    assert_int_equal(int(r.status), int(bwgemm::LaunchStatus::kEnqueued));
    assert_int_equal(g_launched_params.wait_budget_ns,
                     uint64_t(2500) * 1000000 + (v.depth + 63) / 64 * 10000);
    unsetenv("BWGEMM_WAIT_TIMEOUT_MS");
    bwgemm::env_config_reload();
  });
  unsetenv("BWGEMM_LOG_FILE");
  bwgemm::env_config_reload();
  const std::string text = log.contents();
  assert_true(calls > 1);
  assert_int_equal(test::count_lines_with(text, {"bwgemm: warning: "}), 2);
  assert_int_equal(test::count_lines_with(text, {"sm90 kernel launch failed (CUDA error 701)"}), 1);
  assert_int_equal(test::count_lines_with(text, {"sm90: the driver rejected a TMA map"}), 1);
}

// A build repeated on a thread is copied, not encoded again; any field of
// the problem (a host scalar by its bits) or the configuration builds anew;
// another thread builds its own. The defect it guards: the kernel path spent
// most of its host time rebuilding the same parameters. A guarded family's
// calls each carry a new tag: the tag is written into the kept build (the
// defect: it was part of the key, so a guarded family never found a build).
void a_repeated_build_is_kept(void**) {
  const bwgemm::VariantCatalog catalog = {"sm90", bwgemm::sm90::select_variant,
                                          bwgemm::sm90::tile_shape, true};
  const bwgemm::DeviceCaps caps{0, 9, 0, 132, 232448};
  uint32_t flag = 0;
  const GemmProblem p = problem_of(
      make_call(CUBLAS_OP_T, CUBLAS_OP_N, kTypes[2], Size{640, 320, 192, 1, false, false}),
      CUBLAS_POINTER_MODE_HOST);
  const bwgemm::KernelVariant* variant = nullptr;
  GemmParams first{}, again{};
  g_encoded.clear();
  assert_int_equal(bwgemm::build_launch(catalog, p, caps, 0, {&flag, 3}, &variant, &first),
                   BWGEMM_REASON_KERNEL_SELECTED);
  const size_t encodes = g_encoded.size();
  assert_true(encodes > 0);
  assert_int_equal(bwgemm::build_launch(catalog, p, caps, 0, {&flag, 3}, &variant, &again),
                   BWGEMM_REASON_KERNEL_SELECTED);
  assert_int_equal(g_encoded.size(), encodes);
  assert_memory_equal(&first, &again, sizeof first);

  GemmProblem negative_zero = p;
  negative_zero.beta.value = -0.0f;
  GemmProblem moved = p;
  moved.a = static_cast<const char*>(p.a) + 4096;
  for (const GemmProblem& other : {negative_zero, moved}) {
    g_encoded.clear();
    assert_int_equal(bwgemm::build_launch(catalog, other, caps, 0, {&flag, 3}, &variant, &again),
                     BWGEMM_REASON_KERNEL_SELECTED);
    assert_int_equal(g_encoded.size(), encodes);
  }
  g_encoded.clear();
  assert_int_equal(bwgemm::build_launch(catalog, p, caps, 1, {&flag, 3}, &variant, &again),
                   BWGEMM_REASON_KERNEL_SELECTED);
  assert_int_equal(g_encoded.size(), encodes);
  g_encoded.clear();
  for (uint32_t tag : {4u, 5u}) {
    assert_int_equal(bwgemm::build_launch(catalog, p, caps, 0, {&flag, tag}, &variant, &again),
                     BWGEMM_REASON_KERNEL_SELECTED);
    assert_int_equal(g_encoded.size(), 0);
    assert_ptr_equal(again.error_flag.word, &flag);
    assert_int_equal(again.error_flag.tag, tag);
    again.error_flag = first.error_flag;
    assert_memory_equal(&first, &again, sizeof first);
  }
  // Another device's SM count builds anew.
  g_encoded.clear();
  const bwgemm::DeviceCaps other_device{1, 9, 0, 114, 232448};
  assert_int_equal(bwgemm::build_launch(catalog, p, other_device, 0, {&flag, 3}, &variant, &again),
                   BWGEMM_REASON_KERNEL_SELECTED);
  assert_int_equal(g_encoded.size(), encodes);
  // Another thread keeps its own.
  std::thread([&] {
    g_encoded.clear();
    GemmParams there{};
    assert_int_equal(bwgemm::build_launch(catalog, p, caps, 0, {&flag, 3}, &variant, &there),
                     BWGEMM_REASON_KERNEL_SELECTED);
    assert_int_equal(g_encoded.size(), encodes);
  }).join();
}

// A thin last wave split over K (tile_split.h) as a build makes it: GPT-2's
// input gradient (NN 768 x 8192 x 50257, ldb odd: 96 tiles of 256 x 256 by
// row classes) on 66 clusters splits its last 30 tiles in two where the
// problem's workspace holds their partials, and the buffers lie in it; not
// without a workspace, with one too small or not 256-byte aligned, on
// another configuration, or on a device whose waves it fills.
void a_build_splits_a_thin_last_wave_in_the_workspace(void**) {
  const bwgemm::VariantCatalog catalog = {"sm90", bwgemm::sm90::select_variant,
                                          bwgemm::sm90::tile_shape, true};
  const bwgemm::DeviceCaps h100{0, 9, 0, 132, 232448};
  alignas(256) static uint8_t workspace[size_t{20} << 20];
  GemmProblem p = problem_of(minimal_call(CUBLAS_OP_N, CUBLAS_OP_N, 768, 8192, 50257, 0),
                             CUBLAS_POINTER_MODE_HOST);
  const auto built = [&](const GemmProblem& q, const bwgemm::DeviceCaps& caps, int config) {
    const bwgemm::KernelVariant* variant = nullptr;
    GemmParams g{};
    assert_int_equal(bwgemm::build_launch(catalog, q, caps, config, {nullptr, 0}, &variant, &g),
                     BWGEMM_REASON_KERNEL_SELECTED);
    return g;
  };
  GemmParams g = built(p, h100, 0);
  assert_int_equal(g.scheduler.tile_count(), 96);
  assert_int_equal(g.scheduler.pieces, 1);
  assert_null(g.split.arrivals);
  p.workspace = workspace;
  p.workspace_bytes = sizeof workspace;
  g = built(p, h100, 0);
  assert_int_equal(int(g.classes.use), int(bwgemm::RowClassUse::kRowOperand));
  assert_int_equal(g.scheduler.split_from, 66);
  assert_int_equal(g.scheduler.pieces, 2);
  assert_int_equal(g.scheduler.unit_count(), 126);
  assert_ptr_equal(g.split.arrivals, workspace);
  assert_int_equal(g.split.arrival_count, 30 * 2 * 2);
  const bwgemm::TileSplitPlan plan = bwgemm::plan_tile_split(
      96, 66, (g.depth + 63) / 64, bwgemm::sm90::tile_shape(0, bwgemm::DType::BF16));
  assert_true(reinterpret_cast<uint8_t*>(g.split.partials) >= workspace + 30 * 2 * 2 * 4);
  assert_true(reinterpret_cast<uint8_t*>(g.split.partials) +
                  size_t(30 * 2 * 2 * 2) * 64 * 256 * 4 <=
              workspace + plan.bytes);
  GemmProblem small = p;
  small.workspace_bytes = plan.bytes - 1;
  GemmProblem misaligned = p;
  misaligned.workspace = workspace + 16;
  misaligned.workspace_bytes = sizeof workspace - 16;
  for (const GemmProblem& q : {small, misaligned})
    assert_int_equal(built(q, h100, 0).scheduler.pieces, 1);
  const int half_columns = bwgemm::sm90::config_by_name("sm90_256x128x64_5stage_2cta");
  assert_int_equal(built(p, h100, half_columns).scheduler.pieces, 1);
  // 48 clusters: two full waves.
  assert_int_equal(built(p, bwgemm::DeviceCaps{0, 9, 0, 96, 232448}, 0).scheduler.pieces, 1);
}

// The scheduler's column rotation (launch_params.h, batch_col_mask) as a
// build chooses it for its device. 4097 x 4095 TN with minimal leading
// dimensions on the 256 x 128 tiles the dispatcher gives it runs row classes
// of 66 tiles each, as many as an H200's 66 clusters, in 8 waves, and rotates
// them; so does a strided batch of 16 whose column operand (A, in the view)
// every batch shares. GPT-2's logits (classes of 788 tiles) and input
// gradient (one wave: 8 classes of 8 tiles in each of its two launches),
// batches sharing only the row operand, batches sharing neither, shared
// batches in one wave and one matrix do not; nor does the 4097 x 4095 call on
// a device of 8 clusters. Before the rotation no build rotated.
void a_build_rotates_only_batches_that_share_the_column_operand(void**) {
  const bwgemm::VariantCatalog catalog = {"sm90", bwgemm::sm90::select_variant,
                                          bwgemm::sm90::tile_shape, true};
  const int half_columns = bwgemm::sm90::config_by_name("sm90_256x128x64_5stage_2cta");
  assert_true(half_columns > 0);
  const bwgemm::DeviceCaps h200{0, 9, 0, 132, 232448};
  const bwgemm::DeviceCaps small{0, 9, 0, 16, 232448};
  auto built = [&](const GemmProblem& p, const bwgemm::DeviceCaps& caps, int config) {
    const bwgemm::KernelVariant* variant = nullptr;
    GemmParams g{};
    assert_int_equal(bwgemm::build_launch(catalog, p, caps, config, {nullptr, 0}, &variant, &g),
                     BWGEMM_REASON_KERNEL_SELECTED);
    return g;
  };
  auto rotates = [&](const bwgemm::RawCall& c, const bwgemm::DeviceCaps& caps, int config) {
    return built(problem_of(c, CUBLAS_POINTER_MODE_HOST), caps, config).scheduler.batch_col_mask !=
           0;
  };
  const bwgemm::RawCall odd = minimal_call(CUBLAS_OP_T, CUBLAS_OP_N, 4097, 4095, 4096, 0);
  const GemmParams classes = built(problem_of(odd, CUBLAS_POINTER_MODE_HOST), h200, half_columns);
  assert_int_equal(int(classes.classes.use), int(bwgemm::RowClassUse::kOut));
  assert_int_equal(classes.scheduler.batch, 8);
  assert_int_equal(classes.scheduler.row_blocks * classes.scheduler.col_blocks, 66);
  assert_int_equal(classes.scheduler.col_blocks, 33);  // 4095 columns widened, 128 a block
  assert_int_equal(classes.scheduler.batch_col_mask, 31);
  assert_true(rotates(odd, h200, 0));  // 34 tiles a class
  assert_false(rotates(odd, small, half_columns));
  assert_false(rotates(minimal_call(CUBLAS_OP_T, CUBLAS_OP_N, 50257, 8192, 768, 0), h200, 0));
  assert_false(rotates(minimal_call(CUBLAS_OP_T, CUBLAS_OP_N, 4096, 4096, 4096, 0), h200, 0));
  // GPT-2's input gradient runs as two launches (policy.h, plan_grid_split):
  // 512 of its 768 rows on 256 x 256 tiles, then 256 on 256 x 128 ones.
  GemmProblem part = problem_of(minimal_call(CUBLAS_OP_N, CUBLAS_OP_N, 768, 8192, 50257, 0),
                                CUBLAS_POINTER_MODE_HOST);
  for (const auto& [rows, config] : {std::pair{512, 0}, std::pair{256, half_columns}}) {
    part.m = rows;
    const GemmParams g = built(part, h200, config);
    assert_int_equal(int(g.classes.use), int(bwgemm::RowClassUse::kRowOperand));
    assert_int_equal(g.scheduler.tile_count(), 64);
    assert_int_equal(g.scheduler.batch_col_mask, 0);
  }
  // 1024 x 1024 x 128, 16 batches of 16 tiles.
  const bwgemm::RawCall batched = strided_call(CUBLAS_OP_T, CUBLAS_OP_N, 1024, 1024, 128, 16);
  assert_false(rotates(batched, h200, 0));
  bwgemm::RawCall shared_a = batched;
  shared_a.strideA = 0;
  assert_true(rotates(shared_a, h200, 0));
  bwgemm::RawCall shared_b = batched;
  shared_b.strideB = 0;
  assert_false(rotates(shared_b, h200, 0));
  bwgemm::RawCall one_wave = shared_a;
  one_wave.batch = 4;  // 64 tiles
  assert_false(rotates(one_wave, h200, 0));
}

// The persistent grid: min(tiles, co-resident clusters), further capped by
// a handle's SM count target (the defect: the target was ignored).
void persistent_grid_honours_the_sm_count_target(void**) {
  // No target: the tiles or the device decide.
  assert_int_equal(bwgemm::persistent_clusters(1000, 66, 0, 2), 66);
  assert_int_equal(bwgemm::persistent_clusters(10, 66, 0, 2), 10);
  // A target of 16 SMs holds 8 clusters of 2.
  assert_int_equal(bwgemm::persistent_clusters(1000, 66, 16, 2), 8);
  assert_int_equal(bwgemm::persistent_clusters(5, 66, 16, 2), 5);
  assert_int_equal(bwgemm::persistent_clusters(1000, 66, 17, 2), 8);
  // A target above the device changes nothing; below one cluster gives one.
  assert_int_equal(bwgemm::persistent_clusters(1000, 66, 1000, 2), 66);
  assert_int_equal(bwgemm::persistent_clusters(1000, 66, 1, 2), 1);
}

// The problem's target reaches the launcher.
void launch_gemm_passes_the_sm_count_target(void**) {
  const bwgemm::VariantCatalog catalog = {"sm90", bwgemm::sm90::select_variant,
                                          bwgemm::sm90::tile_shape, true};
  const bwgemm::DeviceCaps caps{0, 9, 0, 132, 232448};
  uint32_t flag = 0;
  g_launch_error = cudaSuccess;
  for_every_call([&](const bwgemm::RawCall&, const Types&, const GemmProblem& problem) {
    for (int target : {0, 16, 131}) {
      GemmProblem p = problem;
      p.sm_count_target = target;
      const bwgemm::LaunchResult r = bwgemm::launch_gemm(catalog, p, caps, 0, {&flag, 7});
      assert_int_equal(int(r.status), int(bwgemm::LaunchStatus::kEnqueued));
      assert_int_equal(g_launched_sm_count_target, target);
    }
  });
}

// launch_gemm tells the launcher whether the grid follows one that releases
// its dependents early (launch_order.h: the same stream and cuBLAS's B), and
// records its own grid: as such for a family whose kernel does (sm90), as
// any other grid otherwise (sm100); a launch that fails records nothing. The
// defect it guards: every grid of a programmatic sm90 configuration started
// as a programmatic dependent, behind any kernel.
void launch_gemm_follows_only_a_releasing_grid(void**) {
  const bwgemm::DeviceCaps caps{0, 9, 0, 132, 232448};
  uint32_t flag = 0;
  g_launch_error = cudaSuccess;
  const GemmProblem p = problem_of(
      make_call(CUBLAS_OP_T, CUBLAS_OP_N, kTypes[2], Size{640, 320, 192, 1, false, false}),
      CUBLAS_POINTER_MODE_HOST);
  GemmProblem same_b = p;  // another weight on the same activation (k after q)
  same_b.a = static_cast<const char*>(p.a) + 4096;
  GemmProblem same_a = p;  // the same weight on another activation
  same_a.b = static_cast<const char*>(p.b) + 4096;
  const auto after_releasing_grid = [&](const bwgemm::VariantCatalog& catalog,
                                        const GemmProblem& call) {
    g_launched_after_releasing_grid = !g_launched_after_releasing_grid;
    assert_int_equal(int(bwgemm::launch_gemm(catalog, call, caps, 0, {&flag, 7}).status),
                     int(bwgemm::LaunchStatus::kEnqueued));
    return g_launched_after_releasing_grid;
  };
  const bwgemm::VariantCatalog sm90 = {"sm90", bwgemm::sm90::select_variant,
                                       bwgemm::sm90::tile_shape, true};
  bwgemm::record_other_grid();
  assert_false(after_releasing_grid(sm90, p));
  assert_true(after_releasing_grid(sm90, p));
  assert_true(after_releasing_grid(sm90, same_b));
  assert_false(after_releasing_grid(sm90, same_a));
  bwgemm::record_other_grid();  // an operand copy, a call forwarded to cuBLAS
  assert_false(after_releasing_grid(sm90, same_a));
  // A failed launch (the call then goes to cuBLAS) is not recorded.
  g_launch_error = cudaErrorLaunchOutOfResources;
  assert_int_equal(int(bwgemm::launch_gemm(sm90, p, caps, 0, {&flag, 7}).status),
                   int(bwgemm::LaunchStatus::kForward));
  g_launch_error = cudaSuccess;
  assert_false(after_releasing_grid(sm90, p));
  const bwgemm::VariantCatalog not_releasing = {"sm100", bwgemm::sm90::select_variant,
                                                bwgemm::sm90::tile_shape, false};
  assert_true(after_releasing_grid(not_releasing, p));
  assert_false(after_releasing_grid(not_releasing, p));
}

}  // namespace

#define TEST(f) cmocka_unit_test_setup(f, reset_encoder)

int main() {
  const struct CMUnitTest tests[] = {
      TEST(tile_shape_is_the_sm90_config),
      TEST(kernel_view_is_the_transposed_product),
      TEST(a_single_matrix_has_no_strides),
      TEST(map_specs_describe_the_operands_and_the_output),
      TEST(maps_and_scheduler_follow_the_tile_shape),
      TEST(a_stage_of_boxes_is_the_expected_bytes),
      TEST(params_without_maps),
      TEST(exact_stores_at_16_byte_multiples_only),
      TEST(device_scalars_are_passed_as_pointers),
      TEST(make_launch_params_encodes_each_map),
      TEST(a_rejected_map_fails_the_launch),
      TEST(plan_loads_takes_unaligned_outputs_only),
      TEST(plan_loads_refuses_rows_past_max_rows),
      TEST(row_classes_take_gpt2_lm_head),
      TEST(a_build_rotates_only_batches_that_share_the_column_operand),
      TEST(row_windows_take_gpt2_weight_gradient),
      TEST(a_build_splits_a_thin_last_wave_in_the_workspace),
      TEST(register_windows_read_a_by_class),
      TEST(ragged_edges_split_off_a_wave),
      TEST(unaligned_output_is_stored_by_threads),
      TEST(select_variant_takes_types_and_majorness),
      TEST(launch_gemm_enqueues_or_forwards_with_a_warning),
      TEST(persistent_grid_honours_the_sm_count_target),
      TEST(launch_gemm_passes_the_sm_count_target),
      TEST(launch_gemm_follows_only_a_releasing_grid),
      TEST(a_repeated_build_is_kept),
  };
  return cmocka_run_group_tests_name("launch_params", tests, nullptr, nullptr);
}
