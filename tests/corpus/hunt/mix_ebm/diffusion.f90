! Meridional heat diffusion of a Budyko-Sellers energy-balance model on equal-area latitude bands
! (x = sin(latitude)), F77 style with assumed-size arrays and a SAVEd geometry cache, called from C.
! d/dx [ D (1 - x^2) dT/dx ] with no-flux poles.
subroutine meridional_diffusion(n, d, temp, tend) bind(C, name="meridional_diffusion")
  use iso_c_binding, only: c_int, c_double
  implicit none
  integer(c_int), value :: n
  real(c_double), value :: d
  real(c_double) :: temp(*), tend(*)
  real(c_double), save :: wface(200)
  integer, save :: ncached = 0
  real(c_double) :: dx, xf, flux_lo, flux_hi
  integer :: i
  dx = 1.0d0 / n
  if (ncached /= n) then
    do i = 1, n - 1
      xf = i * dx
      wface(i) = (1.0d0 - xf * xf) / (dx * dx)
    end do
    ncached = n
  end if
  do i = 1, n
    if (i == 1) then
      flux_lo = 0.0d0
    else
      flux_lo = d * wface(i - 1) * (temp(i) - temp(i - 1))
    end if
    if (i == n) then
      flux_hi = 0.0d0
    else
      flux_hi = d * wface(i) * (temp(i + 1) - temp(i))
    end if
    tend(i) = flux_hi - flux_lo
  end do
end subroutine meridional_diffusion
