! Nonlinear heat conduction in a rod, written as a Fortran 2008 code would be: a module owning a derived type with
! allocatable components and default-initialized settings, an elemental conductivity law, a pure flux routine
! with an intent(inout) work array, do concurrent updates, whole-array and section assignment, SUM, MAXVAL,
! DOT_PRODUCT and CSHIFT (a periodic neighbour), allocate/deallocate, a diagnostic WRITE and STOP on bad input.
! The C driver differentiates the bind(C) objective with respect to the initial temperatures and the two
! material parameters.
module rod_model
  use iso_c_binding, only: c_double, c_int
  implicit none
  private
  public :: rod_objective

  type :: rod_t
    real(c_double), allocatable :: temp(:), kappa(:)
    real(c_double) :: length = 1.0_c_double
    real(c_double) :: dt = 2.0e-4_c_double
    integer :: steps_taken = 0
    logical :: verbose = .false.
  end type rod_t

contains

  elemental function conductivity(t, k0, beta) result(k)
    real(c_double), intent(in) :: t, k0, beta
    real(c_double) :: k
    k = k0 * (1.0_c_double + beta * t * t)
  end function conductivity

  subroutine setup(rod, t0, k0, beta)
    type(rod_t), intent(inout) :: rod
    real(c_double), intent(in) :: t0(:), k0, beta
    integer :: n
    n = size(t0)
    if (n < 3) then
      write (6, '(a, i0)') 'rod_model: need at least 3 cells, got ', n
      stop 2
    end if
    allocate(rod%temp(n), rod%kappa(n))
    rod%temp = t0
    rod%kappa = conductivity(rod%temp, k0, beta)
  end subroutine setup

  ! Face fluxes into work(1:n+1) (zero-flux ends), then the divergence into dtdt.
  pure subroutine fluxes(temp, kappa, dx, work, dtdt)
    real(c_double), intent(in) :: temp(:), kappa(:), dx
    real(c_double), intent(inout) :: work(:)
    real(c_double), intent(out) :: dtdt(:)
    integer :: i, n
    n = size(temp)
    work(1) = 0.0_c_double
    work(n + 1) = 0.0_c_double
    do concurrent (i = 2:n)
      work(i) = 0.5_c_double * (kappa(i - 1) + kappa(i)) * (temp(i) - temp(i - 1)) / dx
    end do
    dtdt = (work(2:n + 1) - work(1:n)) / dx
  end subroutine fluxes

  subroutine advance(rod, k0, beta, nsteps)
    type(rod_t), intent(inout) :: rod
    real(c_double), intent(in) :: k0, beta
    integer, intent(in) :: nsteps
    real(c_double), allocatable :: work(:), dtdt(:)
    real(c_double) :: dx
    integer :: s, n
    n = size(rod%temp)
    dx = rod%length / n
    allocate(work(n + 1), dtdt(n))
    do s = 1, nsteps
      call fluxes(rod%temp, rod%kappa, dx, work, dtdt)
      rod%temp = rod%temp + rod%dt * dtdt
      rod%kappa = conductivity(rod%temp, k0, beta)
      rod%steps_taken = rod%steps_taken + 1
    end do
    if (rod%verbose) write (6, *) 'advanced', rod%steps_taken, 'steps, max T', maxval(rod%temp)
    deallocate(work, dtdt)
  end subroutine advance

  function rod_objective(t0, n, k0, beta, nsteps) result(obj) bind(C, name="rod_objective")
    integer(c_int), value :: n, nsteps
    real(c_double), intent(in) :: t0(n)
    real(c_double), value :: k0, beta
    real(c_double) :: obj
    type(rod_t) :: rod
    real(c_double), allocatable :: profile(:)
    call setup(rod, t0, k0, beta)
    call advance(rod, k0, beta, nsteps)
    profile = rod%temp(2:n) - rod%temp(1:n - 1)
    obj = sum(rod%temp**2) / n + dot_product(profile, profile) + 0.1_c_double * maxval(rod%kappa) &
          + 0.05_c_double * sum(rod%temp * cshift(rod%temp, 1))
  end function rod_objective

end module rod_model
