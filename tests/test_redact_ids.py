"""Ids Claude Code and the model APIs generate are never redacted (see ``cclens.redact.ids``).

Every id of the shared corpus — tool call, message and request ids, uuids, agent ids, the
hashes of file-history backups — is collected from the records and must come out of the
redactor unchanged: alone, in the contexts it appears in (a JSON field, a ``key=value`` log
line, a secret-named field, glued to other text), and inside its record.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from cclens.redact import Redactor
from cclens.redact.ids import is_generated_id

from .conftest import corpus_files

#: Fields whose values Claude Code or the API generate.
ID_FIELDS = frozenset(
    {
        "id", "tool_use_id", "toolUseID", "parentToolUseID", "sourceToolUseID", "requestId",
        "agentId", "uuid", "parentUuid", "logicalParentUuid", "sessionId", "promptId",
        "messageId", "leafUuid", "backupFileName", "sourceToolAssistantUUID",
    }
)  # fmt: skip
_ID_SHAPE = re.compile(r"\b(?:srvtoolu|toolu|msg|req)_[A-Za-z0-9_]{16,}")


def _values(value: Any, key: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(value, dict):
        for name, inner in value.items():
            yield from _values(inner, name)
    elif isinstance(value, list):
        for inner in value:
            yield from _values(inner, key)
    elif isinstance(value, str):
        yield key, value


def _records() -> Iterator[Any]:
    for path in corpus_files():
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                yield json.loads(line)
            except ValueError:
                continue


@pytest.fixture(scope="module")
def known_ids() -> set[str]:
    found: set[str] = set()
    for record in _records():
        for key, value in _values(record):
            if key in ID_FIELDS and len(value) >= 8 and not value.startswith("["):
                found.add(value)
            found.update(_ID_SHAPE.findall(value))
    return found


def test_the_corpus_holds_every_kind_of_id(known_ids: set[str]) -> None:
    prefixes = {value.split("_")[0] for value in known_ids if "_" in value}
    assert {"toolu", "msg", "req", "srvtoolu"} <= prefixes
    assert any(re.fullmatch(r"[0-9a-f-]{36}", value) for value in known_ids)  # uuids
    assert any("@v" in value for value in known_ids)  # file-history backups
    assert len(known_ids) > 1000


CONTEXTS = (
    "{}",
    '"toolUseID":"{}"',
    "tool_use_id={} status=ok",
    "token: {}",
    'api_key = "{}"',
    "hook-{}",
    "see https://example.com/v1/items/{}/result",
)


@pytest.mark.slow
def test_known_ids_are_never_redacted(known_ids: set[str]) -> None:
    redactor = Redactor()
    changed: list[str] = []
    for value in sorted(known_ids):
        for context in CONTEXTS:
            if context.startswith(("token", "api_key")) and not is_generated_id(value):
                continue  # a uuid under a secret name may be a key (Heroku's are uuids)
            text = context.format(value)
            if redactor.text(text) != text:
                changed.append(text)
    assert changed == []
    assert dict(redactor.counts) == {}


@pytest.mark.slow
def test_records_keep_their_ids() -> None:
    redactor = Redactor()
    for record in _records():
        redacted = redactor.json(record)
        for (key, before), (_, after) in zip(_values(record), _values(redacted), strict=True):
            if key in ID_FIELDS or _ID_SHAPE.fullmatch(before):
                assert after == before, (key, before)


@pytest.mark.parametrize(
    "value",
    [
        "toolu_01VYvNwZHrEgp7hrV8Vpyv2Y",
        "toolu_vrtx_01VYvNwZHrEgp7hrV8Vpyv2Y",
        "toolu_bdrk_01VYvNwZHrEgp7hrV8Vpyv2Y",
        "tooluse_Xq3LmN8pR2sT5vW7yZ0aB1",
        "srvtoolu_01ABCdefGHIjklMNOpqrSTUv",
        "msg_01EPx394bFyVKqqNsW2RwT7d",
        "msg_vrtx_01EPx394bFyVKqqNsW2RwT7d",
        "msgbatch_01HkcTjaV5uDC8jWR4ZsDV8d",
        "req_011CQS3dJwuPmy1wMwBE8etV",
        "file_011CNha8iCJcU1wXNR6q4V8w",
        "chatcmpl-9Zx8Yw7Vu6Ts5Rq4Po3Nm2Lk1Ji0",
        "gen-1744990000-AbCdEfGhIjKlMnOpQrSt",
    ],
)
def test_generated_id_shapes(value: str) -> None:
    assert is_generated_id(value) and is_generated_id(f'"{value}"')
    redactor = Redactor()
    for context in CONTEXTS:
        assert redactor.text(context.format(value)) == context.format(value)
    assert dict(redactor.counts) == {}


def test_a_secret_is_still_a_secret_next_to_an_id() -> None:
    redactor = Redactor()
    text = "toolu_01VYvNwZHrEgp7hrV8Vpyv2Y ran with GITHUB_TOKEN=ghp_" + "a1B2c3D4e5" * 4
    assert redactor.text(text) == (
        "toolu_01VYvNwZHrEgp7hrV8Vpyv2Y ran with GITHUB_TOKEN=[REDACTED:github-token]"
    )
    # A random string is not an id because it starts like one inside a word.
    assert "REDACTED" in redactor.text("xtoolu_01VYvNwZHrEgp7hrV8Vpyv2Yq8Z3")
    assert not is_generated_id("toolu_")
    assert not is_generated_id("sk-ant-api03-" + "Q7f2Lx9Pw3Rt6Yb1Nc8Vd4Zs5Hg0Jk2Mm7Aa9Ee3")


def test_page_tokens_are_not_secret_fields() -> None:
    redactor = Redactor()
    record = {"next_page_token": "eyJvZmZzZXQiOiAxMDB9", "access_token": "ya29.a0AfH6SMBx1Yz9Qw"}
    assert redactor.json(record) == {
        "next_page_token": "eyJvZmZzZXQiOiAxMDB9",
        "access_token": "[REDACTED:secret-field]",
    }
