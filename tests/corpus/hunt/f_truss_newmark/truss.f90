! Fortran 2008 transient response of a planar Warren truss bridge (with one redundant brace) under a moving-frequency point load:
! derived types for bars and the truss (ALLOCATABLE components), node coordinates and connectivity by
! RESHAPE of constant tables, element stiffness as an outer product by SPREAD scattered with vector
! subscripts K(dofs, dofs), lumped masses, supports removed by PACK of the free degrees of freedom,
! Rayleigh damping, Newmark-beta (average acceleration) with the effective stiffness factored once by LU
! with partial pivoting (MAXLOC on a column section, row swaps on whole rows), an INTERNAL solve procedure,
! UNPACK back to all degrees of freedom, MATMUL, DOT_PRODUCT, NORM2, DO CONCURRENT for the bar geometry,
! an OPTIONAL load phase, and a SELECT CASE on the output quantity.
module truss_dynamics
  use iso_c_binding, only: c_double, c_int
  implicit none
  private
  public :: truss_response

  integer, parameter :: dp = c_double
  integer, parameter :: npanel = 4, nnode = 2 * npanel + 1, nbar = 4 * npanel
  ! bottom chord nodes 1..npanel+1, top chord nodes npanel+2..2*npanel+1 over the interior of each panel
  integer, parameter :: conn(2, nbar) = reshape([ &
      1, 2, 2, 3, 3, 4, 4, 5, &                  ! bottom chord
      6, 7, 7, 8, 8, 9, &                        ! top chord
      1, 6, 6, 2, 2, 7, 7, 3, 3, 8, 8, 4, 4, 9, 9, 5, &  ! diagonals
      6, 3], [2, nbar])                          ! a redundant brace

  type :: bar_t
    integer :: n1 = 0, n2 = 0
    real(dp) :: length = 0, c = 0, s = 0
  end type bar_t

  type :: truss_t
    real(dp), allocatable :: xy(:, :), stiff(:, :), mass(:)
    type(bar_t), allocatable :: bars(:)
    logical, allocatable :: fixed(:)
  end type truss_t

contains

  subroutine build_truss(t, span, height, ea, rho_a)
    type(truss_t), intent(out) :: t
    real(dp), intent(in) :: span, height, ea, rho_a
    real(dp) :: panel, ke(4, 4), dir(4), mbar
    integer :: i, dofs(4)
    panel = span / npanel
    allocate(t%xy(2, nnode), t%bars(nbar), t%fixed(2 * nnode))
    t%xy(:, 1:npanel + 1) = reshape([(panel * (i - 1), 0.0_dp, i = 1, npanel + 1)], [2, npanel + 1])
    t%xy(:, npanel + 2:) = reshape([(panel * (i - 0.5_dp), height, i = 1, npanel)], [2, npanel])
    do concurrent (i = 1:nbar)
      t%bars(i)%n1 = conn(1, i)
      t%bars(i)%n2 = conn(2, i)
      t%bars(i)%length = norm2(t%xy(:, conn(2, i)) - t%xy(:, conn(1, i)))
      t%bars(i)%c = (t%xy(1, conn(2, i)) - t%xy(1, conn(1, i))) / t%bars(i)%length
      t%bars(i)%s = (t%xy(2, conn(2, i)) - t%xy(2, conn(1, i))) / t%bars(i)%length
    end do
    allocate(t%stiff(2 * nnode, 2 * nnode), t%mass(2 * nnode))
    t%stiff = 0
    t%mass = 0
    do i = 1, nbar
      associate (b => t%bars(i))
        dofs = [2 * b%n1 - 1, 2 * b%n1, 2 * b%n2 - 1, 2 * b%n2]
        dir = [-b%c, -b%s, b%c, b%s]
        ke = ea / b%length * spread(dir, 2, 4) * spread(dir, 1, 4)
        t%stiff(dofs, dofs) = t%stiff(dofs, dofs) + ke
        mbar = rho_a * b%length
        t%mass(dofs) = t%mass(dofs) + 0.5_dp * mbar
      end associate
    end do
    ! pin at the left end, roller at the right end
    t%fixed = .false.
    t%fixed([1, 2, 2 * (npanel + 1)]) = .true.
  end subroutine build_truss

  subroutine lu_factor(a, piv)
    real(dp), intent(inout) :: a(:, :)
    integer, intent(out) :: piv(:)
    integer :: k, p, n
    real(dp), allocatable :: row(:)
    n = size(a, 1)
    piv = [(k, k = 1, n)]
    do k = 1, n - 1
      p = maxloc(abs(a(k:, k)), dim=1) + k - 1
      if (p /= k) then
        row = a(k, :)
        a(k, :) = a(p, :)
        a(p, :) = row
        piv([k, p]) = piv([p, k])
      end if
      a(k + 1:, k) = a(k + 1:, k) / a(k, k)
      a(k + 1:, k + 1:) = a(k + 1:, k + 1:) - spread(a(k + 1:, k), 2, n - k) * spread(a(k, k + 1:), 1, n - k)
    end do
  end subroutine lu_factor

  function truss_response(params, nsteps, quantity) result(resp) bind(c, name='truss_response')
    real(c_double), intent(in) :: params(6)
    integer(c_int), value :: nsteps, quantity
    real(c_double) :: resp
    type(truss_t) :: t
    real(dp), allocatable :: kf(:, :), keff(:, :), cf(:, :), mf(:), u(:), v(:), acc(:), rhs(:), full(:), load(:)
    real(dp), allocatable :: u_new(:), v_new(:), a_new(:)
    integer, allocatable :: free(:), piv(:)
    real(dp), parameter :: beta = 0.25_dp, gamma = 0.5_dp
    real(dp) :: dt, time, peak, energy_sum
    integer :: i, step, nf, mid
    ! params: E (GPa), bar area (cm2), density (t/m3), mass damping (1/s), stiffness damping (ms),
    !         load amplitude (kN)
    call build_truss(t, 24.0_dp, 3.0_dp, params(1) * 1.0e9_dp * params(2) * 1.0e-4_dp, &
                     params(3) * 1.0e3_dp * params(2) * 1.0e-4_dp)
    free = pack([(i, i = 1, 2 * nnode)], .not. t%fixed)
    nf = size(free)
    kf = t%stiff(free, free)
    mf = t%mass(free)
    cf = params(5) * 1.0e-3_dp * kf
    do i = 1, nf
      cf(i, i) = cf(i, i) + params(4) * mf(i)
    end do
    dt = 2.0e-3_dp
    keff = kf + gamma / (beta * dt) * cf
    do i = 1, nf
      keff(i, i) = keff(i, i) + mf(i) / (beta * dt**2)
    end do
    allocate(piv(nf))
    call lu_factor(keff, piv)
    allocate(u(nf), v(nf), acc(nf), full(2 * nnode))
    u = 0
    v = 0
    mid = 2 * (npanel / 2 + 1)                  ! vertical degree of freedom of the midspan bottom node
    full = 0
    full(mid) = -params(6) * 1.0e3_dp
    load = pack(full, .not. t%fixed)
    acc = 0
    peak = 0
    energy_sum = 0
    do step = 1, nsteps
      time = step * dt
      rhs = load * sin(25.0_dp * time) * min(1.0_dp, time / 0.1_dp) &
          + mf * (u / (beta * dt**2) + v / (beta * dt) + (0.5_dp / beta - 1) * acc) &
          + matmul(cf, gamma / (beta * dt) * u + (gamma / beta - 1) * v + dt * (0.5_dp * gamma / beta - 1) * acc)
      call solve(keff, piv, rhs)
      u_new = rhs
      a_new = (u_new - u) / (beta * dt**2) - v / (beta * dt) - (0.5_dp / beta - 1) * acc
      v_new = v + dt * ((1 - gamma) * acc + gamma * a_new)
      u = u_new
      v = v_new
      acc = a_new
      full = unpack(u, .not. t%fixed, 0.0_dp)
      peak = peak + full(mid)**2 * dt
      energy_sum = energy_sum + 0.5_dp * dot_product(u, matmul(kf, u)) * dt
    end do
    select case (quantity)
    case (0)
      resp = 1.0e6_dp * peak + 1.0e-3_dp * energy_sum + 0.5_dp * sum(mf * v**2)
    case (1)
      resp = maxval(abs(u))
    case default
      resp = 0.0_dp
    end select
  contains
    subroutine solve(lu, p, b)
      real(dp), intent(in) :: lu(:, :)
      integer, intent(in) :: p(:)
      real(dp), intent(inout) :: b(:)
      integer :: k, m
      m = size(b)
      b = b(p)
      do k = 2, m
        b(k) = b(k) - dot_product(lu(k, :k - 1), b(:k - 1))
      end do
      do k = m, 1, -1
        b(k) = (b(k) - dot_product(lu(k, k + 1:), b(k + 1:))) / lu(k, k)
      end do
    end subroutine solve
  end function truss_response

end module truss_dynamics
