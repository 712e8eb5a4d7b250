! Fortran 2008 calibration of an Ising strip against measured free energies and magnetizations: the
! column-to-column transfer matrix of a strip of WIDTH spins (states as bit patterns: BTEST, IEOR,
! POPCNT), built from an implied-do RESHAPE of bond counts and SPREAD of the column energies, the
! dominant eigenpair by power iteration with an EXIT on a tolerance, transfer matrices ALLOCATEd and
! DEALLOCATEd per temperature in the loop, intra-column boundary by SELECT CASE on a CHARACTER(LEN=*)
! name, an OPTIONAL next-nearest coupling, PURE and ELEMENTAL helpers, DO CONCURRENT, PACK of the
! positive-magnetization weight, MAXLOC of the dominant column state, and an internal WRITE log line.
module ising_strip
  use iso_c_binding, only: c_double, c_int
  implicit none
  private
  public :: ising_misfit

  integer, parameter :: dp = c_double

  type :: strip_t
    integer :: width = 0, nstates = 0
    real(dp), allocatable :: tm(:, :), vec(:), mag(:)
    real(dp) :: lambda = 0.0_dp
    integer :: iterations = 0
  end type strip_t

  character(len=120), public :: last_log = ''

contains

  elemental integer function spin(state, k)
    integer, intent(in) :: state, k
    spin = merge(1, -1, btest(state, k))
  end function spin

  pure integer function intra_bonds(state, width, boundary)
    integer, intent(in) :: state, width
    character(len=*), intent(in) :: boundary
    integer :: k, last
    select case (boundary)
    case ('periodic')
      last = width - 1
    case ('open')
      last = width - 2
    case default
      last = width - 2
    end select
    intra_bonds = 0
    do k = 0, last
      intra_bonds = intra_bonds + spin(state, k) * spin(state, mod(k + 1, width))
    end do
  end function intra_bonds

  subroutine build_transfer(s, beta, coupling, field, boundary, j_diag)
    type(strip_t), intent(inout) :: s
    real(dp), intent(in) :: beta, coupling, field
    character(len=*), intent(in) :: boundary
    real(dp), intent(in), optional :: j_diag
    real(dp), allocatable :: e_col(:), bonds(:, :), diag(:, :)
    integer :: a, b, ns, w
    ns = s%nstates
    w = s%width
    ! matching spins between neighbouring columns: width - 2 * (number of differing bits)
    bonds = real(reshape([((w - 2 * popcnt(ieor(a, b)), a = 0, ns - 1), b = 0, ns - 1)], [ns, ns]), dp)
    allocate(e_col(ns), diag(ns, ns))
    do concurrent (a = 0:ns - 1)
      e_col(a + 1) = coupling * intra_bonds(a, w, boundary) + field * sum(real(spin(a, [(b, b = 0, w - 1)]), dp))
    end do
    diag = 0.0_dp
    if (present(j_diag)) then
      ! diagonal bonds: spin k of one column with spin k+1 of the next
      do b = 0, ns - 1
        do a = 0, ns - 1
          diag(a + 1, b + 1) = j_diag * real(diagonal_bonds(a, b, w), dp)
        end do
      end do
    end if
    s%tm = exp(beta * (coupling * bonds + diag + 0.5_dp * (spread(e_col, 1, ns) + spread(e_col, 2, ns))))
    deallocate(e_col, diag)
  contains
    pure integer function diagonal_bonds(p, q, width)
      integer, intent(in) :: p, q, width
      integer :: k
      diagonal_bonds = 0
      do k = 0, width - 1
        diagonal_bonds = diagonal_bonds + spin(p, k) * spin(q, mod(k + 1, width))
      end do
    end function diagonal_bonds
  end subroutine build_transfer

  subroutine dominant_pair(s, tol, max_iter)
    type(strip_t), intent(inout) :: s
    real(dp), intent(in) :: tol
    integer, intent(in) :: max_iter
    real(dp), allocatable :: w(:)
    integer :: it
    s%vec = [(1.0_dp / sqrt(real(s%nstates, dp)), it = 1, s%nstates)]
    do it = 1, max_iter
      w = matmul(s%tm, s%vec)
      s%lambda = norm2(w)
      w = w / s%lambda
      if (maxval(abs(w - s%vec)) < tol) then
        s%vec = w
        exit
      end if
      s%vec = w
    end do
    s%iterations = it
  end subroutine dominant_pair

  function ising_misfit(params, temps, f_obs, m_obs, ntemp, width) result(misfit) bind(c, name='ising_misfit')
    real(c_double), intent(in) :: params(4)
    integer(c_int), value :: ntemp, width
    real(c_double), intent(in) :: temps(ntemp), f_obs(ntemp), m_obs(ntemp)
    real(c_double) :: misfit
    type(strip_t) :: s
    real(dp) :: beta, free_energy, magnet, positive
    integer :: it, st
    ! params: coupling J, field h, diagonal coupling, temperature scale
    s%width = width
    s%nstates = 2**width
    s%mag = [(real(sum(spin(st, [(it, it = 0, width - 1)])), dp), st = 0, s%nstates - 1)]
    misfit = 0.0_dp
    do it = 1, ntemp
      allocate(s%tm(s%nstates, s%nstates))
      beta = 1.0_dp / (params(4) * temps(it))
      call build_transfer(s, beta, params(1), params(2), 'periodic', j_diag=params(3))
      call dominant_pair(s, 1.0e-14_dp, 2000)
      free_energy = -log(s%lambda) / (beta * width)
      ! the column-state distribution of a symmetric transfer matrix is the squared eigenvector
      magnet = sum(s%vec**2 * s%mag) / (sum(s%vec**2) * width)
      positive = sum(pack(s%vec**2, s%mag > 0)) / sum(s%vec**2)
      write(last_log, '(a,f6.3,a,es14.6,a,f8.5,a,i0,a,i0)') 'T=', temps(it), ' f=', free_energy, ' m=', magnet, &
          ' dominant=', maxloc(s%vec, dim=1) - 1, ' iter=', s%iterations
      misfit = misfit + (free_energy - f_obs(it))**2 + 10.0_dp * (magnet - m_obs(it))**2 + 0.1_dp * positive
      deallocate(s%tm)
    end do
  end function ising_misfit

end module ising_strip
