"""Claude Code's permission types, encoded exactly as the SDK declares them.

The JSON of every struct here matches ``PermissionRuleValue``, ``PermissionBehavior``,
``PermissionUpdateDestination``, ``PermissionMode`` and ``PermissionUpdate`` from the seed and
``reference/SCHEMAS.md`` §6 key for key: camelCase names, the ``type`` tag first, and no key at
all for an absent optional field (never ``null``).
"""

from __future__ import annotations

from typing import Any, Literal, TypeAlias

import msgspec

#: What a rule does to a matching tool call.
PermissionBehavior: TypeAlias = Literal["allow", "deny", "ask"]

#: Where a permission update is stored (``cliArg`` arrived after the seed was written).
PermissionUpdateDestination: TypeAlias = Literal[
    "userSettings", "projectSettings", "localSettings", "session", "cliArg"
]

#: How Claude Code treats a tool call that no rule decides.
PermissionMode: TypeAlias = Literal[
    "default", "acceptEdits", "bypassPermissions", "plan", "dontAsk", "auto"
]

#: Every behavior, in the order Claude Code checks them: the first that matches wins.
BEHAVIORS_BY_PRECEDENCE: tuple[PermissionBehavior, ...] = ("deny", "ask", "allow")
#: Every destination, in declaration order.
DESTINATIONS: tuple[PermissionUpdateDestination, ...] = (
    "userSettings",
    "projectSettings",
    "localSettings",
    "session",
    "cliArg",
)
#: Every permission mode, in declaration order.
MODES: tuple[PermissionMode, ...] = (
    "default",
    "acceptEdits",
    "bypassPermissions",
    "plan",
    "dontAsk",
    "auto",
)


class PermissionRuleValue(msgspec.Struct, rename="camel", omit_defaults=True, frozen=True):
    """One rule: a tool name and, optionally, what within the tool it covers.

    ``rule_content`` is ``None`` for a rule over every use of the tool (``Bash``), else the text
    inside the parentheses (``npm run test:*`` for ``Bash(npm run test:*)``).
    """

    tool_name: str
    rule_content: str | None = None


class _Update(
    msgspec.Struct, tag_field="type", rename="camel", frozen=True, kw_only=True, omit_defaults=True
):
    """Common base of the ``PermissionUpdate`` variants (tagged on ``type``)."""


class AddRules(_Update, tag="addRules", frozen=True):
    """Add ``rules`` with ``behavior`` to ``destination``."""

    rules: tuple[PermissionRuleValue, ...]
    behavior: PermissionBehavior
    destination: PermissionUpdateDestination


class ReplaceRules(_Update, tag="replaceRules", frozen=True):
    """Replace every ``behavior`` rule at ``destination`` with ``rules``."""

    rules: tuple[PermissionRuleValue, ...]
    behavior: PermissionBehavior
    destination: PermissionUpdateDestination


class RemoveRules(_Update, tag="removeRules", frozen=True):
    """Remove ``rules`` with ``behavior`` from ``destination``."""

    rules: tuple[PermissionRuleValue, ...]
    behavior: PermissionBehavior
    destination: PermissionUpdateDestination


class SetMode(_Update, tag="setMode", frozen=True):
    """Set the permission mode at ``destination``."""

    mode: PermissionMode
    destination: PermissionUpdateDestination


class AddDirectories(_Update, tag="addDirectories", frozen=True):
    """Add working directories at ``destination``."""

    directories: tuple[str, ...]
    destination: PermissionUpdateDestination


class RemoveDirectories(_Update, tag="removeDirectories", frozen=True):
    """Remove working directories at ``destination``."""

    directories: tuple[str, ...]
    destination: PermissionUpdateDestination


#: One operation on permission settings, as Claude Code sends and records it.
PermissionUpdate: TypeAlias = (
    AddRules | ReplaceRules | RemoveRules | SetMode | AddDirectories | RemoveDirectories
)


class InvalidPermissionUpdate(msgspec.Struct, frozen=True, kw_only=True):
    """A value that is not a valid ``PermissionUpdate``: the raw value and why."""

    raw: Any
    reason: str


def parse_permission_update(value: Any) -> PermissionUpdate | InvalidPermissionUpdate:
    """Turn decoded JSON (a dict) into a ``PermissionUpdate``; never raises.

    An unknown ``type`` tag, a missing field or a value outside the literal types gives an
    :class:`InvalidPermissionUpdate` that keeps the raw value, so a caller reading transcripts
    can show it and go on.
    """
    try:
        update: PermissionUpdate = msgspec.convert(value, PermissionUpdate)
    except msgspec.ValidationError as error:
        return InvalidPermissionUpdate(raw=value, reason=str(error))
    return update


class SourcedRule(msgspec.Struct, frozen=True, kw_only=True):
    """A parsed rule together with what it does and where it was configured.

    ``text`` is the rule as written in the settings file (``Bash(npm test:*)``); ``path`` is the
    file it came from, or ``None`` for rules that live in no file (``session``, ``cliArg``).
    """

    rule: PermissionRuleValue
    behavior: PermissionBehavior
    destination: PermissionUpdateDestination
    text: str
    path: str | None = None
