! Fortran 2008 morphodynamics of a sand-bed river reach: a derived type with ALLOCATABLE components
! (bed elevation, depth, Shields stress, bedload), the water surface by the standard-step backwater
! method with a Newton solve per section (EXIT on a tolerance, an internal friction-slope function),
! bedload by Meyer-Peter-Mueller or Wong-Parker picked by SELECT CASE on a CHARACTER(LEN=*) name with
! TRIM, WHERE/ELSEWHERE for the threshold of motion, an OPTIONAL upstream sediment feed, the Exner
! equation by upwind differences on array sections with a time step limited by MIN, MAXLOC of the
! Shields stress, SUM(..., MASK=) over the surveyed cross-sections, and an internal WRITE log line.
module reach_mod
  use iso_c_binding, only: c_double, c_int
  implicit none
  private
  public :: reach_objective

  integer, parameter :: dp = c_double
  real(dp), parameter :: grav = 9.81_dp, rel_density = 1.65_dp, porosity = 0.4_dp

  type :: reach_t
    integer :: n = 0
    real(dp) :: dx = 100.0_dp
    real(dp), allocatable :: x(:), z(:), h(:), shields(:), qs(:)
    character(len=16) :: formula = 'mpm'
  end type reach_t

  character(len=100), public :: last_log = ''

contains

  subroutine reach_init(r, n, slope, formula)
    type(reach_t), intent(out) :: r
    integer, intent(in) :: n
    real(dp), intent(in) :: slope
    character(len=*), intent(in) :: formula
    integer :: i
    r%n = n
    r%formula = formula
    r%x = [(r%dx * (i - 1), i = 1, n)]
    ! a bed with a gentle bump (a bar) two thirds of the way down
    r%z = slope * (r%x(n) - r%x) + 0.3_dp * exp(-((r%x - 0.65_dp * r%x(n)) / 400.0_dp)**2)
    allocate(r%h(n), r%shields(n), r%qs(n))
  end subroutine reach_init

  subroutine backwater(r, q, manning, h_down)
    type(reach_t), intent(inout) :: r
    real(dp), intent(in) :: q, manning, h_down
    real(dp) :: target, h, f, df, dh
    integer :: i, it
    r%h(r%n) = h_down
    do i = r%n - 1, 1, -1
      target = r%z(i + 1) + r%h(i + 1) + q**2 / (2 * grav * r%h(i + 1)**2) + 0.5_dp * r%dx * friction(r%h(i + 1))
      h = r%h(i + 1)
      do it = 1, 50
        f = r%z(i) + h + q**2 / (2 * grav * h**2) - 0.5_dp * r%dx * friction(h) - target
        df = 1 - q**2 / (grav * h**3) + 0.5_dp * r%dx * (10.0_dp / 3.0_dp) * friction(h) / h
        dh = -f / df
        h = h + dh
        if (abs(dh) < 1.0e-13_dp * h) exit
      end do
      r%h(i) = h
    end do
  contains
    pure real(dp) function friction(depth)
      real(dp), intent(in) :: depth
      friction = manning**2 * q**2 / depth**(10.0_dp / 3.0_dp)
    end function friction
  end subroutine backwater

  subroutine bedload(r, q, manning, grain)
    type(reach_t), intent(inout) :: r
    real(dp), intent(in) :: q, manning, grain
    real(dp) :: coef, crit, scale
    r%shields = manning**2 * q**2 / r%h**(7.0_dp / 3.0_dp) / (rel_density * grain)
    select case (trim(r%formula))
    case ('mpm')
      coef = 8.0_dp
      crit = 0.047_dp
    case ('wong-parker')
      coef = 3.97_dp
      crit = 0.0495_dp
    case default
      error stop 'bedload: unknown formula'
    end select
    scale = sqrt(rel_density * grav * grain**3)
    where (r%shields > crit)
      r%qs = coef * (r%shields - crit)**1.5_dp * scale
    elsewhere
      r%qs = 0.0_dp
    end where
  end subroutine bedload

  subroutine exner_step(r, dt_max, elapsed, feed)
    type(reach_t), intent(inout) :: r
    real(dp), intent(in) :: dt_max
    real(dp), intent(inout) :: elapsed
    real(dp), intent(in), optional :: feed
    real(dp) :: inflow, dt, celerity
    inflow = r%qs(1)
    if (present(feed)) inflow = feed
    ! bed celerity estimate 1.5 qs / h (Exner with a power-law flux), CFL 0.5
    celerity = maxval(1.5_dp * r%qs / r%h)
    dt = min(dt_max, 0.5_dp * r%dx * (1 - porosity) / celerity)
    r%z(1) = r%z(1) - dt / ((1 - porosity) * r%dx) * (r%qs(1) - inflow)
    r%z(2:) = r%z(2:) - dt / ((1 - porosity) * r%dx) * (r%qs(2:) - r%qs(:r%n - 1))
    elapsed = elapsed + dt
  end subroutine exner_step

  function reach_objective(params, z_survey, surveyed, n, nsteps) result(obj) bind(c, name='reach_objective')
    real(c_double), intent(in) :: params(5)
    integer(c_int), value :: n, nsteps
    real(c_double), intent(in) :: z_survey(n)
    integer(c_int), intent(in) :: surveyed(n)
    real(c_double) :: obj
    type(reach_t) :: r
    real(dp) :: elapsed, yield, before
    integer :: step
    ! params: unit discharge (m2/s), Manning n, grain size (mm), feed as a fraction of capacity, outlet depth
    call reach_init(r, n, 0.002_dp, 'mpm')
    elapsed = 0.0_dp
    yield = 0.0_dp
    do step = 1, nsteps
      call backwater(r, params(1), params(2), params(5))
      call bedload(r, params(1), params(2), params(3) * 1.0e-3_dp)
      before = elapsed
      call exner_step(r, 3600.0_dp, elapsed, feed=params(4) * r%qs(1))
      yield = yield + r%qs(n) * (elapsed - before)
    end do
    write(last_log, '(a,i0,a,f10.1,a,i0,a,es11.4)') 'steps ', nsteps, ' elapsed ', elapsed, &
        ' s, max Shields at section ', maxloc(r%shields, dim=1), ' yield ', yield
    obj = sum((r%z - z_survey)**2, mask=surveyed /= 0) + 0.5_dp * yield + 0.1_dp * minval(r%h)
  end function reach_objective

end module reach_mod
