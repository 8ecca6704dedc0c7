// SPDX-License-Identifier: MIT
// Warpgroup MMA (PTX ISA 9.7.15): fp16/bf16 operands from shared memory
// through matrix descriptors, fp32 accumulators in registers.
#pragma once

#include <type_traits>

#include "kernels/ptx/device.cuh"

namespace bwgemm::ptx {

// Makes prior register writes of the accumulators visible to wgmma; before the
// first wgmma and whenever other instructions touched the accumulators.
BWGEMM_DEVICE void wgmma_fence() {
#if defined(BWGEMM_EMU)
  emu::wgmma_fence();
#else
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#endif
}

BWGEMM_DEVICE void wgmma_commit() {
#if defined(BWGEMM_EMU)
  emu::wgmma_commit();
#else
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
#endif
}

// Waits until at most kPending committed wgmma groups are still running.
template <int kPending>
BWGEMM_DEVICE void wgmma_wait() {
#if defined(BWGEMM_EMU)
  emu::wgmma_wait(kPending);
#else
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(kPending) : "memory");
#endif
}

// The operand list is spelled out once per shape, by hand (one "+f" per
// accumulator register); TYPES is ".f16.f16" or ".bf16.bf16".
#define BWGEMM_WGMMA_M64N64K16_ASM(TYPES)                                                          \
  asm volatile(                                                                                    \
      "{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"                                                 \
      "wgmma.mma_async.sync.aligned.m64n64k16.f32" TYPES                                           \
      " {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, "    \
      "%19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1, %35, " \
      "%36;\n}\n"                                                                                  \
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),        \
        "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),    \
        "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), \
        "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), \
        "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])                                         \
      : "l"(desc_a), "l"(desc_b), "r"(static_cast<uint32_t>(accumulate)), "n"(int(kTransA)),       \
        "n"(int(kTransB)))

#define BWGEMM_WGMMA_M64N128K16_ASM(TYPES)                                                         \
  asm volatile(                                                                                    \
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"                                                 \
      "wgmma.mma_async.sync.aligned.m64n128k16.f32" TYPES                                          \
      " {"                                                                                         \
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"                      \
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"            \
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"            \
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"             \
      "}, %64, %65, p, 1, 1, %67, %68;\n}\n"                                                       \
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),        \
        "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),    \
        "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), \
        "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), \
        "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), \
        "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), \
        "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), \
        "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), \
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), \
        "+f"(d[63])                                                                                \
      : "l"(desc_a), "l"(desc_b), "r"(static_cast<uint32_t>(accumulate)), "n"(int(kTransA)),       \
        "n"(int(kTransB)))

// m64n256's accumulator list, shared by the shared-memory and register-A forms:
// the operand numbers %0..%127 and their "+f" constraints.
#define BWGEMM_WGMMA_D256_LIST                                                                     \
  "{"                                                                                              \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"                          \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"                \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"                \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63,"                \
  "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79,"                \
  "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95,"                \
  "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111,"    \
  "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127" \
  "}"
#define BWGEMM_WGMMA_D256_OUTPUTS                                                                 \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
      "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),    \
      "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),  \
      "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]),  \
      "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),  \
      "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]),  \
      "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]),  \
      "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),  \
      "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),  \
      "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]),  \
      "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]),  \
      "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]),  \
      "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]),  \
      "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]),  \
      "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]),          \
      "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]),         \
      "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]),         \
      "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]),         \
      "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])

#define BWGEMM_WGMMA_M64N256K16_ASM(TYPES)                                                   \
  asm volatile(                                                                              \
      "{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"                                          \
      "wgmma.mma_async.sync.aligned.m64n256k16.f32" TYPES " " BWGEMM_WGMMA_D256_LIST         \
      ", %128, %129, p, 1, 1, %131, %132;\n}\n"                                              \
      : BWGEMM_WGMMA_D256_OUTPUTS                                                            \
      : "l"(desc_a), "l"(desc_b), "r"(static_cast<uint32_t>(accumulate)), "n"(int(kTransA)), \
        "n"(int(kTransB)))

// A from four registers (the fragment layout of WgmmaFromRegisters).
#define BWGEMM_WGMMA_M64N256K16_RS_ASM(TYPES)                                        \
  asm volatile(                                                                      \
      "{\n.reg .pred p;\nsetp.ne.b32 p, %133, 0;\n"                                  \
      "wgmma.mma_async.sync.aligned.m64n256k16.f32" TYPES " " BWGEMM_WGMMA_D256_LIST \
      ", {%128, %129, %130, %131}, %132, p, 1, 1, %134;\n}\n"                        \
      : BWGEMM_WGMMA_D256_OUTPUTS                                                    \
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b),                     \
        "r"(static_cast<uint32_t>(accumulate)), "n"(int(kTransB)))

struct Half16 {};    // fp16 operands
struct BFloat16 {};  // bf16 operands

// D[64 x N] (+)= A[64 x 16] * B[16 x N]; A and B are MN-major when kTransA /
// kTransB (imm-trans-a/b), K-major otherwise. The accumulator layout: thread
// t of warp w holds rows 16w + t/4 and +8 of each 8-column block j in
// d[4j .. 4j+3] = (r, c), (r, c+1), (r+8, c), (r+8, c+1), c = 8j + 2(t%4).
template <int kN, class AB, bool kTransA, bool kTransB>
struct Wgmma;

#if defined(BWGEMM_EMU)
#define BWGEMM_DEFINE_WGMMA(N)                                                                   \
  template <class AB, bool kTransA, bool kTransB>                                                \
  struct Wgmma<N, AB, kTransA, kTransB> {                                                        \
    static constexpr int kAccumulators = N / 2;                                                  \
    BWGEMM_DEVICE static void mma(float (&d)[N / 2], uint64_t desc_a, uint64_t desc_b,           \
                                  bool accumulate) {                                             \
      emu::wgmma_mma(N, std::is_same_v<AB, BFloat16> ? emu::MmaInput::BF16 : emu::MmaInput::F16, \
                     kTransA, kTransB, d, desc_a, desc_b, accumulate);                           \
    }                                                                                            \
  };
#else
#define BWGEMM_DEFINE_WGMMA(N)                                                         \
  template <class AB, bool kTransA, bool kTransB>                                      \
  struct Wgmma<N, AB, kTransA, kTransB> {                                              \
    static constexpr int kAccumulators = N / 2;                                        \
    BWGEMM_DEVICE static void mma(float (&d)[N / 2], uint64_t desc_a, uint64_t desc_b, \
                                  bool accumulate) {                                   \
      if constexpr (std::is_same_v<AB, BFloat16>) {                                    \
        BWGEMM_WGMMA_M64N##N##K16_ASM(".bf16.bf16");                                   \
      } else {                                                                         \
        BWGEMM_WGMMA_M64N##N##K16_ASM(".f16.f16");                                     \
      }                                                                                \
    }                                                                                  \
  };
#endif

BWGEMM_DEFINE_WGMMA(64)
BWGEMM_DEFINE_WGMMA(128)
BWGEMM_DEFINE_WGMMA(256)

#undef BWGEMM_DEFINE_WGMMA

// D[64 x N] (+)= A[64 x 16] * B[16 x N] with A in registers: thread t of warp
// w holds a[0] = A(r, c), A(r, c + 1); a[1] the same of row r + 8; a[2] and
// a[3] those of columns c + 8, c + 9; r = 16w + t/4, c = 2 (t % 4) (PTX ISA
// 9.7.15.5.1, the low half the first element). The registers are read until
// a wgmma_wait covers the op. Only N = 256.
template <int kN, class AB, bool kTransB>
struct WgmmaFromRegisters {
  static_assert(kN == 256, "register A: m64n256k16 only");
  static constexpr int kAccumulators = kN / 2;
  BWGEMM_DEVICE static void mma(float (&d)[kN / 2], const uint32_t (&a)[4], uint64_t desc_b,
                                bool accumulate) {
#if defined(BWGEMM_EMU)
    emu::wgmma_mma_from_registers(
        kN, std::is_same_v<AB, BFloat16> ? emu::MmaInput::BF16 : emu::MmaInput::F16, kTransB, d, a,
        desc_b, accumulate);
#else
    if constexpr (std::is_same_v<AB, BFloat16>) {
      BWGEMM_WGMMA_M64N256K16_RS_ASM(".bf16.bf16");
    } else {
      BWGEMM_WGMMA_M64N256K16_RS_ASM(".f16.f16");
    }
#endif
  }
};

}  // namespace bwgemm::ptx
