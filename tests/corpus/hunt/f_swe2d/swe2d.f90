! Fortran 2008 2-D shallow-water model on a doubly periodic basin: a Gaussian hump of water over a
! submerged mound, Rusanov fluxes from an ELEMENTAL subroutine applied to whole arrays, neighbours by
! CSHIFT, the state kept in ALLOCATABLE module variables (reallocation on assignment), the mound set
! with WHERE/ELSEWHERE from an OPTIONAL argument, SPREAD for the coordinate grids, the time step from
! MAXVAL(..., DIM=), and the objective from SUM(..., MASK=) of gauge misfits.  Logging through
! write(*,*) when the module's verbose flag is on.
module swe2d_mod
  use iso_c_binding, only: c_double, c_int
  implicit none
  private
  public :: swe_misfit

  real(c_double), parameter :: grav = 9.81_c_double
  real(c_double), allocatable :: h(:, :), hu(:, :), hv(:, :), bed(:, :)
  real(c_double) :: dx, dy
  integer :: nx, ny
  logical :: verbose = .false.

contains

  subroutine init_state(n1, n2, amp, width, drift, mound)
    integer, intent(in) :: n1, n2
    real(c_double), intent(in) :: amp, width, drift
    real(c_double), intent(in), optional :: mound
    real(c_double), allocatable :: xc(:), yc(:), r2(:, :)
    integer :: i
    nx = n1
    ny = n2
    dx = 1.0_c_double / nx
    dy = 1.0_c_double / ny
    xc = [((i - 0.5_c_double) * dx, i = 1, nx)]
    yc = [((i - 0.5_c_double) * dy, i = 1, ny)]
    r2 = (spread(xc, 2, ny) - 0.5_c_double)**2 + (spread(yc, 1, nx) - 0.45_c_double)**2
    if (allocated(bed)) deallocate(bed)
    allocate(bed(nx, ny))
    if (present(mound)) then
      where (r2 < 0.05_c_double)
        bed = mound * (1.0_c_double - r2 / 0.05_c_double)**2
      elsewhere
        bed = 0.0_c_double
      end where
    else
      bed = 0.0_c_double
    end if
    h = 1.0_c_double + amp * exp(-r2 / width**2) - bed
    hu = drift * h
    hv = 0.5_c_double * drift * h * spread(sin(6.283185307179586_c_double * xc), 2, ny)
  end subroutine init_state

  elemental subroutine rusanov(hl, ml, tl, hr, mr, tr, fh, fm, ft)
    ! Flux through a face whose normal momentum is m and tangential momentum t.
    real(c_double), intent(in) :: hl, ml, tl, hr, mr, tr
    real(c_double), intent(out) :: fh, fm, ft
    real(c_double) :: ul, ur, a
    ul = ml / hl
    ur = mr / hr
    a = max(abs(ul) + sqrt(grav * hl), abs(ur) + sqrt(grav * hr))
    fh = 0.5_c_double * (ml + mr) - 0.5_c_double * a * (hr - hl)
    fm = 0.5_c_double * (ml * ul + 0.5_c_double * grav * hl**2 + mr * ur + 0.5_c_double * grav * hr**2) &
         - 0.5_c_double * a * (mr - ml)
    ft = 0.5_c_double * (tl * ul + tr * ur) - 0.5_c_double * a * (tr - tl)
  end subroutine rusanov

  function stable_step(cfl) result(dt)
    real(c_double), intent(in) :: cfl
    real(c_double) :: dt
    real(c_double), allocatable :: cx(:), cy(:)
    cx = maxval(abs(hu / h) + sqrt(grav * h), dim=1)
    cy = maxval(abs(hv / h) + sqrt(grav * h), dim=2)
    dt = cfl * min(dx / maxval(cx), dy / maxval(cy))
  end function stable_step

  subroutine advance(dt)
    real(c_double), intent(in) :: dt
    real(c_double), allocatable :: fh(:, :), fu(:, :), fv(:, :), gh(:, :), gu(:, :), gv(:, :), sx(:, :), sy(:, :)
    allocate(fh(nx, ny), fu(nx, ny), fv(nx, ny), gh(nx, ny), gu(nx, ny), gv(nx, ny))
    ! x faces i+1/2 and y faces j+1/2
    call rusanov(h, hu, hv, cshift(h, 1, dim=1), cshift(hu, 1, dim=1), cshift(hv, 1, dim=1), fh, fu, fv)
    call rusanov(h, hv, hu, cshift(h, 1, dim=2), cshift(hv, 1, dim=2), cshift(hu, 1, dim=2), gh, gv, gu)
    ! bed slope source by central differences of the bottom
    sx = -grav * h * (cshift(bed, 1, dim=1) - cshift(bed, -1, dim=1)) / (2 * dx)
    sy = -grav * h * (cshift(bed, 1, dim=2) - cshift(bed, -1, dim=2)) / (2 * dy)
    h = h - dt / dx * (fh - cshift(fh, -1, dim=1)) - dt / dy * (gh - cshift(gh, -1, dim=2))
    hu = hu - dt / dx * (fu - cshift(fu, -1, dim=1)) - dt / dy * (gu - cshift(gu, -1, dim=2)) + dt * sx
    hv = hv - dt / dx * (fv - cshift(fv, -1, dim=1)) - dt / dy * (gv - cshift(gv, -1, dim=2)) + dt * sy
  end subroutine advance

  function swe_misfit(p, gauge, n1, n2, nsteps) result(obj) bind(C, name="swe_misfit")
    ! p = [hump amplitude, hump width, drift velocity, mound height]; gauge(n1, n2) observed depths
    integer(c_int), value :: n1, n2, nsteps
    real(c_double), intent(in) :: p(4), gauge(n1, n2)
    real(c_double) :: obj
    real(c_double) :: dt, t
    integer :: k
    if (p(4) > 0) then
      call init_state(n1, n2, p(1), p(2), p(3), mound=p(4))
    else
      call init_state(n1, n2, p(1), p(2), p(3))
    end if
    t = 0
    do k = 1, nsteps
      dt = stable_step(0.4_c_double)
      call advance(dt)
      t = t + dt
      if (verbose) write(*, *) 'step', k, 't =', t, 'mass =', sum(h) * dx * dy
    end do
    obj = sum((h - gauge)**2, mask=bed > 0) * dx * dy + 0.5_c_double * sum((h - gauge)**2) * dx * dy &
          + 1e-3_c_double * sum(maxval(hu**2 + hv**2, dim=2)) + t
  end function swe_misfit
end module swe2d_mod
