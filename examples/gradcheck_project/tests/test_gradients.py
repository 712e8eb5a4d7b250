"""Gradient tests of src/model.c, one line each (fixtures from pyenzyme's pytest plugin)."""
import numpy as np
import pytest

from enzyme import Active, Const, Duplicated
from enzyme.testing import test_reverse


@pytest.fixture(scope="module")
def lib(enzyme_lib):
    # compiled once per session; relative to the rootdir (where tox.ini is)
    return enzyme_lib("src/model.c")


def test_logistic(lib, gradcheck):
    gradcheck(lib.logistic, Active, Active(0.3), Active(2.5))


def test_chain_energy(lib, gradcheck, enzyme_rng):
    x = np.arange(8.0) + 0.1 * enzyme_rng.standard_normal(8)
    gradcheck(lib.chain_energy, Active, (x, Duplicated), 8, Active(1.7))


@pytest.mark.gradcheck(rtol=1e-8)
def test_chain_step_updates_state(lib, gradcheck):
    x, v = np.arange(6.0) * 1.05, np.zeros(6)
    gradcheck(lib.chain_step, Const, (x, Duplicated), (v, Duplicated), 6, 0.01, Active(2.0))


def test_stiffness_only(lib):
    # the checkers can also be called directly, e.g. with x held constant
    test_reverse(lib.chain_energy, Active, np.arange(5.0) * 1.1, 5, (3.0, Active))
