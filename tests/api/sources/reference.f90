! The functions of the Enzyme.jl reference examples, in Fortran (bind(C) names with prefix f_).
module reference_examples
  use iso_c_binding, only: c_double, c_int
  implicit none
contains

  function prod2(x) bind(C, name="f_prod2") result(r)
    real(c_double), intent(in) :: x(2)
    real(c_double) :: r
    r = x(1) * x(2)
  end function prod2

  function mixed(a, b, c, d) bind(C, name="f_mixed") result(r)
    real(c_double), value :: a, d
    real(c_double), intent(in) :: b(2)
    integer(c_int), value :: c
    real(c_double) :: r
    r = a * sqrt(b(1)**2 + b(2)**2) + real(c, c_double)**2 * d**2
  end function mixed

  function square(x) bind(C, name="f_square") result(r)
    real(c_double), value :: x
    real(c_double) :: r
    r = x * x
  end function square

  subroutine vecf(x, y) bind(C, name="f_vecf")
    real(c_double), intent(in) :: x(2)
    real(c_double), intent(out) :: y(2)
    y(1) = x(1) * x(2)
    y(2) = x(2)
  end subroutine vecf

  function split(A, v) bind(C, name="f_split") result(res)
    real(c_double), intent(inout) :: A(1)
    real(c_double), value :: v
    real(c_double) :: res
    res = A(1) * v
    A(1) = 0
  end function split
end module reference_examples
