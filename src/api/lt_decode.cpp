// SPDX-License-Identifier: MIT
#include "api/lt_decode.h"

#include <atomic>
#include <cstdint>
#include <cstring>
#include <utility>

#include "core/recent_values.h"

namespace bwgemm {
namespace {

using DescAttr = cublasLtMatmulDescAttributes_t;
using LayoutAttr = cublasLtMatrixLayoutAttribute_t;

// One attribute of exactly its documented size; false when the getter fails.
template <class T>
bool read_desc(const RealCublasLt& lt, cublasLtMatmulDesc_t desc, DescAttr attr, T* out) {
  size_t written = 0;
  return lt.desc_get_attribute(desc, attr, out, sizeof(T), &written) == CUBLAS_STATUS_SUCCESS &&
         written == sizeof(T);
}

template <class T>
bool read_layout(const RealCublasLt& lt, cublasLtMatrixLayout_t layout, LayoutAttr attr, T* out) {
  size_t written = 0;
  return lt.layout_get_attribute(layout, attr, out, sizeof(T), &written) == CUBLAS_STATUS_SUCCESS &&
         written == sizeof(T);
}

// An attribute bwgemm does not implement must hold its default. A getter
// that fails here means the library does not know the attribute (an older
// cuBLASLt), so nobody can have set it; the attributes bwgemm needs are read
// with read_desc and fail the decoding when unreadable.
template <class T>
bool at_default(const RealCublasLt& lt, cublasLtMatmulDesc_t desc, DescAttr attr, T fallback) {
  T value{};
  return !read_desc(lt, desc, attr, &value) || value == fallback;
}

// The attributes that change the result and that bwgemm leaves to cuBLASLt:
// fp8 scaling and amax, block-scaling modes, fp8 fast accumulation,
// emulation. (The AUX attributes matter only to the AUX/BGRAD epilogues,
// which are forwarded; the alpha-vector stride only to the vector pointer
// modes, likewise.)
bool unimplemented_attributes_at_default(const RealCublasLt& lt, cublasLtMatmulDesc_t desc) {
  for (DescAttr attr :
       {CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER,
        CUBLASLT_MATMUL_DESC_C_SCALE_POINTER, CUBLASLT_MATMUL_DESC_D_SCALE_POINTER,
        CUBLASLT_MATMUL_DESC_AMAX_D_POINTER, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_POINTER,
        CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_AMAX_POINTER, CUBLASLT_MATMUL_DESC_D_OUT_SCALE_POINTER,
        CUBLASLT_MATMUL_DESC_EMULATION_DESCRIPTOR})
    if (!at_default<const void*>(lt, desc, attr, nullptr)) return false;
  for (DescAttr attr :
       {CUBLASLT_MATMUL_DESC_A_SCALE_MODE, CUBLASLT_MATMUL_DESC_B_SCALE_MODE,
        CUBLASLT_MATMUL_DESC_C_SCALE_MODE, CUBLASLT_MATMUL_DESC_D_SCALE_MODE,
        CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_MODE, CUBLASLT_MATMUL_DESC_D_OUT_SCALE_MODE})
    if (!at_default<int32_t>(lt, desc, attr, 0)) return false;
  return at_default<int8_t>(lt, desc, CUBLASLT_MATMUL_DESC_FAST_ACCUM, 0) &&
         at_default<int32_t>(lt, desc, CUBLASLT_MATMUL_DESC_TRANSC, CUBLAS_OP_N) &&
         at_default<int32_t>(lt, desc, CUBLASLT_MATMUL_DESC_FILL_MODE, CUBLAS_FILL_MODE_FULL);
}

// A column-major matrix as its layout describes it.
struct Layout {
  cudaDataType type;
  int64_t rows, cols, ld;
  int32_t batch;
  int64_t stride;
};

// Sizes beyond this are not a GEMM anyone runs; they keep the int64
// arithmetic below exact (check_layout forwards anything past int32).
constexpr uint64_t kMaxSize = uint64_t{1} << 62;

// The result is KERNEL_SELECTED, INVALID_ARGUMENT (unreadable) or
// LT_UNSUPPORTED (an order, plane offset or batch mode bwgemm does not take;
// *out is filled then too).
bwgemmReason_t read_matrix(const RealCublasLt& lt, cublasLtMatrixLayout_t layout, Layout* out) {
  if (layout == nullptr) return BWGEMM_REASON_INVALID_ARGUMENT;
  uint32_t type = 0;
  int32_t order = 0;
  uint64_t rows = 0, cols = 0;
  int64_t ld = 0, stride = 0;
  int32_t batch = 0;
  if (!read_layout(lt, layout, CUBLASLT_MATRIX_LAYOUT_TYPE, &type) ||
      !read_layout(lt, layout, CUBLASLT_MATRIX_LAYOUT_ORDER, &order) ||
      !read_layout(lt, layout, CUBLASLT_MATRIX_LAYOUT_ROWS, &rows) ||
      !read_layout(lt, layout, CUBLASLT_MATRIX_LAYOUT_COLS, &cols) ||
      !read_layout(lt, layout, CUBLASLT_MATRIX_LAYOUT_LD, &ld) ||
      !read_layout(lt, layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &batch) ||
      !read_layout(lt, layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride))
    return BWGEMM_REASON_INVALID_ARGUMENT;
  if (rows > kMaxSize || cols > kMaxSize) return BWGEMM_REASON_INVALID_ARGUMENT;
  *out = {static_cast<cudaDataType>(type),
          static_cast<int64_t>(rows),
          static_cast<int64_t>(cols),
          ld,
          batch,
          stride};
  if (order != CUBLASLT_ORDER_COL) return BWGEMM_REASON_LT_UNSUPPORTED;
  return BWGEMM_REASON_KERNEL_SELECTED;
}

// The layout attributes that only a kernel run needs at their defaults.
// Unknown to an older library: the default (interleaved, strided).
bool layout_extras_at_default(const RealCublasLt& lt, cublasLtMatrixLayout_t layout) {
  int64_t plane_offset = 0;
  uint32_t batch_mode = 0;
  return !(read_layout(lt, layout, CUBLASLT_MATRIX_LAYOUT_PLANE_OFFSET, &plane_offset) &&
           plane_offset != 0) &&
         !(read_layout(lt, layout, CUBLASLT_MATRIX_LAYOUT_BATCH_MODE, &batch_mode) &&
           batch_mode != 0);
}

bool to_activation(uint32_t epilogue, Activation* activation, bool* bias) {
  switch (epilogue) {
    case CUBLASLT_EPILOGUE_DEFAULT:
      *activation = Activation::None;
      *bias = false;
      return true;
    case CUBLASLT_EPILOGUE_RELU:
      *activation = Activation::Relu;
      *bias = false;
      return true;
    case CUBLASLT_EPILOGUE_GELU:
      *activation = Activation::Gelu;
      *bias = false;
      return true;
    case CUBLASLT_EPILOGUE_BIAS:
      *activation = Activation::None;
      *bias = true;
      return true;
    case CUBLASLT_EPILOGUE_RELU_BIAS:
      *activation = Activation::Relu;
      *bias = true;
      return true;
    case CUBLASLT_EPILOGUE_GELU_BIAS:
      *activation = Activation::Gelu;
      *bias = true;
      return true;
    default: return false;  // AUX, DRELU, DGELU, BGRAD: extra outputs bwgemm does not write
  }
}

bool to_dtype(cudaDataType t, DType* out) {
  switch (t) {
    case CUDA_R_16F: *out = DType::F16; return true;
    case CUDA_R_16BF: *out = DType::BF16; return true;
    case CUDA_R_32F: *out = DType::F32; return true;
    default: return false;
  }
}

// The matmul descriptor's fields decode_lt_call uses (zero where not read,
// as a RawCall's and an LtDecoded's are before decoding).
struct DescFields {
  cublasComputeType_t compute;
  cublasOperation_t transa, transb;
  cublasPointerMode_t pointer_mode;
  Activation activation;
  bool bias_epilogue;
};

bwgemmReason_t decode_descriptor(const RealCublasLt& lt, cublasLtMatmulDesc_t desc,
                                 DescFields* out) {
  int32_t compute = 0, scale = 0, mode = 0, transa = 0, transb = 0;
  uint32_t epilogue = 0;
  if (!read_desc(lt, desc, CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, &compute) ||
      !read_desc(lt, desc, CUBLASLT_MATMUL_DESC_SCALE_TYPE, &scale) ||
      !read_desc(lt, desc, CUBLASLT_MATMUL_DESC_POINTER_MODE, &mode) ||
      !read_desc(lt, desc, CUBLASLT_MATMUL_DESC_TRANSA, &transa) ||
      !read_desc(lt, desc, CUBLASLT_MATMUL_DESC_TRANSB, &transb) ||
      !read_desc(lt, desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue))
    return BWGEMM_REASON_INVALID_ARGUMENT;
  out->compute = static_cast<cublasComputeType_t>(compute);
  out->transa = static_cast<cublasOperation_t>(transa);
  out->transb = static_cast<cublasOperation_t>(transb);
  // The 32F compute types bwgemm takes scale in fp32 (cuBLASLt's default).
  if (scale != CUDA_R_32F) return BWGEMM_REASON_UNSUPPORTED_TYPES;
  if (mode != CUBLASLT_POINTER_MODE_HOST && mode != CUBLASLT_POINTER_MODE_DEVICE)
    return BWGEMM_REASON_LT_UNSUPPORTED;
  out->pointer_mode = static_cast<cublasPointerMode_t>(mode);
  if (!to_activation(epilogue, &out->activation, &out->bias_epilogue))
    return BWGEMM_REASON_LT_UNSUPPORTED;
  return BWGEMM_REASON_KERNEL_SELECTED;
}

}  // namespace

// What the kernel step reads through the getters, the bias pointer aside
// (each layer has its own).
struct LtKernelAttributes {
  bool read;               // filled in yet
  bool extras_at_default;  // the layouts' extras and the unimplemented attributes
  bool has_sm_count;
  int32_t sm_count;
  bool bias_readable;  // its type and batch stride
  int32_t bias_type;
  int64_t bias_stride;
};

namespace {

// Everything the first step reads through the getters; the kernel step's
// part is read on a kernel call's first use.
struct DescriptorReading {
  bool layouts_readable;
  bwgemmReason_t layout_reason;  // the first refusal among the layouts
  Layout A, B, C, D;
  bwgemmReason_t desc_reason;
  DescFields desc;
  LtKernelAttributes kernel;
};

void read_descriptors(const RealCublasLt& lt, const LtMatmulArgs& a, DescriptorReading* r) {
  // PyTorch describes C and D with one layout object: it is read once (each
  // getter is forwarding cost).
  const bool d_is_c = a.Ddesc == a.Cdesc;
  r->layouts_readable = true;
  r->layout_reason = BWGEMM_REASON_KERNEL_SELECTED;
  for (auto [layout, matrix] : {std::pair{a.Adesc, &r->A}, std::pair{a.Bdesc, &r->B},
                                std::pair{a.Cdesc, &r->C}, std::pair{a.Ddesc, &r->D}}) {
    if (matrix == &r->D && d_is_c) break;
    const bwgemmReason_t reason = read_matrix(lt, layout, matrix);
    if (reason == BWGEMM_REASON_INVALID_ARGUMENT) {
      r->layouts_readable = false;
      return;
    }
    if (r->layout_reason == BWGEMM_REASON_KERNEL_SELECTED) r->layout_reason = reason;
  }
  if (d_is_c) r->D = r->C;
  r->desc_reason = decode_descriptor(lt, a.desc, &r->desc);
}

// The descriptors' bytes: cuBLASLt keeps a descriptor's attributes in the
// opaque type its handle points to (cublasLt.h; cublasLt*Init fill a
// caller's one), so equal bytes read equal and a setter changes them
// (measured with cuBLASLt 13.0). The bias pointer is cleared in the copy
// (the first step never reads it; each layer has its own): a model's
// layers of one shape share a key. D's bytes are kept only when its layout
// object is not C's.
struct ReadingKey {
  cublasLtMatrixLayoutOpaque_t layouts[4];
  cublasLtMatmulDescOpaque_t desc;
  bool d_is_c;
};

bool operator==(const ReadingKey& x, const ReadingKey& y) {
  return x.d_is_c == y.d_is_c && std::memcmp(x.layouts, y.layouts, sizeof x.layouts) == 0 &&
         std::memcmp(&x.desc, &y.desc, sizeof x.desc) == 0;
}

// Where a matmul descriptor keeps its bias pointer, in bytes from its start.
// Found once, on a copy of a caller's descriptor: setting two pointers there
// must change those 8 bytes only, to each pointer. Clearing them in a key then
// costs no call into cuBLASLt (host time per call, docs/perf.md).
constexpr int kBiasOffsetUnknown = -1, kBiasOffsetNone = -2;
std::atomic<int> g_bias_offset{kBiasOffsetUnknown};

// Sets the bias pointer of `desc` (an opaque copy) through cuBLASLt.
bool set_bias(const RealCublasLt& lt, cublasLtMatmulDescOpaque_t* desc, const void* bias) {
  return lt.desc_set_attribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias) ==
         CUBLAS_STATUS_SUCCESS;
}

int find_bias_offset(const RealCublasLt& lt, const cublasLtMatmulDescOpaque_t& desc) {
  const void* const probes[2] = {reinterpret_cast<const void*>(uintptr_t{0x5a17b1a5f00d0010}),
                                 reinterpret_cast<const void*>(uintptr_t{0x0123456789abcde0})};
  cublasLtMatmulDescOpaque_t before = desc, after = desc;
  int offset = kBiasOffsetNone;
  for (const void* probe : probes) {
    if (!set_bias(lt, &after, probe)) return kBiasOffsetNone;
    int found = kBiasOffsetNone, matches = 0;
    for (int at = 0; at + int(sizeof probe) <= int(sizeof after); at += int(sizeof probe))
      if (std::memcmp(reinterpret_cast<const char*>(&after) + at, &probe, sizeof probe) == 0) {
        found = at;
        ++matches;
      }
    // Exactly one place, the same for both probes.
    if (matches != 1 || (offset != kBiasOffsetNone && found != offset)) return kBiasOffsetNone;
    offset = found;
    // Nothing else moved.
    std::memcpy(reinterpret_cast<char*>(&before) + offset, &probe, sizeof probe);
    if (std::memcmp(&before, &after, sizeof after) != 0) return kBiasOffsetNone;
  }
  return offset;
}

// Clears the bias pointer of a key's copy of a descriptor.
bool clear_bias(const RealCublasLt& lt, cublasLtMatmulDescOpaque_t* desc) {
  int offset = g_bias_offset.load(std::memory_order_relaxed);
  if (offset == kBiasOffsetUnknown) {
    offset = find_bias_offset(lt, *desc);
    g_bias_offset.store(offset, std::memory_order_relaxed);
  }
  if (offset == kBiasOffsetNone) return set_bias(lt, desc, nullptr);
  std::memset(reinterpret_cast<char*>(desc) + offset, 0, sizeof(void*));
  return true;
}

// False when the call has no key: a NULL descriptor (read, and refused,
// every time) or a library that refuses the bias pointer's setter.
bool reading_key(const RealCublasLt& lt, const LtMatmulArgs& a, ReadingKey* key) {
  std::memset(key->layouts, 0, sizeof key->layouts);
  key->d_is_c = a.Ddesc == a.Cdesc;
  const cublasLtMatrixLayout_t layouts[4] = {a.Adesc, a.Bdesc, a.Cdesc,
                                             key->d_is_c ? nullptr : a.Ddesc};
  for (int i = 0; i < 4; ++i) {
    if (layouts[i] == nullptr) {
      if (i < 3) return false;
      continue;
    }
    key->layouts[i] = *layouts[i];
  }
  key->desc = *a.desc;
  return clear_bias(lt, &key->desc);
}

// Each thread's last readings (a model's layers repeat a few shapes).
thread_local RecentValues<ReadingKey, DescriptorReading, 8> t_readings;

// Reads the descriptors, or copies the thread's kept reading of them;
// returns where that reading is kept (NULL: the call has no key).
DescriptorReading* read_descriptors_once(const RealCublasLt& lt, const LtMatmulArgs& a,
                                         DescriptorReading* r) {
  ReadingKey key;
  if (!reading_key(lt, a, &key)) {
    read_descriptors(lt, a, r);
    return nullptr;
  }
  if (DescriptorReading* kept = t_readings.find(key)) {
    *r = *kept;
    return kept;
  }
  read_descriptors(lt, a, r);
  return t_readings.keep(key, *r);
}

void read_kernel_attributes(const RealCublasLt& lt, const LtMatmulArgs& a,
                            LtKernelAttributes* out) {
  *out = LtKernelAttributes{};
  out->read = true;
  out->extras_at_default = true;
  // (D's layout object may be C's: read once.)
  for (cublasLtMatrixLayout_t layout :
       {a.Adesc, a.Bdesc, a.Cdesc, a.Ddesc == a.Cdesc ? nullptr : a.Ddesc})
    if (layout != nullptr && !layout_extras_at_default(lt, layout)) out->extras_at_default = false;
  if (out->extras_at_default && !unimplemented_attributes_at_default(lt, a.desc))
    out->extras_at_default = false;
  if (!out->extras_at_default) return;
  out->has_sm_count = read_desc(lt, a.desc, CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET, &out->sm_count);
  out->bias_type = -1;
  out->bias_readable =
      read_desc(lt, a.desc, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &out->bias_type) &&
      read_desc(lt, a.desc, CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE, &out->bias_stride);
}

// The bias pointer: from its place in the descriptor's bytes where that is
// known (clear_bias), else through the getter.
bool read_bias_pointer(const RealCublasLt& lt, cublasLtMatmulDesc_t desc, const void** out) {
  const int offset = g_bias_offset.load(std::memory_order_relaxed);
  if (offset < 0) return read_desc(lt, desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, out);
  std::memcpy(out, reinterpret_cast<const char*>(desc) + offset, sizeof *out);
  return true;
}

}  // namespace

void forget_lt_readings() { t_readings = {}; }

bwgemmReason_t decode_lt_kernel_attributes(const RealCublasLt& lt, const LtMatmulArgs& a,
                                           cudaDataType d_type, LtDecoded* out) {
  LtKernelAttributes unkept{};
  LtKernelAttributes* attributes = out->kept_attributes != nullptr ? out->kept_attributes : &unkept;
  if (!attributes->read) read_kernel_attributes(lt, a, attributes);
  if (!attributes->extras_at_default) return BWGEMM_REASON_LT_UNSUPPORTED;
  if (attributes->has_sm_count) out->sm_count_target = attributes->sm_count;
  const void* bias_pointer = nullptr;
  if (!attributes->bias_readable || !read_bias_pointer(lt, a.desc, &bias_pointer))
    return BWGEMM_REASON_INVALID_ARGUMENT;
  const int32_t bias_type = attributes->bias_type;
  const int64_t bias_stride = attributes->bias_stride;
  // cuBLASLt 13.1 refused (INVALID_VALUE) every epilogue without a bias
  // whose bias pointer, type and batch stride were set (measured on an
  // H200): any of them set there is cuBLASLt's to answer.
  if (!out->bias_epilogue) {
    const bool bias_attributes_default =
        bias_pointer == nullptr && bias_type == -1 && bias_stride == 0;
    return bias_attributes_default ? BWGEMM_REASON_KERNEL_SELECTED : BWGEMM_REASON_LT_UNSUPPORTED;
  }
  // A bias epilogue without a bias vector is cuBLASLt's to report.
  if (bias_pointer == nullptr) return BWGEMM_REASON_INVALID_ARGUMENT;
  // -1: the bias has D's type. bwgemm takes D's type; an fp32 bias with a
  // 16-bit D was refused by cuBLASLt 13.1 (INVALID_VALUE, measured on an
  // H200), so it is cuBLASLt's to answer.
  const cudaDataType type = bias_type == -1 ? d_type : static_cast<cudaDataType>(bias_type);
  if (type == CUDA_R_32F && d_type != CUDA_R_32F) return BWGEMM_REASON_LT_UNSUPPORTED;
  if (type != d_type) return BWGEMM_REASON_UNSUPPORTED_TYPES;
  if (!to_dtype(type, &out->epilogue.bias_type)) return BWGEMM_REASON_UNSUPPORTED_TYPES;
  if (bias_stride < 0) return BWGEMM_REASON_LT_UNSUPPORTED;
  out->epilogue.bias = bias_pointer;
  out->epilogue.bias_stride = bias_stride;
  return BWGEMM_REASON_KERNEL_SELECTED;
}

bwgemmReason_t decode_lt_call(const RealCublasLt& lt, const LtMatmulArgs& a, RawCall* call,
                              LtDecoded* out) {
  *out = LtDecoded{};
  *call = RawCall{};
  call->entry = EntryPoint::LtMatmul;
  call->called_as = CalledAs::Cublas;
  call->lt = &a;
  call->alpha = a.alpha;
  call->beta = a.beta;
  call->A = a.A;
  call->B = a.B;
  // C is only read; D is written (RawCall's C is the cuBLAS entries' C/D).
  call->C = const_cast<void*>(a.C);
  call->algo = CUBLAS_GEMM_DEFAULT;  // cuBLASLt's algo is its own kernel choice
  call->batch = 1;
  out->D = a.D;
  // (A NULL handle is classify_call's to name.)
  if (a.desc == nullptr) return BWGEMM_REASON_INVALID_ARGUMENT;

  DescriptorReading r{};
  if (DescriptorReading* kept = read_descriptors_once(lt, a, &r))
    out->kept_attributes = &kept->kernel;
  if (!r.layouts_readable) return BWGEMM_REASON_INVALID_ARGUMENT;
  const Layout &A = r.A, &B = r.B, &C = r.C, &D = r.D;
  call->compute = r.desc.compute;
  call->transa = r.desc.transa;
  call->transb = r.desc.transb;
  out->pointer_mode = r.desc.pointer_mode;
  out->epilogue.activation = r.desc.activation;
  out->bias_epilogue = r.desc.bias_epilogue;

  // D is m x n; op(A) m x k; op(B) k x n. Filled in before any refusal, so
  // that the log shows what a forwarded call was.
  const bool ta = call->transa != CUBLAS_OP_N, tb = call->transb != CUBLAS_OP_N;
  const int64_t m = D.rows, n = D.cols, k = ta ? A.rows : A.cols;
  call->m = m;
  call->n = n;
  call->k = k;
  call->Atype = A.type;
  call->Btype = B.type;
  call->Ctype = D.type;
  call->lda = A.ld;
  call->ldb = B.ld;
  call->ldc = C.ld;
  call->batch = D.batch;
  call->strideA = A.stride;
  call->strideB = B.stride;
  call->strideC = C.stride;
  out->ldd = D.ld;
  out->strideD = D.stride;
  if (r.layout_reason != BWGEMM_REASON_KERNEL_SELECTED) return r.layout_reason;
  if (r.desc_reason != BWGEMM_REASON_KERNEL_SELECTED) return r.desc_reason;

  // C has D's shape and type; the operands agree with m, n and k.
  if ((ta ? A.cols : A.rows) != m || (tb ? B.rows : B.cols) != n || (tb ? B.cols : B.rows) != k ||
      C.rows != m || C.cols != n)
    return BWGEMM_REASON_INVALID_ARGUMENT;
  // In place, C and D are one matrix: cuBLASLt requires one layout.
  if (C.type != D.type || (a.C == a.D && (C.ld != D.ld || C.stride != D.stride)))
    return BWGEMM_REASON_INVALID_ARGUMENT;
  if (D.ld < (m > 1 ? m : 1)) return BWGEMM_REASON_INVALID_ARGUMENT;
  // One batch count for all four (cuBLASLt's broadcasting rules stay its own).
  if (A.batch != D.batch || B.batch != D.batch || C.batch != D.batch)
    return BWGEMM_REASON_LT_UNSUPPORTED;
  call->lt_decoded = out;
  return BWGEMM_REASON_KERNEL_SELECTED;
}

}  // namespace bwgemm
