! sum of squares, callable from C as fortran_sumsq(x, n).
function fortran_sumsq(x, n) result(s) bind(C, name="fortran_sumsq")
  use iso_c_binding, only: c_double, c_int
  implicit none
  integer(c_int), value, intent(in) :: n
  real(c_double), intent(in) :: x(n)
  real(c_double) :: s
  integer :: i
  s = 0
  do i = 1, n
    s = s + x(i)**2
  end do
end function fortran_sumsq
