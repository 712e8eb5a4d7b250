"""``python -m enzyme``: the same as the ``enzyme`` console script."""
from __future__ import annotations

from enzyme.cli import main

raise SystemExit(main())
