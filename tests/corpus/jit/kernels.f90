! Fortran kernels with bind(C) interfaces over (pointer, length) arrays.
module jit_kernels
  use iso_c_binding, only: c_double, c_int64_t
  implicit none
contains

  function f_weighted_norm(x, n, w) bind(C, name="f_weighted_norm") result(r)
    integer(c_int64_t), value :: n
    real(c_double), intent(in) :: x(n)
    real(c_double), value :: w
    real(c_double) :: r
    integer(c_int64_t) :: i
    r = 0.0d0
    do i = 1, n
      r = r + w * x(i) * x(i) + sin(x(i)) * exp(-abs(x(i)))
    end do
    r = sqrt(r)
  end function f_weighted_norm

  subroutine f_axpy(y, x, n, a) bind(C, name="f_axpy")
    integer(c_int64_t), value :: n
    real(c_double), intent(inout) :: y(n)
    real(c_double), intent(in) :: x(n)
    real(c_double), value :: a
    integer(c_int64_t) :: i
    do i = 1, n
      y(i) = a * x(i) + y(i) / (1.0d0 + real(i - 1, c_double))
    end do
  end subroutine f_axpy

  function f_prefix_max(out, x, n) bind(C, name="f_prefix_max") result(best)
    integer(c_int64_t), value :: n
    real(c_double), intent(out) :: out(n)
    real(c_double), intent(in) :: x(n)
    real(c_double) :: best, total
    integer(c_int64_t) :: i
    best = -huge(best)
    total = 0.0d0
    do i = 1, n
      total = total + x(i)
      best = max(best, total)
      out(i) = best * (abs(total) + 1.0d0)**0.25d0
    end do
  end function f_prefix_max

  function f_array_stats(x, n) bind(C, name="f_array_stats") result(r)
    integer(c_int64_t), value :: n
    real(c_double), intent(in) :: x(n)
    real(c_double) :: r
    r = sum(x) + maxval(x) - minval(x) + dot_product(x, x) + norm2(x)
  end function f_array_stats

end module jit_kernels
