! Array code as people write it: allocatable temporaries, whole-array and section assignment,
! MATMUL/TRANSPOSE/RESHAPE and masked reductions.  flang-22 calls its runtime for these
! (_FortranAAssign at every level, the intrinsics at -O0).
module array_runtime
  use iso_c_binding
  implicit none
contains
  ! Smoothed energy of a chain: reallocating assignment, overlapping section assignment.
  function chain_energy(x, n) result(e) bind(C, name="chain_energy")
    integer(c_int), value :: n
    real(c_double), intent(in) :: x(n)
    real(c_double) :: e
    real(c_double), allocatable :: w(:), d(:)
    real(c_double) :: v(n)
    w = x * x                      ! allocates w
    v = w
    v(2:n) = v(1:n-1) + 0.5d0 * x(2:n)
    d = v(2:n) - v(1:n-1)          ! allocates d with n-1 elements
    w = d * x(1:n-1)               ! reallocates w to n-1 elements
    e = sum(v * v) + dot_product(d, d) + sum(w)
  end function

  ! A two-layer linear model: MATMUL, TRANSPOSE, RESHAPE, DOT_PRODUCT, SUM along a dimension.
  function layer_loss(p, m) result(e) bind(C, name="layer_loss")
    integer(c_int), value :: m
    real(c_double), intent(in) :: p(2*m*m)
    real(c_double) :: e
    real(c_double) :: a(m,m), b(m,m), c(m,m), t(m,m), r(m*m), y(m)
    a = reshape(p(1:m*m), [m, m])
    b = reshape(p(m*m+1:2*m*m), [m, m])
    c = matmul(a, b)
    t = transpose(c)
    y = matmul(t, p(1:m))
    r = reshape(t, [m*m])
    e = sum(r * r) + dot_product(y, a(:, 1)) + sum(matmul(p(1:m), b)) + dot_product(sum(c, dim=2), p(1:m))
  end function

  ! Hinge-like loss: SUM, MAXVAL and MINVAL with masks, PRODUCT.
  function masked_loss(x, n) result(e) bind(C, name="masked_loss")
    integer(c_int), value :: n
    real(c_double), intent(in) :: x(n)
    real(c_double) :: e
    e = sum(x, mask=x > 0d0) + maxval(x, mask=x < 1d0) + minval(x * x, mask=x /= 0d0) &
        + product(1d0 + 0.1d0 * x) + sum(x * x)
  end function
end module
