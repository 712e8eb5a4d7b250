! Reallocating assignment of REAL(4) arrays goes through _FortranAAssign, whose body in pyenzyme
! handles REAL(8) and COMPLEX(8) only: the derivative stops with a message naming the call and line.
module single_precision
  use iso_c_binding
  implicit none
contains
  function energy4(x, n) result(e) bind(C, name="energy4")
    integer(c_int), value :: n
    real(c_float), intent(in) :: x(n)
    real(c_float) :: e
    real(c_float), allocatable :: w(:)
    w = x * x
    e = sum(w)
  end function
end module
