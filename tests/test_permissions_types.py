"""The permission types encode to exactly the seed's JSON shape and decode back."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from cclens.permissions import (
    DESTINATIONS,
    MODES,
    AddDirectories,
    AddRules,
    InvalidPermissionUpdate,
    PermissionRuleValue,
    PermissionUpdate,
    RemoveDirectories,
    RemoveRules,
    ReplaceRules,
    SetMode,
    parse_permission_update,
)

BASH_RULE = PermissionRuleValue(tool_name="Bash", rule_content="npm run test:*")
WHOLE_TOOL = PermissionRuleValue(tool_name="WebSearch")

UPDATES: list[tuple[PermissionUpdate, dict[str, Any]]] = [
    (
        AddRules(rules=(BASH_RULE, WHOLE_TOOL), behavior="allow", destination="localSettings"),
        {
            "type": "addRules",
            "rules": [
                {"toolName": "Bash", "ruleContent": "npm run test:*"},
                {"toolName": "WebSearch"},
            ],
            "behavior": "allow",
            "destination": "localSettings",
        },
    ),
    (
        ReplaceRules(rules=(BASH_RULE,), behavior="deny", destination="projectSettings"),
        {
            "type": "replaceRules",
            "rules": [{"toolName": "Bash", "ruleContent": "npm run test:*"}],
            "behavior": "deny",
            "destination": "projectSettings",
        },
    ),
    (
        RemoveRules(rules=(WHOLE_TOOL,), behavior="ask", destination="userSettings"),
        {
            "type": "removeRules",
            "rules": [{"toolName": "WebSearch"}],
            "behavior": "ask",
            "destination": "userSettings",
        },
    ),
    (
        SetMode(mode="acceptEdits", destination="session"),
        {"type": "setMode", "mode": "acceptEdits", "destination": "session"},
    ),
    (
        AddDirectories(directories=("/srv/shared", "../lib"), destination="cliArg"),
        {
            "type": "addDirectories",
            "directories": ["/srv/shared", "../lib"],
            "destination": "cliArg",
        },
    ),
    (
        RemoveDirectories(directories=("/tmp",), destination="localSettings"),
        {"type": "removeDirectories", "directories": ["/tmp"], "destination": "localSettings"},
    ),
]


@pytest.mark.parametrize(("update", "expected"), UPDATES, ids=[e["type"] for _, e in UPDATES])
def test_update_encodes_to_the_seed_shape(
    update: PermissionUpdate, expected: dict[str, Any]
) -> None:
    encoded = msgspec.json.encode(update)
    assert msgspec.json.decode(encoded) == expected
    # Key order follows the declaration: the tag first, then the fields as the seed lists them.
    assert list(msgspec.json.decode(encoded)) == list(expected)


@pytest.mark.parametrize(("update", "expected"), UPDATES, ids=[e["type"] for _, e in UPDATES])
def test_update_decodes_from_the_seed_shape(
    update: PermissionUpdate, expected: dict[str, Any]
) -> None:
    assert parse_permission_update(expected) == update
    assert msgspec.json.decode(msgspec.json.encode(expected), type=PermissionUpdate) == update


def test_absent_rule_content_is_omitted_not_null() -> None:
    assert msgspec.json.encode(WHOLE_TOOL) == b'{"toolName":"WebSearch"}'
    assert msgspec.json.decode(b'{"toolName":"Read"}', type=PermissionRuleValue) == (
        PermissionRuleValue("Read")
    )


@pytest.mark.parametrize("mode", MODES)
def test_every_mode_round_trips(mode: str) -> None:
    raw = {"type": "setMode", "mode": mode, "destination": "session"}
    update = parse_permission_update(raw)
    assert isinstance(update, SetMode)
    assert msgspec.json.decode(msgspec.json.encode(update)) == raw


@pytest.mark.parametrize("destination", DESTINATIONS)
def test_every_destination_round_trips(destination: str) -> None:
    raw = {"type": "addDirectories", "directories": ["/x"], "destination": destination}
    assert msgspec.json.decode(msgspec.json.encode(parse_permission_update(raw))) == raw


def test_seed_and_reference_literals_are_complete() -> None:
    assert set(MODES) == {"default", "acceptEdits", "bypassPermissions", "plan", "dontAsk", "auto"}
    assert set(DESTINATIONS) == {
        "userSettings",
        "projectSettings",
        "localSettings",
        "session",
        "cliArg",
    }


@pytest.mark.parametrize(
    "raw",
    [
        {"type": "grantEverything", "destination": "session"},
        {"type": "setMode", "mode": "yolo", "destination": "session"},
        {"type": "addRules", "rules": [], "behavior": "maybe", "destination": "session"},
        {"type": "addRules", "behavior": "allow", "destination": "session"},
        {"type": "addDirectories", "directories": ["/x"], "destination": "policySettings"},
        "addRules",
        None,
    ],
)
def test_invalid_updates_become_values_that_keep_the_raw_input(raw: Any) -> None:
    result = parse_permission_update(raw)
    assert isinstance(result, InvalidPermissionUpdate)
    assert result.raw == raw
    assert result.reason
