"""enzyme/enzyme.h declares exactly the markers the driver knows (supported or refused by name)."""
from __future__ import annotations

import re
from pathlib import Path

from enzyme.driver.requests import KNOWN_MARKERS

HEADER = Path(__file__).resolve().parents[2] / "frontends" / "include" / "enzyme" / "enzyme.h"


def test_header_markers_match_the_driver() -> None:
    text = HEADER.read_text()
    declared = set(re.findall(r"\b(enzyme_[a-z_]+)\b", "\n".join(
        line for line in text.splitlines() if line.lstrip().startswith(("extern int", "enzyme_")))))
    assert declared, "no markers found in enzyme.h"
    assert declared <= KNOWN_MARKERS, f"declared in enzyme.h but unknown to the driver: {declared - KNOWN_MARKERS}"
