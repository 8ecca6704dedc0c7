! SPDX-License-Identifier: MIT
!
! The bwgemm module against the library, without a GPU: version, strings,
! thread policy, the dispatch record, and every GEMM entry point called with
! a NULL handle, which cuBLAS (or bwgemm, when cuBLAS cannot be loaded)
! answers with CUBLAS_STATUS_NOT_INITIALIZED. Exits non-zero on any failure.
program test_contract
  use, intrinsic :: iso_c_binding
  use bwgemm
  implicit none

  integer :: failures = 0
  type(bwgemmDispatchInfo_t) :: info
  real(c_float), target :: alpha = 1.0, beta = 0.0
  integer(c_int64_t), parameter :: four = 4

  call check(bwgemmGetVersion() == BWGEMM_VERSION, 'bwgemmGetVersion() == BWGEMM_VERSION')
  call check(BWGEMM_VERSION == 10000*BWGEMM_VERSION_MAJOR + 100*BWGEMM_VERSION_MINOR &
             + BWGEMM_VERSION_PATCH, 'BWGEMM_VERSION encodes major.minor.patch')

  call check(len(bwgemm_status_string(CUBLAS_STATUS_SUCCESS)) > 0, 'status string of SUCCESS')
  call check(len(bwgemm_status_string(CUBLAS_STATUS_NOT_INITIALIZED)) > 0, &
             'status string of NOT_INITIALIZED')
  call check(bwgemm_status_string(12345_c_int) == 'unknown status', &
             'unknown status code gives "unknown status"')
  call check(len(bwgemm_reason_string(BWGEMM_REASON_NULL_HANDLE)) > 0, 'reason string')

  ! Nothing has run on this thread yet.
  info%size = c_sizeof(info)
  call check(bwgemmGetLastDispatch(info) == CUBLAS_STATUS_SUCCESS, 'bwgemmGetLastDispatch')
  call check(info%path == BWGEMM_PATH_NONE, 'no dispatch recorded before the first call')
  info%size = 0
  call check(bwgemmGetLastDispatch(info) == CUBLAS_STATUS_INVALID_VALUE, &
             'bwgemmGetLastDispatch rejects a too small size')

  call check(bwgemmGetThreadPolicy() == BWGEMM_POLICY_AUTO, 'default policy is AUTO')
  call check(bwgemmSetThreadPolicy(BWGEMM_POLICY_FORCE_CUBLAS) == CUBLAS_STATUS_SUCCESS, &
             'set policy FORCE_CUBLAS')
  call check(bwgemmGetThreadPolicy() == BWGEMM_POLICY_FORCE_CUBLAS, 'policy reads back')
  call check(bwgemmSetThreadPolicy(42_c_int) == CUBLAS_STATUS_INVALID_VALUE, &
             'unknown policy rejected')
  call check(bwgemmSetThreadPolicy(BWGEMM_POLICY_AUTO) == CUBLAS_STATUS_SUCCESS, &
             'set policy AUTO')

  call check(bwgemmGemmEx(c_null_ptr, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, c_loc(alpha), &
                          c_null_ptr, CUDA_R_16F, 4, c_null_ptr, CUDA_R_16F, 4, c_loc(beta), &
                          c_null_ptr, CUDA_R_32F, 4, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) &
             == CUBLAS_STATUS_NOT_INITIALIZED, 'bwgemmGemmEx(NULL handle)')
  info%size = c_sizeof(info)
  call check(bwgemmGetLastDispatch(info) == CUBLAS_STATUS_SUCCESS, 'bwgemmGetLastDispatch')
  call check(info%path == BWGEMM_PATH_CUBLAS, 'NULL handle is forwarded to cuBLAS')
  call check(info%reason == BWGEMM_REASON_NULL_HANDLE, 'reason is NULL_HANDLE')
  call check(bwgemm_string(info%reason_name) == 'NULL_HANDLE', 'reason_name is "NULL_HANDLE"')
  call check(bwgemm_string(info%reason_message) == &
             bwgemm_reason_string(BWGEMM_REASON_NULL_HANDLE), 'reason_message')

  call check(bwgemmGemmEx_64(c_null_ptr, CUBLAS_OP_T, CUBLAS_OP_N, four, four, four, &
                             c_loc(alpha), c_null_ptr, CUDA_R_16BF, four, c_null_ptr, &
                             CUDA_R_16BF, four, c_loc(beta), c_null_ptr, CUDA_R_16BF, four, &
                             CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) &
             == CUBLAS_STATUS_NOT_INITIALIZED, 'bwgemmGemmEx_64(NULL handle)')
  call check(bwgemmGemmStridedBatchedEx(c_null_ptr, CUBLAS_OP_N, CUBLAS_OP_T, 4, 4, 4, &
                                        c_loc(alpha), c_null_ptr, CUDA_R_16F, 4, 16_c_long_long, &
                                        c_null_ptr, CUDA_R_16F, 4, 16_c_long_long, c_loc(beta), &
                                        c_null_ptr, CUDA_R_16F, 4, 16_c_long_long, 2, &
                                        CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) &
             == CUBLAS_STATUS_NOT_INITIALIZED, 'bwgemmGemmStridedBatchedEx(NULL handle)')
  call check(bwgemmGemmStridedBatchedEx_64(c_null_ptr, CUBLAS_OP_N, CUBLAS_OP_N, four, four, &
                                           four, c_loc(alpha), c_null_ptr, CUDA_R_32F, four, &
                                           16_c_long_long, c_null_ptr, CUDA_R_32F, four, &
                                           16_c_long_long, c_loc(beta), c_null_ptr, CUDA_R_32F, &
                                           four, 16_c_long_long, 2_c_int64_t, &
                                           CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) &
             == CUBLAS_STATUS_NOT_INITIALIZED, 'bwgemmGemmStridedBatchedEx_64(NULL handle)')
  call check(bwgemmGemmBatchedEx(c_null_ptr, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, c_loc(alpha), &
                                 c_null_ptr, CUDA_R_16F, 4, c_null_ptr, CUDA_R_16F, 4, &
                                 c_loc(beta), c_null_ptr, CUDA_R_16F, 4, 2, &
                                 CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) &
             == CUBLAS_STATUS_NOT_INITIALIZED, 'bwgemmGemmBatchedEx(NULL handle)')
  call check(bwgemmGemmBatchedEx_64(c_null_ptr, CUBLAS_OP_N, CUBLAS_OP_N, four, four, four, &
                                    c_loc(alpha), c_null_ptr, CUDA_R_16F, four, c_null_ptr, &
                                    CUDA_R_16F, four, c_loc(beta), c_null_ptr, CUDA_R_16F, four, &
                                    2_c_int64_t, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) &
             == CUBLAS_STATUS_NOT_INITIALIZED, 'bwgemmGemmBatchedEx_64(NULL handle)')

  if (failures > 0) then
    print '(i0, a)', failures, ' check(s) failed'
    error stop 1
  end if
  print '(a)', 'fortran contract: all checks passed'

contains

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what

    if (ok) then
      print '(2a)', 'ok   ', what
    else
      print '(2a)', 'FAIL ', what
      failures = failures + 1
    end if
  end subroutine check

end program test_contract
