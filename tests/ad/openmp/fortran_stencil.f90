! A 1-D stencil and its energy in Fortran, parallelized with !$omp parallel do (flang-22 passes the
! captured variables to the outlined region as one aggregate).
function stencil_energy(u, w, n) bind(C, name="stencil_energy") result(e)
  use iso_c_binding
  integer(c_int), value :: n
  real(c_double), intent(in) :: u(n)
  real(c_double), intent(inout) :: w(n)
  real(c_double) :: e
  integer :: i
  w(1) = u(1)
  w(n) = u(n)
  !$omp parallel do
  do i = 2, n - 1
    w(i) = u(i) + 0.2d0 * (u(i - 1) - 2 * u(i) + u(i + 1)) - 0.1d0 * sin(u(i))
  end do
  !$omp end parallel do
  e = 0
  !$omp parallel do reduction(+:e)
  do i = 1, n
    e = e + w(i) * w(i)
  end do
  !$omp end parallel do
end function
