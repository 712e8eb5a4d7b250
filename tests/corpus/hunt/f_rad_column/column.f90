! Fortran 2008 one-dimensional radiative-convective model of an atmospheric column, marched to
! equilibrium: a derived type with ALLOCATABLE components (edge pressures, layer temperatures, optical
! depths), gray two-stream longwave transfer with an ELEMENTAL Planck function, shortwave absorption by
! an exponential profile, dry convection as a smooth (softplus) potential-temperature flux chosen by
! SELECT CASE on a scheme name passed as CHARACTER(LEN=*), bulk sensible heat from the surface with an
! OPTIONAL exchange coefficient, flux work arrays ALLOCATEd and DEALLOCATEd every step, WHERE/ELSEWHERE
! as an overflow guard, convergence by EXIT on MAXVAL(ABS(...)), the cold-point tropopause by MINLOC,
! a tropospheric mean by SUM(..., MASK=), and a log line by an internal WRITE.  Entry point BIND(C).
module rc_column
  use iso_c_binding, only: c_double, c_int
  implicit none
  private
  public :: rc_objective

  integer, parameter :: dp = c_double
  real(dp), parameter :: stefan = 5.670374419e-8_dp, grav = 9.81_dp, cp_air = 1004.0_dp
  real(dp), parameter :: p_surf = 1.0e5_dp, p_top = 2.0e3_dp, kappa_air = 0.2857_dp, diffusivity = 1.66_dp

  type :: column_t
    integer :: n = 0
    real(dp), allocatable :: p_edge(:), p_mid(:), dp_lay(:), temp(:), tau_edge(:), trans(:), sw_edge(:)
    real(dp) :: t_surf = 288.0_dp
    real(dp) :: heat_cap_surf = 4.0e6_dp
  end type column_t

  character(len=96), public :: last_log = ''
  logical, public :: verbose = .false.

contains

  elemental function planck(t) result(b)
    real(dp), intent(in) :: t
    real(dp) :: b
    b = stefan * t**4
  end function planck

  pure function potential_temperature(t, p) result(theta)
    real(dp), intent(in) :: t, p
    real(dp) :: theta
    theta = t * (p_surf / p)**kappa_air
  end function potential_temperature

  subroutine column_init(col, n, tau_lw, tau_sw, s_in)
    type(column_t), intent(out) :: col
    integer, intent(in) :: n
    real(dp), intent(in) :: tau_lw, tau_sw, s_in
    integer :: i
    col%n = n
    allocate(col%p_edge(0:n), col%tau_edge(0:n), col%sw_edge(0:n))
    col%p_edge = [(p_surf - (p_surf - p_top) * i / real(n, dp), i = 0, n)]
    col%p_mid = 0.5_dp * (col%p_edge(0:n - 1) + col%p_edge(1:n))
    col%dp_lay = col%p_edge(0:n - 1) - col%p_edge(1:n)
    ! pressure-broadened absorber: optical depth grows with the square of pressure
    col%tau_edge = tau_lw * (col%p_edge / p_surf)**2
    col%trans = exp(-diffusivity * (col%tau_edge(0:n - 1) - col%tau_edge(1:n)))
    col%sw_edge = s_in * exp(-tau_sw * col%p_edge / p_surf)
    col%temp = 280.0_dp - 60.0_dp * (1.0_dp - col%p_mid / p_surf)
    col%t_surf = 285.0_dp
  end subroutine column_init

  subroutine column_step(col, dt, scheme, c_conv, width, tendency, c_sens)
    type(column_t), intent(inout) :: col
    real(dp), intent(in) :: dt, c_conv, width
    character(len=*), intent(in) :: scheme
    real(dp), intent(out) :: tendency
    real(dp), intent(in), optional :: c_sens
    real(dp), allocatable :: up(:), dn(:), net(:), heating(:), theta(:), excess(:), conv(:)
    real(dp) :: sens, c_h, dts
    integer :: i, n

    n = col%n
    c_h = 5.0_dp
    if (present(c_sens)) c_h = c_sens
    allocate(up(0:n), dn(0:n), net(0:n), heating(n))

    up(0) = planck(col%t_surf)
    do i = 1, n
      up(i) = up(i - 1) * col%trans(i) + (1.0_dp - col%trans(i)) * planck(col%temp(i))
    end do
    dn(n) = 0.0_dp
    do i = n, 1, -1
      dn(i - 1) = dn(i) * col%trans(i) + (1.0_dp - col%trans(i)) * planck(col%temp(i))
    end do
    net = up - dn - col%sw_edge                      ! net upward flux at the edges
    heating = grav / cp_air * (net(0:n - 1) - net(1:n)) / col%dp_lay

    sens = c_h * (col%t_surf - col%temp(1))
    heating(1) = heating(1) + grav / cp_air * sens / col%dp_lay(1)

    select case (trim(scheme))
    case ('softplus')
      allocate(theta(n), excess(n - 1), conv(n - 1))
      do concurrent (i = 1:n)
        theta(i) = potential_temperature(col%temp(i), col%p_mid(i))
      end do
      excess = (theta(1:n - 1) - theta(2:n)) / width
      where (excess > 30.0_dp)
        conv = c_conv * width * excess
      elsewhere
        conv = c_conv * width * log(1.0_dp + exp(excess))
      end where
      ! the flux carries heat from layer i to layer i+1
      heating(1:n - 1) = heating(1:n - 1) - grav / cp_air * conv / col%dp_lay(1:n - 1)
      heating(2:n) = heating(2:n) + grav / cp_air * conv / col%dp_lay(2:n)
      deallocate(theta, excess, conv)
    case ('none')
      continue
    case default
      error stop 'column_step: unknown convection scheme'
    end select

    dts = dt / col%heat_cap_surf * (col%sw_edge(0) + dn(0) - up(0) - sens)
    col%temp = col%temp + dt * heating
    col%t_surf = col%t_surf + dts
    tendency = max(maxval(abs(dt * heating)), abs(dts))
    deallocate(up, dn, net, heating)
  end subroutine column_step

  function rc_objective(params, t_obs, n, max_steps) result(obj) bind(c, name='rc_objective')
    real(c_double), intent(in) :: params(6)
    integer(c_int), value :: n, max_steps
    real(c_double), intent(in) :: t_obs(n)
    real(c_double) :: obj
    type(column_t) :: col
    real(dp) :: tendency, t_trop, t_mean
    integer :: step, k_trop
    ! params: longwave optical depth, shortwave optical depth, solar constant, albedo,
    !         convective exchange (W/m2/K), surface sensible exchange (W/m2/K)
    call column_init(col, n, params(1), params(2), params(3) / 4.0_dp * (1.0_dp - params(4)))
    do step = 1, max_steps
      call column_step(col, 10800.0_dp, 'softplus', params(5), 0.5_dp, tendency, c_sens=params(6))
      if (tendency < 1.0e-11_dp) exit
    end do
    k_trop = minloc(col%temp, dim=1)
    t_trop = col%temp(k_trop)
    t_mean = sum(col%temp, mask=col%p_mid > 2.0e4_dp) / count(col%p_mid > 2.0e4_dp)
    write(last_log, '(a,i0,a,f8.3,a,i0,a,f8.3)') 'equilibrium after ', step, ' steps: Ts=', col%t_surf, &
        ' cold point k=', k_trop, ' T=', t_trop
    if (verbose) print '(a)', trim(last_log)
    obj = col%t_surf + 0.01_dp * sum((col%temp - t_obs)**2) / n + 0.1_dp * t_trop + 0.05_dp * t_mean
  end function rc_objective

end module rc_column
