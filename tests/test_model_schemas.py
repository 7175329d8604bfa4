"""Every field current Claude Code declares for a tool's input and result has a typed field.

``../shared/reference/SCHEMAS.md`` lists, per tool, the input and output fields of Claude Code
2.1.x's ``sdk-tools.d.ts``; nested objects are shown as TypeScript text. Each declared field,
and each key of an object nested in it, must be a field of the model's types for that tool
(what is left to ``extra`` is what Claude Code adds after these declarations).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, get_args

import pytest

from cclens.model._shape import is_struct, layout, members
from cclens.model.tools import tool_spec

from .conftest import ROOT

SCHEMAS = ROOT.parent / "shared" / "reference" / "SCHEMAS.md"
_ROW = re.compile(r"^\| `([^`]+)` \|[^|]*\| `(.*)` \|", re.MULTILINE)
_OPEN_KEY = "[k: string]"


def _sections() -> list[tuple[str, str]]:
    text = SCHEMAS.read_text()
    current = text.split("\n## 4.", 1)[0]
    found = []
    for section in re.split(r"^### ", current, flags=re.MULTILINE)[1:]:
        title = section.split("\n", 1)[0].strip()
        name = title.strip("()?` ").split(" ")[0].rstrip("?")
        if name.startswith("mcp__"):
            continue  # any MCP tool: free-form by definition
        found.append((name, section))
    return found


def _structs(type_: Any) -> list[type]:
    found: list[type] = []
    for member in members(type_):
        if is_struct(member):
            found.append(member)
        else:
            for argument in get_args(member):
                if argument is not ...:
                    found += _structs(argument)
    return found


def _keys(typescript: str) -> set[str]:
    """The keys of the first object literal in ``typescript`` (its first level only)."""
    start = typescript.find("{")
    keys: set[str] = set()
    if start < 0:
        return keys
    depth = 0
    for index in range(start, len(typescript)):
        character = typescript[index]
        if character in "{[(<":
            depth += 1
        elif character in "}])>":
            depth -= 1
            if depth == 0:
                break
        if depth == 1 and character in "{;,":
            found = re.match(r"[{;,]\s*([A-Za-z_$][\w$]*)\??\s*:", typescript[index:])
            if found:
                keys.add(found[1])
    return keys


def _fields(structs: list[type]) -> dict[str, list[Any]]:
    fields: dict[str, list[Any]] = {}
    for struct in structs:
        shape = layout(struct)
        for name, declared in shape.types.items():
            fields.setdefault(name, []).append(declared)
        if shape.tag is not None:
            fields.setdefault(shape.tag[0], [])
    return fields


@pytest.mark.parametrize(("name", "section"), _sections(), ids=lambda v: v if len(v) < 40 else "")
def test_every_declared_field_is_typed(name: str, section: str) -> None:
    spec = tool_spec(name)
    assert spec.family != "unknown", f"{name}: no spec"
    parts = re.split(r"\*\*(Input|Output)\*\*", section)
    for kind, chunk in zip(parts[1::2], parts[2::2], strict=True):
        if kind == "Input":
            ours = _structs(spec.input_type)
        else:
            ours = _structs(spec.result_type) if spec.result_type is not None else []
            if spec.list_result_type is not None:
                ours += _structs(spec.list_result_type.item_type)
        fields = _fields(ours)
        for field, typescript in _ROW.findall(chunk):
            if field == _OPEN_KEY:
                continue
            assert field in fields, f"{name} {kind.lower()}: `{field}` is not typed"
            nested = _keys(typescript.replace("\\|", "|"))
            if not nested:
                continue
            inner = [s for declared in fields[field] for s in _structs(declared)]
            typed = set(_fields(inner))
            missing = nested - typed
            assert not missing, f"{name} {kind.lower()}: `{field}` lacks {sorted(missing)}"


def test_the_schemas_are_there() -> None:
    assert Path(SCHEMAS).is_file()
    assert len(_sections()) > 40


def test_exit_plan_mode_names_its_plan_file() -> None:
    from cclens.model import UNSET
    from cclens.model.tools import parse_tool_input, parse_tool_result

    raw = {"plan": "# Plan", "planFilePath": "/home/u/.claude/plans/p.md"}
    decoded = parse_tool_input("ExitPlanMode", raw).value
    assert decoded.plan_file_path == "/home/u/.claude/plans/p.md"
    assert decoded.extra is UNSET
    result = {
        "stdout": "",
        "stderr": "",
        "interrupted": False,
        "gitOperation": {
            "commit": {"sha": "abc", "kind": "committed", "branch": "main"},
            "pr": {"number": 7, "url": "https://github.com/o/r/pull/7", "action": "created"},
        },
    }
    bash = parse_tool_result("Bash", result)
    assert bash is not None
    assert bash.value.git_operation.pr.number == 7 and bash.value.extra is UNSET
