"""The ``cclens`` command group."""

from __future__ import annotations

import click

from .. import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="cclens")
def main() -> None:
    """See, search, measure and share everything Claude Code did."""
