! A Fortran program that differentiates its own code: Enzyme's C entry points called through bind(C) interfaces
! (as Enzyme's Fortran users do), no C at all.  A chain of springs between fixed ends; the energy uses
! allocatable work arrays, an array constructor, MATMUL with a run-time-sized stiffness matrix, TRANSPOSE,
! RESHAPE, CSHIFT, SUM and DOT_PRODUCT.  The gradient from __enzyme_autodiff and the directional derivatives
! from __enzyme_fwddiff are checked against central differences; the program stops with a nonzero code on a
! mismatch.
module spring_chain
  use iso_c_binding, only: c_double, c_int
  implicit none
contains
  function chain_energy(x, n) result(e) bind(C, name="chain_energy")
    integer(c_int), value :: n
    real(c_double), intent(in) :: x(n)
    real(c_double) :: e
    real(c_double), allocatable :: stretch(:), k(:,:), force(:), pairs(:,:)
    integer :: i
    allocate(k(n, n))
    k = 0.0_c_double
    do i = 1, n
      k(i, i) = 2.0_c_double + 0.1_c_double * i
      if (i > 1) k(i, i - 1) = -1.0_c_double
      if (i < n) k(i, i + 1) = -1.0_c_double
    end do
    force = matmul(transpose(k), x)
    stretch = [x(1), x(2:n) - x(1:n - 1), -x(n)]
    pairs = reshape(stretch(1:2 * (size(stretch) / 2)), [2, size(stretch) / 2])
    e = 0.5_c_double * dot_product(x, force) + 0.25_c_double * sum(stretch**4) + sum(pairs(1, :) * pairs(2, :)) &
        + 0.1_c_double * sum(x * cshift(x, 2))
    deallocate(k)
  end function chain_energy
end module spring_chain

! Enzyme's argument markers are C globals; a module gives them to Fortran.
module enzyme_markers
  use iso_c_binding, only: c_int
  integer(c_int), bind(C, name="enzyme_dup") :: enzyme_dup
  integer(c_int), bind(C, name="enzyme_const") :: enzyme_const
end module enzyme_markers

program check_spring_chain
  use iso_c_binding
  use spring_chain
  use enzyme_markers
  implicit none
  interface
    subroutine enzyme_gradient(f, mark_dup, x, dx, mark_const, n) bind(C, name="__enzyme_autodiff")
      import :: c_funptr, c_int, c_double
      type(c_funptr), value :: f
      integer(c_int), value :: mark_dup, mark_const, n
      real(c_double) :: x(*), dx(*)
    end subroutine
    function enzyme_tangent(f, mark_dup, x, dx, mark_const, n) result(t) bind(C, name="__enzyme_fwddiff")
      import :: c_funptr, c_int, c_double
      type(c_funptr), value :: f
      integer(c_int), value :: mark_dup, mark_const, n
      real(c_double) :: x(*), dx(*)
      real(c_double) :: t
    end function
  end interface
  integer, parameter :: n = 7
  real(c_double) :: x(n), dx(n), t(n), h, fd, fw
  integer :: i, bad
  x = [(0.3_c_double * sin(1.0_c_double * i), i = 1, n)]
  dx = 0.0_c_double
  call enzyme_gradient(c_funloc(chain_energy), enzyme_dup, x, dx, enzyme_const, n)
  bad = 0
  h = 1.0e-6_c_double
  do i = 1, n
    t = 0.0_c_double
    t(i) = 1.0_c_double
    fw = enzyme_tangent(c_funloc(chain_energy), enzyme_dup, x, t, enzyme_const, n)
    x(i) = x(i) + h
    fd = chain_energy(x, n)
    x(i) = x(i) - 2 * h
    fd = (fd - chain_energy(x, n)) / (2 * h)
    x(i) = x(i) + h
    if (abs(fd - dx(i)) > 1.0e-6_c_double * (1 + abs(fd)) .or. abs(fd - fw) > 1.0e-6_c_double * (1 + abs(fd))) then
      bad = bad + 1
      write (*, '(a, i0, 3(a, es22.14), a)') 'chain_energy d[', i - 1, ']: reverse ', dx(i), ' forward ', fw, &
        ' central ', fd, '  WRONG'
    else
      write (*, '(a, i0, 3(a, es22.14))') 'chain_energy d[', i - 1, ']: reverse ', dx(i), ' forward ', fw, &
        ' central ', fd
    end if
  end do
  if (bad /= 0) error stop 1
end program check_spring_chain
