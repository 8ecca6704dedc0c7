// SPDX-License-Identifier: MIT
// tcgen05 (PTX ISA 9.7.16): Tensor Memory allocation, the MMA, commit, TMEM
// loads and fences, and the cta_group::2 TMA load, for the sm100 family. The
// instructions that take a .cta_group are templates on it: 1, a CTA's own
// M = 128 MMA into its own TMEM; 2, the CTA pair's M = 256 MMA. A kernel uses
// one of the two throughout (ptxas rejects a mix in one function).
// Compiled only into sm_100-family code: nothing here is emitted unless an
// sm100 kernel calls it.
#pragma once

#include "kernels/ptx/barrier.cuh"
#include "kernels/ptx/index.cuh"
#include "kernels/ptx/tma.cuh"

// tcgen05 exists on the sm_100 family-specific targets (sm_100a/f, sm_103a/f,
// sm_110a/f), not on plain sm_100 nor on sm_120 (PTX ISA 9.7.16, "TensorCore
// 5th Generation Family Instructions": each instruction's target notes). Device
// code for any other target traps; the emulation backend models every call.
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FAMILY_SPECIFIC__) && \
    __CUDA_ARCH_FAMILY_SPECIFIC__ >= 1000 && __CUDA_ARCH_FAMILY_SPECIFIC__ < 1200
#define BWGEMM_TCGEN05 1
#else
#define BWGEMM_TCGEN05 0
#endif

namespace bwgemm::ptx {

template <int kCtaGroup>
constexpr void check_cta_group() {
  static_assert(kCtaGroup == 1 || kCtaGroup == 2, ".cta_group::1 or ::2");
}

// The instructions below in either group: `group` is 1 or 2, spelt into the
// mnemonic (inline asm takes string literals only).
#define BWGEMM_TMEM_ALLOC_ASM_(group)                                               \
  asm volatile("tcgen05.alloc.cta_group::" #group                                   \
               ".sync.aligned.shared::cta.b32 [%0], %1;" ::"r"(smem_address(slot)), \
               "r"(columns)                                                         \
               : "memory")
#define BWGEMM_TMEM_DEALLOC_ASM_(group)                                                       \
  asm volatile("tcgen05.dealloc.cta_group::" #group ".sync.aligned.b32 %0, %1;" ::"r"(taddr), \
               "r"(columns)                                                                   \
               : "memory")
#define BWGEMM_TMEM_RELINQUISH_ASM_(group) \
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::" #group ".sync.aligned;" ::: "memory")
#define BWGEMM_UMMA_F16_ASM_(group)                                   \
  asm volatile(                                                       \
      "{\n"                                                           \
      ".reg .pred p;\n"                                               \
      "setp.ne.b32 p, %4, 0;\n"                                       \
      "tcgen05.mma.cta_group::" #group                                \
      ".kind::f16 [%0], %1, %2, %3, p;\n"                             \
      "}" ::"r"(d_tmem),                                              \
      "l"(a_desc), "l"(b_desc), "r"(idesc), "r"(uint32_t(accumulate)) \
      : "memory")

// 9.7.16.7.1: one warp of the CTA (kCtaGroup 1), or one in each CTA of the
// pair (2), allocates `columns` (a power of two, 32..512) of TMEM; the
// address lands in `slot` (shared memory; with the pair, the same offset in
// both CTAs). Blocks until the columns are free.
template <int kCtaGroup>
BWGEMM_DEVICE void tmem_alloc(uint32_t* slot, uint32_t columns) {
  check_cta_group<kCtaGroup>();
#if defined(BWGEMM_EMU)
  emu::tmem_alloc(slot, columns, kCtaGroup);
#elif BWGEMM_TCGEN05
  if constexpr (kCtaGroup == 1)
    BWGEMM_TMEM_ALLOC_ASM_(1);
  else
    BWGEMM_TMEM_ALLOC_ASM_(2);
#else
  __trap();
#endif
}

template <int kCtaGroup>
BWGEMM_DEVICE void tmem_dealloc(uint32_t taddr, uint32_t columns) {
  check_cta_group<kCtaGroup>();
#if defined(BWGEMM_EMU)
  emu::tmem_dealloc(taddr, columns, kCtaGroup);
#elif BWGEMM_TCGEN05
  if constexpr (kCtaGroup == 1)
    BWGEMM_TMEM_DEALLOC_ASM_(1);
  else
    BWGEMM_TMEM_DEALLOC_ASM_(2);
#else
  __trap();
#endif
}

// After this the CTA allocates no more TMEM, so CTAs queued on the SM may.
template <int kCtaGroup>
BWGEMM_DEVICE void tmem_relinquish() {
  check_cta_group<kCtaGroup>();
#if defined(BWGEMM_EMU)
  emu::tmem_relinquish(kCtaGroup);
#elif BWGEMM_TCGEN05
  if constexpr (kCtaGroup == 1)
    BWGEMM_TMEM_RELINQUISH_ASM_(1);
  else
    BWGEMM_TMEM_RELINQUISH_ASM_(2);
#else
  __trap();
#endif
}

// 9.7.16.10.9.1: issued by one thread (with the pair, of the even CTA).
// D (TMEM) (+)= A * B with M = 128 in this CTA (kCtaGroup 1) or M = 256
// across the pair (2, D at the same address in both CTAs); a_desc and b_desc
// describe this CTA's shared memory, the peer's is read at the same offsets.
// idesc: the .kind::f16 instruction descriptor.
template <int kCtaGroup>
BWGEMM_DEVICE void umma_f16(uint32_t d_tmem, uint64_t a_desc, uint64_t b_desc, uint32_t idesc,
                            bool accumulate) {
  check_cta_group<kCtaGroup>();
#if defined(BWGEMM_EMU)
  emu::umma_f16(d_tmem, a_desc, b_desc, idesc, accumulate, kCtaGroup);
#elif BWGEMM_TCGEN05
  if constexpr (kCtaGroup == 1)
    BWGEMM_UMMA_F16_ASM_(1);
  else
    BWGEMM_UMMA_F16_ASM_(2);
#else
  __trap();
#endif
}

#undef BWGEMM_TMEM_ALLOC_ASM_
#undef BWGEMM_TMEM_DEALLOC_ASM_
#undef BWGEMM_TMEM_RELINQUISH_ASM_
#undef BWGEMM_UMMA_F16_ASM_

// 9.7.16.12.1: once every prior MMA of this thread completed, one arrive on
// the barrier at bar's offset in each CTA of cta_mask (the pair's MMA
// completes in both CTAs). Implies tcgen05.fence::before_thread_sync.
BWGEMM_DEVICE void umma_commit_2cta(Mbarrier* bar, uint16_t cta_mask) {
#if defined(BWGEMM_EMU)
  emu::umma_commit(bar, cta_mask, 2);
#elif BWGEMM_TCGEN05
  asm volatile(
      "tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64"
      " [%0], %1;" ::"r"(smem_address(bar)),
      "h"(cta_mask)
      : "memory");
#else
  __trap();
#endif
}

// The same for a CTA's own MMAs (.cta_group::1): one arrive on its own
// barrier.
BWGEMM_DEVICE void umma_commit_1cta(Mbarrier* bar) {
#if defined(BWGEMM_EMU)
  emu::umma_commit(bar, uint16_t(1u << cluster_cta_rank()), 1);
#elif BWGEMM_TCGEN05
  asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];" ::"r"(
                   smem_address(bar))
               : "memory");
#else
  __trap();
#endif
}

// 9.7.16.8: warp-collective load of kColumns 32-bit columns starting at
// taddr (lane in bits 31-16, column in 15-0); thread t of warp w gets TMEM
// lane 32 (w % 4) + t. Asynchronous: tmem_load_wait() before using `out`.
#define BWGEMM_TMEM_LD_32X32B_X32_ASM                                                             \
  asm volatile(                                                                                   \
      "tcgen05.ld.sync.aligned.32x32b.x32.b32 {"                                                  \
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"                     \
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"            \
      "}, [%32];"                                                                                 \
      : "=f"(out[0]), "=f"(out[1]), "=f"(out[2]), "=f"(out[3]), "=f"(out[4]), "=f"(out[5]),       \
        "=f"(out[6]), "=f"(out[7]), "=f"(out[8]), "=f"(out[9]), "=f"(out[10]), "=f"(out[11]),     \
        "=f"(out[12]), "=f"(out[13]), "=f"(out[14]), "=f"(out[15]), "=f"(out[16]), "=f"(out[17]), \
        "=f"(out[18]), "=f"(out[19]), "=f"(out[20]), "=f"(out[21]), "=f"(out[22]), "=f"(out[23]), \
        "=f"(out[24]), "=f"(out[25]), "=f"(out[26]), "=f"(out[27]), "=f"(out[28]), "=f"(out[29]), \
        "=f"(out[30]), "=f"(out[31])                                                              \
      : "r"(taddr))

#define BWGEMM_TMEM_LD_32X32B_X64_ASM                                                             \
  asm volatile(                                                                                   \
      "tcgen05.ld.sync.aligned.32x32b.x64.b32 {"                                                  \
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"                     \
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"           \
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"           \
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"            \
      "}, [%64];"                                                                                 \
      : "=f"(out[0]), "=f"(out[1]), "=f"(out[2]), "=f"(out[3]), "=f"(out[4]), "=f"(out[5]),       \
        "=f"(out[6]), "=f"(out[7]), "=f"(out[8]), "=f"(out[9]), "=f"(out[10]), "=f"(out[11]),     \
        "=f"(out[12]), "=f"(out[13]), "=f"(out[14]), "=f"(out[15]), "=f"(out[16]), "=f"(out[17]), \
        "=f"(out[18]), "=f"(out[19]), "=f"(out[20]), "=f"(out[21]), "=f"(out[22]), "=f"(out[23]), \
        "=f"(out[24]), "=f"(out[25]), "=f"(out[26]), "=f"(out[27]), "=f"(out[28]), "=f"(out[29]), \
        "=f"(out[30]), "=f"(out[31]), "=f"(out[32]), "=f"(out[33]), "=f"(out[34]), "=f"(out[35]), \
        "=f"(out[36]), "=f"(out[37]), "=f"(out[38]), "=f"(out[39]), "=f"(out[40]), "=f"(out[41]), \
        "=f"(out[42]), "=f"(out[43]), "=f"(out[44]), "=f"(out[45]), "=f"(out[46]), "=f"(out[47]), \
        "=f"(out[48]), "=f"(out[49]), "=f"(out[50]), "=f"(out[51]), "=f"(out[52]), "=f"(out[53]), \
        "=f"(out[54]), "=f"(out[55]), "=f"(out[56]), "=f"(out[57]), "=f"(out[58]), "=f"(out[59]), \
        "=f"(out[60]), "=f"(out[61]), "=f"(out[62]), "=f"(out[63])                                \
      : "r"(taddr))

template <int kColumns>
BWGEMM_DEVICE void tmem_load_32x32b(uint32_t taddr, float (&out)[kColumns]) {
  static_assert(kColumns == 32 || kColumns == 64, "add the shape to tcgen05.cuh");
#if defined(BWGEMM_EMU)
  emu::tmem_load_32x32b(taddr, out, kColumns);
#elif BWGEMM_TCGEN05
  if constexpr (kColumns == 32) {
    BWGEMM_TMEM_LD_32X32B_X32_ASM;
  } else {
    BWGEMM_TMEM_LD_32X32B_X64_ASM;
  }
#else
  __trap();
#endif
}

BWGEMM_DEVICE void tmem_load_wait() {
#if defined(BWGEMM_EMU)
  emu::tmem_load_wait();
#elif BWGEMM_TCGEN05
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
#else
  __trap();
#endif
}

// 9.7.16.11.1 / 9.7.16.6.4: order async tcgen05 operations against thread
// synchronization (barriers, mbarrier waits) on either side of it.
BWGEMM_DEVICE void tcgen05_fence_before_sync() {
#if defined(BWGEMM_EMU)
  emu::tcgen05_fence_before_sync();
#elif BWGEMM_TCGEN05
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
#else
  __trap();
#endif
}

BWGEMM_DEVICE void tcgen05_fence_after_sync() {
#if defined(BWGEMM_EMU)
  emu::tcgen05_fence_after_sync();
#elif BWGEMM_TCGEN05
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
#else
  __trap();
#endif
}

// 9.7.9.25 with .cta_group::2: a box into this CTA's shared memory whose
// bytes complete on the barrier at bar's offset in CTA bar_cta (the leader).
BWGEMM_DEVICE void tma_load_3d_2cta(void* dst, const TensorMap* map, Mbarrier* bar,
                                    uint32_t bar_cta, int32_t c0, int32_t c1, int32_t c2) {
#if defined(BWGEMM_EMU)
  emu::tma_load_3d_2cta(dst, map, bar, bar_cta, c0, c1, c2);
#elif BWGEMM_TCGEN05
  asm volatile(
      "{\n"
      ".reg .b32 remote;\n"
      "mapa.shared::cluster.u32 remote, %2, %3;\n"
      "cp.async.bulk.tensor.3d.cta_group::2.shared::cluster.global.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%4, %5, %6}], [remote];\n"
      "}" ::"r"(smem_address(dst)),
      "l"(map), "r"(smem_address(bar)), "r"(bar_cta), "r"(c0), "r"(c1), "r"(c2)
      : "memory");
#else
  __trap();
#endif
}

}  // namespace bwgemm::ptx
