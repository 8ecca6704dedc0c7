// SPDX-License-Identifier: MIT
#include "suites.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <sstream>

namespace bench {
namespace {

constexpr cublasOperation_t N = CUBLAS_OP_N;
constexpr cublasOperation_t T = CUBLAS_OP_T;

struct OpPair {
  cublasOperation_t a, b;
};
constexpr OpPair kAllOps[] = {{N, N}, {N, T}, {T, N}, {T, T}};

Shape make(int64_t m, int64_t n, int64_t k, OpPair ops, DType dtype, std::string note = "",
           BaselineDims baseline = {}) {
  Shape s;
  s.m = m;
  s.n = n;
  s.k = k;
  s.op_a = ops.a;
  s.op_b = ops.b;
  s.dtype = dtype;
  s.baseline = baseline;
  s.note = std::move(note);
  return s;
}

Suite named(const char* name, const char* summary) {
  Suite s;
  s.name = name;
  s.summary = summary;
  return s;
}

Suite seed_suite() {
  Suite s =
      named("seed", "the seed shapes: 4096x8192x4096 fp16 and 8192^3 bf16, all four op pairs");
  for (OpPair ops : kAllOps) s.shapes.push_back(make(4096, 8192, 4096, ops, DType::kF16));
  for (OpPair ops : kAllOps) s.shapes.push_back(make(8192, 8192, 8192, ops, DType::kBF16));
  return s;
}

// The projections of one transformer layer (Llama-3-8B / Mistral-7B sizes:
// hidden 4096, MLP 14336, 32 query + 2x8 key/value heads of 128 = 6144) applied
// to 4096 tokens: y[tokens, out] = x[tokens, in] * W. cuBLAS is column-major, so
// the row-major y is computed as its transpose C = y^T, out x tokens:
//   m = out features, n = 4096 tokens, k = in features;
//   TN: A is W stored row-major [out, in] (PyTorch nn.Linear; what torch's
//       linear/matmul send to cublasGemmEx), B is x;
//   NN: A is W stored row-major [in, out] (JAX/Flax Dense's kernel), B is x.
struct LlmRow {
  int64_t m, n, k;
  const char* what;
};
constexpr LlmRow kLlmRows[] = {
    {14336, 4096, 4096, "MLP up/gate projection 4096->14336, 4096 tokens"},
    {4096, 4096, 14336, "MLP down projection 14336->4096, 4096 tokens"},
    {6144, 4096, 4096, "attention QKV projection 4096->6144, 4096 tokens"},
};

Suite llm_suite() {
  Suite s = named("llm", "4096 tokens through 4096->14336, 14336->4096, 4096->6144 projections");
  for (const LlmRow& row : kLlmRows)
    for (DType t : {DType::kF16, DType::kBF16})
      for (OpPair ops : {OpPair{N, N}, OpPair{T, N}})
        s.shapes.push_back(make(row.m, row.n, row.k, ops, t, row.what));
  return s;
}

Suite k_sweep_suite() {
  Suite s = named("k-sweep", "8192x8192xK bf16 TN, K = 512 .. 16384");
  for (int64_t k : {512, 1024, 2048, 4096, 8192, 16384})
    s.shapes.push_back(make(8192, 8192, k, {T, N}, DType::kBF16));
  return s;
}

Suite small_suite() {
  Suite s =
      named("small",
            "small cubes and skinny shapes (m or n <= 256), fp16 TN; also eager, graph and model "
            "rates");
  s.rates = true;
  const OpPair tn{T, N};
  const DType h = DType::kF16;
  for (int64_t c : {256, 512, 1024, 2048}) s.shapes.push_back(make(c, c, c, tn, h));
  s.shapes.push_back(make(14336, 128, 4096, tn, h, "MLP up/gate projection, 128 tokens"));
  s.shapes.push_back(make(4096, 128, 14336, tn, h, "MLP down projection, 128 tokens"));
  s.shapes.push_back(make(14336, 16, 4096, tn, h, "MLP up/gate projection, 16 tokens (decode)"));
  s.shapes.push_back(make(4096, 16, 14336, tn, h, "MLP down projection, 16 tokens (decode)"));
  s.shapes.push_back(make(4096, 64, 4096, tn, h, "4096x4096 weight, 64 tokens"));
  s.shapes.push_back(make(4096, 16, 4096, tn, h, "4096x4096 weight, 16 tokens (decode)"));
  s.shapes.push_back(make(4096, 8, 4096, tn, h, "4096x4096 weight, 8 tokens (decode)"));
  s.shapes.push_back(make(128, 4096, 4096, tn, h, "m = 128 tokens (token-major output)"));
  s.shapes.push_back(make(256, 8192, 8192, tn, h, "m = 256, large n and k"));
  s.shapes.push_back(make(8192, 256, 8192, tn, h, "n = 256, large m and k"));
  return s;
}

// Decode: a batch of n tokens (n = 1 .. 128) through one weight, the weight
// the bulk of the bytes, so time is weight bytes over bandwidth; shapes as in
// the llm suite (m = out features, k = in features; TN: PyTorch's [out, in]
// weight, NN: JAX's [in, out]). Rotated past the L2 like every suite, so the
// weight comes from HBM, as it does when a model runs its layers in turn.
constexpr int64_t kDecodeWeights[][2] = {{4096, 4096}, {14336, 4096}, {4096, 14336}, {8192, 8192}};
constexpr int64_t kDecodeTokens[] = {1, 8, 16, 32, 64, 128};

Suite decode_suite() {
  Suite s = named("decode",
                  "decode: n = 1 .. 128 tokens through 4096^2, 14336x4096, 4096x14336 "
                  "and 8192^2 weights, bf16 and fp16, TN and NN; also eager, graph "
                  "and model rates");
  s.rates = true;
  for (const auto& w : kDecodeWeights) {
    const std::string weight = std::to_string(w[0]) + "x" + std::to_string(w[1]) + " weight";
    for (DType t : {DType::kBF16, DType::kF16})
      for (OpPair ops : {OpPair{T, N}, OpPair{N, N}})
        for (int64_t n : kDecodeTokens)
          s.shapes.push_back(
              make(w[0], n, w[1], ops, t,
                   weight + ", " + std::to_string(n) + (n == 1 ? " token" : " tokens")));
  }
  return s;
}

// Decode through the projections of open models as an unchanged PyTorch
// program runs them (bf16, TN: nn.Linear's [out, in] weight; m = out
// features, k = in features), at 1, 4 and 8 tokens. Hugging Face
// transformers runs each projection on its own; serving engines fuse q, k, v
// into one weight and gate with up (the "fused" rows). Sizes from each
// model's config.json: hidden, intermediate, and heads (q) and key/value
// heads (k, v) times the head size. Qwen's q, k and v carry a bias, which
// PyTorch sends through cublasLtMatmul; here they run without.
struct ModelWeight {
  int64_t out, in;
  const char* what;
};
constexpr ModelWeight kModelWeights[] = {
    {4096, 4096, "Llama-2-7B, Llama-3-8B, Mistral-7B: q and o (Llama-2 also k, v)"},
    {1024, 4096, "Llama-3-8B, Mistral-7B: k and v"},
    {6144, 4096, "Llama-3-8B, Mistral-7B: q, k, v fused"},
    {14336, 4096, "Llama-3-8B, Mistral-7B: gate and up"},
    {28672, 4096, "Llama-3-8B, Mistral-7B: gate and up fused"},
    {4096, 14336, "Llama-3-8B, Mistral-7B: down"},
    {12288, 4096, "Llama-2-7B: q, k, v fused"},
    {11008, 4096, "Llama-2-7B: gate and up"},
    {22016, 4096, "Llama-2-7B: gate and up fused"},
    {4096, 11008, "Llama-2-7B: down"},
    {5120, 5120, "Llama-2-13B: q, k, v and o"},
    {15360, 5120, "Llama-2-13B: q, k, v fused"},
    {13824, 5120, "Llama-2-13B: gate and up"},
    {27648, 5120, "Llama-2-13B: gate and up fused"},
    {5120, 13824, "Llama-2-13B: down"},
    {3584, 3584, "Qwen2.5-7B: q and o"},
    {512, 3584, "Qwen2.5-7B: k and v"},
    {4608, 3584, "Qwen2.5-7B: q, k, v fused"},
    {18944, 3584, "Qwen2.5-7B: gate and up"},
    {37888, 3584, "Qwen2.5-7B: gate and up fused"},
    {3584, 18944, "Qwen2.5-7B: down"},
    {3072, 3072, "Phi-3-mini: o"},
    {9216, 3072, "Phi-3-mini: q, k, v (fused in the model)"},
    {16384, 3072, "Phi-3-mini: gate and up (fused in the model)"},
    {3072, 8192, "Phi-3-mini: down"},
};
constexpr int64_t kModelTokens[] = {1, 4, 8};

Suite models_suite() {
  Suite s = named("models",
                  "decode at 1, 4 and 8 tokens through the projections of Llama-2-7B/13B, "
                  "Llama-3-8B, Mistral-7B, Qwen2.5-7B and Phi-3-mini, bf16 TN; also eager, "
                  "graph and model rates");
  s.rates = true;
  for (const ModelWeight& w : kModelWeights)
    for (int64_t n : kModelTokens)
      s.shapes.push_back(make(w.out, n, w.in, {T, N}, DType::kBF16, w.what));
  return s;
}

// Sizes off every tile multiple. In TN, lda = ldb = k and ldc = m at their
// minimum, so an odd k or m gives unaligned leading dimensions (which bwgemm's
// kernels may forward to cuBLAS); each shape is also run with the leading
// dimensions padded to a multiple of 8 elements, unless that changes nothing.
// The k = 4096 shapes (4095x4097, 4097x4095) are held to cuBLAS on 4096^3 in
// the same op pair, their baseline.
constexpr int64_t kOddDims[][3] = {
    {4095, 4097, 4096}, {4097, 4095, 4096}, {4095, 4095, 4095}, {4096, 4096, 4095},
    {1000, 1000, 1000}, {3000, 5000, 700},  {2047, 2049, 1023},
};

Suite odd_suite() {
  Suite s = named("odd",
                  "odd sizes, TN, fp16 and bf16, minimal and 8-element-padded leading dimensions; "
                  "the 4095/4097 shapes in every op pair, against the aligned 4096^3");
  for (DType t : {DType::kF16, DType::kBF16})
    s.shapes.push_back(make(4096, 4096, 4096, {T, N}, t, "the aligned reference"));
  for (const auto& d : kOddDims)
    for (DType t : {DType::kF16, DType::kBF16}) {
      const BaselineDims cube = d[2] == 4096 ? BaselineDims{4096, 4096, 4096} : BaselineDims{};
      const Shape tight = make(d[0], d[1], d[2], {T, N}, t, "", cube);
      s.shapes.push_back(tight);
      Shape padded = tight;
      padded.ld = LdMode::kPad8;
      padded.baseline = {};
      const Layout a = layout_of(tight), b = layout_of(padded);
      if (a.lda != b.lda || a.ldb != b.ldb || a.ldc != b.ldc) s.shapes.push_back(padded);
      if (d[2] == 4096)
        for (OpPair ops : kAllOps)
          if (ops.a != T || ops.b != N)
            s.shapes.push_back(make(d[0], d[1], d[2], ops, t, "", cube));
    }
  return s;
}

// GPT-2's lm_head in a training step of 8 x 1024 tokens (hidden 768), with
// the true vocabulary 50257 and nanoGPT's padded 50304, bf16, minimal leading
// dimensions, as eager PyTorch sends them to cublasGemmEx:
//   logits           TN m = V,   n = 8192, k = 768   (ldc = V)
//   weight gradient  NT m = 768, n = V,    k = 8192  (ldb = V)
//   input gradient   NN m = 768, n = 8192, k = V     (ldb = V)
// The 50257 calls are held to cuBLAS on the same call at 50304, their baseline.
Suite gpt2_suite() {
  Suite s = named("gpt2",
                  "GPT-2's lm_head GEMMs (8x1024 tokens, hidden 768), vocabulary 50257 "
                  "and 50304, bf16, minimal leading dimensions");
  constexpr int64_t kPadded = 50304;
  for (int64_t vocab : {int64_t{50257}, kPadded}) {
    const std::string v = std::to_string(vocab);
    const bool odd = vocab != kPadded;
    const auto base = [&](int64_t m, int64_t n, int64_t k) {
      return odd ? BaselineDims{m, n, k} : BaselineDims{};
    };
    s.shapes.push_back(make(vocab, 8192, 768, {T, N}, DType::kBF16, "logits, vocabulary " + v,
                            base(kPadded, 8192, 768)));
    s.shapes.push_back(make(768, vocab, 8192, {N, T}, DType::kBF16,
                            "weight gradient, vocabulary " + v, base(768, kPadded, 8192)));
    s.shapes.push_back(make(768, 8192, vocab, {N, N}, DType::kBF16,
                            "input gradient, vocabulary " + v, base(768, 8192, kPadded)));
  }
  return s;
}

Suite host_suite() {
  Suite s = named("host",
                  "host time per call: cuBLAS direct, bwgemm forwarding, bwgemm's kernel path and "
                  "a bare launch of the kernel it runs (tiny GEMMs); the -lt rows through "
                  "cublasLtMatmul with a bias against cuBLASLt");
  s.kind = SuiteKind::kHostCost;
  for (int64_t c : {64, 256}) s.shapes.push_back(make(c, c, c, {T, N}, DType::kF16));
  for (int64_t c : {64, 256}) {
    Shape lt = make(c, c, c, {T, N}, DType::kF16, "cublasLtMatmul, bias epilogue (Linear)");
    lt.lt = true;
    s.shapes.push_back(lt);
  }
  return s;
}

int64_t leading_dim(int64_t rows, LdMode mode) {
  const int64_t ld = std::max<int64_t>(rows, 1);  // cuBLAS requires ld >= max(1, rows)
  return mode == LdMode::kPad8 ? (ld + 7) / 8 * 8 : ld;
}

bool parse_int(const std::string& text, int64_t* out) {
  if (text.empty()) return false;
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (*end != '\0' || v < 1 || v > INT_MAX) return false;
  *out = v;
  return true;
}

// "4096x4096x4096" into a baseline's sizes.
bool parse_dims(const std::string& text, BaselineDims* out) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string p; std::getline(in, p, 'x');) parts.push_back(p);
  BaselineDims d;
  if (parts.size() != 3 || !parse_int(parts[0], &d.m) || !parse_int(parts[1], &d.n) ||
      !parse_int(parts[2], &d.k))
    return false;
  *out = d;
  return true;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

bool has_baseline(const Shape& s) { return s.baseline.m > 0; }

Shape baseline_of(const Shape& s) {
  Shape b = s;
  b.m = s.baseline.m;
  b.n = s.baseline.n;
  b.k = s.baseline.k;
  b.ld = LdMode::kMin;
  b.baseline = {};
  b.note = "baseline of " + dims_name(s);
  return b;
}

Layout layout_of(const Shape& s) {
  const bool na = s.op_a == CUBLAS_OP_N, nb = s.op_b == CUBLAS_OP_N;
  Layout l;
  l.lda = leading_dim(na ? s.m : s.k, s.ld);
  l.ldb = leading_dim(nb ? s.k : s.n, s.ld);
  l.ldc = leading_dim(s.m, s.ld);
  l.a_elems = l.lda * (na ? s.k : s.m);
  l.b_elems = l.ldb * (nb ? s.n : s.k);
  l.c_elems = l.ldc * s.n;
  return l;
}

const std::vector<Suite>& builtin_suites() {
  static const std::vector<Suite> suites = {seed_suite(),  llm_suite(),    k_sweep_suite(),
                                            small_suite(), decode_suite(), models_suite(),
                                            odd_suite(),   gpt2_suite(),   host_suite()};
  return suites;
}

bool select_suites(const std::string& list, std::vector<Suite>* out, std::string* error) {
  std::stringstream in(list);
  std::string name;
  while (std::getline(in, name, ',')) {
    if (name.empty()) continue;
    if (name == "all") {
      out->insert(out->end(), builtin_suites().begin(), builtin_suites().end());
      continue;
    }
    auto it = std::find_if(builtin_suites().begin(), builtin_suites().end(),
                           [&](const Suite& s) { return s.name == name; });
    if (it == builtin_suites().end()) {
      *error = "unknown suite '" + name + "' (known: all";
      for (const Suite& s : builtin_suites()) *error += ", " + s.name;
      *error += ")";
      return false;
    }
    out->push_back(*it);
  }
  if (out->empty()) {
    *error = "no suite named in '" + list + "'";
    return false;
  }
  return true;
}

bool parse_shape(const std::string& text, Shape* out, std::string* error) {
  std::vector<std::string> fields;
  std::stringstream in(text);
  for (std::string f; std::getline(in, f, ',');) fields.push_back(f);
  Shape s;
  if (fields.size() < 3 || fields.size() > 7 || !parse_int(fields[0], &s.m) ||
      !parse_int(fields[1], &s.n) || !parse_int(fields[2], &s.k)) {
    *error = "--shape '" + text +
             "': expected m,n,k[,op][,dtype][,batch][,vs=MxNxK] with 1 <= m,n,k < 2^31";
    return false;
  }
  // The optional fields are recognised by their spelling, so any may be left out.
  for (size_t i = 3; i < fields.size(); ++i) {
    const std::string f = lower(fields[i]);
    if (f.size() == 2 && (f[0] == 'n' || f[0] == 't') && (f[1] == 'n' || f[1] == 't')) {
      s.op_a = f[0] == 'n' ? CUBLAS_OP_N : CUBLAS_OP_T;
      s.op_b = f[1] == 'n' ? CUBLAS_OP_N : CUBLAS_OP_T;
    } else if (f == "fp16" || f == "f16" || f == "half") {
      s.dtype = DType::kF16;
    } else if (f == "bf16") {
      s.dtype = DType::kBF16;
    } else if (f.rfind("vs=", 0) == 0) {
      if (!parse_dims(f.substr(3), &s.baseline)) {
        *error = "--shape '" + text + "': '" + fields[i] +
                 "' is not a baseline vs=MxNxK with 1 <= M,N,K < 2^31";
        return false;
      }
    } else if (!parse_int(f, &s.batch)) {
      *error = "--shape '" + text + "': '" + fields[i] +
               "' is not an op (NN|NT|TN|TT), a dtype (fp16|bf16), a batch count or a baseline "
               "(vs=MxNxK)";
      return false;
    }
  }
  if (has_baseline(s) && s.batch != 1) {
    *error = "--shape '" + text + "': a baseline is for one matrix (batch 1)";
    return false;
  }
  const Layout l = layout_of(s);
  if (std::max({l.lda, l.ldb, l.ldc}) > INT_MAX) {
    *error = "--shape '" + text + "': a leading dimension exceeds the 32-bit API";
    return false;
  }
  s.note = "from --shape";
  *out = s;
  return true;
}

std::string op_name(const Shape& s) {
  return std::string(1, s.op_a == CUBLAS_OP_N ? 'N' : 'T') + (s.op_b == CUBLAS_OP_N ? 'N' : 'T');
}

std::string dims_name(const Shape& s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k) +
         (s.lt ? "-lt" : "");
}

const char* ld_name(LdMode mode) { return mode == LdMode::kMin ? "min" : "pad8"; }

double flop_count(const Shape& s) {
  return 2.0 * static_cast<double>(s.m) * static_cast<double>(s.n) * static_cast<double>(s.k) *
         static_cast<double>(s.batch);
}

}  // namespace bench
