#!/usr/bin/env bash
# Install everything the tests need, then run linters, the type checker and the whole test suite.
# Used as is by CI (.ci/run). Extra arguments go to pytest.
#
#   ./scripts/test.sh --quick   what is installed already, linters, and the tests that need
#                               neither a browser nor the whole corpus (about a minute)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--quick" ]; then
    shift
    python3 -m ruff check src tests benchmarks
    python3 -m ruff format --check src tests benchmarks
    lint-imports --no-cache
    exec python3 -m pytest -q -m "not browser and not slow" "$@"
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
