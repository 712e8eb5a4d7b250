! A derived type owning allocatable arrays, with a default-initialized scalar component: a local of that type is
! assigned from a structure constructor (flang: default initialization of the temporary, _FortranAAssign of the
! whole object with a deep copy of each allocatable component, then _FortranADestroyWithoutFinalization of the
! temporary), updated through a type-bound procedure, and reduced.
module owned_arrays_mod
  use iso_c_binding, only: c_double, c_int
  implicit none
  type :: weighted_set
    real(c_double), allocatable :: values(:), weights(:)
    real(c_double) :: scale = 2.0_c_double
  contains
    procedure :: total
  end type weighted_set
contains
  pure function total(self) result(s)
    class(weighted_set), intent(in) :: self
    real(c_double) :: s
    s = self%scale * sum(self%weights * self%values**2)
  end function total

  function owned_energy(x, n) result(e) bind(C, name="owned_energy")
    integer(c_int), value :: n
    real(c_double), intent(in) :: x(n)
    real(c_double) :: e
    type(weighted_set) :: s
    s = weighted_set(x, exp(-x))
    s%values = s%values + 0.5_c_double * s%weights
    e = s%total() + maxval(s%values)
  end function owned_energy
end module owned_arrays_mod
