"""Ids that Claude Code and the model APIs generate: never secrets.

A transcript is full of machine-made identifiers that look random: tool call ids
(``toolu_01VYvNwZHrEgp7hrV8Vpyv2Y``, ``srvtoolu_…``, Bedrock's ``tooluse_…``, Vertex's
``toolu_vrtx_…``), message and request ids (``msg_…``, ``req_011CQS3dJwuPmy1wMwBE8etV``), file
and batch ids, other vendors' completion ids (``chatcmpl-…``, OpenRouter's ``gen-…``), uuids,
agent ids and the hashes of file-history backups (``ccb8622c63b3d2c2@v2``). Redacting them would
hide nothing and make every exported page say it removed hundreds of "secrets".

They are recognised by their shape, wherever they stand — a JSON field, a log line, glued to
other text (``hook-toolu_01…``) — not by the field that holds them:

* the scanner protects every id-shaped span (:func:`id_rules`), so the high-entropy pass judges
  only what is around it;
* a value assigned to a secret-named field (``token: toolu_01…``) is not a secret when the
  whole value is a generated id (:func:`is_generated_id`).

Uuids and hex hashes are hexadecimal, which the high-entropy pass never reports; they need no
rule of their own. A uuid under a secret-named field is still redacted: some services (Heroku,
for one) issue API keys shaped like uuids.
"""

from __future__ import annotations

import re
from typing import Final

from cclens.redact.scanner import Hit, Outcome, Rule

#: Prefixes of generated ids, before their ``_`` or ``-``: Anthropic (tool uses, server tool
#: uses, messages, message batches, requests, files), Bedrock tool uses, OpenAI and compatible
#: endpoints (completions, responses, calls, runs, threads, assistants, steps, vector stores)
#: and OpenRouter generations.
PREFIXES: Final = (
    "srvtoolu", "toolu", "tooluse", "msgbatch", "msg", "req", "file", "batch", "call",
    "chatcmpl", "resp", "run", "thread", "asst", "step", "vs", "gen",
)  # fmt: skip
# After the prefix: an optional platform part (toolu_vrtx_, msg_bdrk_, gen-1744… digits), then
# the random part, letters and digits only.
_BODY: Final = r"[_-](?:(?:vrtx|bdrk)_|\d{6,12}-)?[A-Za-z0-9]{8,}"
_GENERATED: Final = re.compile(rf"(?:{'|'.join(PREFIXES)}){_BODY}")
# A value that is one id, maybe quoted: nothing else in it.
_QUOTES: Final = "\"'`"


def is_generated_id(value: str) -> bool:
    """True when ``value`` is (only) an id Claude Code or a model API generated."""
    return _GENERATED.fullmatch(value.strip().strip(_QUOTES)) is not None


def _keep(hit: Hit) -> Outcome:
    return hit.keep()


def id_rules() -> tuple[Rule, ...]:
    """Scanner rules that protect generated ids from every detector after them.

    An id only counts as one where it starts: not inside a longer word (``shmsg_…``), so the
    ``left`` guard rules out a preceding letter or digit.
    """
    return tuple(Rule(re.escape(prefix) + _BODY, _keep, left="A-Za-z0-9") for prefix in PREFIXES)


__all__ = ["PREFIXES", "id_rules", "is_generated_id"]
