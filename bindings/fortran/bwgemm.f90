! SPDX-License-Identifier: MIT
!
! Fortran interfaces to libbwgemm's own API (include/bwgemm/bwgemm.h).
!
!   use bwgemm
!   status = bwgemmGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, c_loc(alpha), &
!                         a, CUDA_R_16F, lda, b, CUDA_R_16F, ldb, c_loc(beta), &
!                         c, CUDA_R_32F, ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT)
!
! Every function is a bind(C) interface to the C function of the same name
! and, like NVIDIA's cublas_v2 module, returns the C return value (mostly an
! integer(c_int) cublasStatus_t). Handles and device buffers are type(c_ptr);
! alpha and beta are c_loc() of host scalars (or device pointers, following
! the handle's pointer mode). cuBLAS itself is not re-declared here, so this
! module can be used next to NVIDIA's or hipfort's cuBLAS modules.
!
! Fortran .mod files are specific to one compiler version, so this file is
! installed as source (include/bwgemm/bwgemm.f90): compile it with your
! program, e.g. gfortran -c bwgemm.f90 && gfortran prog.f90 bwgemm.o -lbwgemm
module bwgemm
  use, intrinsic :: iso_c_binding, only: c_int, c_int64_t, c_long_long, c_size_t, c_ptr, &
                                         c_char, c_null_char, c_associated, c_f_pointer
  implicit none
  private :: c_int, c_int64_t, c_long_long, c_size_t, c_ptr, c_char, c_null_char, &
             c_associated, c_f_pointer

  ! Version of these interfaces (BWGEMM_VERSION of the header they mirror).
  integer(c_int), parameter :: BWGEMM_VERSION_MAJOR = 0
  integer(c_int), parameter :: BWGEMM_VERSION_MINOR = 1
  integer(c_int), parameter :: BWGEMM_VERSION_PATCH = 0
  integer(c_int), parameter :: BWGEMM_VERSION = &
                               BWGEMM_VERSION_MAJOR*10000 + BWGEMM_VERSION_MINOR*100 + BWGEMM_VERSION_PATCH

  ! cublasStatus_t
  integer(c_int), parameter :: CUBLAS_STATUS_SUCCESS = 0
  integer(c_int), parameter :: CUBLAS_STATUS_NOT_INITIALIZED = 1
  integer(c_int), parameter :: CUBLAS_STATUS_ALLOC_FAILED = 3
  integer(c_int), parameter :: CUBLAS_STATUS_INVALID_VALUE = 7
  integer(c_int), parameter :: CUBLAS_STATUS_ARCH_MISMATCH = 8
  integer(c_int), parameter :: CUBLAS_STATUS_MAPPING_ERROR = 11
  integer(c_int), parameter :: CUBLAS_STATUS_EXECUTION_FAILED = 13
  integer(c_int), parameter :: CUBLAS_STATUS_INTERNAL_ERROR = 14
  integer(c_int), parameter :: CUBLAS_STATUS_NOT_SUPPORTED = 15
  integer(c_int), parameter :: CUBLAS_STATUS_LICENSE_ERROR = 16

  ! cublasOperation_t
  integer(c_int), parameter :: CUBLAS_OP_N = 0
  integer(c_int), parameter :: CUBLAS_OP_T = 1
  integer(c_int), parameter :: CUBLAS_OP_C = 2

  ! cudaDataType
  integer(c_int), parameter :: CUDA_R_32F = 0
  integer(c_int), parameter :: CUDA_R_16F = 2
  integer(c_int), parameter :: CUDA_R_16BF = 14

  ! cublasComputeType_t
  integer(c_int), parameter :: CUBLAS_COMPUTE_32F = 68
  integer(c_int), parameter :: CUBLAS_COMPUTE_32F_PEDANTIC = 69
  integer(c_int), parameter :: CUBLAS_COMPUTE_32F_FAST_16F = 74
  integer(c_int), parameter :: CUBLAS_COMPUTE_32F_FAST_16BF = 75
  integer(c_int), parameter :: CUBLAS_COMPUTE_32F_FAST_TF32 = 77

  ! cublasGemmAlgo_t
  integer(c_int), parameter :: CUBLAS_GEMM_DEFAULT = -1
  integer(c_int), parameter :: CUBLAS_GEMM_DEFAULT_TENSOR_OP = 99

  ! bwgemmReason_t
  integer(c_int), parameter :: BWGEMM_REASON_KERNEL_SELECTED = 0
  integer(c_int), parameter :: BWGEMM_REASON_DISABLED_BY_ENV = 1
  integer(c_int), parameter :: BWGEMM_REASON_INVALID_ARGUMENT = 2
  integer(c_int), parameter :: BWGEMM_REASON_NULL_HANDLE = 3
  integer(c_int), parameter :: BWGEMM_REASON_QUICK_RETURN = 4
  integer(c_int), parameter :: BWGEMM_REASON_UNSUPPORTED_TYPES = 5
  integer(c_int), parameter :: BWGEMM_REASON_UNSUPPORTED_LAYOUT = 6
  integer(c_int), parameter :: BWGEMM_REASON_UNSUPPORTED_BATCH = 7
  integer(c_int), parameter :: BWGEMM_REASON_NO_KERNEL_FOR_ARCH = 8
  integer(c_int), parameter :: BWGEMM_REASON_POLICY_PREFERS_CUBLAS = 9
  integer(c_int), parameter :: BWGEMM_REASON_DEVICE_QUERY_FAILED = 10
  integer(c_int), parameter :: BWGEMM_REASON_FAMILY_DISABLED = 11
  integer(c_int), parameter :: BWGEMM_REASON_TOO_LARGE = 12
  integer(c_int), parameter :: BWGEMM_REASON_HANDLE_QUERY_FAILED = 13
  integer(c_int), parameter :: BWGEMM_REASON_LAUNCH_FAILED = 14
  integer(c_int), parameter :: BWGEMM_REASON_FORCED_CUBLAS = 15
  integer(c_int), parameter :: BWGEMM_REASON_SELF_CHECK_PENDING = 16
  integer(c_int), parameter :: BWGEMM_REASON_UNKNOWN_HANDLE = 17
  integer(c_int), parameter :: BWGEMM_REASON_LT_UNSUPPORTED = 18

  ! bwgemmPath_t
  integer(c_int), parameter :: BWGEMM_PATH_NONE = 0
  integer(c_int), parameter :: BWGEMM_PATH_CUBLAS = 1
  integer(c_int), parameter :: BWGEMM_PATH_SM90 = 2
  integer(c_int), parameter :: BWGEMM_PATH_SM100 = 3

  ! bwgemmPolicy_t
  integer(c_int), parameter :: BWGEMM_POLICY_AUTO = 0
  integer(c_int), parameter :: BWGEMM_POLICY_FORCE_KERNEL = 1
  integer(c_int), parameter :: BWGEMM_POLICY_FORCE_CUBLAS = 2

  ! bwgemmDispatchInfo_t. Set size = c_sizeof(info) before bwgemmGetLastDispatch;
  ! the strings are static C strings (see bwgemm_string).
  type, bind(c) :: bwgemmDispatchInfo_t
    integer(c_size_t) :: size
    integer(c_int) :: path
    integer(c_int) :: reason
    type(c_ptr) :: reason_name
    type(c_ptr) :: reason_message
    type(c_ptr) :: kernel
  end type bwgemmDispatchInfo_t

  interface
    integer(c_int) function bwgemmGetVersion() bind(C, name='bwgemmGetVersion')
      import :: c_int
    end function bwgemmGetVersion

    integer(c_int) function bwgemmGetLastDispatch(info) bind(C, name='bwgemmGetLastDispatch')
      import :: c_int, bwgemmDispatchInfo_t
      type(bwgemmDispatchInfo_t), intent(inout) :: info
    end function bwgemmGetLastDispatch

    ! Returns a static C string; bwgemm_status_string gives a Fortran string.
    type(c_ptr) function bwgemmGetStatusString(status) bind(C, name='bwgemmGetStatusString')
      import :: c_int, c_ptr
      integer(c_int), value :: status
    end function bwgemmGetStatusString

    ! Returns a static C string; bwgemm_reason_string gives a Fortran string.
    type(c_ptr) function bwgemmGetReasonString(reason) bind(C, name='bwgemmGetReasonString')
      import :: c_int, c_ptr
      integer(c_int), value :: reason
    end function bwgemmGetReasonString

    integer(c_int) function bwgemmSetThreadPolicy(policy) bind(C, name='bwgemmSetThreadPolicy')
      import :: c_int
      integer(c_int), value :: policy
    end function bwgemmSetThreadPolicy

    integer(c_int) function bwgemmGetThreadPolicy() bind(C, name='bwgemmGetThreadPolicy')
      import :: c_int
    end function bwgemmGetThreadPolicy

    integer(c_int) function bwgemmGemmEx(handle, transa, transb, m, n, k, alpha, a, atype, lda, &
                                         b, btype, ldb, beta, c, ctype, ldc, computetype, algo) &
      bind(C, name='bwgemmGemmEx')
      import :: c_int, c_ptr
      type(c_ptr), value :: handle, alpha, a, b, beta, c
      integer(c_int), value :: transa, transb, m, n, k, atype, lda, btype, ldb, ctype, ldc
      integer(c_int), value :: computetype, algo
    end function bwgemmGemmEx

    integer(c_int) function bwgemmGemmEx_64(handle, transa, transb, m, n, k, alpha, a, atype, &
                                            lda, b, btype, ldb, beta, c, ctype, ldc, &
                                            computetype, algo) &
      bind(C, name='bwgemmGemmEx_64')
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: handle, alpha, a, b, beta, c
      integer(c_int), value :: transa, transb, atype, btype, ctype, computetype, algo
      integer(c_int64_t), value :: m, n, k, lda, ldb, ldc
    end function bwgemmGemmEx_64

    integer(c_int) function bwgemmGemmStridedBatchedEx(handle, transa, transb, m, n, k, alpha, &
                                                       a, atype, lda, stridea, b, btype, ldb, &
                                                       strideb, beta, c, ctype, ldc, stridec, &
                                                       batchcount, computetype, algo) &
      bind(C, name='bwgemmGemmStridedBatchedEx')
      import :: c_int, c_long_long, c_ptr
      type(c_ptr), value :: handle, alpha, a, b, beta, c
      integer(c_int), value :: transa, transb, m, n, k, atype, lda, btype, ldb, ctype, ldc
      integer(c_int), value :: batchcount, computetype, algo
      integer(c_long_long), value :: stridea, strideb, stridec
    end function bwgemmGemmStridedBatchedEx

    integer(c_int) function bwgemmGemmStridedBatchedEx_64(handle, transa, transb, m, n, k, &
                                                          alpha, a, atype, lda, stridea, b, &
                                                          btype, ldb, strideb, beta, c, ctype, &
                                                          ldc, stridec, batchcount, &
                                                          computetype, algo) &
      bind(C, name='bwgemmGemmStridedBatchedEx_64')
      import :: c_int, c_int64_t, c_long_long, c_ptr
      type(c_ptr), value :: handle, alpha, a, b, beta, c
      integer(c_int), value :: transa, transb, atype, btype, ctype, computetype, algo
      integer(c_int64_t), value :: m, n, k, lda, ldb, ldc, batchcount
      integer(c_long_long), value :: stridea, strideb, stridec
    end function bwgemmGemmStridedBatchedEx_64

    ! aarray, barray and carray are device arrays of device pointers.
    integer(c_int) function bwgemmGemmBatchedEx(handle, transa, transb, m, n, k, alpha, aarray, &
                                                atype, lda, barray, btype, ldb, beta, carray, &
                                                ctype, ldc, batchcount, computetype, algo) &
      bind(C, name='bwgemmGemmBatchedEx')
      import :: c_int, c_ptr
      type(c_ptr), value :: handle, alpha, aarray, barray, beta, carray
      integer(c_int), value :: transa, transb, m, n, k, atype, lda, btype, ldb, ctype, ldc
      integer(c_int), value :: batchcount, computetype, algo
    end function bwgemmGemmBatchedEx

    integer(c_int) function bwgemmGemmBatchedEx_64(handle, transa, transb, m, n, k, alpha, &
                                                   aarray, atype, lda, barray, btype, ldb, beta, &
                                                   carray, ctype, ldc, batchcount, computetype, &
                                                   algo) &
      bind(C, name='bwgemmGemmBatchedEx_64')
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: handle, alpha, aarray, barray, beta, carray
      integer(c_int), value :: transa, transb, atype, btype, ctype, computetype, algo
      integer(c_int64_t), value :: m, n, k, lda, ldb, ldc, batchcount
    end function bwgemmGemmBatchedEx_64
  end interface

contains

  ! A NUL-terminated C string (such as the strings in bwgemmDispatchInfo_t)
  ! as a Fortran string; "" for a NULL pointer.
  function bwgemm_string(p) result(s)
    type(c_ptr), intent(in) :: p
    character(len=:), allocatable :: s
    character(kind=c_char), pointer :: chars(:)
    integer :: n

    if (.not. c_associated(p)) then
      s = ''
      return
    end if
    call c_f_pointer(p, chars, [huge(0)])
    n = 0
    do while (chars(n + 1) /= c_null_char)
      n = n + 1
    end do
    allocate (character(len=n) :: s)
    s = transfer(chars(1:n), s)
  end function bwgemm_string

  function bwgemm_status_string(status) result(s)
    integer(c_int), intent(in) :: status
    character(len=:), allocatable :: s

    s = bwgemm_string(bwgemmGetStatusString(status))
  end function bwgemm_status_string

  function bwgemm_reason_string(reason) result(s)
    integer(c_int), intent(in) :: reason
    character(len=:), allocatable :: s

    s = bwgemm_string(bwgemmGetReasonString(reason))
  end function bwgemm_reason_string

end module bwgemm
