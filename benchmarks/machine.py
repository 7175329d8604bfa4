"""What the benchmarks print about the machine beside their figures."""

from __future__ import annotations

import os


def load_average() -> str:
    """The load averages over 1, 5 and 15 minutes (``unknown`` where the system has none)."""
    try:
        return " ".join(f"{value:.2f}" for value in os.getloadavg())
    except OSError:
        return "unknown"
