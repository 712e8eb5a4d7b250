! Fortran 2008: a chain of damped pendula integrated with RK4; explicit-shape arrays, a contained
! right-hand side, a module parameter, an internal procedure for the RK stage combination, and
! intent(inout) state.  Entry point bind(C).
module pendulum_chain
  use iso_c_binding, only: c_double, c_int
  implicit none
  real(c_double), parameter :: gravity = 9.81_c_double
contains
  subroutine rhs(n, y, dydt, lengths, damping, coupling)
    integer, intent(in) :: n
    real(c_double), intent(in) :: y(2*n), lengths(n), damping, coupling
    real(c_double), intent(out) :: dydt(2*n)
    integer :: i
    real(c_double) :: torque
    do i = 1, n
      torque = -gravity / lengths(i) * sin(y(i)) - damping * y(n + i)
      if (i > 1) torque = torque + coupling * (y(i - 1) - y(i))
      if (i < n) torque = torque + coupling * (y(i + 1) - y(i))
      dydt(i) = y(n + i)
      dydt(n + i) = torque
    end do
  end subroutine rhs

  function chain_energy(y, n, lengths, damping, coupling, dt, nsteps) result(e) bind(C, name="chain_energy")
    integer(c_int), value :: n, nsteps
    real(c_double), intent(inout) :: y(2*n)
    real(c_double), intent(in) :: lengths(n)
    real(c_double), value :: damping, coupling, dt
    real(c_double) :: e
    real(c_double) :: k1(2*n), k2(2*n), k3(2*n), k4(2*n)
    integer :: s, i
    do s = 1, nsteps
      call rhs(n, y, k1, lengths, damping, coupling)
      call rhs(n, stage(k1, 0.5_c_double), k2, lengths, damping, coupling)
      call rhs(n, stage(k2, 0.5_c_double), k3, lengths, damping, coupling)
      call rhs(n, stage(k3, 1.0_c_double), k4, lengths, damping, coupling)
      y = y + dt / 6.0_c_double * (k1 + 2.0_c_double * k2 + 2.0_c_double * k3 + k4)
    end do
    e = 0.0_c_double
    do i = 1, n
      e = e + 0.5_c_double * lengths(i)**2 * y(n + i)**2 + gravity * lengths(i) * (1.0_c_double - cos(y(i)))
    end do
  contains
    function stage(k, c) result(ys)
      real(c_double), intent(in) :: k(2*n), c
      real(c_double) :: ys(2*n)
      ys = y + c * dt * k
    end function stage
  end function chain_energy
end module pendulum_chain
