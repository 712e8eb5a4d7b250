! State kept in allocatable module arrays between calls, as solvers do: the field is assigned with reallocation on
! assignment (the same shape on every call after the first, so the block is reused), neighbours come from CSHIFT
! and EOSHIFT along either dimension of the 2-D field (_FortranACshift and _FortranAEoshift at -O0), and the
! objective uses MAXVAL and SUM with DIM= and MASK= and ANY with DIM=.  The derivative is called when the module
! array is already allocated (the driver calls the function first): its shadow must be set up like it.
module module_state
  use iso_c_binding
  implicit none
  real(c_double), allocatable :: field(:, :), flux(:, :)
contains
  function relax_energy(x, n) result(e) bind(C, name="relax_energy")
    integer(c_int), value :: n
    real(c_double), intent(in) :: x(n)
    real(c_double) :: e
    logical, allocatable :: wet(:, :)
    integer :: step
    field = reshape(x(1:12), [4, 3])
    do step = 1, 3
      flux = cshift(field, 1, dim=1) - field + 0.5d0 * (cshift(field, -1, dim=2) - field) &
             + 0.25d0 * (eoshift(field, 1, dim=2) + eoshift(field, -1, 0.3d0, dim=1) - 2 * field)
      field = field + 0.2d0 * flux * x(13)
    end do
    wet = field > 0.2d0
    e = sum(pack(maxval(field**2, dim=1, mask=wet), any(wet, dim=1))) + sum(field * cshift(field, 2, dim=2)) &
        + sum(sum(field**3, dim=2, mask=wet))
  end function
end module
