! Fortran 2008 pollutant transport on a rectangle by the method of lines with dense differentiation
! matrices: D1/D2 built once as ALLOCATABLE module arrays, the operator applied as
! MATMUL(D, C) + MATMUL(C, TRANSPOSE(D)), a wind field from SPREAD of profile vectors, first-order decay
! that slows below a threshold (MERGE, continuous), Heun time stepping with whole-array assignment (reallocation on
! assignment of the temporaries), and an objective built from reductions with DIM= and MASK=
! (SUM, MAXVAL, ANY, COUNT, NORM2, DOT_PRODUCT, PACK of the columns that have stations) comparing the plume with monitoring-station data.
module transport
  use iso_c_binding, only: c_double, c_int
  implicit none
  real(c_double), allocatable :: d1x(:, :), d2x(:, :), d1y(:, :), d2y(:, :)
  real(c_double), allocatable :: wind_u(:, :), wind_v(:, :)
  real(c_double) :: kappa, decay
contains

  subroutine diff_matrices(n, h, d1, d2)
    ! Centred differences with homogeneous Dirichlet boundaries (values outside the grid are zero).
    integer, intent(in) :: n
    real(c_double), intent(in) :: h
    real(c_double), allocatable, intent(out) :: d1(:, :), d2(:, :)
    integer :: i
    allocate(d1(n, n), d2(n, n))
    d1 = 0
    d2 = 0
    do i = 1, n
      d2(i, i) = -2 / h**2
      if (i > 1) then
        d1(i, i - 1) = -1 / (2 * h)
        d2(i, i - 1) = 1 / h**2
      end if
      if (i < n) then
        d1(i, i + 1) = 1 / (2 * h)
        d2(i, i + 1) = 1 / h**2
      end if
    end do
  end subroutine diff_matrices

  function tendency(c) result(dc)
    real(c_double), intent(in) :: c(:, :)
    real(c_double), allocatable :: dc(:, :)
    dc = -wind_u * matmul(d1x, c) - wind_v * matmul(c, transpose(d1y)) &
         + kappa * (matmul(d2x, c) + matmul(c, transpose(d2y))) &
         - merge(decay * c, 0.5_c_double * decay * (c + 0.1_c_double), c > 0.1_c_double)
  end function tendency

  function plume_objective(p, stations, nx, ny, nsteps) result(obj) bind(C, name="plume_objective")
    ! p = [wind speed, shear, diffusivity, decay rate, source x, source width]
    integer(c_int), value :: nx, ny, nsteps
    real(c_double), intent(in) :: p(6), stations(nx, ny)
    real(c_double) :: obj
    real(c_double), allocatable :: c(:, :), cstar(:, :), x(:), y(:), profile(:), along(:)
    logical, allocatable :: monitored(:, :)
    real(c_double) :: hx, hy, dt
    integer :: i, step
    hx = 1.0_c_double / (nx + 1)
    hy = 1.0_c_double / (ny + 1)
    call diff_matrices(nx, hx, d1x, d2x)
    call diff_matrices(ny, hy, d1y, d2y)
    x = [(i * hx, i = 1, nx)]
    y = [(i * hy, i = 1, ny)]
    profile = p(1) * (1 + p(2) * (y - 0.5_c_double))           ! sheared wind u(y)
    wind_u = spread(profile, 1, nx)
    wind_v = 0.1_c_double * spread(sin(3.141592653589793_c_double * x), 2, ny)
    kappa = p(3)
    decay = p(4)
    c = exp(-((spread(x, 2, ny) - p(5))**2 + (spread(y, 1, nx) - 0.5_c_double)**2) / p(6)**2)
    dt = 0.2_c_double * min(hx, hy)**2 / kappa
    do step = 1, nsteps
      cstar = c + dt * tendency(c)
      c = 0.5_c_double * (c + cstar + dt * tendency(cstar))
    end do
    monitored = stations > 0
    along = sum(c, dim=2) * hy                                 ! crosswind-integrated concentration
    obj = sum((c - stations)**2, mask=monitored) / max(1, count(monitored)) &
          + 0.1_c_double * sum(pack(maxval(c, dim=1, mask=monitored), any(monitored, dim=1))) &
          + 0.01_c_double * norm2(along) + 0.05_c_double * dot_product(along, x)
  end function plume_objective
end module transport
