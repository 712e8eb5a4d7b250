! A derived type with an ALLOCATABLE array component of another derived type (no allocatable components of its
! own): a local of it is default-initialized by copying flang's constant (whose descriptor for the component points
! to the element type's description), the component is allocated and filled from active data, and the local's
! components are deallocated at the end of the procedure (_FortranADestroy).
module derived_array_component
  use iso_c_binding, only: c_double, c_int
  implicit none
  type :: bar_t
    integer :: first = 0, second = 0
    real(c_double) :: length = 0, stiffness = 0
  end type bar_t
  type :: frame_t
    real(c_double) :: scale = 1.0_c_double
    type(bar_t), allocatable :: bars(:)
    real(c_double), allocatable :: load(:)
  end type frame_t
contains
  function frame_energy(x, n) result(e) bind(c, name='frame_energy')
    integer(c_int), value :: n
    real(c_double), intent(in) :: x(n)
    real(c_double) :: e
    type(frame_t) :: f
    integer :: i
    allocate(f%bars(n - 1), f%load(n))
    do i = 1, n - 1
      f%bars(i)%first = i
      f%bars(i)%second = i + 1
      f%bars(i)%length = abs(x(i + 1) - x(i)) + 1.0_c_double
      f%bars(i)%stiffness = 2.0_c_double + x(i)**2
    end do
    f%load = sin(x)
    e = 0
    do i = 1, n - 1
      e = e + f%bars(i)%stiffness / f%bars(i)%length * (f%load(f%bars(i)%second) - f%load(f%bars(i)%first))**2
    end do
    e = f%scale * e
  end function frame_energy
end module derived_array_component
