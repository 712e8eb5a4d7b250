#!/usr/bin/env bash
# Runs the whole test suite (after ci/setup.sh).  Extra arguments go to pytest:
#   bash ci/test.sh -k roundtrip -x
set -uo pipefail
cd "$(dirname "$0")/.."

# Type-check first (settings in pyproject.toml's [tool.mypy]); the tests run either way, so one
# run reports both, and any type error fails the script.
python3 -m mypy
typed=$?
[ $typed -eq 0 ] || echo "test: error: mypy found type errors (see above)" >&2

# loadgroup keeps tests marked xdist_group (e.g. the ones sharing a built wheel) on one worker.
python3 -m pytest -n auto --dist loadgroup -q tests "$@"
status=$?
if [ $status -eq 5 ]; then
    # pytest's "no tests collected": a suite that runs nothing must not pass.
    echo "test: error: no tests were collected (check the paths and -k/-m filters)" >&2
    exit 1
fi
[ $status -eq 0 ] && [ $typed -ne 0 ] && exit 1
exit $status
