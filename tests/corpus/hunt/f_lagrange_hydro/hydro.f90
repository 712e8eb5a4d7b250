! 1-D Lagrangian gas dynamics on a staggered mesh (node positions and velocities, zone density,
! internal energy and pressure) with von Neumann-Richtmyer artificial viscosity, the way a
! teaching-turned-research code is written: a mesh derived type with POINTER components pointing
! into TARGET arrays (passed INTENT(INOUT)), ASSOCIATE blocks for short names, BLOCK constructs for
! scratch variables, FORALL for zone updates, real(kind=dp) next to real(8), and a smooth initial
! pressure pulse.  Objective: a weighted final-energy and position functional.
module lagrange_mod
  use iso_c_binding, only: c_double, c_int
  implicit none
  integer, parameter :: dp = selected_real_kind(15, 307)

  type :: mesh_t
    integer :: nz = 0
    real(kind=dp), pointer :: x(:) => null(), u(:) => null()          ! nodes 1..nz+1
    real(kind=dp), pointer :: rho(:) => null(), e(:) => null(), p(:) => null(), q(:) => null(), m(:) => null()
    real(8) :: gamma = 1.4d0
  end type mesh_t

contains

  subroutine equation_of_state(mesh)
    type(mesh_t), intent(inout) :: mesh
    associate (g => mesh%gamma, rho => mesh%rho, e => mesh%e, p => mesh%p)
      p = (g - 1) * rho * e
    end associate
  end subroutine equation_of_state

  subroutine viscosity(mesh, cq, cl)
    type(mesh_t), intent(inout) :: mesh
    real(kind=dp), intent(in) :: cq, cl
    integer :: z
    do z = 1, mesh%nz
      block
        real(kind=dp) :: du, cs
        du = mesh%u(z + 1) - mesh%u(z)
        cs = sqrt(mesh%gamma * mesh%p(z) / mesh%rho(z))
        if (du < 0) then
          mesh%q(z) = mesh%rho(z) * (cq * du * du - cl * cs * du)
        else
          mesh%q(z) = 0
        end if
      end block
    end do
  end subroutine viscosity

  subroutine lagrange_step(mesh, dt)
    type(mesh_t), intent(inout) :: mesh
    real(kind=dp), intent(in) :: dt
    integer :: i, z, n
    real(kind=dp) :: vol_old(mesh%nz), vol_new(mesh%nz), ptot(mesh%nz)
    n = mesh%nz
    ptot = mesh%p + mesh%q
    associate (x => mesh%x, u => mesh%u, m => mesh%m)
      ! nodal accelerations from pressure differences (node mass = average of zone masses); walls fixed
      do i = 2, n
        u(i) = u(i) - dt * (ptot(i) - ptot(i - 1)) / (0.5_dp * (m(i - 1) + m(i)))
      end do
      u(1) = 0
      u(n + 1) = 0
      forall (z = 1:n) vol_old(z) = x(z + 1) - x(z)
      x = x + dt * u
      forall (z = 1:n) vol_new(z) = x(z + 1) - x(z)
    end associate
    forall (z = 1:n)
      mesh%e(z) = mesh%e(z) - ptot(z) * (vol_new(z) - vol_old(z)) / mesh%m(z)
      mesh%rho(z) = mesh%m(z) / vol_new(z)
    end forall
    call equation_of_state(mesh)
  end subroutine lagrange_step

  function hydro_objective(params, nz, nsteps) result(obj) bind(C, name="hydro_objective")
    ! params = [pulse amplitude, pulse width, background density, gamma, quadratic q, linear q, dt]
    integer(c_int), value :: nz, nsteps
    real(c_double), intent(in) :: params(7)
    real(c_double) :: obj
    real(kind=dp), target, allocatable :: xs(:), us(:), zs(:, :)
    type(mesh_t) :: mesh
    integer :: i, s
    allocate(xs(nz + 1), us(nz + 1), zs(nz, 5))
    mesh%nz = nz
    mesh%x => xs
    mesh%u => us
    mesh%rho => zs(:, 1)
    mesh%e => zs(:, 2)
    mesh%p => zs(:, 3)
    mesh%q => zs(:, 4)
    mesh%m => zs(:, 5)
    mesh%gamma = params(4)
    xs = [(real(i - 1, dp) / nz, i = 1, nz + 1)]
    us = 0
    do i = 1, nz
      block
        real(kind=dp) :: xc
        xc = 0.5_dp * (xs(i) + xs(i + 1))
        mesh%rho(i) = params(3) * (1 + 0.2_dp * xc)
        mesh%e(i) = 1 + params(1) * exp(-((xc - 0.3_dp) / params(2))**2)
        mesh%m(i) = mesh%rho(i) * (xs(i + 1) - xs(i))
      end block
    end do
    call equation_of_state(mesh)
    do s = 1, nsteps
      call viscosity(mesh, params(5), params(6))
      call lagrange_step(mesh, params(7))
    end do
    obj = sum(mesh%m * mesh%e**2) + sum(xs(2:nz) * us(2:nz)) &
        + 0.5_dp * sum(mesh%m * 0.25_dp * (us(1:nz) + us(2:nz + 1))**2) + maxval(mesh%p)
    nullify(mesh%x, mesh%u, mesh%rho, mesh%e, mesh%p, mesh%q, mesh%m)
    deallocate(xs, us, zs)
  end function hydro_objective
end module lagrange_mod
