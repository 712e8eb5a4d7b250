! bind(C) procedures callable from C, with value and array arguments,
! intrinsic reductions and a C-interoperable derived type.
module interop
  use iso_c_binding
  implicit none

  type, bind(C) :: stats
    real(c_double) :: mean
    real(c_double) :: maximum
    integer(c_int) :: count
  end type stats

contains

  function f_dot(x, y, n) bind(C, name="f_dot") result(d)
    integer(c_long), value :: n
    real(c_double), intent(in) :: x(n), y(n)
    real(c_double) :: d
    d = dot_product(x, y)
  end function f_dot

  subroutine f_scale(x, n, a) bind(C, name="f_scale")
    integer(c_long), value :: n
    real(c_double), intent(inout) :: x(n)
    real(c_double), value :: a
    x = a * x + sin(x)
  end subroutine f_scale

  function f_stats(x, n) bind(C, name="f_stats") result(s)
    integer(c_int), value :: n
    real(c_double), intent(in) :: x(n)
    type(stats) :: s
    s%count = n
    s%mean = sum(x) / max(n, 1)
    s%maximum = maxval(x)
  end function f_stats

  subroutine f_matvec(a, x, y, m, n) bind(C, name="f_matvec")
    integer(c_int), value :: m, n
    real(c_double), intent(in) :: a(m, n), x(n)
    real(c_double), intent(out) :: y(m)
    y = matmul(a, x)
  end subroutine f_matvec

  subroutine f_hello(k) bind(C, name="f_hello")
    integer(c_int), value :: k
    print '(a, i0)', 'hello from fortran ', k
  end subroutine f_hello

end module interop
