#!/usr/bin/env bash
# Install everything the tests need, then run linters, the type checker and the whole test suite.
# Used as is by CI (.ci/run). Extra arguments go to pytest.
#
#   ./scripts/test.sh --quick   what is installed already, linters, and the tests marked
#                               neither `browser` nor `slow`, on every core when pytest-xdist
#                               is installed (under a minute on two idle cores)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--quick" ]; then
    shift
    python3 -m ruff check src tests benchmarks
    python3 -m ruff format --check src tests benchmarks
    lint-imports --no-cache
    parallel=()
    if python3 -c "import xdist" 2>/dev/null; then
        # One process per core; a test file stays in one process, so its module fixtures (an
        # indexed corpus, a server) are built once. pytest-benchmark (not used by the tests)
        # would warn that xdist disables it, and warnings are errors.
        parallel=(-n auto --dist loadfile -p no:benchmark)
    fi
    exec python3 -m pytest -q -m "not browser and not slow" "${parallel[@]}" "$@"
fi

if ! command -v chromium >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    else
        echo "chromium is missing: install Debian's chromium package for the browser tests" >&2
    fi
fi

python3 -m pip install -q --disable-pip-version-check -e ".[test]"
python3 -m ruff check src tests benchmarks
python3 -m ruff format --check src tests benchmarks
python3 -m mypy
lint-imports --no-cache
python3 -m pytest "$@"
