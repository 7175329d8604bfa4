"""Where the dataset's files go and how they are replaced.

Layout: ``<root>/<table>/project=<slug>/month=YYYY-MM/<machine>.parquet``. Each machine owns
one file per partition, named after it, so datasets written on several machines can be copied
into one folder without two files colliding. Writing a partition replaces the machine's rows of
the sessions being written and keeps its other rows (sessions filtered out by ``--since``, or
already deleted by Claude Code's clean-up), so running the export again gives the same files.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection, Iterator, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa  # type: ignore[import-untyped]  # pyarrow ships no type hints
import pyarrow.compute as pc  # type: ignore[import-untyped]
import pyarrow.parquet as pq  # type: ignore[import-untyped]

from ..files import replace_file

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")
#: Zstandard: text columns shrink several times more than with Snappy, and DuckDB, Spark,
#: Trino and pandas all read it.
COMPRESSION = "zstd"


class DatasetError(Exception):
    """A dataset file could not be read back or replaced."""


def machine_file(machine: str) -> str:
    """The file name a machine writes in every partition.

    Characters unsafe in file names become ``-``; when that changed the name, a short hash of
    the real name is added so two machines never share a file name.
    """
    safe = _UNSAFE.sub("-", machine).strip(".") or "machine"
    if safe != machine:
        safe += "-" + hashlib.sha256(machine.encode()).hexdigest()[:8]
    return f"{safe}.parquet"


def partition_dir(root: Path, table: str, project: str, month: str) -> Path:
    """The folder of one partition of one table."""
    return root / table / f"project={project}" / f"month={month}"


def _read(path: Path, schema: pa.Schema) -> pa.Table:
    """A file written earlier, with the columns of ``schema`` (missing ones as nulls)."""
    try:
        table = pq.read_table(path)
    except (OSError, pa.ArrowException) as error:
        raise DatasetError(f"{path}: cannot read the existing file: {error}") from error
    columns: list[Any] = []
    for column in schema:
        if column.name in table.column_names:
            try:
                columns.append(table.column(column.name).cast(column.type))
            except (pa.ArrowException, ValueError) as error:
                raise DatasetError(
                    f"{path}: column {column.name} has type {table.schema.field(column.name).type}"
                    f", not {column.type}; delete the file to write it again ({error})"
                ) from error
        else:
            columns.append(pa.nulls(table.num_rows, column.type))
    return pa.Table.from_arrays(columns, schema=schema)


def write_partition(
    directory: Path,
    file_name: str,
    schema: pa.Schema,
    rows: Sequence[dict[str, Any]],
    sessions: Collection[str],
) -> int:
    """Write ``rows`` into ``directory/file_name``, replacing the rows of ``sessions``.

    Rows of other sessions already in the file are kept. The file is written beside its final
    name and moved over it, so a reader never sees half a file. Returns the rows in the file.
    """
    path = directory / file_name
    table = pa.Table.from_pylist(list(rows), schema=schema)
    if path.exists():
        old = _read(path, schema)
        keep = pc.invert(pc.is_in(old.column("session_id"), pa.array(list(sessions), pa.string())))
        table = pa.concat_tables([old.filter(keep), table])
    if table.num_rows == 0:
        path.unlink(missing_ok=True)
        return 0
    # Sessions in a stable order, each keeping its own row order: the same input gives the
    # same file whatever order earlier runs wrote it in.
    table = table.sort_by([("session_id", "ascending")])
    directory.mkdir(parents=True, exist_ok=True)
    try:
        with replace_file(path) as handle:
            pq.write_table(table, handle, compression=COMPRESSION)
    except OSError as error:
        raise DatasetError(f"{path}: cannot write: {error.strerror or error}") from error
    return int(table.num_rows)


def machine_files(root: Path, table: str, project: str, file_name: str) -> Iterator[Path]:
    """This machine's files of one project in one table, every month."""
    folder = root / table / f"project={project}"
    if folder.is_dir():
        yield from sorted(folder.glob(f"month=*/{file_name}"))


def existing_rows(
    paths: Sequence[Path], columns: Sequence[str], skip_sessions: Collection[str]
) -> list[tuple[Any, ...]]:
    """``columns`` of the rows in ``paths``, but for the sessions in ``skip_sessions``."""
    found: list[tuple[Any, ...]] = []
    skip = set(skip_sessions)
    for path in paths:
        try:
            table = pq.read_table(path, columns=["session_id", *columns])
        except (OSError, pa.ArrowException) as error:
            raise DatasetError(f"{path}: cannot read the existing file: {error}") from error
        values = [table.column(name).to_pylist() for name in ("session_id", *columns)]
        found.extend(row[1:] for row in zip(*values, strict=True) if row[0] not in skip)
    return found


__all__ = [
    "COMPRESSION",
    "DatasetError",
    "existing_rows",
    "machine_file",
    "machine_files",
    "partition_dir",
    "write_partition",
]
