! Thomas algorithm for a tridiagonal system, callable from C.
module solver
  use iso_c_binding, only: c_double, c_int32_t, c_int64_t
  implicit none
contains

  subroutine f_tridiagonal_solve(n, lower, diag, upper, rhs) bind(C, name="f_tridiagonal_solve")
    integer(c_int64_t), value :: n
    real(c_double), intent(in) :: lower(n), diag(n), upper(n)
    real(c_double), intent(inout) :: rhs(n)
    real(c_double), allocatable :: c(:)
    real(c_double) :: m
    integer(c_int64_t) :: i
    allocate(c(n))
    c(1) = upper(1) / diag(1)
    rhs(1) = rhs(1) / diag(1)
    do i = 2, n
      m = diag(i) - lower(i) * c(i - 1)
      c(i) = upper(i) / m
      rhs(i) = (rhs(i) - lower(i) * rhs(i - 1)) / m
    end do
    do i = n - 1, 1, -1
      rhs(i) = rhs(i) - c(i) * rhs(i + 1)
    end do
    deallocate(c)
  end subroutine f_tridiagonal_solve

  ! Residual of the system -x(i-1) + 4 x(i) - x(i+1) = i that main.c solves.
  function f_residual_norm(n, x) bind(C, name="f_residual_norm") result(r)
    integer(c_int64_t), value :: n
    real(c_double), intent(in) :: x(n)
    real(c_double) :: r, ax(n)
    integer(c_int64_t) :: i
    ax = 4.0d0 * x
    ax(2:n) = ax(2:n) - x(1:n - 1)
    ax(1:n - 1) = ax(1:n - 1) - x(2:n)
    r = sqrt(sum((ax - [(real(i, c_double), i = 1, n)])**2))
  end function f_residual_norm

  subroutine f_greet(k) bind(C, name="f_greet")
    integer(c_int32_t), value :: k
    print '(a, i0, a)', 'fortran: solving ', k, ' equations'
  end subroutine f_greet

end module solver
