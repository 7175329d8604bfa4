"""cclens: see, search, measure and share everything Claude Code did."""

__version__ = "0.1.0"
