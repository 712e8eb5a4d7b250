"""Every example in docs/python_api.md runs and prints what the page shows (doctest of the ```pycon blocks)."""
from __future__ import annotations

import doctest
import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "python_api.md"
_BLOCK = re.compile(r"^```pycon\n(.*?)^```", re.MULTILINE | re.DOTALL)


def test_python_api_page(tmp_path):
    text = DOC.read_text()
    blocks = _BLOCK.findall(text)
    assert len(blocks) >= 10
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {"workdir": tmp_path}, "python_api.md",
                                               str(DOC), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    failed, attempted = runner.summarize(verbose=False)
    assert attempted > 30
    assert failed == 0, "docs/python_api.md examples failed (see the report above)"
