! Fortran 2008 ecology model: a generalized Lotka-Volterra community stored in a derived type with
! ALLOCATABLE components (growth rates, interaction matrix, state), a type-bound procedure for the
! right-hand side, an ELEMENTAL Holling type-II response, a structure constructor with allocatable
! arguments, and midpoint time stepping with whole-array operations.  Objective: log-biomass misfit
! against a census plus a diversity index.
module ecosystem_mod
  use iso_c_binding, only: c_double, c_int
  implicit none
  type :: community
    integer :: n
    real(c_double), allocatable :: r(:), a(:, :), x(:)
    real(c_double) :: half_sat = 0.5_c_double
  contains
    procedure :: rhs => community_rhs
    procedure :: biomass
  end type community
contains
  elemental function holling(x, h) result(y)
    real(c_double), intent(in) :: x, h
    real(c_double) :: y
    y = x / (h + x)
  end function holling

  function community_rhs(self, x) result(dx)
    class(community), intent(in) :: self
    real(c_double), intent(in) :: x(:)
    real(c_double) :: dx(size(x))
    dx = x * (self%r + matmul(self%a, holling(x, self%half_sat)))
  end function community_rhs

  pure function biomass(self) result(b)
    class(community), intent(in) :: self
    real(c_double) :: b
    b = sum(self%x)
  end function biomass

  function census_misfit(r, a, x0, census, n, nt, steps) result(obj) bind(C, name="census_misfit")
    integer(c_int), value :: n, nt, steps
    real(c_double), intent(in) :: r(n), a(n, n), x0(n), census(n, nt)
    real(c_double) :: obj
    type(community) :: c
    real(c_double), allocatable :: xm(:), p(:)
    real(c_double) :: dt
    integer :: t, s
    c = community(n, r, a, x0)
    dt = 0.1_c_double / steps
    obj = 0
    do t = 1, nt
      do s = 1, steps
        xm = c%x + 0.5_c_double * dt * c%rhs(c%x)
        c%x = c%x + dt * c%rhs(xm)
      end do
      obj = obj + sum((log(c%x) - log(census(:, t)))**2)
    end do
    p = c%x / c%biomass()
    obj = obj - 0.1_c_double * sum(p * log(p))
  end function census_misfit
end module ecosystem_mod
