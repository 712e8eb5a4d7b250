! enzyme.f90 -- Enzyme's C ABI for Fortran (flang-22), as understood by pyenzyme.
!
! `use enzyme` gives the activity markers and interfaces to the differentiation
! requests.  Enzyme's entry points are variadic C functions, which Fortran cannot
! declare; instead each interface below is one fixed argument shape with its own
! binding label.  pyenzyme recognises a request by the substring __enzyme_autodiff
! or __enzyme_fwddiff in the called name, so every label works like the C entry
! point.  For a shape not listed, declare your own interface the same way:
!
!   interface
!     subroutine my_grad(f, m1, x, dx, m2, n) bind(C, name="__enzyme_autodiff_my_grad")
!       import :: c_funptr, c_int, c_double
!       type(c_funptr), value :: f        ! c_funloc(the function)
!       integer(c_int), value :: m1, m2   ! markers: pass enzyme_dup, enzyme_const, ...
!       real(c_double) :: x(*), dx(*)     ! primal and its shadow (by reference)
!       integer(c_int) :: n               ! passed by reference: a pointer, so mark it enzyme_const
!     end subroutine
!   end interface
!
! Fortran passes arguments by reference, so a dummy `real(8) :: x` reaches the
! differentiated function as a pointer: give it a shadow (enzyme_dup, x, dx), and
! the derivative is accumulated (+=) into dx.  Markers are passed by value.
!
! The differentiated function is passed as c_funloc(f); declare f with bind(C) (any
! name) so that c_funloc accepts it portably.  Example (reverse mode, dx += df/dx):
!
!   use enzyme
!   real(c_double) :: x(3) = [1, 2, 3], dx(3) = 0
!   call enzyme_autodiff_dup(c_funloc(sumsq), enzyme_dup, x, dx)
!
! There are no wrapper procedures hiding the markers: a request must name its function
! directly, and a procedure taking f as a dummy argument would not (this module is
! linked into every program that uses it, so even an unused wrapper would be refused).
module enzyme
  use iso_c_binding, only: c_int, c_double, c_funptr
  implicit none
  private :: c_int, c_double, c_funptr

  ! Activity markers: only their addresses matter to pyenzyme; pass them by value.
  integer(c_int), bind(C, name="enzyme_dup") :: enzyme_dup
  integer(c_int), bind(C, name="enzyme_dupnoneed") :: enzyme_dupnoneed
  integer(c_int), bind(C, name="enzyme_const") :: enzyme_const
  integer(c_int), bind(C, name="enzyme_out") :: enzyme_out

  interface
    ! Reverse mode of f(x): dx += df/dx for one array (or scalar) argument given by reference.
    subroutine enzyme_autodiff_dup(f, m, x, dx) bind(C, name="__enzyme_autodiff_fortran_dup")
      import :: c_funptr, c_int, c_double
      type(c_funptr), value :: f
      integer(c_int), value :: m
      real(c_double) :: x(*), dx(*)
    end subroutine

    ! Reverse mode of f(x, n): dx += df/dx with a constant integer n given by reference.
    subroutine enzyme_autodiff_dup_const(f, m1, x, dx, m2, n) bind(C, name="__enzyme_autodiff_fortran_dup_const")
      import :: c_funptr, c_int, c_double
      type(c_funptr), value :: f
      integer(c_int), value :: m1, m2
      real(c_double) :: x(*), dx(*)
      integer(c_int) :: n
    end subroutine

    ! Reverse mode of f(x, y): dx += df/dx, dy += df/dy for two arguments given by reference.
    subroutine enzyme_autodiff_dup_dup(f, m1, x, dx, m2, y, dy) bind(C, name="__enzyme_autodiff_fortran_dup_dup")
      import :: c_funptr, c_int, c_double
      type(c_funptr), value :: f
      integer(c_int), value :: m1, m2
      real(c_double) :: x(*), dx(*), y(*), dy(*)
    end subroutine

    ! Reverse mode of a function of one real passed by value: returns df/dx.
    function enzyme_autodiff_out(f, m, x) result(dfdx) bind(C, name="__enzyme_autodiff_fortran_out")
      import :: c_funptr, c_int, c_double
      type(c_funptr), value :: f
      integer(c_int), value :: m
      real(c_double), value :: x
      real(c_double) :: dfdx
    end function

    ! Forward mode of f(x): the directional derivative of f's result along dx.
    function enzyme_fwddiff_dup(f, m, x, dx) result(df) bind(C, name="__enzyme_fwddiff_fortran_dup")
      import :: c_funptr, c_int, c_double
      type(c_funptr), value :: f
      integer(c_int), value :: m
      real(c_double) :: x(*), dx(*)
      real(c_double) :: df
    end function

    ! Forward mode of f(x, n) with a constant integer n given by reference.
    function enzyme_fwddiff_dup_const(f, m1, x, dx, m2, n) result(df) &
        bind(C, name="__enzyme_fwddiff_fortran_dup_const")
      import :: c_funptr, c_int, c_double
      type(c_funptr), value :: f
      integer(c_int), value :: m1, m2
      real(c_double) :: x(*), dx(*)
      integer(c_int) :: n
      real(c_double) :: df
    end function
  end interface

end module enzyme
