! Van Genuchten-Mualem soil hydraulic functions, an ELEMENTAL function module with a BIND(C) entry
! the Rust column model calls for a whole layer array at once (WHERE for saturated cells).
module vg_mod
  use iso_c_binding, only: c_double, c_int
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains
  elemental real(dp) function effective_saturation(h, alpha, nvg)
    real(dp), intent(in) :: h, alpha, nvg
    effective_saturation = (1.0_dp + (alpha * abs(h))**nvg)**(-(1.0_dp - 1.0_dp / nvg))
  end function effective_saturation

  subroutine vg_layer(n, h, alpha, nvg, ksat, theta_r, theta_s, k, theta) bind(C, name="vg_layer")
    integer(c_int), value :: n
    real(c_double), intent(in) :: h(n)
    real(c_double), value :: alpha, nvg, ksat, theta_r, theta_s
    real(c_double), intent(out) :: k(n), theta(n)
    real(dp) :: se(n), m
    m = 1.0_dp - 1.0_dp / nvg
    where (h < 0.0_dp)
      se = effective_saturation(h, alpha, nvg)
    elsewhere
      se = 1.0_dp
    end where
    theta = theta_r + (theta_s - theta_r) * se
    k = ksat * sqrt(se) * (1.0_dp - (1.0_dp - se**(1.0_dp / m))**m)**2
  end subroutine vg_layer
end module vg_mod
