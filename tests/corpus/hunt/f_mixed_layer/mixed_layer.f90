! Fortran 2008 one-dimensional upper-ocean mixed-layer model, written as a physical oceanographer would:
! a derived type `ocean_column` with ALLOCATABLE profile components (temperature, salinity, u, v, layer
! depths) and type-bound procedures (init, step, sst), a `forcing` type holding the surface heat flux,
! wind stress and freshwater flux with a diurnal cycle, penetrating shortwave by a two-band Jerlov
! profile (an `elemental` function), a linear equation of state, Pacanowski-Philander Richardson-number
! dependent vertical mixing (smooth in Ri, with `max` keeping N^2 >= 0 in the Ri estimate), an implicit
! diffusion step by a contained Thomas solver on assumed-shape arrays, inertial rotation of the
! momentum by the Coriolis parameter, convective adjustment as a smooth enhancement of diffusivity
! (`merge` on the sign of N^2), `allocate`d work arrays every step and an internal `write` diagnostic.
! Objective: end-of-run SST and mixed-layer heat content.  Inputs: heat flux amplitude, wind stress,
! background diffusivity, thermal expansion coefficient, Jerlov attenuation length.
module mixed_layer_mod
  use iso_c_binding, only: c_double, c_int
  implicit none
  private
  public :: mld_objective

  real(c_double), parameter :: rho0 = 1025.0_c_double, cp = 3990.0_c_double, grav = 9.81_c_double
  real(c_double), parameter :: pi = 3.141592653589793_c_double

  type :: forcing
    real(c_double) :: q_amp = 0.0_c_double, tau_x = 0.0_c_double, emp = 0.0_c_double
  end type forcing

  type :: ocean_column
    integer :: nz = 0
    real(c_double) :: dz = 2.0_c_double, f_cor = 1.0e-4_c_double
    real(c_double) :: alpha = 2.0e-4_c_double, beta_s = 7.6e-4_c_double
    real(c_double) :: kb = 1.0e-5_c_double, zeta = 20.0_c_double
    real(c_double), allocatable :: t(:), s(:), u(:), v(:), z(:)
  contains
    procedure :: init => column_init
    procedure :: step => column_step
    procedure :: sst => column_sst
  end type ocean_column

  character(len=96), save :: last_log = ''

contains

  elemental function jerlov(depth, zeta) result(frac)
    real(c_double), intent(in) :: depth, zeta
    real(c_double) :: frac
    frac = 0.58_c_double * exp(-depth / 0.35_c_double) + 0.42_c_double * exp(-depth / zeta)
  end function jerlov

  subroutine column_init(self, nz, kb, alpha, zeta)
    class(ocean_column), intent(inout) :: self
    integer, intent(in) :: nz
    real(c_double), intent(in) :: kb, alpha, zeta
    integer :: k
    self%nz = nz
    self%kb = kb
    self%alpha = alpha
    self%zeta = zeta
    allocate(self%t(nz), self%s(nz), self%u(nz), self%v(nz), self%z(nz))
    self%z = [((k - 0.5_c_double) * self%dz, k = 1, nz)]
    ! summer profile: warm shallow layer over a thermocline
    self%t = 12.0_c_double + 8.0_c_double * 0.5_c_double * (1.0_c_double - tanh((self%z - 25.0_c_double) / 8.0_c_double))
    self%s = 35.0_c_double + 0.002_c_double * self%z
    self%u = 0.0_c_double
    self%v = 0.0_c_double
  end subroutine column_init

  subroutine column_step(self, frc, time, dt)
    class(ocean_column), intent(inout) :: self
    type(forcing), intent(in) :: frc
    real(c_double), intent(in) :: time, dt
    real(c_double), allocatable :: n2(:), shear2(:), ri(:), kappa(:), heating(:), edges(:)
    real(c_double) :: q_net, q_sw, cosf, sinf, un, vn
    integer :: k, nz
    nz = self%nz
    allocate(n2(nz - 1), shear2(nz - 1), ri(nz - 1), kappa(nz - 1), heating(nz), edges(nz + 1))

    ! surface forcing: shortwave with a diurnal cycle, constant longwave/turbulent loss
    q_sw = frc%q_amp * max(0.0_c_double, sin(2.0_c_double * pi * time / 86400.0_c_double))
    q_net = -0.35_c_double * frc%q_amp
    edges = [(real(k, c_double) * self%dz, k = 0, nz)]
    heating = q_sw * (jerlov(edges(1:nz), self%zeta) - jerlov(edges(2:nz + 1), self%zeta))
    heating(1) = heating(1) + q_net
    self%t = self%t + dt * heating / (rho0 * cp * self%dz)
    self%s(1) = self%s(1) + dt * frc%emp * self%s(1) / self%dz

    ! wind stress into the top layer, then inertial rotation
    self%u(1) = self%u(1) + dt * frc%tau_x / (rho0 * self%dz)
    cosf = cos(self%f_cor * dt)
    sinf = sin(self%f_cor * dt)
    do k = 1, nz
      un = self%u(k) * cosf + self%v(k) * sinf
      vn = -self%u(k) * sinf + self%v(k) * cosf
      self%u(k) = un
      self%v(k) = vn
    end do

    ! Richardson-number mixing at the interfaces
    n2 = grav * (self%alpha * (self%t(1:nz - 1) - self%t(2:nz)) - self%beta_s * (self%s(1:nz - 1) - self%s(2:nz))) / self%dz
    shear2 = ((self%u(1:nz - 1) - self%u(2:nz))**2 + (self%v(1:nz - 1) - self%v(2:nz))**2) / self%dz**2 + 1.0e-12_c_double
    ri = max(n2, 0.0_c_double) / shear2
    kappa = 1.0e-2_c_double / (1.0_c_double + 5.0_c_double * ri)**2 + self%kb
    kappa = merge(kappa + 0.05_c_double, kappa, n2 < 0.0_c_double)   ! convective adjustment

    call implicit_diffusion(self%t, kappa, dt, self%dz)
    call implicit_diffusion(self%s, kappa, dt, self%dz)
    call implicit_diffusion(self%u, kappa, dt, self%dz)
    call implicit_diffusion(self%v, kappa, dt, self%dz)
    write (last_log, '(a, f10.1, a, f8.4, a, es10.3)') 't=', time, ' sst=', self%t(1), ' kmax=', maxval(kappa)
    deallocate(n2, shear2, ri, kappa, heating, edges)

  contains

    subroutine implicit_diffusion(c, kap, dt, dz)
      real(c_double), intent(inout) :: c(:)
      real(c_double), intent(in) :: kap(:), dt, dz
      real(c_double) :: lo(size(c)), di(size(c)), up(size(c)), cp_(size(c)), dp(size(c)), m, r
      integer :: i, n
      n = size(c)
      r = dt / dz**2
      lo = 0.0_c_double
      up = 0.0_c_double
      lo(2:n) = -r * kap(1:n - 1)
      up(1:n - 1) = -r * kap(1:n - 1)
      di = 1.0_c_double - lo - up
      cp_(1) = up(1) / di(1)
      dp(1) = c(1) / di(1)
      do i = 2, n
        m = di(i) - lo(i) * cp_(i - 1)
        cp_(i) = up(i) / m
        dp(i) = (c(i) - lo(i) * dp(i - 1)) / m
      end do
      c(n) = dp(n)
      do i = n - 1, 1, -1
        c(i) = dp(i) - cp_(i) * c(i + 1)
      end do
    end subroutine implicit_diffusion

  end subroutine column_step

  function column_sst(self) result(sst)
    class(ocean_column), intent(in) :: self
    real(c_double) :: sst
    sst = self%t(1)
  end function column_sst

  function mld_objective(params, nz, nsteps) result(obj) bind(C, name="mld_objective")
    ! params = [heat flux amplitude (W/m2), wind stress (N/m2), background diffusivity, alpha, Jerlov zeta]
    real(c_double), intent(in) :: params(5)
    integer(c_int), value :: nz, nsteps
    real(c_double) :: obj
    type(ocean_column) :: col
    type(forcing) :: frc
    real(c_double) :: dt, heat_content
    integer :: n
    call col%init(nz, params(3), params(4), params(5))
    frc = forcing(q_amp=params(1), tau_x=params(2), emp=1.0e-8_c_double)
    dt = 1800.0_c_double
    do n = 1, nsteps
      call col%step(frc, (n - 1) * dt, dt)
    end do
    heat_content = rho0 * cp * col%dz * sum(col%t(1:10) - 12.0_c_double) / 1.0e9_c_double
    obj = col%sst() + heat_content + 10.0_c_double * sqrt(col%u(1)**2 + col%v(1)**2)
  end function mld_objective

end module mixed_layer_mod
