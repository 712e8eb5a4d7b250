! Modules, derived types (with type-bound procedures), allocatable and
! assumed-shape arrays, array intrinsics, list-directed and formatted print.
module mechanics
  use iso_c_binding, only: c_double, c_int, c_long
  implicit none
  private
  public :: body, system, new_system, energy, step, norms, report, weighted_matmul

  type :: body
    real(8) :: mass = 1.0d0
    real(8) :: pos(3) = 0.0d0
    real(8) :: vel(3) = 0.0d0
    integer :: id = -1
    character(len=8) :: label = 'body'
  end type body

  type :: system
    type(body), allocatable :: bodies(:)
    real(8) :: time = 0.0d0
  contains
    procedure :: total_mass
  end type system

  real(8), parameter :: gravity = 9.80665d0

contains

  function new_system(n) result(s)
    integer, intent(in) :: n
    type(system) :: s
    integer :: i
    allocate(s%bodies(n))
    do i = 1, n
      s%bodies(i)%id = i
      s%bodies(i)%mass = 1.0d0 + 0.5d0 * i
      s%bodies(i)%pos = [real(i, 8), 0.0d0, -real(i, 8)]
      s%bodies(i)%vel = 0.1d0 * i
    end do
  end function new_system

  pure function total_mass(self) result(m)
    class(system), intent(in) :: self
    real(8) :: m
    m = sum(self%bodies(:)%mass)
  end function total_mass

  function energy(s) result(e)
    type(system), intent(in) :: s
    real(8) :: e
    integer :: i
    e = 0.0d0
    do i = 1, size(s%bodies)
      associate (b => s%bodies(i))
        e = e + 0.5d0 * b%mass * dot_product(b%vel, b%vel) + b%mass * gravity * b%pos(3)
      end associate
    end do
  end function energy

  subroutine step(s, dt)
    type(system), intent(inout) :: s
    real(8), intent(in) :: dt
    integer :: i
    do concurrent (i = 1:size(s%bodies))
      s%bodies(i)%pos = s%bodies(i)%pos + dt * s%bodies(i)%vel
      s%bodies(i)%vel(3) = s%bodies(i)%vel(3) - dt * gravity
    end do
    s%time = s%time + dt
  end subroutine step

  subroutine norms(a, col_norms, biggest)
    real(8), intent(in) :: a(:, :)
    real(8), intent(out) :: col_norms(:)
    real(8), intent(out) :: biggest
    integer :: j
    do j = 1, size(a, 2)
      col_norms(j) = sqrt(sum(a(:, j)**2))
    end do
    biggest = maxval(abs(a))
    where (col_norms < 1.0d-12) col_norms = 0.0d0
  end subroutine norms

  function weighted_matmul(a, b, w) result(c)
    real(8), intent(in) :: a(:, :), b(:, :), w(:)
    real(8), allocatable :: c(:, :)
    c = matmul(a, b) * spread(w, dim=1, ncopies=size(a, 1))
  end function weighted_matmul

  subroutine report(s)
    type(system), intent(in) :: s
    print *, 'bodies:', size(s%bodies), ' mass:', s%total_mass()
    print '(a, f12.6, a, es12.4)', 'time=', s%time, ' energy=', energy(s)
    write (*, '(3(i4, 1x))') s%bodies(:)%id
  end subroutine report

end module mechanics

program run_mechanics
  use mechanics
  implicit none
  type(system) :: s
  real(8), allocatable :: a(:, :), cn(:), c(:, :)
  real(8) :: big
  integer :: k
  s = new_system(4)
  do k = 1, 10
    call step(s, 0.01d0)
  end do
  call report(s)
  allocate(a(3, 4), cn(4))
  a = reshape([(real(k, 8), k = 1, 12)], [3, 4])
  call norms(a, cn, big)
  c = weighted_matmul(a, transpose(a), [1.0d0, 2.0d0, 3.0d0])
  print *, cn, big, sum(c), minval(c), count(c > 10.0d0)
  deallocate(a, cn)
end program run_mechanics
