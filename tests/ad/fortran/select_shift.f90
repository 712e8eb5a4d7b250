! Selection and shifting intrinsics flang-22 calls its runtime for at -O0 (PACK at every level): MAXVAL and
! MINVAL along a dimension, PACK with and without VECTOR=, EOSHIFT with and without BOUNDARY=.
module select_shift
  use iso_c_binding
  implicit none
contains
  function select_energy(x, n) result(e) bind(C, name="select_energy")
    integer(c_int), value :: n
    real(c_double), intent(in) :: x(n)
    real(c_double) :: e
    real(c_double) :: a(n / 2, 2)
    real(c_double), allocatable :: hi(:), lo(:), big(:), padded(:), left(:), right(:)
    a = reshape(x(1:2 * (n / 2)), [n / 2, 2])
    hi = maxval(a, dim=2)
    lo = minval(a, dim=1)
    big = pack(x, x > 0.1d0)
    padded = pack(x(1:3), x(1:3) < 0.5d0, x(4:6))
    left = eoshift(x, 2)
    right = eoshift(x, -1, 0.25d0 * x(1))
    e = sum(hi * hi) + 2 * sum(lo) + sum(big**2) + dot_product(padded, x(2:4)) + sum(left * x) + sum(right**3)
  end function
end module
