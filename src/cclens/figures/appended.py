"""The responses in lines just appended to a transcript, read without the full model.

The status line is a new process each time Claude Code redraws it; loading the model and the
parser (every record, block and tool type) would cost it more than everything else it does.
What it needs of the lines Claude Code appended since the index last read the file are the
occurrences of responses (:class:`~cclens.figures.usage.Occurrence`), which it folds into the
responses the index stores with the analytics' own collector. This reader decodes only the
fields those need, by the rules of :func:`cclens.figures.usage.counted_record` and
:meth:`~cclens.figures.usage.Occurrence.of`; ``tests/test_statusline.py`` checks that it finds
what the full reading finds in every transcript of the corpus. Lines it cannot read are left
to the index's next update (which reads them with the full model).
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from .usage import SYNTHETIC_MODEL, Occurrence


class _CacheCreation(msgspec.Struct):
    ephemeral_5m_input_tokens: int | None = None
    ephemeral_1h_input_tokens: int | None = None


class _Usage(msgspec.Struct):
    input_tokens: int | None = None
    output_tokens: int | None = None
    cache_creation_input_tokens: int | None = None
    cache_read_input_tokens: int | None = None
    cache_creation: _CacheCreation | None = None
    inference_geo: str | None = None
    speed: str | None = None


class _Block(msgspec.Struct):
    type: str = ""
    id: str | None = None
    name: str = ""


class _Message(msgspec.Struct):
    id: str | None = None
    model: str | None = None
    usage: _Usage | None = None
    content: list[_Block] | str | None = None


class _Mirrored(msgspec.Struct, rename="camel"):
    """The record an ``agent_progress`` record mirrors."""

    type: str = ""
    uuid: str | None = None
    request_id: str | None = None
    timestamp: str | None = None
    agent_id: str | None = None
    message: _Message | None = None


class _Data(msgspec.Struct, rename="camel"):
    type: str = ""
    agent_id: str | None = None
    message: _Mirrored | None = None


class _Record(msgspec.Struct, rename="camel"):
    type: str = ""
    uuid: str | None = None
    request_id: str | None = None
    timestamp: str | None = None
    agent_id: str | None = None
    message: _Message | None = None
    data: _Data | None = None


_DECODER = msgspec.json.Decoder(_Record)
#: Every line that can hold a response names the assistant (the record's or the mirrored one's
#: ``type``): the others are not decoded at all.
_MARK = b'"assistant"'
_BOM = b"\xef\xbb\xbf"


def _occurrence(
    record: _Record | _Mirrored, path: Path, line: int, agent: str | None
) -> Occurrence | None:
    message = record.message
    usage = message.usage if message is not None else None
    if message is None or usage is None or message.model == SYNTHETIC_MODEL:
        return None
    blocks = message.content if isinstance(message.content, list) else []
    return Occurrence.read(
        record,
        message,
        usage,
        path=path,
        line=line,
        agent_id=agent or record.agent_id or None,
        tool_uses=[(block.id or None, block.name) for block in blocks if block.type == "tool_use"],
    )


def appended_occurrences(
    data: bytes, path: Path, start_offset: int = 0, start_line: int = 0
) -> list[Occurrence]:
    """The occurrences of responses in ``data``, the bytes of the transcript ``path`` from
    ``start_offset`` on (``start_line`` lines come before it), numbered as
    :func:`cclens.readers.claude.read.read_data` numbers lines."""
    found: list[Occurrence] = []
    number = start_line
    position = len(_BOM) if start_offset == 0 and data.startswith(_BOM) else 0
    size = len(data)
    while position < size:
        number += 1
        start = position
        end = data.find(b"\n", start)
        end = size if end == -1 else end
        position = end + 1
        if data.find(_MARK, start, end) < 0:
            continue
        try:
            record = _DECODER.decode(data[start:end])
        except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
            continue  # half written, or not what the full model reads: the update reads it
        if record.type == "assistant":
            occurrence = _occurrence(record, path, number, None)
        elif record.type == "progress" and record.data is not None:
            mirrored = record.data.message
            if record.data.type != "agent_progress" or mirrored is None:
                continue
            if mirrored.type != "assistant":
                continue
            occurrence = _occurrence(mirrored, path, number, record.data.agent_id)
        else:
            continue
        if occurrence is not None:
            found.append(occurrence)
    return found


__all__ = ["appended_occurrences"]
