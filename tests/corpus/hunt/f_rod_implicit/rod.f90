! Fortran 2008 transient heat conduction in a composite rod, implicit Euler in time: a derived type
! with ALLOCATABLE components (cell conductivities, heat capacities, temperatures) and type-bound
! procedures (setup, step, energy), temperature-dependent conductivity handled by Picard iteration to a
! tolerance, a Thomas tridiagonal solve on assumed-shape arrays in a CONTAINed procedure, harmonic-mean
! face conductivities from array sections, a Robin (convective) boundary with an OPTIONAL ambient
! temperature, and an objective from sensor misfits plus the stored energy.
module rod_mod
  use iso_c_binding, only: c_double, c_int
  implicit none
  private
  public :: rod_objective

  type :: rod
    integer :: n = 0
    real(c_double) :: length = 1.0_c_double
    real(c_double) :: beta = 0.0_c_double             ! conductivity growth per kelvin
    real(c_double), allocatable :: k0(:), rhoc(:), temp(:)
  contains
    procedure :: setup => rod_setup
    procedure :: step => rod_step
    procedure :: energy => rod_energy
  end type rod

contains

  subroutine rod_setup(self, n, k_left, k_right, beta, t_init)
    class(rod), intent(inout) :: self
    integer, intent(in) :: n
    real(c_double), intent(in) :: k_left, k_right, beta, t_init
    integer :: i
    self%n = n
    self%beta = beta
    if (allocated(self%k0)) deallocate(self%k0, self%rhoc, self%temp)
    allocate(self%k0(n), self%rhoc(n), self%temp(n))
    self%k0(1:n / 2) = k_left
    self%k0(n / 2 + 1:) = k_right
    self%rhoc = [(1.0_c_double + 0.1_c_double * sin(0.5_c_double * i), i = 1, n)]
    self%temp = t_init
  end subroutine rod_setup

  subroutine rod_step(self, dt, heat, h_conv, t_amb, iterations)
    class(rod), intent(inout) :: self
    real(c_double), intent(in) :: dt, heat(:), h_conv
    real(c_double), intent(in), optional :: t_amb
    integer, intent(out), optional :: iterations
    real(c_double), allocatable :: told(:), tnew(:), kc(:), kf(:), lo(:), di(:), up(:), rhs(:)
    real(c_double) :: dx, ambient, change
    integer :: n, it
    n = self%n
    dx = self%length / n
    ambient = 0.0_c_double
    if (present(t_amb)) ambient = t_amb
    told = self%temp
    tnew = told
    allocate(kf(n - 1), lo(n), di(n), up(n), rhs(n))
    do it = 1, 50
      kc = self%k0 * (1 + self%beta * tnew)
      kf = 2 * kc(1:n - 1) * kc(2:n) / (kc(1:n - 1) + kc(2:n))     ! harmonic mean at faces
      lo = 0
      up = 0
      lo(2:n) = -dt * kf / dx**2
      up(1:n - 1) = -dt * kf / dx**2
      di = self%rhoc - lo - up
      rhs = self%rhoc * told + dt * heat
      ! left end insulated; right end convective (Robin)
      di(n) = di(n) + dt * h_conv / dx
      rhs(n) = rhs(n) + dt * h_conv / dx * ambient
      call thomas(lo, di, up, rhs)
      change = maxval(abs(rhs - tnew))
      tnew = rhs
      if (change < 1e-13_c_double * (1 + maxval(abs(tnew)))) exit
    end do
    self%temp = tnew
    if (present(iterations)) iterations = it
  contains
    subroutine thomas(a, b, c, d)
      real(c_double), intent(in) :: a(:), c(:)
      real(c_double), intent(inout) :: b(:), d(:)
      integer :: i, m
      real(c_double) :: w
      m = size(d)
      do i = 2, m
        w = a(i) / b(i - 1)
        b(i) = b(i) - w * c(i - 1)
        d(i) = d(i) - w * d(i - 1)
      end do
      d(m) = d(m) / b(m)
      do i = m - 1, 1, -1
        d(i) = (d(i) - c(i) * d(i + 1)) / b(i)
      end do
    end subroutine thomas
  end subroutine rod_step

  pure function rod_energy(self) result(e)
    class(rod), intent(in) :: self
    real(c_double) :: e
    e = sum(self%rhoc * self%temp) * self%length / self%n
  end function rod_energy

  function rod_objective(params, sensors, nsens, n, nsteps) result(obj) bind(C, name="rod_objective")
    ! params = [k_left, k_right, beta, h_conv, source strength, ambient]; sensors(nsens) observed at the end
    integer(c_int), value :: nsens, n, nsteps
    real(c_double), intent(in) :: params(6), sensors(nsens)
    real(c_double) :: obj
    type(rod) :: bar
    real(c_double), allocatable :: heat(:)
    real(c_double) :: dt
    integer :: s, i, iters, total
    call bar%setup(n, params(1), params(2), params(3), 0.0_c_double)
    heat = [(params(5) * exp(-((i - 0.3_c_double * n) / (0.1_c_double * n))**2), i = 1, n)]
    dt = 0.02_c_double
    total = 0
    do s = 1, nsteps
      if (s <= nsteps / 2) then
        call bar%step(dt, heat, params(4), t_amb=params(6), iterations=iters)
      else
        call bar%step(dt, 0 * heat, params(4), iterations=iters)   ! source off, ambient at zero
      end if
      total = total + iters
    end do
    obj = 0
    do i = 1, nsens
      obj = obj + (bar%temp(1 + (i - 1) * (n - 1) / max(1, nsens - 1)) - sensors(i))**2
    end do
    obj = obj + 0.01_c_double * bar%energy()
  end function rod_objective
end module rod_mod
