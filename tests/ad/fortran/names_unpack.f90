! Character and integer intrinsics beside active data, and UNPACK: a scheme named by a CHARACTER(LEN=*)
! argument (a literal) copied into a derived type's character component and picked by SELECT CASE (TRIM(...)),
! SUM of an integer elemental result, and UNPACK of active values into a masked array with a scalar FIELD.
module names_unpack
  use iso_c_binding, only: c_double, c_int
  implicit none
  type :: model_t
    character(len=12) :: scheme = 'none'
    real(c_double) :: scale = 1.0_c_double
  end type model_t
contains
  elemental integer function sign_of(k)
    integer, intent(in) :: k
    sign_of = merge(1, -1, btest(k, 0))
  end function sign_of

  subroutine setup(m, scheme)
    type(model_t), intent(out) :: m
    character(len=*), intent(in) :: scheme
    m%scheme = scheme
  end subroutine setup

  function names_energy(x, n) result(e) bind(c, name='names_energy')
    integer(c_int), value :: n
    real(c_double), intent(in) :: x(n)
    real(c_double) :: e
    type(model_t) :: m
    real(c_double), allocatable :: full(:)
    logical :: mask(2 * n)
    integer :: k
    call setup(m, 'square')
    select case (trim(m%scheme))
    case ('square')
      m%scale = 2.0_c_double
    case default
      m%scale = 1.0_c_double
    end select
    mask = [(mod(k, 2) == 0, k = 1, 2 * n)]
    full = unpack(x, mask, 0.5_c_double)
    e = m%scale * sum(full**2 * [(real(k, c_double), k = 1, 2 * n)]) + sum(sign_of([(k, k = 1, n)])) * x(1)
  end function names_energy
end module names_unpack
