! Burgers flux f(u) = u**2 / 2 in every cell, callable from C as flux(n, u, f).
subroutine flux(n, u, f) bind(C, name="flux")
  use iso_c_binding, only: c_double, c_long
  implicit none
  integer(c_long), value, intent(in) :: n
  real(c_double), intent(in) :: u(n)
  real(c_double), intent(out) :: f(n)
  integer(c_long) :: i
  do i = 1, n
    f(i) = 0.5_c_double * u(i)**2
  end do
end subroutine flux
