! Fortran 2008 without derived-type constructors: chemical kinetics with an elemental Arrhenius rate,
! a pure function for the right-hand side using array sections and sum(), do concurrent for the update,
! explicit-shape dummy arrays and an automatic array.  Entry point bind(C).
module kinetics_mod
  use iso_c_binding, only: c_double, c_int
  implicit none
  real(c_double), parameter :: gas_r = 8.314_c_double
contains
  elemental function arrhenius(a, ea, temp) result(k)
    real(c_double), intent(in) :: a, ea, temp
    real(c_double) :: k
    k = a * exp(-ea / (gas_r * temp))
  end function arrhenius

  pure subroutine rates(n, c, k, dcdt)
    integer, intent(in) :: n
    real(c_double), intent(in) :: c(n), k(n)
    real(c_double), intent(out) :: dcdt(n)
    ! chain A1 -> A2 -> ... -> An with first-order steps
    dcdt(1) = -k(1) * c(1)
    dcdt(2:n) = k(1:n-1) * c(1:n-1) - k(2:n) * c(2:n)
  end subroutine rates

  function final_yield(c, pre, ea, n, temp, dt, nsteps) result(y) bind(C, name="final_yield")
    integer(c_int), value :: n, nsteps
    real(c_double), intent(inout) :: c(n)
    real(c_double), intent(in) :: pre(n), ea(n)
    real(c_double), value :: temp, dt
    real(c_double) :: y
    real(c_double) :: k(n), dcdt(n)
    integer :: s, i
    k = arrhenius(pre, ea, temp)
    do s = 1, nsteps
      call rates(n, c, k, dcdt)
      do concurrent (i = 1:n)
        c(i) = c(i) + dt * dcdt(i)
      end do
    end do
    y = c(n) / sum(c)
  end function final_yield
end module kinetics_mod
