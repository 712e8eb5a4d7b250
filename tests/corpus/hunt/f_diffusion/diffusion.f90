! Fortran 2008: 1-D reaction-diffusion with a derived type for the grid, elemental and pure procedures,
! array sections, do concurrent, sum/maxval intrinsics and an allocatable work array; the C driver
! differentiates the bind(C) entry point.
module diffusion_mod
  use iso_c_binding, only: c_double, c_int
  implicit none
  private
  public :: reaction_diffusion

  type :: grid_t
    integer :: n
    real(c_double) :: dx
  end type grid_t

contains

  elemental function reaction(u, k) result(r)
    real(c_double), intent(in) :: u, k
    real(c_double) :: r
    r = k * u * (1.0_c_double - u)
  end function reaction

  pure subroutine laplacian(g, u, lap)
    type(grid_t), intent(in) :: g
    real(c_double), intent(in) :: u(:)
    real(c_double), intent(out) :: lap(:)
    integer :: i
    lap(1) = (u(2) - 2.0_c_double * u(1)) / g%dx**2            ! u(0) = 0 (Dirichlet)
    do concurrent (i = 2:g%n - 1)
      lap(i) = (u(i + 1) - 2.0_c_double * u(i) + u(i - 1)) / g%dx**2
    end do
    lap(g%n) = (u(g%n - 1) - 2.0_c_double * u(g%n)) / g%dx**2    ! u(n+1) = 0
  end subroutine laplacian

  function reaction_diffusion(u, n, diff, k, dt, nsteps) result(obj) bind(C, name="reaction_diffusion")
    integer(c_int), value :: n, nsteps
    real(c_double), intent(inout) :: u(n)
    real(c_double), value :: diff, k, dt
    real(c_double) :: obj
    type(grid_t) :: g
    real(c_double) :: lap(n)
    integer :: s
    g = grid_t(n, 1.0_c_double / (n + 1))
    do s = 1, nsteps
      call laplacian(g, u, lap)
      u = u + dt * (diff * lap + reaction(u, k))
    end do
    obj = g%dx * sum(u**2) + 0.1_c_double * maxval(u(n/4:3*n/4))
  end function reaction_diffusion

end module diffusion_mod
