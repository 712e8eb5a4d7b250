! Fortran 2008 ODE toolkit for a calibration study: an integrator derived type holding a PROCEDURE
! POINTER to the right-hand side (abstract interface), the model parameters in module variables set
! before the solve, a Bogacki-Shampine 3(2) embedded pair with accept/reject step-size control, and
! two models picked at run time (SEIR epidemic, Lotka-Volterra with harvesting).  Objective: weighted
! log-misfit of the observed compartment at the census times plus a Tikhonov term.
module ode_kit
  use iso_c_binding, only: c_double
  implicit none
  abstract interface
    subroutine rhs_fn(t, y, dydt)
      import :: c_double
      real(c_double), intent(in) :: t, y(:)
      real(c_double), intent(out) :: dydt(:)
    end subroutine rhs_fn
  end interface

  type :: integrator
    procedure(rhs_fn), pointer, nopass :: f => null()
    real(c_double) :: rtol = 1e-8_c_double, atol = 1e-10_c_double
    real(c_double) :: h = 1e-2_c_double
    integer :: accepted = 0, rejected = 0
  contains
    procedure :: advance_to
  end type integrator

contains

  subroutine advance_to(self, t, y, tend)
    class(integrator), intent(inout) :: self
    real(c_double), intent(inout) :: t, y(:)
    real(c_double), intent(in) :: tend
    real(c_double), dimension(size(y)) :: k1, k2, k3, k4, ynew, yerr
    real(c_double) :: h, err
    logical :: last
    call self%f(t, y, k1)
    do while (t < tend)
      h = min(self%h, tend - t)
      last = h >= tend - t
      call self%f(t + 0.5_c_double * h, y + 0.5_c_double * h * k1, k2)
      call self%f(t + 0.75_c_double * h, y + 0.75_c_double * h * k2, k3)
      ynew = y + h * (2 * k1 + 3 * k2 + 4 * k3) / 9
      call self%f(t + h, ynew, k4)
      yerr = h * (-5 * k1 / 72 + k2 / 12 + k3 / 9 - k4 / 8)
      err = maxval(abs(yerr) / (self%atol + self%rtol * max(abs(y), abs(ynew))))
      if (err <= 1) then
        if (last) then
          t = tend
        else
          t = t + h
        end if
        y = ynew
        k1 = k4
        self%accepted = self%accepted + 1
      else
        self%rejected = self%rejected + 1
      end if
      self%h = h * min(4.0_c_double, max(0.2_c_double, 0.9_c_double * err**(-1.0_c_double / 3)))
    end do
  end subroutine advance_to
end module ode_kit

module epi_models
  use iso_c_binding, only: c_double
  implicit none
  real(c_double) :: beta, sigma, gamma, harvest
contains
  subroutine seir(t, y, dydt)
    real(c_double), intent(in) :: t, y(:)
    real(c_double), intent(out) :: dydt(:)
    real(c_double) :: force
    force = beta * (1 + 0.2_c_double * cos(t)) * y(3) / sum(y)
    dydt(1) = -force * y(1)
    dydt(2) = force * y(1) - sigma * y(2)
    dydt(3) = sigma * y(2) - gamma * y(3)
    dydt(4) = gamma * y(3)
  end subroutine seir

  subroutine predator_prey(t, y, dydt)
    real(c_double), intent(in) :: t, y(:)
    real(c_double), intent(out) :: dydt(:)
    dydt(1) = beta * y(1) * (1 - y(1) / 10) - sigma * y(1) * y(2) - harvest * y(1)
    dydt(2) = gamma * sigma * y(1) * y(2) - 0.4_c_double * y(2) + 0 * t
  end subroutine predator_prey
end module epi_models

module calibration
  use iso_c_binding, only: c_double, c_int
  use ode_kit
  use epi_models
  implicit none
contains
  function fit_objective(theta, y0, tobs, yobs, nobs, model) result(obj) bind(C, name="fit_objective")
    ! theta = [beta, sigma, gamma, harvest]; model 1: SEIR (4 compartments), 2: predator-prey (2)
    integer(c_int), value :: nobs, model
    real(c_double), intent(in) :: theta(4), y0(4), tobs(nobs), yobs(nobs)
    real(c_double) :: obj
    type(integrator) :: ode
    real(c_double), allocatable :: y(:)
    real(c_double) :: t, w
    integer :: i, watch
    beta = theta(1)
    sigma = theta(2)
    gamma = theta(3)
    harvest = theta(4)
    select case (model)
    case (1)
      ode%f => seir
      y = y0
      watch = 3
    case default
      ode%f => predator_prey
      y = y0(1:2)
      watch = 2
    end select
    t = 0
    obj = 0
    do i = 1, nobs
      call ode%advance_to(t, y, tobs(i))
      w = 1.0_c_double / (1 + 0.1_c_double * i)
      obj = obj + w * (log(y(watch)) - log(yobs(i)))**2
    end do
    obj = obj + 1e-3_c_double * sum((theta - [0.5_c_double, 0.3_c_double, 0.2_c_double, 0.05_c_double])**2)
  end function fit_objective
end module calibration
