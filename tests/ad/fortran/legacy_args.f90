! Legacy argument passing and FORALL through pointer components, which flang lowers to runtime calls:
! - a non-contiguous section of an assumed-shape array passed to an F77-style assumed-size dummy (`x(ld, *)`)
!   that updates it: IS_CONTIGUOUS, then copy-in and copy-out (_FortranACopyInAssign / CopyOutAssign);
! - a multi-statement FORALL assigning through POINTER components of a derived type: flang saves each
!   left-hand side's descriptor on a descriptor stack (_FortranACreateDescriptorStack, PushDescriptor, ...);
! - at -O0, arrays assigned from constant array constructors (a descriptor pointing at a constant table);
! - an F77 COMMON block holding an array indexed by a variable beside an integer counter.
module legacy_args
  use iso_c_binding
  implicit none
  type :: fields
    real(c_double), pointer :: a(:) => null(), b(:) => null()
  end type
contains
  subroutine scale_rows(ab, ld, n, f)
    integer ld, n
    real(8) ab(ld, *), f
    integer j
    do j = 1, n
      ab(1, j) = ab(1, j) * f + ab(2, j)
    end do
  end subroutine

  subroutine tally(v, n)
    integer n
    real(8) v(n)
    real(8) acc(3)
    integer ncount
    common /tallies/ acc, ncount
    integer i, j
    do i = 1, n
      j = mod(i * 7, 3) + 1
      acc(j) = acc(j) + v(i) * v(mod(i, n) + 1)
    end do
    ncount = ncount + 1
  end subroutine

  subroutine update(m, w)
    real(c_double), intent(inout) :: m(:, :)
    real(c_double), intent(in) :: w
    call scale_rows(m, size(m, 1), size(m, 2), w)
  end subroutine

  function legacy_energy(x, n) result(e) bind(C, name="legacy_energy")
    integer(c_int), value :: n
    real(c_double), intent(in) :: x(n)
    real(c_double) :: e
    real(c_double), allocatable, target :: big(:, :), store(:, :)
    real(c_double) :: weights(3)
    type(fields) :: fl
    integer :: i
    real(c_double) :: acc(3)
    integer :: ncount
    common /tallies/ acc, ncount
    allocate(big(4, n), store(n, 2))
    acc = 0
    ncount = 0
    do i = 1, n
      big(:, i) = [x(i), x(i)**2, sin(x(i)), 1.0_c_double]
    end do
    call update(big(2:3, :), x(1))          ! rows 2..3: a strided section, copied in and out
    fl%a => store(:, 1)
    fl%b => store(:, 2)
    forall (i = 1:n)
      fl%a(i) = big(2, i) * x(i)
      fl%b(i) = exp(0.1_c_double * big(3, i))
    end forall
    weights = [0.5_c_double, 1.5_c_double, 2.0_c_double]
    call tally(fl%b, n)
    e = sum(fl%a**2) + sum(fl%b * x) + dot_product(weights, big(1:3, 1)) + sum(acc**2)
  end function
end module
