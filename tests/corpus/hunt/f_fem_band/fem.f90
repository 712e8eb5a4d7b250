! 1-D nonlinear finite-element Poisson problem  -(k(x) u')' + c u^3 = f  on [0, L], quadratic (P2)
! Lagrange elements, written the way a lab code grows: Gauss points and weights as module-level
! PARAMETER arrays, real(kind=dp), the global matrix assembled into LAPACK general band storage
! ab(2*kl+ku+1, n) and factored by a hand-written band LU without pivoting (the matrix is an M-matrix
! plus a positive diagonal), a legacy F77-style solve routine with assumed-size x(*) arguments,
! boundary conditions chosen by SELECT CASE on an integer kind, and an internal (CONTAINed) function
! for the conductivity.  Newton iterations on the cubic reaction term; objective is a weighted
! misfit at observation nodes plus the flux at the right end.
module fem_band_mod
  use iso_c_binding, only: c_double, c_int
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer, parameter :: ngauss = 3
  real(kind=dp), parameter :: gx(ngauss) = [-0.7745966692414834_dp, 0.0_dp, 0.7745966692414834_dp]
  real(kind=dp), parameter :: gw(ngauss) = [5.0_dp / 9.0_dp, 8.0_dp / 9.0_dp, 5.0_dp / 9.0_dp]
  integer, parameter :: BC_DIRICHLET = 1, BC_NEUMANN = 2, BC_ROBIN = 3
  integer, parameter :: kl = 2, ku = 2, ldab = 2 * kl + ku + 1
contains

  subroutine shape_p2(xi, phi, dphi)
    real(kind=dp), intent(in) :: xi
    real(kind=dp), intent(out) :: phi(3), dphi(3)
    phi = [0.5_dp * xi * (xi - 1), 1 - xi * xi, 0.5_dp * xi * (xi + 1)]
    dphi = [xi - 0.5_dp, -2 * xi, xi + 0.5_dp]
  end subroutine shape_p2

  subroutine band_add(ab, i, j, v)
    real(kind=dp), intent(inout) :: ab(ldab, *)
    integer, intent(in) :: i, j
    real(kind=dp), intent(in) :: v
    ab(kl + ku + 1 + i - j, j) = ab(kl + ku + 1 + i - j, j) + v
  end subroutine band_add

  subroutine assemble(nel, length, kpar, creact, src, u, ab, res)
    integer, intent(in) :: nel
    real(kind=dp), intent(in) :: length, kpar(3), creact, src, u(:)
    real(kind=dp), intent(out) :: ab(:, :), res(:)
    real(kind=dp) :: h, xm, x, phi(3), dphi(3), uq, duq, kq, w
    integer :: e, q, a, b, nodes(3)
    h = length / nel
    ab = 0
    res = 0
    do e = 1, nel
      nodes = [2 * e - 1, 2 * e, 2 * e + 1]
      xm = (e - 0.5_dp) * h
      do q = 1, ngauss
        call shape_p2(gx(q), phi, dphi)
        dphi = dphi * 2 / h
        x = xm + 0.5_dp * h * gx(q)
        w = gw(q) * 0.5_dp * h
        uq = dot_product(phi, u(nodes))
        duq = dot_product(dphi, u(nodes))
        kq = conductivity(x)
        do a = 1, 3
          res(nodes(a)) = res(nodes(a)) + w * (kq * duq * dphi(a) + creact * uq**3 * phi(a) - src * source(x) * phi(a))
          do b = 1, 3
            call band_add(ab, nodes(a), nodes(b), w * (kq * dphi(a) * dphi(b) + 3 * creact * uq**2 * phi(a) * phi(b)))
          end do
        end do
      end do
    end do
  contains
    real(kind=dp) function conductivity(xx)
      real(kind=dp), intent(in) :: xx
      conductivity = kpar(1) + kpar(2) * xx + kpar(3) * sin(3.0_dp * xx)**2
    end function conductivity
    real(kind=dp) function source(xx)
      real(kind=dp), intent(in) :: xx
      source = exp(-20.0_dp * (xx - 0.4_dp * length)**2)
    end function source
  end subroutine assemble

  subroutine apply_bc(kind_left, kind_right, val_left, val_right, hrobin, u, ab, res, n)
    integer, intent(in) :: kind_left, kind_right, n
    real(kind=dp), intent(in) :: val_left, val_right, hrobin
    real(kind=dp), intent(in) :: u(n)
    real(kind=dp), intent(inout) :: ab(ldab, n), res(n)
    integer :: j
    select case (kind_left)
    case (BC_DIRICHLET)
      do j = max(1, 1 - kl), min(n, 1 + ku)
        ab(kl + ku + 1 + 1 - j, j) = 0
      end do
      ab(kl + ku + 1, 1) = 1
      res(1) = u(1) - val_left
    case (BC_NEUMANN)
      res(1) = res(1) - val_left
    case default
      stop 'unknown left boundary'
    end select
    select case (kind_right)
    case (BC_ROBIN)
      res(n) = res(n) + hrobin * (u(n) - val_right)
      ab(kl + ku + 1, n) = ab(kl + ku + 1, n) + hrobin
    case (BC_DIRICHLET)
      do j = max(1, n - kl), n
        ab(kl + ku + 1 + n - j, j) = 0
      end do
      ab(kl + ku + 1, n) = 1
      res(n) = u(n) - val_right
    case default
      res(n) = res(n) - val_right
    end select
  end subroutine apply_bc

  ! Legacy band LU (no pivoting) and solve, F77 style: assumed-size arrays, explicit leading dimension.
  subroutine bandlu(n, ml, mu, ab, ld, info)
    integer n, ml, mu, ld, info
    real(8) ab(ld, *)
    integer j, i, k, kd
    real(8) piv
    kd = ml + mu + 1
    info = 0
    do j = 1, n
      piv = ab(kd, j)
      if (piv .eq. 0.0d0) then
        info = j
        return
      end if
      do i = j + 1, min(n, j + ml)
        ab(kd + i - j, j) = ab(kd + i - j, j) / piv
      end do
      do k = j + 1, min(n, j + mu)
        do i = j + 1, min(n, j + ml)
          ab(kd + i - k, k) = ab(kd + i - k, k) - ab(kd + i - j, j) * ab(kd + j - k, k)
        end do
      end do
    end do
  end subroutine bandlu

  subroutine bandsolve(n, ml, mu, ab, ld, x)
    integer n, ml, mu, ld
    real(8) ab(ld, *), x(*)
    integer j, i, kd
    kd = ml + mu + 1
    do j = 1, n
      do i = j + 1, min(n, j + ml)
        x(i) = x(i) - ab(kd + i - j, j) * x(j)
      end do
    end do
    do j = n, 1, -1
      x(j) = x(j) / ab(kd, j)
      do i = max(1, j - mu), j - 1
        x(i) = x(i) - ab(kd + i - j, j) * x(j)
      end do
    end do
  end subroutine bandsolve

  function fem_objective(p, obs, nobs, nel) result(obj) bind(C, name="fem_objective")
    ! p = [k0, k1, k2, reaction c, source strength, left value, Robin coefficient, ambient]
    integer(c_int), value :: nobs, nel
    real(c_double), intent(in) :: p(8), obs(nobs)
    real(c_double) :: obj
    real(kind=dp), allocatable :: u(:), ab(:, :), res(:)
    integer :: n, it, info, i
    n = 2 * nel + 1
    allocate(u(n), ab(ldab, n), res(n))
    u = p(6)
    do it = 1, 8
      call assemble(nel, 1.0_dp, p(1:3), p(4), p(5), u, ab, res)
      call apply_bc(BC_DIRICHLET, BC_ROBIN, p(6), p(8), p(7), u, ab, res, n)
      call bandlu(n, kl, ku, ab, ldab, info)
      if (info /= 0) stop 'singular band matrix'
      call bandsolve(n, kl, ku, ab, ldab, res)
      u = u - res
    end do
    obj = 0
    do i = 1, nobs
      obj = obj + (u(1 + (i * (n - 1)) / (nobs + 1)) - obs(i))**2
    end do
    obj = obj + 0.1_dp * p(7) * (u(n) - p(8))
  end function fem_objective
end module fem_band_mod
