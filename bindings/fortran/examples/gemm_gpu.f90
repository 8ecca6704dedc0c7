! SPDX-License-Identifier: MIT
!
! C = A * B on the GPU through bwgemmGemmEx: fp16 A and B, fp32 C, fp32
! accumulation, checked against a host loop. The CUDA runtime and cuBLAS are
! declared here with bind(C) (link with -lcudart -lcublas). Exits 77 with
! "SKIP: no GPU" when no GPU is usable.
program gemm_gpu
  use, intrinsic :: iso_c_binding
  use bwgemm
  implicit none

  interface
    integer(c_int) function cudaGetDeviceCount(count) bind(C, name='cudaGetDeviceCount')
      import :: c_int
      integer(c_int), intent(out) :: count
    end function cudaGetDeviceCount

    integer(c_int) function cudaMalloc(ptr, bytes) bind(C, name='cudaMalloc')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), intent(out) :: ptr
      integer(c_size_t), value :: bytes
    end function cudaMalloc

    integer(c_int) function cudaFree(ptr) bind(C, name='cudaFree')
      import :: c_int, c_ptr
      type(c_ptr), value :: ptr
    end function cudaFree

    integer(c_int) function cudaMemcpy(dst, src, bytes, kind) bind(C, name='cudaMemcpy')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: dst, src
      integer(c_size_t), value :: bytes
      integer(c_int), value :: kind
    end function cudaMemcpy

    integer(c_int) function cudaDeviceSynchronize() bind(C, name='cudaDeviceSynchronize')
      import :: c_int
    end function cudaDeviceSynchronize

    ! cublasCreate and cublasDestroy are C macros for these names.
    integer(c_int) function cublasCreate(handle) bind(C, name='cublasCreate_v2')
      import :: c_int, c_ptr
      type(c_ptr), intent(out) :: handle
    end function cublasCreate

    integer(c_int) function cublasDestroy(handle) bind(C, name='cublasDestroy_v2')
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
    end function cublasDestroy
  end interface

  integer(c_int), parameter :: cudaSuccess = 0
  integer(c_int), parameter :: cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2
  ! Not multiples of the kernels' tiles, so that edge tiles are exercised.
  integer(c_int), parameter :: m = 300, n = 200, k = 136

  integer(c_int16_t), target :: a16(m, k), b16(k, n)
  real(c_float), target :: a(m, k), b(k, n), c(m, n)
  real(c_double) :: ref(m, n)
  real(c_float), target :: alpha = 1.0, beta = 0.0
  type(c_ptr) :: handle, da, db, dc
  type(bwgemmDispatchInfo_t) :: info
  integer(c_int) :: devices, status
  integer :: i, j
  real(c_double) :: err

  if (cudaGetDeviceCount(devices) /= cudaSuccess .or. devices < 1) then
    print '(a)', 'SKIP: no GPU'
    stop 77
  end if

  ! Small multiples of 1/8 are exact in fp16, and so are their products and
  ! sums in fp32: the result must match the host loop exactly.
  do j = 1, k
    do i = 1, m
      a(i, j) = real(mod(3*i + 5*j, 17) - 8, c_float)/8
      a16(i, j) = fp16_bits(a(i, j))
    end do
  end do
  do j = 1, n
    do i = 1, k
      b(i, j) = real(mod(7*i + 2*j, 13) - 6, c_float)/8
      b16(i, j) = fp16_bits(b(i, j))
    end do
  end do
  ref = matmul(real(a, c_double), real(b, c_double))

  call cuda_check(cudaMalloc(da, c_sizeof(a16)), 'cudaMalloc A')
  call cuda_check(cudaMalloc(db, c_sizeof(b16)), 'cudaMalloc B')
  call cuda_check(cudaMalloc(dc, c_sizeof(c)), 'cudaMalloc C')
  call cuda_check(cudaMemcpy(da, c_loc(a16), c_sizeof(a16), cudaMemcpyHostToDevice), 'copy A')
  call cuda_check(cudaMemcpy(db, c_loc(b16), c_sizeof(b16), cudaMemcpyHostToDevice), 'copy B')
  c = -1.0
  call cuda_check(cudaMemcpy(dc, c_loc(c), c_sizeof(c), cudaMemcpyHostToDevice), 'copy C')
  call blas_check(cublasCreate(handle), 'cublasCreate')

  status = bwgemmGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, c_loc(alpha), da, CUDA_R_16F, &
                        m, db, CUDA_R_16F, k, c_loc(beta), dc, CUDA_R_32F, m, CUBLAS_COMPUTE_32F, &
                        CUBLAS_GEMM_DEFAULT)
  call blas_check(status, 'bwgemmGemmEx')
  info%size = c_sizeof(info)
  call blas_check(bwgemmGetLastDispatch(info), 'bwgemmGetLastDispatch')
  call cuda_check(cudaDeviceSynchronize(), 'cudaDeviceSynchronize')
  call cuda_check(cudaMemcpy(c_loc(c), dc, c_sizeof(c), cudaMemcpyDeviceToHost), 'copy C back')

  err = maxval(abs(c - ref))
  print '(a, i0, a, i0, a, i0, 3a, es10.3)', 'gemm ', m, 'x', n, 'x', k, ' ran on ', &
    trim(path_name(info%path)), ': max |C - host| = ', err
  if (.not. (err <= 1.0e-3_c_double)) then
    print '(a)', 'FAIL: result differs from the host loop'
    error stop 1
  end if

  call blas_check(cublasDestroy(handle), 'cublasDestroy')
  call cuda_check(cudaFree(da), 'cudaFree A')
  call cuda_check(cudaFree(db), 'cudaFree B')
  call cuda_check(cudaFree(dc), 'cudaFree C')
  print '(a)', 'ok'

contains

  subroutine cuda_check(err, what)
    integer(c_int), intent(in) :: err
    character(len=*), intent(in) :: what

    if (err /= cudaSuccess) then
      print '(3a, i0)', 'FAIL: ', what, ': CUDA error ', err
      error stop 1
    end if
  end subroutine cuda_check

  subroutine blas_check(err, what)
    integer(c_int), intent(in) :: err
    character(len=*), intent(in) :: what

    if (err /= CUBLAS_STATUS_SUCCESS) then
      print '(4a)', 'FAIL: ', what, ': ', bwgemm_status_string(err)
      error stop 1
    end if
  end subroutine blas_check

  function path_name(path) result(s)
    integer(c_int), intent(in) :: path
    character(len=16) :: s

    select case (path)
    case (BWGEMM_PATH_CUBLAS)
      s = 'cuBLAS'
    case (BWGEMM_PATH_SM90)
      s = 'bwgemm sm90'
    case (BWGEMM_PATH_SM100)
      s = 'bwgemm sm100'
    case default
      s = '?'
    end select
  end function path_name

  ! IEEE binary16 bits of a binary32 value, rounded to nearest even, for
  ! values in the fp16 normal range or zero (all this example uses).
  integer(c_int16_t) function fp16_bits(x)
    real(c_float), intent(in) :: x
    integer(c_int32_t) :: bits, sign, expo, mant, half

    bits = transfer(x, bits)
    sign = iand(ishft(bits, -16), int(z'8000', c_int32_t))
    expo = iand(ishft(bits, -23), 255) - 127 + 15
    mant = iand(bits, int(z'7FFFFF', c_int32_t))
    if (iand(bits, int(z'7FFFFFFF', c_int32_t)) == 0) then
      half = sign
    else
      ! Round the 23-bit mantissa to 10 bits; a carry correctly bumps the exponent.
      half = ior(ishft(expo, 10), ishft(mant, -13))
      if (iand(mant, 8191) > 4096 .or. (iand(mant, 8191) == 4096 .and. btest(half, 0))) &
        half = half + 1
      half = ior(sign, half)
    end if
    if (half > 32767) half = half - 65536  ! the same 16 bits as a signed integer
    fp16_bits = int(half, c_int16_t)
  end function fp16_bits

end program gemm_gpu
