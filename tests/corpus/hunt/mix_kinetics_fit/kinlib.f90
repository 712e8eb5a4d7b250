! Fortran kinetics library called from C: a reversible association A + B <=> C followed by C -> D and a
! side reaction 2 A -> E.  The stoichiometric matrix and reaction orders are ALLOCATABLE module arrays set up
! on the first call (the usual "initialise once" pattern), rate constants by an ELEMENTAL modified-Arrhenius
! function, mass-action rates by PRODUCT over the species with the order matrix, the right-hand side by
! MATMUL, and a BIND(C) entry point with assumed-size arrays.
module kinlib
  use iso_c_binding, only: c_double, c_int
  implicit none
  private
  public :: kin_rhs, kin_nspecies

  integer, parameter :: dp = c_double, nspec = 5, nreac = 4
  real(dp), parameter :: r_gas = 8.314462618e-3_dp       ! kJ/(mol K)
  real(dp), allocatable :: stoich(:, :), order(:, :)

contains

  elemental function arrhenius(ln_a, ea, beta, temp) result(k)
    real(dp), intent(in) :: ln_a, ea, beta, temp
    real(dp) :: k
    k = exp(ln_a + beta * log(temp / 300.0_dp) - ea / (r_gas * temp))
  end function arrhenius

  subroutine setup()
    if (allocated(stoich)) return
    allocate(stoich(nspec, nreac), order(nspec, nreac))
    !              A     B     C     D     E
    stoich(:, 1) = [-1.0_dp, -1.0_dp, 1.0_dp, 0.0_dp, 0.0_dp]   ! A + B -> C
    stoich(:, 2) = -stoich(:, 1)                                ! C -> A + B
    stoich(:, 3) = [0.0_dp, 0.0_dp, -1.0_dp, 1.0_dp, 0.0_dp]    ! C -> D
    stoich(:, 4) = [-2.0_dp, 0.0_dp, 0.0_dp, 0.0_dp, 1.0_dp]    ! 2 A -> E
    order = max(-stoich, 0.0_dp)
  end subroutine setup

  integer(c_int) function kin_nspecies() bind(c, name='kin_nspecies')
    kin_nspecies = nspec
  end function kin_nspecies

  subroutine kin_rhs(temp, conc, ln_a, ea, dcdt) bind(c, name='kin_rhs')
    real(c_double), value :: temp
    real(c_double), intent(in) :: conc(*), ln_a(*), ea(*)
    real(c_double), intent(out) :: dcdt(*)
    real(dp) :: k(nreac), rate(nreac), c(nspec)
    integer :: j
    call setup()
    c = max(conc(1:nspec), 0.0_dp)
    k = arrhenius(ln_a(1:nreac), ea(1:nreac), [0.0_dp, 0.5_dp, 0.0_dp, 1.0_dp], temp)
    do j = 1, nreac
      rate(j) = k(j) * product(c**order(:, j))
    end do
    dcdt(1:nspec) = matmul(stoich, rate)
  end subroutine kin_rhs

end module kinlib
