"""Editing a settings file in place (:mod:`cclens.setup.jsonedit`): the values change, every
other byte stays."""

from __future__ import annotations

import doctest
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cclens.setup import jsonedit
from cclens.setup.jsonedit import append_item, indent_unit, new_text, parse, set_key

SETTINGS = """{
    "model": "opus",
    "permissions": {
        "allow": ["Bash(npm test:*)"],
        "deny": []
    },
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}
        ]
    }
}
"""


def test_the_module_example_holds() -> None:
    assert doctest.testmod(jsonedit).failed == 0


def test_a_new_key_goes_last_indented_like_its_neighbours() -> None:
    edited = set_key(SETTINGS, ["cleanupPeriodDays"], 365)
    assert edited == SETTINGS.replace("    }\n}\n", '    },\n    "cleanupPeriodDays": 365\n}\n')
    assert json.loads(edited)["cleanupPeriodDays"] == 365


def test_a_value_is_replaced_where_it_stands() -> None:
    edited = set_key(SETTINGS, ["model"], "sonnet")
    assert edited == SETTINGS.replace('"opus"', '"sonnet"')


def test_an_item_is_added_to_an_array_of_objects() -> None:
    group = {"hooks": [{"type": "command", "command": "cclens hook"}]}
    edited = append_item(SETTINGS, ["hooks", "PreToolUse"], group)
    # The existing entry is untouched; the new one follows it, laid out over lines.
    assert edited.startswith(SETTINGS[: SETTINGS.index("audit.sh") + len('audit.sh"}]}')])
    assert json.loads(edited)["hooks"]["PreToolUse"][1] == group
    assert '\n            {\n                "hooks": [\n' in edited


def test_missing_objects_and_arrays_on_the_way_are_made() -> None:
    group = {"hooks": [{"type": "command", "command": "cclens hook"}]}
    edited = append_item(SETTINGS, ["hooks", "SessionEnd"], group)
    assert json.loads(edited)["hooks"]["SessionEnd"] == [group]
    assert edited.count("audit.sh") == 1
    fresh = append_item('{"model": "opus"}', ["hooks", "PreCompact"], group)
    assert json.loads(fresh) == {"model": "opus", "hooks": {"PreCompact": [group]}}
    # One line it was, one line it stays.
    assert "\n" not in fresh


def test_an_empty_object_gets_its_first_member_on_a_line_of_its_own() -> None:
    assert set_key("{}", ["a"], 1) == '{\n  "a": 1\n}'
    assert (
        set_key('{\n\t"x": {}\n}\n', ["x", "y"], [1])
        == '{\n\t"x": {\n\t\t"y": [\n\t\t\t1\n\t\t]\n\t}\n}\n'
    )


def test_the_indentation_unit_is_the_files_own() -> None:
    assert indent_unit(SETTINGS, parse(SETTINGS)) == "    "
    tabs = '{\n\t"a": {\n\t\t"b": 1\n\t}\n}'
    assert indent_unit(tabs, parse(tabs)) == "\t"
    assert indent_unit('{"a": 1}', parse('{"a": 1}')) == "  "


def test_the_last_of_duplicate_keys_is_the_one_changed() -> None:
    text = '{"a": 1, "a": 2}'
    assert set_key(text, ["a"], 3) == '{"a": 1, "a": 3}'


def test_text_that_is_not_json_or_not_an_object_is_refused() -> None:
    with pytest.raises(ValueError):
        set_key('{"a": 1,}', ["b"], 2)
    with pytest.raises(ValueError, match="top level"):
        set_key("[1]", ["b"], 2)
    with pytest.raises(ValueError, match="hooks is not an object"):
        append_item('{"hooks": []}', ["hooks", "SessionEnd"], {})
    with pytest.raises(ValueError, match=r"hooks\.SessionEnd is not an array"):
        append_item('{"hooks": {"SessionEnd": {}}}', ["hooks", "SessionEnd"], {})


def test_strings_with_quotes_braces_and_unicode_are_read_right() -> None:
    text = '{"a": "x\\"}],{[", "b\\u00e9": "é", "c": [1.5e3, true, null, "\\\\"]}'
    edited = set_key(text, ["c"], "new")
    assert json.loads(edited) == {"a": 'x"}],{[', "bé": "é", "c": "new"}
    assert edited.startswith('{"a": "x\\"}],{[", "b\\u00e9": "é", "c": ')


def test_a_new_file_is_written_as_claude_code_writes_it() -> None:
    assert new_text({"a": {"b": 1}}) == '{\n  "a": {\n    "b": 1\n  }\n}\n'


_keys = st.text(min_size=1, max_size=6)
_scalars = st.none() | st.booleans() | st.integers() | st.text(max_size=8)
_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_keys, inner, max_size=3),
    max_leaves=8,
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    document=st.dictionaries(_keys, _values, max_size=5),
    indent=st.sampled_from([None, 2, 4, "\t"]),
    path=st.lists(_keys, min_size=1, max_size=3),
    value=_values,
)
def test_setting_changes_that_value_only(
    document: dict[str, Any], indent: int | str | None, path: list[str], value: Any
) -> None:
    text = json.dumps(document, indent=indent)
    expected = json.loads(text)
    node = expected
    for key in path[:-1]:
        if key in node and not isinstance(node[key], dict):
            with pytest.raises(ValueError):
                set_key(text, path, value)
            return
        node = node.setdefault(key, {})
    node[path[-1]] = value
    edited = set_key(text, path, value)
    assert json.loads(edited) == expected
    # Every other top-level member is, byte for byte, what it was.
    before, after = parse(text), parse(edited)
    old = {key: text[start : value.end] for key, start, value in before.members}
    new = {key: edited[start : value.end] for key, start, value in after.members}
    for key in old.keys() - {path[0]}:
        assert new[key] == old[key]
