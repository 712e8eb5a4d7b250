"""Rust sources are compiled as edition 2021 (what Rust programmers write for), unless the user's flags name an
edition: rustc alone defaults to 2015, where ``TryFrom`` is not in the prelude and ``async`` is an identifier."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np

import enzyme
from enzyme import Const, Reverse

MODERN = """
pub trait Decay { fn rate(&self, t: f64) -> f64; }
struct Exponential { k: f64 }
impl Decay for Exponential { fn rate(&self, t: f64) -> f64 { (-self.k * t).exp() } }

#[no_mangle]
pub extern "C" fn decayed(x: *const f64, n: i64) -> f64 {
    let n = usize::try_from(n).unwrap_or(0);   // TryFrom: in the 2021 prelude only
    let xs = unsafe { std::slice::from_raw_parts(x, n) };
    let model: Box<dyn Decay> = Box::new(Exponential { k: 0.5 });
    xs.iter().enumerate().map(|(i, v)| v * v * model.rate(i as f64)).sum()
}
"""

OLD = """
#[no_mangle]
pub extern "C" fn scaled(x: f64) -> f64 { let async = 3.0; async * x * x }
"""


def test_edition_2021_by_default(tmp_path: Path) -> None:
    source = tmp_path / "modern.rs"
    source.write_text(MODERN)
    f = enzyme.compile([source], opt_level=2)["decayed"]
    x = np.array([0.4, -1.1, 2.0])
    expected = [2 * v * math.exp(-0.5 * i) for i, v in enumerate(x)]
    np.testing.assert_allclose(enzyme.gradient(Reverse, f, x, Const(len(x))), expected, rtol=1e-12)


def test_an_edition_in_the_flags_wins(tmp_path: Path) -> None:
    source = tmp_path / "old.rs"
    source.write_text(OLD)
    f = enzyme.compile([source], opt_level=2, flags=["--edition=2015"])["scaled"]
    assert enzyme.autodiff(Reverse, f, enzyme.Active, enzyme.Active(2.0))[0][0] == 12.0
