! Fortran part of the mixed-language reactor model: the reaction mechanism (A -> B -> C, A + B -> D) with
! modified Arrhenius rate constants, evaluated on whole arrays, called from the C reactor code.
module mechanism
  use iso_c_binding, only: c_double, c_int
  implicit none
  real(c_double), parameter :: r_gas = 8.314462618_c_double
contains
  subroutine arrhenius_rates(temp, lnA, ea, conc, nspec, wdot) bind(C, name="arrhenius_rates")
    real(c_double), value :: temp
    integer(c_int), value :: nspec
    real(c_double), intent(in) :: lnA(3), ea(3), conc(nspec)
    real(c_double), intent(out) :: wdot(nspec)
    real(c_double) :: k(3), rate(3)
    real(c_double), parameter :: texp(3) = [0.0_c_double, 0.5_c_double, -0.3_c_double]
    k = exp(lnA + texp * log(temp / 300.0_c_double) - ea / (r_gas * temp))
    rate(1) = k(1) * conc(1)
    rate(2) = k(2) * conc(2)
    rate(3) = k(3) * conc(1) * conc(2)
    wdot = 0
    wdot(1) = -rate(1) - rate(3)
    wdot(2) = rate(1) - rate(2) - rate(3)
    wdot(3) = rate(2)
    wdot(4) = rate(3)
  end subroutine arrhenius_rates

  function reaction_heat(temp, wdot, nspec) result(q) bind(C, name="reaction_heat")
    ! heat release from formation enthalpies with a linear temperature correction
    real(c_double), value :: temp
    integer(c_int), value :: nspec
    real(c_double), intent(in) :: wdot(nspec)
    real(c_double) :: q
    real(c_double), parameter :: h0(4) = [0.0_c_double, -4.0e4_c_double, -9.0e4_c_double, -6.5e4_c_double]
    q = -dot_product(h0 * (1 + 1e-4_c_double * (temp - 300.0_c_double)), wdot)
  end function reaction_heat
end module mechanism
