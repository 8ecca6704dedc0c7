// SPDX-License-Identifier: MIT
// A kernel family's own code under emulation, through the family's own
// host code (variant selection, parameter builder, persistent grid): a fixed
// matrix of small problems against an fp64 reference. Integer inputs must
// match bit for bit, gaussian ones within a bound from k; C's padding rows
// must survive; most problems have more tiles than clusters, so persistent
// CTAs loop. Part of the matrix also runs with seeded random interleavings.
//
// With --config NAME, every case that configuration is compiled for runs on
// it (the others are skipped and counted); without, the configuration a
// forced call chooses.
//
// Usage: test_emu_gemm sm90|sm100 [--config NAME] [--filter SUBSTRING] [--verbose]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "emu_runner.h"
#include "kernels/common/kernel_view.h"
#include "kernels/decode/check.h"
#include "kernels/decode/config.h"
#include "kernels/sm100/config.h"
#include "kernels/sm100/variants.h"
#include "kernels/sm90/variants.h"

using namespace bwgemm;
using namespace bwgemm::emu_test;

namespace {

struct Run {
  GemmCase c;
  uint32_t sm_count;
  uint64_t seed;         // 0: deterministic schedule
  bool refused = false;  // the launcher must send the case to cuBLAS
  // sm90: refused exactly where the configuration cannot load it (row
  // classes take some unaligned B, launch_params.h).
  bool sm90_by_plan = false;
  // sm90, the forced choice: the pieces its last wave's tiles are split into
  // (tile_split.h); 0: not checked. Checked cases run on the forced choice
  // only (skipped where a configuration is named).
  int pieces = 0;
};

std::vector<Run> matrix() {
  std::vector<Run> runs;
  const DType types[4][2] = {{DType::F16, DType::F16},
                             {DType::F16, DType::F32},
                             {DType::BF16, DType::BF16},
                             {DType::BF16, DType::F32}};
  // Every type pair and op combination on two shapes: partial tiles on every
  // edge (m, n, k not multiples of the tile or of 8 elements), and full
  // tiles with several per persistent cluster.
  for (const auto& t : types) {
    for (int op = 0; op < 4; ++op) {
      GemmCase c;
      c.ab = t[0];
      c.c = t[1];
      c.ta = op & 1;
      c.tb = op & 2;
      c.m = 301;
      c.n = 283;
      c.k = 100;
      c.alpha = 2.0f;
      c.beta = -1.0f;
      runs.push_back({c, 4, 0});
      c.m = 512;
      c.n = 512;
      c.k = 256;
      c.alpha = 1.0f;
      c.beta = 0.0f;
      runs.push_back({c, 4, 0});
    }
  }
  // Batches, scalars, gaussian inputs, degenerate shapes.
  GemmCase c;
  c.m = 260;
  c.n = 130;
  c.k = 72;
  c.batch = 2;
  for (int op = 0; op < 4; ++op) {
    c.ta = op & 1;
    c.tb = op & 2;
    runs.push_back({c, 6, 0});
  }
  c.broadcast_b = true;
  c.c = DType::F32;
  runs.push_back({c, 4, 0});
  GemmCase g;
  g.integers = false;
  g.m = 256;
  g.n = 384;
  g.k = 192;
  g.alpha = 0.5f;
  g.beta = 0.25f;
  g.ab = DType::BF16;
  g.c = DType::BF16;
  runs.push_back({g, 4, 0});
  g.ab = DType::F16;
  g.c = DType::F32;
  g.ta = true;
  g.device_scalars = true;
  runs.push_back({g, 4, 0});
  GemmCase e;  // alpha == 0 and k == 0 never run the mainloop: D = beta C
  e.m = 70;
  e.n = 90;
  e.k = 64;
  e.alpha = 0.0f;
  e.beta = 2.0f;
  runs.push_back({e, 2, 0});
  e.alpha = 1.0f;
  e.k = 0;
  runs.push_back({e, 2, 0});
  GemmCase s;  // single elements and a single tile
  s.m = 1;
  s.n = 1;
  s.k = 1;
  runs.push_back({s, 2, 0});
  s.m = 8;
  s.n = 600;
  s.k = 16;
  s.tb = true;
  runs.push_back({s, 4, 0});
  // Leading dimensions and bases TMA cannot address (launch_params.h): C's
  // rows staged rotated and stored by the warps; unaligned A or B refused (cuBLAS
  // computes them).
  const auto unaligned = [&](bool ta, bool tb, int64_t m, int64_t n, int64_t k, int64_t offset,
                             DType out, float beta, uint64_t seed, bool refused) {
    GemmCase u;
    u.ab = seed % 2 ? DType::BF16 : DType::F16;
    u.c = out == DType::F32 ? DType::F32 : u.ab;
    u.ta = ta;
    u.tb = tb;
    u.m = m;
    u.n = n;
    u.k = k;
    u.beta = beta;
    u.minimal_ld = true;
    u.offset = offset;
    runs.push_back({u, 4, seed, refused});
  };
  const DType same = DType::F16;
  unaligned(true, false, 301, 133, 104, 0, same, 0.0f, 0, false);        // ldc odd
  unaligned(true, false, 301, 133, 104, 0, same, -1.0f, 2, false);       // ... reading C
  unaligned(true, false, 301, 133, 104, 0, DType::F32, 0.0f, 3, false);  // fp32 rows of 1204 B
  unaligned(false, true, 264, 136, 96, 0, same, 1.0f, 4, false);         // all aligned
  unaligned(false, false, 264, 133, 203, 0, same, 0.0f, 0, true);        // ldb odd
  unaligned(false, true, 264, 203, 100, 0, same, 0.0f, 0, true);         // ldb odd, B M/N-major
  unaligned(false, true, 256, 200, 128, 3, same, 1.0f, 0, true);         // every base + 3
  // Row classes where the configuration's tiles allow them (512 rows: the
  // 64-row configurations): NN with ldb odd, TN with ldc odd.
  unaligned(false, false, 264, 512, 203, 0, same, 0.5f, 5, true);
  runs.back().sm90_by_plan = true;
  unaligned(true, false, 301, 512, 136, 0, DType::F32, -1.0f, 6, false);
  // ... with cuBLASLt's bias (fp32) and GELU, D apart from C (PyTorch's
  // Linear at an odd width): the bias is read at D's own columns.
  unaligned(true, false, 301, 512, 136, 0, same, 0.5f, 7, false);
  runs.back().c.bias = true;
  runs.back().c.activation = Activation::Gelu;
  runs.back().c.out_of_place = true;
  // Row windows (the configuration that has them): NT with ldb odd (every
  // class shift 0..7), k off the classes and the k block, partial tiles on
  // both edges, several tiles per cluster, beta != 0; and ldb = 300 (shifts
  // 0 and 4 only: whole words), fp32 output.
  unaligned(false, true, 200, 517, 203, 0, same, 0.5f, 9, true);
  runs.back().sm90_by_plan = true;
  unaligned(false, true, 136, 300, 77, 0, DType::F32, 0.0f, 10, true);
  runs.back().sm90_by_plan = true;
  // ... one k block and two tiles on a cluster (the TMA warp's one-behind
  // shift crosses a tile at every window), and alpha == 0 (no k block: the
  // shifters and the TMA warp run no window, D = beta C).
  unaligned(false, true, 200, 517, 40, 0, same, 0.5f, 11, true);
  runs.back().sm90_by_plan = true;
  unaligned(false, true, 200, 517, 203, 0, same, 2.0f, 12, true);
  runs.back().sm90_by_plan = true;
  runs.back().c.alpha = 0.0f;
  // Register windows (k a multiple of 8, A M-major): ldb = 5 mod 8 (every
  // shift), a partial last k block (k % 64 == 8) and tiles, beta != 0; ldb =
  // 300, fp32 output; k = 8 (one row of each class).
  unaligned(false, true, 200, 517, 200, 0, same, 0.5f, 13, true);
  runs.back().sm90_by_plan = true;
  unaligned(false, true, 136, 300, 80, 0, DType::F32, 0.0f, 14, true);
  runs.back().sm90_by_plan = true;
  unaligned(false, true, 72, 130, 8, 0, same, 0.0f, 15, true);
  runs.back().sm90_by_plan = true;
  // Decode and skinny shapes (n <= 64, k over many blocks): k blocks that
  // split unevenly over 2 or 4 CTAs (11 blocks), fewer blocks than CTAs (1),
  // m past a tile edge, beta != 0, fp32 output, TN and NN.
  // The last has the tokens as m (C = tokens x weight rows).
  const int64_t decode[][3] = {
      {200, 1, 700}, {130, 8, 64}, {300, 33, 1000}, {257, 64, 520}, {17, 300, 1000}};
  for (int i = 0; i < 5; ++i) {
    GemmCase d;
    d.ab = i % 2 ? DType::BF16 : DType::F16;
    d.c = i == 2 ? DType::F32 : d.ab;
    d.ta = i % 2 == 0;
    d.m = decode[i][0];
    d.n = decode[i][1];
    d.k = decode[i][2];
    d.beta = i == 1 || i == 2 ? 0.5f : 0.0f;
    d.integers = i != 3;
    runs.push_back({d, 8, 0});
    runs.push_back({d, 8, uint64_t(20 + i)});
  }
  // The decode kernel's class (TN, <= 32 tokens, K a multiple of 8): one and
  // two token blocks and a partial third, weight rows past a CTA's block, K
  // past a warp's turn (K % 64 != 0), fewer K steps than warps, beta != 0,
  // fp32 output, batches (B broadcast, a bias each), D with minimal leading
  // dimensions (odd ldc), cuBLASLt's bias and activations, alpha == 0.
  const int64_t tokens[][3] = {{67, 1, 1000}, {200, 16, 520}, {45, 29, 64}, {33, 8, 8}};
  for (int i = 0; i < 4; ++i) {
    GemmCase d;
    d.ab = i % 2 ? DType::F16 : DType::BF16;
    d.c = i == 2 ? DType::F32 : d.ab;
    d.ta = true;
    d.m = tokens[i][0];
    d.n = tokens[i][1];
    d.k = tokens[i][2];
    d.beta = i % 2 ? -0.5f : 0.0f;
    d.alpha = i == 3 ? 0.0f : 1.0f;
    d.batch = i == 1 ? 3 : 1;
    d.broadcast_b = i == 1;
    d.integers = i != 2;
    d.minimal_ld = i == 0;
    d.bias = i == 1 || i == 2;
    d.activation = i == 1 ? Activation::Relu : i == 2 ? Activation::Gelu : Activation::None;
    d.out_of_place = i == 2;
    runs.push_back({d, 4, 0});
  }
  // ... past one wave of two CTAs an SM, three an SM (decode/config.h,
  // launch_shape; 10 CTAs on 4 SMs):
  {
    GemmCase d;
    d.ab = d.c = DType::BF16;
    d.ta = true;
    d.m = 160;
    d.n = 5;
    d.k = 1096;
    d.beta = 0.5f;
    runs.push_back({d, 4, 0});
  }
  // ... in 8-row halves (launch_shape): two an SM (20 rows, 3 halves on 4
  // SMs, the last of 4 rows; K off a step) and three an SM (67 rows, 9
  // halves for 5 blocks), fp16, beta != 0:
  const int64_t halves[][3] = {{20, 3, 200}, {67, 8, 1096}};
  for (const auto& h : halves) {
    GemmCase d;
    d.ab = d.c = DType::F16;
    d.ta = true;
    d.m = h[0];
    d.n = h[1];
    d.k = h[2];
    d.beta = -0.5f;
    runs.push_back({d, 4, 0});
  }
  // ... and its L2 prefetch: K past the 1024 prefetched (clamped), a device
  // alpha (none), K == 0 (nothing to prefetch; D = beta C).
  const int64_t prefetch_cases[][3] = {{40, 3, 1096}, {24, 8, 64}, {16, 2, 0}};
  for (int i = 0; i < 3; ++i) {
    GemmCase d;
    d.ab = d.c = DType::BF16;
    d.ta = true;
    d.m = prefetch_cases[i][0];
    d.n = prefetch_cases[i][1];
    d.k = prefetch_cases[i][2];
    d.device_scalars = i == 1;
    d.beta = i == 2 ? 0.5f : 0.0f;
    runs.push_back({d, 4, 0});
  }
  // ... with the weight contiguous along its rows (NN, m a multiple of 8):
  // a partial 32-row group (88), rows past the last CTA's (40 of 64), K past
  // a 32-k half and off a K step (200, 72), beta != 0, fp32 output, minimal
  // leading dimensions, one, two and four token blocks (5, 12, 29 tokens);
  // m = 90 is not the kernel's (skipped when the decode kernel is named).
  const int64_t nn_tokens[][3] = {{88, 5, 200}, {40, 29, 72}, {296, 12, 1032}, {90, 3, 64}};
  for (int i = 0; i < 4; ++i) {
    GemmCase d;
    d.ab = i % 2 ? DType::F16 : DType::BF16;
    d.c = i == 1 ? DType::F32 : d.ab;
    d.m = nn_tokens[i][0];
    d.n = nn_tokens[i][1];
    d.k = nn_tokens[i][2];
    d.beta = i == 1 ? -0.5f : i == 2 ? 1.0f : 0.0f;
    d.integers = i != 1;
    d.minimal_ld = i == 1;
    runs.push_back({d, 4, 0});
  }
  // cuBLASLt's epilogues (PyTorch's Linear is TN): bias per row of D of the
  // output type or fp32, ReLU, GELU; D apart from C; batches with a bias each.
  const auto epilogue = [&](DType ab, DType out, bool bias, DType bias_type, Activation act,
                            bool out_of_place, float alpha, float beta, int64_t batch) {
    GemmCase l;
    l.ab = ab;
    l.c = out;
    l.ta = true;
    l.m = 301;
    l.n = 150;
    l.k = 100;
    l.alpha = alpha;
    l.beta = beta;
    l.batch = batch;
    l.bias = bias;
    l.bias_type = bias_type;
    l.activation = act;
    l.out_of_place = out_of_place;
    runs.push_back({l, 4, 0});
  };
  epilogue(DType::F16, DType::F16, true, DType::F16, Activation::None, false, 1.0f, 0.0f, 1);
  epilogue(DType::BF16, DType::BF16, true, DType::F32, Activation::None, false, 2.0f, -1.0f, 1);
  epilogue(DType::BF16, DType::BF16, true, DType::BF16, Activation::Relu, true, 1.0f, 1.0f, 1);
  epilogue(DType::F16, DType::F16, true, DType::F16, Activation::Gelu, false, 0.0625f, 0.0f, 1);
  epilogue(DType::F16, DType::F32, false, DType::F32, Activation::Gelu, true, 0.0625f, 0.5f, 1);
  epilogue(DType::F16, DType::F16, false, DType::F16, Activation::Relu, false, 1.0f, 0.0f, 1);
  epilogue(DType::BF16, DType::F32, true, DType::F32, Activation::Relu, true, 1.0f, 0.0f, 2);

  // The last wave's tiles split over K (tile_split.h), with a workspace:
  // 3 tiles of 256 x 256 on 2 clusters (the third in two pieces of 33 and
  // 32 k blocks), beta != 0, in the kernels' order and in random ones; NN
  // with ldb odd (row classes, 8 tiles on 6 clusters: only the first piece
  // zeroes its rows' heads), fp32 output; 5 tiles on 4 clusters in three
  // pieces, gaussian inputs.
  {
    GemmCase w;
    w.ab = w.c = DType::BF16;
    w.ta = true;
    w.m = 200;
    w.n = 600;
    w.k = 4100;
    w.beta = 0.5f;
    w.workspace_bytes = size_t{8} << 20;
    runs.push_back({w, 4, 0});
    runs.back().pieces = 2;
    runs.push_back({w, 4, 31});
    runs.back().pieces = 2;
    w.ta = false;
    w.minimal_ld = true;
    w.c = DType::F32;
    w.beta = 0.0f;
    w.n = 2048;
    runs.push_back({w, 12, 0, true, true});  // sm100 has no row classes: refused
    runs.back().pieces = 2;
    w.ta = true;
    w.minimal_ld = false;
    w.c = DType::F16;
    w.ab = DType::F16;
    w.integers = false;
    w.n = 1100;
    w.k = 6200;
    runs.push_back({w, 8, 32});
    runs.back().pieces = 3;
    // ... and none without a workspace.
    w.workspace_bytes = 0;
    runs.push_back({w, 8, 0});
    runs.back().pieces = 1;
  }
  // Random interleavings and asynchronous completion orders.
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    GemmCase r;
    r.ab = seed % 2 ? DType::F16 : DType::BF16;
    r.c = seed % 3 ? r.ab : DType::F32;
    r.ta = seed & 1;
    r.tb = seed & 2;
    r.m = 200 + 37 * int64_t(seed);
    r.n = 180 + 53 * int64_t(seed);
    r.k = 64 + 40 * int64_t(seed);
    r.beta = seed % 2 ? 1.0f : 0.0f;
    r.batch = seed % 3 == 0 ? 2 : 1;
    runs.push_back({r, 4, seed});
  }
  return runs;
}

// The decode kernel's L2 prefetches: with a host alpha != 0 and a
// K-contiguous weight, the first Shape::prefetch_k of each weight row (K if
// shorter), once per row and batch; none otherwise.
std::string check_decode_prefetches(const HostGemm& g, const DeviceCaps& caps,
                                    const emu::RunResult& run) {
  const float unused = 0.0f;
  const GemmProblem p =
      g.problem(g.a.data(), g.b.data(), const_cast<uint8_t*>(g.c_initial.data()), &unused, &unused);
  const KernelView v = to_kernel_view(p);
  const decode::Shape& shape = decode::kShapes[decode::shape_of(p, caps)];
  using Range = std::pair<uintptr_t, uint32_t>;
  std::vector<Range> expected, issued;
  const int64_t k = std::min<int64_t>(shape.prefetch_k, v.depth);
  if (!p.alpha.on_device && p.alpha.value != 0.0f && k > 0) {
    const auto base = reinterpret_cast<uintptr_t>(v.col_operand.base);
    const auto elem = int64_t(dtype_size(v.ab_type));
    const auto bytes = uint32_t(k * elem);
    for (int64_t b = 0; b < v.batch; ++b)
      for (int64_t col = 0; col < v.cols; ++col)
        expected.push_back(
            {base + uintptr_t((b * v.col_operand.stride + col * v.col_operand.ld) * elem), bytes});
  }
  for (const emu::L2Prefetch& r : run.l2_prefetches)
    issued.push_back({reinterpret_cast<uintptr_t>(r.address), r.bytes});
  std::sort(expected.begin(), expected.end());
  std::sort(issued.begin(), issued.end());
  if (issued == expected) return "";
  return "L2 prefetches: " + std::to_string(issued.size()) + " issued, " +
         std::to_string(expected.size()) + " expected (one per weight row and batch, " +
         std::to_string(expected.empty() ? 0 : k) + " k each), or at other addresses or sizes";
}

}  // namespace

int main(int argc, char** argv) {
  const char* filter = nullptr;
  int config = -1;
  bool verbose = false;
  const bool sm100 = argc > 1 && std::strcmp(argv[1], "sm100") == 0;
  if (argc < 2 || (!sm100 && std::strcmp(argv[1], "sm90") != 0)) {
    std::fprintf(stderr, "usage: %s sm90|sm100 [--config NAME] [--filter SUBSTRING] [--verbose]\n",
                 argv[0]);
    return 2;
  }
  const char* family = argv[1];
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--filter") == 0 && i + 1 < argc) {
      filter = argv[++i];
    } else if (std::strcmp(argv[i], "--config") == 0 && i + 1 < argc) {
      config = sm100 ? sm100::config_by_name(argv[++i]) : sm90::config_by_name(argv[++i]);
      if (config < 0) {
        std::fprintf(stderr, "no %s configuration %s\n", family, argv[i]);
        return 2;
      }
    } else if (std::strcmp(argv[i], "--verbose") == 0) {
      verbose = true;
    } else {
      std::fprintf(stderr,
                   "usage: %s sm90|sm100 [--config NAME] [--filter SUBSTRING] [--verbose]\n",
                   argv[0]);
      return 2;
    }
  }
  const bool decode_config = !sm100 && config == sm90::kDecodeConfig;
  const auto tile = [&](DType out) {
    return sm100 ? sm100::tile_shape(config, out) : sm90::tile_shape(config, out);
  };
  int failures = 0, count = 0, skipped = 0;
  const auto start = std::chrono::steady_clock::now();
  uint64_t case_seed = 0;
  for (const Run& r : matrix()) {
    ++case_seed;
    const std::string name = describe(r.c) + " sm=" + std::to_string(r.sm_count) +
                             (r.seed ? " seed=" + std::to_string(r.seed) : "");
    if (filter != nullptr && name.find(filter) == std::string::npos) continue;
    const HostGemm g(r.c, case_seed);
    const DeviceCaps sm90_caps{0, 9, 0, int(r.sm_count), 232448};
    // The split cases are the forced choice's (configuration 0's tiles).
    if (config >= 0 && r.pieces > 0) {
      ++skipped;
      continue;
    }
    if (config >= 0) {
      const float unused = 0.0f;
      const GemmProblem p = g.problem(g.a.data(), g.b.data(),
                                      const_cast<uint8_t*>(g.c_initial.data()), &unused, &unused);
      const KernelView v = to_kernel_view(p);
      const VariantKey key = variant_key(v);
      const bool takes = sm100 ? sm100::layout_compiled(config, key.row_mn, key.col_mn)
                         : decode_config
                             ? decode::check(p, sm90_caps) == BWGEMM_REASON_KERNEL_SELECTED
                             : sm90::config_compiled(config, key) && tile(r.c.c).takes_rows(v.rows);
      if (!takes) {
        ++skipped;
        continue;
      }
    }
    ++count;
    emu::Options o;
    // A virtual device holds at least one cluster of the configuration.
    o.sm_count = config >= 0 && !decode_config
                     ? std::max<uint32_t>(r.sm_count, uint32_t(tile(r.c.c).cluster_size))
                     : r.sm_count;
    o.seed = r.seed;
    const auto t0 = std::chrono::steady_clock::now();
    const EmuOutcome out = sm100 ? run_sm100(g, o, config) : run_sm90(g, o, config);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    // A configuration with row windows loads what its plan says, not what
    // the default one does.
    const bool by_plan =
        r.sm90_by_plan || (config >= 0 && !sm100 && !decode_config && tile(r.c.c).row_windows);
    const bool refused = !sm100 && by_plan ? !sm90_loads(g, o.sm_count, config) : r.refused;
    std::string bad = refused        ? (out.launched ? "launched a layout it cannot load" : "")
                      : out.launched ? g.check(out.c.data())
                                     : out.error;
    if (bad.empty() && out.launched && decode_config)
      bad = check_decode_prefetches(g, sm90_caps, out.run);
    if (bad.empty() && !sm100 && config < 0 && r.pieces > 0 &&
        sm90_pieces(g, o.sm_count) != r.pieces)
      bad = "split its last wave into " + std::to_string(sm90_pieces(g, o.sm_count)) +
            " pieces, not " + std::to_string(r.pieces);
    if (!bad.empty()) {
      ++failures;
      std::printf("FAIL %s\n%s\n", name.c_str(), bad.c_str());
    } else if (verbose) {
      std::printf("ok   %s (%.2f s, %llu switches, %llu async ops)\n", name.c_str(), seconds,
                  static_cast<unsigned long long>(out.run.switches),
                  static_cast<unsigned long long>(out.run.async_ops));
    }
  }
  const double total =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%d of %d cases passed in %.1f s", count - failures, count, total);
  if (config >= 0)
    std::printf(
        " on %s (%d cases it does not take skipped: layouts it is not compiled for, rows past its "
        "limit)",
        sm100 ? sm100::config_name(config) : sm90::config_name(config), skipped);
  std::printf("\n");
  return failures == 0 && count > 0 ? 0 : 1;
}
