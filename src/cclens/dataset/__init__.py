"""Sessions as a Parquet dataset: tables partitioned by project and month, for DuckDB, Spark
and Trino, written side by side from many machines.

``write_dataset(root, sessions, redaction=...)`` writes; :mod:`cclens.dataset.schema` documents
every column. :mod:`~cclens.dataset.select`, :mod:`~cclens.dataset.turns` and
:mod:`~cclens.dataset.responses` pick sessions, cut them into turns and count each API response
and tool call once; the trace export uses them too. Names backed by Arrow are imported on first
use, so the trace export does not load Arrow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_names
from .machine import default_machine
from .redaction import Redaction
from .responses import Ledger
from .select import (
    Selection,
    SessionFilter,
    first_activity,
    last_activity,
    load_selected,
    parse_since,
    select_files,
)
from .turns import Turn, own_items, split_turns

if TYPE_CHECKING:
    from .files import DatasetError, machine_file, partition_dir
    from .rows import RowBuilder, SessionRows, count_once, month_of, project_slug
    from .schema import PARTITIONS, REDACTED, TABLES, markdown_tables
    from .write import DatasetReport, write_dataset

#: Public names whose modules import pyarrow, and those modules.
_ARROW = {
    "DatasetError": "files",
    "machine_file": "files",
    "partition_dir": "files",
    "RowBuilder": "rows",
    "SessionRows": "rows",
    "count_once": "rows",
    "month_of": "rows",
    "project_slug": "rows",
    "PARTITIONS": "schema",
    "REDACTED": "schema",
    "TABLES": "schema",
    "markdown_tables": "schema",
    "DatasetReport": "write",
    "write_dataset": "write",
}


__getattr__ = lazy_names(__name__, {name: f".{module}" for name, module in _ARROW.items()})

__all__ = [
    "PARTITIONS",
    "REDACTED",
    "TABLES",
    "DatasetError",
    "DatasetReport",
    "Ledger",
    "Redaction",
    "RowBuilder",
    "Selection",
    "SessionFilter",
    "SessionRows",
    "Turn",
    "count_once",
    "default_machine",
    "first_activity",
    "last_activity",
    "load_selected",
    "machine_file",
    "markdown_tables",
    "month_of",
    "own_items",
    "parse_since",
    "partition_dir",
    "project_slug",
    "select_files",
    "split_turns",
    "write_dataset",
]
