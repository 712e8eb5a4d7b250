! Fortran 2008 structural sensitivity: a 1-D bar of springs with a lumped mass chain.  Element matrices
! come from RESHAPE of a literal, the global stiffness is an ALLOCATABLE array assembled with array
! sections, a rotation of the load uses MATMUL/TRANSPOSE, boundary rows are removed with a logical mask
! (PACK and SUM(..., MASK=)), the system is solved by Gaussian elimination on array sections, and the
! objective is the compliance plus a masked displacement norm.  Reallocation on assignment
! (u = ...) is used for the solution vector.
module truss_mod
  use iso_c_binding, only: c_double, c_int
  implicit none
contains
  pure function element_matrix(k) result(ke)
    real(c_double), intent(in) :: k
    real(c_double) :: ke(2, 2)
    ke = k * reshape([1.0_c_double, -1.0_c_double, -1.0_c_double, 1.0_c_double], [2, 2])
  end function element_matrix

  subroutine gauss_solve(a, b, x)
    real(c_double), intent(inout) :: a(:, :), b(:)
    real(c_double), allocatable, intent(out) :: x(:)
    integer :: n, i, j
    real(c_double) :: f
    n = size(b)
    do i = 1, n - 1
      do j = i + 1, n
        f = a(j, i) / a(i, i)
        a(j, i:n) = a(j, i:n) - f * a(i, i:n)
        b(j) = b(j) - f * b(i)
      end do
    end do
    allocate(x(n))
    do i = n, 1, -1
      x(i) = (b(i) - sum(a(i, i + 1:n) * x(i + 1:n))) / a(i, i)
    end do
  end subroutine gauss_solve

  function compliance(kel, n_el, load, angle) result(obj) bind(C, name="compliance")
    integer(c_int), value :: n_el
    real(c_double), intent(in) :: kel(n_el), load(2)
    real(c_double), value :: angle
    real(c_double) :: obj
    real(c_double), allocatable :: kg(:, :), kr(:, :), f(:), fr(:), u(:)
    logical, allocatable :: free(:)
    real(c_double) :: rot(2, 2), pl(2)
    integer :: e, nn, nf, i, j, ii
    integer, allocatable :: idx(:)
    nn = n_el + 1
    allocate(kg(nn, nn), f(nn), free(nn))
    kg = 0
    do e = 1, n_el
      kg(e:e + 1, e:e + 1) = kg(e:e + 1, e:e + 1) + element_matrix(kel(e))
    end do
    rot = reshape([cos(angle), sin(angle), -sin(angle), cos(angle)], [2, 2])
    pl = matmul(transpose(rot), load)               ! load in the bar's frame
    f = 0
    f(nn) = pl(1)
    f(nn / 2 + 1) = 0.5_c_double * pl(2)
    free = .true.
    free(1) = .false.                                ! clamped end
    nf = count(free)
    idx = pack([(i, i = 1, nn)], free)               ! reallocated on assignment
    allocate(kr(nf, nf))
    do j = 1, nf
      do i = 1, nf
        kr(i, j) = kg(idx(i), idx(j))
      end do
    end do
    fr = f(idx)
    call gauss_solve(kr, fr, u)
    obj = 0
    do ii = 1, nf
      obj = obj + f(idx(ii)) * u(ii)
    end do
    f = 0
    f(idx) = u
    obj = obj + 0.1_c_double * sqrt(sum(f * f, mask=free .and. f > 0)) + 1e-2_c_double * sum(matmul(kg, f)**2)
  end function compliance
end module truss_mod
