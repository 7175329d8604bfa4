"""The name of the machine an export comes from.

Datasets and traces from several machines end up side by side; each row and each trace
carries the machine's name so they can be told apart, and dataset files are named after it.
"""

from __future__ import annotations

import socket


def default_machine() -> str:
    """The name exports give this machine when none is chosen: its host name."""
    return socket.gethostname() or "localhost"


__all__ = ["default_machine"]
