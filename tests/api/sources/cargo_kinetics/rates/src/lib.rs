//! Rate laws, in their own crate (a path dependency of the package differentiated).

/// Arrhenius rate constant k = A exp(-Ea / (R T)).
pub fn arrhenius(a: f64, ea: f64, t: f64) -> f64 {
    a * (-ea / (8.314 * t)).exp()
}
