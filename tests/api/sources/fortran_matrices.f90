! Column-major matrices from Python: a weighted Frobenius-type objective of A(m, n) and a matrix-vector
! product written into y, as numerical Fortran writes them.
function weighted_sum_sq(a, m, n) bind(c, name="weighted_sum_sq") result(s)
  use iso_c_binding
  implicit none
  integer(c_int), value :: m, n
  real(c_double), intent(in) :: a(m, n)
  real(c_double) :: s
  integer :: i, j
  s = 0
  do j = 1, n
    do i = 1, m
      s = s + real(i, c_double) * a(i, j)**2 / real(j, c_double)
    end do
  end do
end function

subroutine matvec(a, x, y, m, n) bind(c, name="matvec")
  use iso_c_binding
  implicit none
  integer(c_int), value :: m, n
  real(c_double), intent(in) :: a(m, n), x(n)
  real(c_double), intent(out) :: y(m)
  y = matmul(a, x)
end subroutine
