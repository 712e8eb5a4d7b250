! Particles as an array of derived type, as a molecular or discrete-element code keeps them: position, charge,
! a REAL(4) radius in a type without pointers, copied as whole arrays (snapshot = cloud, reallocating), pair distances
! from SPREAD and NORM2, neighbour counts with COUNT, the closest pair located with MINLOC, a soft-core
! potential summed with SUM, and an intent(inout) force array.  Entry point bind(C) with a C driver.
module particle_cloud
  use iso_c_binding, only: c_double, c_float, c_int
  implicit none
  private
  public :: cloud_energy

  type :: particle_t
    real(c_double) :: x(3)
    real(c_double) :: charge
    real(c_float) :: radius
  end type particle_t

contains

  pure function pair_energy(r, qi, qj) result(e)
    real(c_double), intent(in) :: r, qi, qj
    real(c_double) :: e
    e = qi * qj / sqrt(r * r + 0.25_c_double) + 0.1_c_double * exp(-r)
  end function pair_energy

  subroutine relax(cloud, force, step)
    type(particle_t), intent(inout) :: cloud(:)
    real(c_double), intent(inout) :: force(:,:)
    real(c_double), intent(in) :: step
    integer :: i
    do i = 1, size(cloud)
      cloud(i)%x = cloud(i)%x + step * force(:, i)
    end do
  end subroutine relax

  function cloud_energy(coords, n) result(total) bind(C, name="cloud_energy")
    integer(c_int), value :: n
    real(c_double), intent(in) :: coords(4, n)
    real(c_double) :: total
    type(particle_t), allocatable :: cloud(:), snapshot(:)
    real(c_double), allocatable :: force(:,:), dist(:,:), centre(:,:)
    integer :: i, j, close(2), neighbours
    allocate(cloud(n), force(3, n))
    do i = 1, n
      cloud(i) = particle_t(coords(1:3, i), coords(4, i), 0.1_c_float * mod(i, 3))
    end do
    snapshot = cloud
    force = 0.0_c_double
    do i = 1, n
      force(:, i) = -0.05_c_double * snapshot(i)%x * snapshot(i)%charge
    end do
    call relax(cloud, force, 0.5_c_double)
    allocate(dist(n, n))
    do j = 1, n
      centre = spread(cloud(j)%x, 2, n)
      do i = 1, n
        dist(i, j) = norm2(centre(:, i) - cloud(i)%x)
      end do
    end do
    neighbours = count(dist < 1.5_c_double)
    close = minloc(dist + merge(1.0e9_c_double, 0.0_c_double, dist == 0.0_c_double))
    total = 0.0_c_double
    do j = 1, n
      do i = j + 1, n
        total = total + pair_energy(dist(i, j) + cloud(i)%radius + cloud(j)%radius, cloud(i)%charge, cloud(j)%charge)
      end do
    end do
    total = total + 0.01_c_double * neighbours + 0.1_c_double * dist(close(1), close(2)) &
            + sum(snapshot%charge**2) + 0.5_c_double * sum(force**2)
  end function cloud_energy

end module particle_cloud
