! A single-precision (REAL(4)) model fit, as sensor and graphics codes keep their data: allocatable work arrays
! assigned whole (reallocating), a linear layer by MATMUL, a REAL(4) COMPLEX phase, SUM (also along a dimension),
! PRODUCT, DOT_PRODUCT, MAXVAL and MINVAL.  flang calls its runtime's REAL(4) entry points for these at -O0 and
! _FortranAAssign at every level.
module single_precision
  use iso_c_binding, only: c_float, c_int
  implicit none
contains
  function fit_loss(p, n) result(loss) bind(C, name="fit_loss")
    integer(c_int), value :: n
    real(c_float), intent(in) :: p(n)
    real(c_float) :: loss
    real(c_float), allocatable :: w(:,:), y(:), r(:)
    complex(c_float), allocatable :: z(:)
    integer :: i, j
    allocate(w(n, n))
    do j = 1, n
      do i = 1, n
        w(i, j) = 0.1_c_float * real(i - j, c_float) + merge(1.0_c_float, 0.0_c_float, i == j)
      end do
    end do
    y = matmul(w, p)
    r = y - [(0.2_c_float * i, i = 1, n)]
    z = cmplx(r, 0.5_c_float * p, kind=c_float)
    loss = 0.5_c_float * dot_product(r, r) + 0.1_c_float * sum(p**2) + 0.01_c_float * product(1.0_c_float + 0.1_c_float * p) &
         + 0.05_c_float * (maxval(y) - minval(y)) + 0.01_c_float * sum(real(z * conjg(z))) &
         + 0.02_c_float * sum(sum(reshape(p(1:2 * (n / 2)), [2, n / 2]), dim=1)**2)
  end function
end module
