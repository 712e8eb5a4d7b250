! Three-box ocean thermohaline and carbon model in the style of a 1980s code kept alive by a modern
! wrapper: legacy routines outside any module with IMPLICIT DOUBLE PRECISION (a-h, o-z) typing,
! parameters shared through COMMON blocks (/phys/ and /state/), a SAVEd first-call flag and step
! counter, REAL*8 and DOUBLE PRECISION declarations, an arithmetic-statement-free EXTERNAL function
! passed as an argument, and a modern module (real(kind=dp), intent, allocatable) that fills the
! common blocks and integrates with Heun steps.  Objective: misfit of box temperatures, salinities
! and the deep-ocean carbon after a spin-up.

      block data boxdat
      implicit double precision (a-h, o-z)
      common /phys/ alpha, beta, rk, tau, volume(3), area(3)
      common /state/ t(3), s(3), c(3), flow, nstep
      data alpha /1.7d-4/, beta /7.6d-4/, rk /1.5d1/, tau /2.0d0/
      data volume /1.0d0, 1.2d0, 4.0d0/, area /1.0d0, 1.0d0, 0.0d0/
      data nstep /0/
      end block data boxdat

      double precision function density(temp, sal)
      implicit double precision (a-h, o-z)
      common /phys/ alpha, beta, rk, tau, volume(3), area(3)
      density = 1.0d3 * (1.0d0 - alpha * (temp - 1.0d1) + beta * (sal - 3.5d1))
      end function density

      subroutine overturning(dens)
      implicit double precision (a-h, o-z)
      external dens
      double precision dens
      common /phys/ alpha, beta, rk, tau, volume(3), area(3)
      common /state/ t(3), s(3), c(3), flow, nstep
      rho1 = dens(t(1), s(1))
      rho2 = dens(t(2), s(2))
!     flow driven by the equator-pole density contrast, smoothly one-signed
      dr = (rho2 - rho1) / 1.0d3
      flow = rk * sqrt(dr * dr + 1.0d-8)
      end subroutine overturning

      subroutine tendencies(tforce, sforce, cforce, dt, ds, dc)
      implicit double precision (a-h, o-z)
      real*8 tforce(3), sforce(3), cforce(3), dt(3), ds(3), dc(3)
      common /phys/ alpha, beta, rk, tau, volume(3), area(3)
      common /state/ t(3), s(3), c(3), flow, nstep
      logical first
      save first, ncall
      data first /.true./, ncall /0/
      double precision density
      external density
      if (first) then
        first = .false.
        ncall = 0
      end if
      ncall = ncall + 1
      call overturning(density)
!     loop 1 -> 2 -> 3 -> 1 (surface equator, surface pole, deep)
      do 10 i = 1, 3
        iup = i - 1
        if (iup .lt. 1) iup = 3
        dt(i) = (flow * (t(iup) - t(i)) + area(i) * (tforce(i) - t(i)) / tau) / volume(i)
        ds(i) = (flow * (s(iup) - s(i)) + area(i) * sforce(i)) / volume(i)
        dc(i) = (flow * (c(iup) - c(i)) + cforce(i) * exp(-0.05d0 * t(i))) / volume(i)
   10 continue
      nstep = nstep + 1
      end subroutine tendencies

module box_driver
  use iso_c_binding, only: c_double, c_int
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains
  function boxes_objective(p, obs, nsteps) result(obj) bind(C, name="boxes_objective")
    ! p = [T forcing equator, T forcing pole, salt flux, relaxation time, flow constant, carbon uptake]
    integer(c_int), value :: nsteps
    real(c_double), intent(in) :: p(6), obs(7)
    real(c_double) :: obj
    real(kind=dp) :: alpha, beta, rk, tau, volume(3), area(3)
    real(kind=dp) :: t(3), s(3), c(3), flow
    integer :: nstep
    common /phys/ alpha, beta, rk, tau, volume, area
    common /state/ t, s, c, flow, nstep
    real(kind=dp) :: tf(3), sf(3), cf(3), k1(3, 3), k2(3, 3), y0(3, 3), h
    integer :: n
    rk = p(5)
    tau = p(4)
    tf = [p(1), p(2), 0.0_dp]
    sf = [p(3), -p(3), 0.0_dp]
    cf = [p(6), 0.3_dp * p(6), 0.0_dp]
    t = [25.0_dp, 5.0_dp, 4.0_dp]
    s = [36.0_dp, 34.5_dp, 34.8_dp]
    c = [2.0_dp, 2.1_dp, 2.3_dp]
    nstep = 0
    h = 0.05_dp
    do n = 1, nsteps
      y0(:, 1) = t
      y0(:, 2) = s
      y0(:, 3) = c
      call tendencies(tf, sf, cf, k1(:, 1), k1(:, 2), k1(:, 3))
      t = y0(:, 1) + h * k1(:, 1)
      s = y0(:, 2) + h * k1(:, 2)
      c = y0(:, 3) + h * k1(:, 3)
      call tendencies(tf, sf, cf, k2(:, 1), k2(:, 2), k2(:, 3))
      t = y0(:, 1) + 0.5_dp * h * (k1(:, 1) + k2(:, 1))
      s = y0(:, 2) + 0.5_dp * h * (k1(:, 2) + k2(:, 2))
      c = y0(:, 3) + 0.5_dp * h * (k1(:, 3) + k2(:, 3))
    end do
    obj = sum((t - obs(1:3))**2) + sum((s(1:2) - obs(4:5))**2) + (c(3) - obs(6))**2 + 1.0e-3_dp * flow**2
  end function boxes_objective
end module box_driver
