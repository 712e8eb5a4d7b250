! A Fortran kernel: the energy of an explicit heat-equation run on a 1-D rod, as a scientist would write it
! (whole-array arithmetic over a fixed grid).  Called from C as heat_energy(u0, n, steps).
function heat_energy(u0, n, steps) result(e) bind(C, name="heat_energy")
  use iso_c_binding, only: c_double, c_long
  implicit none
  integer(c_long), value :: n, steps
  real(c_double), intent(in) :: u0(n)
  real(c_double) :: e
  real(c_double) :: u(n), un(n)
  real(c_double), parameter :: r = 0.25d0
  integer(c_long) :: s, i
  u = u0
  do s = 1, steps
    un(1) = u(1)
    un(n) = u(n)
    do i = 2, n - 1
      un(i) = u(i) + r * (u(i - 1) - 2d0 * u(i) + u(i + 1)) - 1d-3 * u(i)**3
    end do
    u = un
  end do
  e = 0.5d0 * sum(u * u)
end function heat_energy
