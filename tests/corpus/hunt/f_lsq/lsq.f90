! Fortran 2008 least squares: a Gauss-Newton iteration for an exponential-decay model using array
! intrinsics (matmul, transpose, dot_product, sum, exp on arrays), an explicit-shape Jacobian, and a
! 2x2 normal-equation solve by Cramer's rule.  Objective: the final misfit plus the fitted rate.
module lsq_mod
  use iso_c_binding, only: c_double, c_int
  implicit none
contains
  function gauss_newton(t, y, m, p0, iters) result(obj) bind(C, name="gauss_newton")
    integer(c_int), value :: m, iters
    real(c_double), intent(in) :: t(m), y(m), p0(2)
    real(c_double) :: obj
    real(c_double) :: p(2), r(m), J(m, 2), A(2, 2), g(2), det, dp(2)
    integer :: k
    p = p0
    do k = 1, iters
      r = p(1) * exp(-p(2) * t) - y
      J(:, 1) = exp(-p(2) * t)
      J(:, 2) = -p(1) * t * exp(-p(2) * t)
      A = matmul(transpose(J), J)
      g = matmul(transpose(J), r)
      det = A(1, 1) * A(2, 2) - A(1, 2) * A(2, 1)
      dp(1) = (A(2, 2) * g(1) - A(1, 2) * g(2)) / det
      dp(2) = (A(1, 1) * g(2) - A(2, 1) * g(1)) / det
      p = p - dp
    end do
    r = p(1) * exp(-p(2) * t) - y
    obj = 0.5_c_double * dot_product(r, r) + sum(p) * 0.1_c_double
  end function gauss_newton
end module lsq_mod
