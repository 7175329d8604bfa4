"""The per-tool views: every corpus call drawn by its own view, a snapshot per view, and hostile
strings in every field never turning into markup that runs.

Synthetic calls are real transcripts: each case is written as a tiny JSONL session under
``tmp_path`` and loaded with :func:`cclens.readers.claude.load_session`, then drawn by the page
renderer.
Regenerate the snapshots with ``CCLENS_UPDATE_SNAPSHOTS=1``.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import msgspec
import pytest

from cclens.model.tools import BUILTIN_TOOLS, is_known_tool, tool_spec
from cclens.model.tools.agents import AgentAsyncLaunchedResult
from cclens.model.tools.generic import UnknownToolInput
from cclens.model.tools.shell import BashResult
from cclens.readers.claude import Session, ToolCall, load_session
from cclens.render import (
    RenderOptions,
    SessionRenderer,
    ViewHelpers,
    render_session_page,
    view_for,
)
from cclens.render.environment import template_environment
from cclens.render.tool_views import MCP_VIEW, TOOL_VIEWS, VIEWS, Link
from cclens.render.tool_views.files import numbered_text
from cclens.render.tool_views.schedule import describe_cron
from cclens.render.tool_views.search import grep_lines, matcher
from cclens.render.tool_views.shell import prepare_background_output, prepare_task_stop

from .conftest import corpus_files, sampled
from .snapshot import canonical

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots" / "tools"
UPDATE = os.environ.get("CCLENS_UPDATE_SNAPSHOTS") == "1"
PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk"
    "+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)
UNSET = object()
#: Tool bodies drawn in place, not kept as folded parts.
EAGER = RenderOptions(lazy=False)


@dataclass
class Case:
    """One synthetic call: its tool, input, ``toolUseResult`` and the result the model saw.

    ``content=None`` writes no tool_result at all (a call still pending); ``result=UNSET`` writes
    no ``toolUseResult`` (as subagent transcripts and old versions do).
    """

    label: str
    tool: str
    input: Any
    result: Any = UNSET
    content: Any = "ok"
    is_error: bool | None = None
    subagent: list[dict[str, Any]] | None = None


@dataclass
class Rendered:
    call: ToolCall
    html: str
    failures: list[str] = field(default_factory=list)


def _records(case: Case, number: int, session_id: str) -> list[dict[str, Any]]:
    common = {
        "sessionId": session_id,
        "version": "2.1.100",
        "cwd": "/work/project",
        "userType": "external",
        "isSidechain": False,
    }
    tool_id = f"toolu_{number:03d}"
    records: list[dict[str, Any]] = [
        {
            **common,
            "type": "assistant",
            "uuid": f"a-{number}",
            "parentUuid": f"u-{number - 1}" if number else None,
            "timestamp": f"2025-06-01T10:{number:02d}:00.000Z",
            "message": {
                "id": f"msg_{number}",
                "type": "message",
                "role": "assistant",
                "model": "claude-opus-4-7",
                "content": [
                    {"type": "tool_use", "id": tool_id, "name": case.tool, "input": case.input}
                ],
                "stop_reason": "tool_use",
                "usage": {"input_tokens": 10, "output_tokens": 5},
            },
        }
    ]
    if case.content is None:
        return records
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": tool_id, "content": case.content}
    if case.is_error is not None:
        block["is_error"] = case.is_error
    user: dict[str, Any] = {
        **common,
        "type": "user",
        "uuid": f"u-{number}",
        "parentUuid": f"a-{number}",
        "timestamp": f"2025-06-01T10:{number:02d}:02.500Z",
        "message": {"role": "user", "content": [block]},
    }
    if case.result is not UNSET:
        user["toolUseResult"] = case.result
    records.append(user)
    return records


def load_cases(directory: Path, cases: list[Case]) -> list[tuple[Session, ToolCall]]:
    """Write ``cases`` as one session file each under ``directory`` and load their calls."""
    loaded = []
    for index, case in enumerate(cases):
        session_id = f"5e55{index:04d}-0000-4000-8000-000000000000"
        path = directory / f"{session_id}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in _records(case, 1, session_id)))
        if case.subagent is not None:
            folder = directory / session_id / "subagents"
            folder.mkdir(parents=True)
            agent = folder / "agent-a1b2c3.jsonl"
            agent.write_text("".join(json.dumps(r) + "\n" for r in case.subagent))
        session = load_session(path)
        loaded.append((session, session.tool_calls["toolu_001"]))
    return loaded


def write_session(directory: Path, cases: list[Case]) -> Path:
    """All ``cases`` as one session file, in order (a pending call is followed by a prompt)."""
    session_id = "5e55ffff-0000-4000-8000-000000000000"
    records: list[dict[str, Any]] = []
    for number, case in enumerate(cases, 1):
        call = _records(case, number, session_id)
        call[0]["message"]["content"][0]["id"] = f"toolu_{number:03d}"
        if case.content is None:
            # Keep one chain: the next call's parent is this prompt.
            prompt = {**call[0], "type": "user", "uuid": f"u-{number}", "parentUuid": f"a-{number}"}
            prompt["message"] = {"role": "user", "content": "go on"}
            call.append(prompt)
        else:
            call[1]["message"]["content"][0]["tool_use_id"] = f"toolu_{number:03d}"
        records.extend(call)
    path = directory / f"{session_id}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def render(call: ToolCall) -> Rendered:
    """``call`` drawn by the page renderer, inside its frame, with its body (not folded away)."""
    renderer = SessionRenderer(EAGER)
    html = str(renderer.tool(call))
    return Rendered(call, html, renderer.view_failures)


def _agent_transcript() -> list[dict[str, Any]]:
    base = {
        "sessionId": "5e550000",
        "agentId": "a1b2c3",
        "isSidechain": True,
        "userType": "external",
        "cwd": "/work/project",
        "version": "2.1.100",
    }
    return [
        {
            **base,
            "type": "user",
            "uuid": "s-1",
            "parentUuid": None,
            "timestamp": "2025-06-01T10:01:00.100Z",
            "message": {"role": "user", "content": "Find the config loader."},
        },
        {
            **base,
            "type": "assistant",
            "uuid": "s-2",
            "parentUuid": "s-1",
            "timestamp": "2025-06-01T10:01:01.000Z",
            "message": {
                "id": "msg_sub",
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-4-6",
                "content": [{"type": "text", "text": "It is in `config.py`."}],
                "stop_reason": "end_turn",
                "usage": {"input_tokens": 3, "output_tokens": 4},
            },
        },
    ]


# The cases: at least one per view, covering typed results, text-only results and errors. ------

CASES: list[Case] = [
    # Shell
    Case(
        "bash ok",
        "Bash",
        {"command": "pytest -q tests/", "description": "Run the tests", "timeout": 120000},
        {
            "stdout": "3 passed in 0.12s",
            "stderr": "warning: slow",
            "interrupted": False,
            "isImage": False,
        },
        "3 passed in 0.12s\nwarning: slow",
    ),
    Case(
        "bash exit code",
        "Bash",
        {"command": "false", "description": "Fail on purpose"},
        "Error: Exit code 1\nsomething broke",
        "Exit code 1\nsomething broke",
        is_error=True,
    ),
    Case(
        "bash background",
        "Bash",
        {"command": "npm run dev", "run_in_background": True, "dangerouslyDisableSandbox": True},
        {
            "stdout": "",
            "stderr": "",
            "interrupted": False,
            "isImage": False,
            "backgroundTaskId": "bash_1",
        },
        "Command running in background with ID: bash_1",
    ),
    Case(
        "bash text only",
        "Bash",
        {"command": "ls"},
        content="README.md\nsrc",
    ),
    Case(
        "bash rejected",
        "Bash",
        {"command": "rm -rf build"},
        "The user doesn't want to take this action right now. STOP what you are doing.",
        "The user doesn't want to take this action right now. STOP what you are doing.",
        is_error=True,
    ),
    Case(
        "powershell persisted",
        "PowerShell",
        {"command": "Get-ChildItem"},
        {
            "stdout": "a.txt",
            "stderr": "",
            "interrupted": True,
            "isImage": False,
            "persistedOutputPath": "/tmp/out.txt",
            "persistedOutputSize": 40960,
            "returnCodeInterpretation": "No matches found",
        },
    ),
    Case(
        "bash output",
        "BashOutput",
        {"bash_id": "bash_1"},
        {
            "shellId": "bash_1",
            "command": "npm run dev",
            "status": "running",
            "exitCode": None,
            "stdout": "ready on :3000",
            "stderr": "warn: x",
            "stdoutLines": 1,
            "stderrLines": 1,
            "timestamp": "2025-06-01T10:00:00Z",
        },
    ),
    Case(
        "task output text",
        "TaskOutput",
        {"task_id": "b1bg01", "block": False},
        content="<retrieval_status>success</retrieval_status>\n\n<task_id>b1bg01</task_id>\n\n"
        "<task_type>local_bash</task_type>\n\n<status>in_progress</status>\n\n"
        "<output>\n(still sleeping)\n</output>",
    ),
    Case(
        "task output typed",
        "TaskOutput",
        {"task_id": "a1agnt", "block": True, "timeout": 60000},
        {
            "retrieval_status": "success",
            "task": {
                "task_id": "a1agnt",
                "task_type": "local_agent",
                "status": "completed",
                "output": "done",
            },
        },
    ),
    Case(
        "agent output",
        "AgentOutputTool",
        {"agentId": "a1agnt", "block": True},
        {
            "retrieval_status": "completed",
            "agents": {"a1agnt": {"status": "completed", "result": "**All good**"}},
        },
    ),
    Case(
        "task stop",
        "TaskStop",
        {"task_id": "b1bg01"},
        {
            "message": "Successfully stopped task: b1bg01 (sleep 120)",
            "task_id": "b1bg01",
            "task_type": "local_bash",
            "command": "sleep 120",
        },
    ),
    Case(
        "kill shell error",
        "KillShell",
        {"shell_id": "dce0af"},
        "Error: Shell dce0af is not running, so cannot be killed",
        "<tool_use_error>Shell dce0af is not running, so cannot be killed</tool_use_error>",
        is_error=True,
    ),
    Case(
        "kill bash",
        "KillBash",
        {"shell_id": "bash_1"},
        {"success": True, "message": "Successfully killed shell: bash_1", "shell_id": "bash_1"},
    ),
    Case(
        "monitor",
        "Monitor",
        {
            "description": "PR checks",
            "command": "gh pr checks 140",
            "timeout_ms": 3600000,
            "persistent": False,
        },
        {"taskId": "b07h5t4ng", "timeoutMs": 3600000, "persistent": False},
        "Monitor started (task b07h5t4ng, timeout 3600000ms).",
    ),
    Case("repl", "REPL", {"code": "1 + 1", "description": "Add"}, content="2"),
    # Files
    Case(
        "read text",
        "Read",
        {"file_path": "/work/project/app.py", "offset": 10, "limit": 3},
        {
            "type": "text",
            "file": {
                "filePath": "/work/project/app.py",
                "content": "def main():\n    return 1\n",
                "numLines": 2,
                "startLine": 10,
                "totalLines": 40,
            },
        },
        "    10→def main():\n    11→    return 1",
    ),
    Case(
        "read text only",
        "Read",
        {"file_path": "/work/project/notes.md"},
        content="     5→# Notes\n     6→- one\n\n"
        "<system-reminder>\nBe careful.\n</system-reminder>",
    ),
    Case(
        "read image",
        "Read",
        {"file_path": "/work/project/dot.png"},
        {
            "type": "image",
            "file": {
                "base64": PNG,
                "type": "image/png",
                "originalSize": 68,
                "dimensions": {
                    "originalWidth": 1,
                    "originalHeight": 1,
                    "displayWidth": 1,
                    "displayHeight": 1,
                },
            },
        },
        [{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}],
    ),
    Case(
        "read notebook",
        "Read",
        {"file_path": "/work/project/nb.ipynb"},
        {
            "type": "notebook",
            "file": {
                "filePath": "/work/project/nb.ipynb",
                "cells": [
                    {"cellType": "markdown", "source": "# Title", "cell_id": "c1"},
                    {
                        "cellType": "code",
                        "source": "print(1)",
                        "cell_id": "c2",
                        "execution_count": 1,
                        "outputs": [{"output_type": "stream", "text": "1\n"}],
                    },
                ],
            },
        },
    ),
    Case(
        "read pdf parts",
        "Read",
        {"file_path": "/work/project/doc.pdf", "pages": "2-3"},
        {
            "type": "parts",
            "file": {
                "filePath": "/work/project/doc.pdf",
                "originalSize": 1048576,
                "count": 2,
                "outputDir": "/tmp/pages",
            },
            "firstPage": 2,
            "pages": [
                {"base64": PNG, "mediaType": "image/png"},
                {"base64": "", "mediaType": "image/png", "error": "page too large"},
            ],
        },
    ),
    Case(
        "read unchanged",
        "Read",
        {"file_path": "/work/project/app.py"},
        {"type": "file_unchanged", "file": {"filePath": "/work/project/app.py"}},
    ),
    Case(
        "read error",
        "Read",
        {"file_path": "/work/project/src"},
        "Error: EISDIR: illegal operation on a directory, read",
        "EISDIR: illegal operation on a directory, read",
        is_error=True,
    ),
    Case(
        "write create",
        "Write",
        {"file_path": "/work/project/hello.py", "content": "print('hi')\n"},
        {
            "type": "create",
            "filePath": "/work/project/hello.py",
            "content": "print('hi')\n",
            "structuredPatch": [],
        },
        "File created successfully at: /work/project/hello.py",
    ),
    Case(
        "write update",
        "Write",
        {"file_path": "/work/project/hello.py", "content": "print('hello')\n"},
        {
            "type": "update",
            "filePath": "/work/project/hello.py",
            "content": "print('hello')\n",
            "structuredPatch": [
                {
                    "oldStart": 1,
                    "oldLines": 1,
                    "newStart": 1,
                    "newLines": 1,
                    "lines": ["-print('hi')", "+print('hello')"],
                }
            ],
            "originalFile": "print('hi')\n",
        },
    ),
    Case(
        "write rejected",
        "Write",
        {"file_path": "/work/project/x.txt", "content": "x"},
        "Error: The user doesn't want to proceed with this tool use. The tool use was rejected.",
        "The user doesn't want to proceed with this tool use. The tool use was rejected.",
        is_error=True,
    ),
    Case(
        "edit patch",
        "Edit",
        {"file_path": "/work/project/app.py", "old_string": "return 1", "new_string": "return 2"},
        {
            "filePath": "/work/project/app.py",
            "oldString": "return 1",
            "newString": "return 2",
            "originalFile": "def main():\n    return 1\n",
            "structuredPatch": [
                {
                    "oldStart": 1,
                    "oldLines": 2,
                    "newStart": 1,
                    "newLines": 2,
                    "lines": [" def main():", "-    return 1", "+    return 2"],
                }
            ],
            "userModified": True,
            "replaceAll": False,
        },
    ),
    Case(
        "edit without result",
        "Edit",
        {
            "file_path": "/work/project/app.py",
            "old_string": "a = 1\nb = 2",
            "new_string": "a = 1\nb = 3",
            "replace_all": True,
        },
        content="The file /work/project/app.py has been updated successfully.",
    ),
    Case(
        "edit error",
        "Edit",
        {"file_path": "/work/project/app.py", "old_string": "missing", "new_string": "found"},
        "Error: String to replace not found in file.",
        "<tool_use_error>String to replace not found in file.</tool_use_error>",
        is_error=True,
    ),
    Case(
        "multi edit",
        "MultiEdit",
        {
            "file_path": "/work/project/app.py",
            "edits": [
                {"old_string": "a", "new_string": "b"},
                {"old_string": "c", "new_string": "d", "replace_all": True},
            ],
        },
        {
            "filePath": "/work/project/app.py",
            "edits": [{"old_string": "a", "new_string": "b"}],
            "originalFileContents": "a\nc\nc\n",
            "structuredPatch": [],
            "userModified": False,
        },
    ),
    Case(
        "multi edit pending",
        "MultiEdit",
        {"file_path": "/work/project/app.py", "edits": [{"old_string": "x", "new_string": "y"}]},
        content=None,
    ),
    Case(
        "notebook edit",
        "NotebookEdit",
        {
            "notebook_path": "/work/project/nb.ipynb",
            "cell_number": 2,
            "edit_mode": "replace",
            "new_source": "print(2)",
        },
        {
            "new_source": "print(2)",
            "old_source": "print(1)",
            "cell_type": "code",
            "language": "python",
            "edit_mode": "replace",
            "error": "",
            "cell_number": 2,
        },
    ),
    Case(
        "ls",
        "LS",
        {"path": "/work/project", "ignore": ["node_modules"]},
        "- /work/project/\n  - app.py\n",
        "- /work/project/\n  - app.py\n",
    ),
    # Search
    Case(
        "glob",
        "Glob",
        {"pattern": "**/*.py", "path": "/work/project"},
        {
            "filenames": [f"/work/project/m{n}.py" for n in range(25)],
            "durationMs": 12,
            "numFiles": 25,
            "truncated": True,
        },
    ),
    Case("glob text", "Glob", {"pattern": "*.md"}, content="README.md\nCHANGES.md"),
    Case(
        "grep content",
        "Grep",
        {
            "pattern": "def (main|run)",
            "path": "src",
            "output_mode": "content",
            "-n": True,
            "-C": 1,
            "-i": True,
        },
        {
            "mode": "content",
            "numFiles": 0,
            "filenames": [],
            "content": "src/app.py-1-import os\nsrc/app.py:2:def main():\n"
            "--\nsrc/cli.py:7:def RUN(x):",
            "numLines": 4,
            "appliedLimit": 100,
        },
    ),
    Case(
        "grep files",
        "Grep",
        {"pattern": "TODO", "include": "*.py"},
        {"filenames": ["a.py", "b.py"], "numFiles": 2},
    ),
    Case(
        "grep count",
        "Grep",
        {"pattern": "x", "output_mode": "count"},
        {
            "mode": "count",
            "numFiles": 2,
            "filenames": [],
            "content": "a.py:3\nb.py:1",
            "numMatches": 4,
        },
    ),
    Case(
        "lsp",
        "LSP",
        {
            "operation": "goToDefinition",
            "filePath": "/work/project/app.py",
            "line": 3,
            "character": 5,
        },
        {
            "operation": "goToDefinition",
            "result": "app.py:10:4",
            "filePath": "/work/project/app.py",
            "resultCount": 1,
            "fileCount": 1,
        },
    ),
    Case(
        "tool search",
        "ToolSearch",
        {"query": "select:WebFetch,WebSearch", "max_results": 2},
        {
            "matches": ["WebFetch", "WebSearch"],
            "query": "select:WebFetch,WebSearch",
            "total_deferred_tools": 37,
        },
        [
            {"type": "tool_reference", "tool_name": "WebFetch"},
            {"type": "tool_reference", "tool_name": "WebSearch"},
        ],
    ),
    Case(
        "tool search references",
        "ToolSearch",
        {"query": "select:TaskCreate", "max_results": 1},
        content=[{"type": "tool_reference", "tool_name": "TaskCreate"}],
    ),
    # Web
    Case(
        "web fetch",
        "WebFetch",
        {"url": "https://example.com/docs", "prompt": "Summarise"},
        {
            "bytes": 2048,
            "code": 200,
            "codeText": "OK",
            "result": "# Docs\n\nA [link](https://example.com/a).",
            "durationMs": 850,
            "url": "https://example.com/docs",
        },
    ),
    Case(
        "web fetch failed",
        "WebFetch",
        {"url": "https://example.com/missing", "prompt": "Read"},
        "Error: Request failed with status code 404",
        "Request failed with status code 404",
        is_error=True,
    ),
    Case(
        "web search",
        "WebSearch",
        {"query": "claude code plan mode", "allowed_domains": ["example.com"]},
        {
            "query": "claude code plan mode",
            "results": [
                {
                    "tool_use_id": "srv_1",
                    "content": [{"title": "Plan mode", "url": "https://example.com/plan"}],
                },
                "Plan mode lets you **review** first.",
            ],
            "durationSeconds": 2.5,
        },
    ),
    Case(
        "web search text",
        "WebSearch",
        {"query": "cclens"},
        content='Web search results for query: "cclens"\n\n'
        'Links: [{"title":"cclens","url":"https://example.org/cclens"}]\n\nIt is a viewer.',
    ),
    # Agents
    Case(
        "agent completed",
        "Agent",
        {
            "description": "Find the loader",
            "prompt": "Find the config loader.",
            "subagent_type": "Explore",
            "model": "sonnet",
        },
        {
            "status": "completed",
            "agentId": "a1b2c3",
            "agentType": "Explore",
            "content": [{"type": "text", "text": "It is in `config.py`."}],
            "totalDurationMs": 4200,
            "totalTokens": 12345,
            "totalToolUseCount": 3,
            "toolStats": {
                "readCount": 2,
                "searchCount": 1,
                "bashCount": 0,
                "editFileCount": 0,
                "linesAdded": 0,
                "linesRemoved": 0,
                "otherToolCount": 0,
            },
        },
        [{"type": "text", "text": "It is in `config.py`."}],
        subagent=_agent_transcript(),
    ),
    Case(
        "task async",
        "Task",
        {
            "description": "Explore scope",
            "prompt": "Survey calls.",
            "subagent_type": "Explore",
            "run_in_background": True,
        },
        {
            "isAsync": True,
            "status": "async_launched",
            "agentId": "a1agnt",
            "description": "Explore scope",
            "prompt": "Survey calls.",
            "outputFile": "/tmp/a1agnt.output",
        },
        "Async agent launched successfully.",
    ),
    Case(
        "task legacy",
        "Task",
        {"description": "Old task", "prompt": "Do it.\n" * 14},
        {
            "content": [{"type": "text", "text": "Done."}],
            "totalDurationMs": 61000,
            "totalTokens": 900,
            "totalToolUseCount": 1,
        },
    ),
    Case(
        "workflow",
        "Workflow",
        {"script": "phase('Map')\nreturn await agent('x')\n"},
        {
            "isAsync": True,
            "status": "async_launched",
            "runId": "wf_1",
            "taskId": "task_1",
            "transcriptDir": "s/subagents/workflows/wf_1",
        },
        "Workflow launched in background. Task ID: task_1",
    ),
    Case(
        "skill",
        "Skill",
        {"skill": "release-notes", "args": "v1.2"},
        content="Launching skill: release-notes",
    ),
    Case(
        "send message",
        "SendMessage",
        {"to": "alice", "summary": "round 2", "message": "Please **merge** master."},
        {
            "success": True,
            "message": "Message sent to alice's inbox",
            "routing": {"sender": "team-lead", "target": "@alice"},
        },
    ),
    Case(
        "team create",
        "TeamCreate",
        {"team_name": "coverage", "description": "Tests", "agent_type": "team-lead"},
        content=[
            {
                "type": "text",
                "text": '{"team_name": "coverage", "team_file_path": "/t/config.json", '
                '"lead_agent_id": "lead@coverage"}',
            }
        ],
    ),
    Case(
        "team delete",
        "TeamDelete",
        {},
        {
            "success": False,
            "message": "Cannot cleanup team with 1 active member",
            "team_name": "coverage",
        },
    ),
    Case(
        "structured output",
        "StructuredOutput",
        {
            "area": "loader",
            "key_functions": ["load", "scan"],
            "summary": "Discovery misses workflows.",
        },
        content=None,
    ),
    Case("list agents", "ListAgents", {}, content="No agents running."),
    Case("subagent handback", "SubagentHandback", {"summary": "done"}, content="ok"),
    # Task list
    Case(
        "todo write",
        "TodoWrite",
        {
            "todos": [
                {"content": "Write tests", "status": "completed", "activeForm": "Writing tests"}
            ]
        },
        {
            "oldTodos": [
                {"content": "Write tests", "status": "in_progress", "activeForm": "Writing tests"},
                {"content": "Old idea", "status": "pending", "activeForm": "Thinking"},
            ],
            "newTodos": [
                {"content": "Write tests", "status": "completed", "activeForm": "Writing tests"},
                {"content": "Ship it", "status": "in_progress", "activeForm": "Shipping it"},
                {"content": "Announce", "status": "pending", "activeForm": "Announcing"},
            ],
        },
    ),
    Case(
        "task create",
        "TaskCreate",
        {
            "subject": "Draft fixture",
            "description": "Write the **fixture**",
            "activeForm": "Drafting",
        },
        {"task": {"id": "1", "subject": "Draft fixture"}},
    ),
    Case(
        "task update",
        "TaskUpdate",
        {"taskId": "1", "status": "completed", "owner": "alice"},
        {
            "success": True,
            "taskId": "1",
            "updatedFields": ["status", "owner"],
            "statusChange": {"from": "in_progress", "to": "completed"},
        },
    ),
    Case(
        "task get",
        "TaskGet",
        {"taskId": "2"},
        {
            "task": {
                "id": "2",
                "subject": "Research",
                "status": "in_progress",
                "description": "Look around",
                "owner": "bob",
                "blockedBy": ["1"],
            }
        },
    ),
    Case(
        "task list",
        "TaskList",
        {},
        {
            "tasks": [
                {"id": "1", "subject": "Draft", "status": "completed"},
                {
                    "id": "2",
                    "subject": "Review",
                    "status": "pending",
                    "owner": "bob",
                    "blockedBy": ["1"],
                },
            ]
        },
    ),
    # Plans and the user
    Case("enter plan mode", "EnterPlanMode", {}, {"message": "Entered plan mode."}),
    Case(
        "exit plan mode approved",
        "ExitPlanMode",
        {"plan": "# Plan\n\n1. Do **this**"},
        {
            "plan": "# Plan\n\n1. Do **this**",
            "isAgent": False,
            "filePath": "/home/u/.claude/plans/p.md",
        },
        "User has approved your plan.",
    ),
    Case(
        "exit plan mode rejected",
        "exit_plan_mode",
        {"plan": "## Plan\n\nRename the file."},
        "Error: The user doesn't want to proceed with this tool use. The tool use was rejected. "
        "The user provided the following reason for the rejection:  Keep the name.",
        "The user doesn't want to proceed with this tool use. "
        "The user provided the following reason for the rejection:  Keep the name.",
        is_error=True,
    ),
    Case(
        "set goal",
        "SetGoal",
        {"condition": "All tests **pass**", "ask_user": True},
        {"condition": "All tests **pass**", "askUser": True},
    ),
    Case(
        "ask user question",
        "AskUserQuestion",
        {
            "questions": [
                {
                    "question": "Which formats?",
                    "header": "Formats",
                    "multiSelect": True,
                    "options": [
                        {"label": ".tar", "description": "Plain"},
                        {"label": ".tgz, .tar.gz", "description": "Gzip"},
                        {"label": ".zip", "description": "Zip"},
                    ],
                },
                {
                    "question": "Report errors how?",
                    "header": "Errors",
                    "multiSelect": False,
                    "options": [
                        {"label": "Comment", "description": "A line"},
                        {"label": "Field", "description": "A column"},
                    ],
                },
            ]
        },
        {
            "questions": [
                {
                    "question": "Which formats?",
                    "header": "Formats",
                    "multiSelect": True,
                    "options": [
                        {"label": ".tar", "description": "Plain"},
                        {"label": ".tgz, .tar.gz", "description": "Gzip"},
                        {"label": ".zip", "description": "Zip"},
                    ],
                },
                {
                    "question": "Report errors how?",
                    "header": "Errors",
                    "multiSelect": False,
                    "options": [
                        {"label": "Comment", "description": "A line"},
                        {"label": "Field", "description": "A column"},
                    ],
                },
            ],
            "answers": {
                "Which formats?": ".tar, .tgz, .tar.gz",
                "Report errors how?": "Neither: log them",
            },
        },
    ),
    Case(
        "push notification",
        "PushNotification",
        {"message": "Build finished", "status": "done"},
        {
            "message": "Build finished",
            "pushSent": False,
            "localSent": True,
            "disabledReason": "no phone paired",
        },
    ),
    Case(
        "read notifications",
        "ReadNotifications",
        {},
        {
            "notifications": [
                {
                    "notification_id": "n1",
                    "origin": "ci",
                    "queued_at": "10:00",
                    "content": "Build green",
                }
            ],
            "remaining": 0,
        },
    ),
    Case(
        "send feedback",
        "SendFeedback",
        {"type": "bug", "title": "Crash on start", "details": "It **crashes**.", "area": "cli"},
        {"success": True, "message": "Thanks!"},
    ),
    Case(
        "onboarding role", "ShowOnboardingRolePicker", {}, {"role": "engineer", "dismissed": False}
    ),
    Case(
        "chrome setup", "OfferChromeSetup", {"reason": "To test the page"}, {"outcome": "accepted"}
    ),
    Case("send user message", "SendUserMessage", {"message": "Done for today"}, content="sent"),
    Case("send user file", "SendUserFile", {"path": "/work/project/report.pdf"}, content="sent"),
    Case(
        "share onboarding guide", "ShareOnboardingGuide", {"guide": "quickstart"}, content="shared"
    ),
    Case("end conversation", "EndConversation", {}, content="ended"),
    # MCP
    Case(
        "mcp text and image",
        "mcp__github__search_issues",
        {"query": "is:open label:bug", "limit": 5, "filters": {"state": "open"}},
        [
            {"type": "text", "text": "Found 2 issues"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
        ],
        [
            {"type": "text", "text": "Found 2 issues"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
        ],
    ),
    Case(
        "mcp json text",
        "mcp__plugin_serena_serena__find_symbol",
        {"name_path": "Loader"},
        [{"type": "text", "text": '{"symbols": [{"name": "Loader", "line": 3}]}'}],
        [{"type": "text", "text": '{"symbols": [{"name": "Loader", "line": 3}]}'}],
    ),
    Case(
        "mcp error",
        "mcp__db__query",
        {"sql": "select 1"},
        "Error: connection refused",
        "connection refused",
        is_error=True,
    ),
    Case(
        "list mcp resources",
        "ListMcpResourcesTool",
        {"server": "docs"},
        [{"uri": "docs://readme", "name": "README", "mimeType": "text/markdown", "server": "docs"}],
    ),
    Case("list mcp resources old name", "ListMcpResources", {}, content="No resources found."),
    Case(
        "read mcp resource",
        "ReadMcpResourceTool",
        {"server": "docs", "uri": "docs://readme"},
        {
            "contents": [
                {"uri": "docs://readme", "mimeType": "text/markdown", "text": "# Readme"},
                {"uri": "docs://logo", "blobSavedTo": "/tmp/logo.png"},
            ]
        },
    ),
    Case(
        "read mcp resource old name",
        "ReadMcpResource",
        {"server": "docs", "uri": "docs://x"},
        content="text of x",
    ),
    Case(
        "read mcp resource dir",
        "ReadMcpResourceDirTool",
        {"server": "docs", "uri": "docs://guides/"},
        {"resources": [{"uri": "docs://guides/a", "name": "A"}]},
    ),
    Case(
        "refresh mcp tools",
        "RefreshMcpTools",
        {"server": "github"},
        [
            {
                "server": "github",
                "status": "connected",
                "toolCount": 12,
                "added": ["search_code"],
                "removed": [],
            }
        ],
    ),
    Case(
        "wait for mcp servers",
        "WaitForMcpServers",
        {"servers": ["github"]},
        content="All servers connected.",
    ),
    # Scheduling
    Case(
        "cron create",
        "CronCreate",
        {"cron": "*/2 * * * *", "prompt": "Run git status", "recurring": True},
        content="Scheduled recurring job 337e67de (Every 2 minutes).",
    ),
    Case(
        "cron create typed",
        "CronCreate",
        {"cron": "30 9 * * 1-5", "prompt": "Stand-up notes", "recurring": True, "durable": True},
        {
            "id": "c9",
            "humanSchedule": "Weekdays at 09:30",
            "recurring": True,
            "durable": True,
            "nextFireAt": 1767259800000,
        },
    ),
    Case(
        "cron delete",
        "CronDelete",
        {"id": "337e67de"},
        {"id": "337e67de", "endedLoopWakeup": False},
    ),
    Case(
        "cron list",
        "CronList",
        {},
        {
            "jobs": [
                {
                    "id": "337e67de",
                    "cron": "0 9 * * *",
                    "prompt": "Morning check",
                    "recurring": True,
                }
            ]
        },
    ),
    Case(
        "schedule wakeup",
        "ScheduleWakeup",
        {"delaySeconds": 240, "reason": "Wait for CI", "prompt": "/loop check CI"},
        {"scheduledFor": 1767259800000, "clampedDelaySeconds": 270, "wasClamped": True},
    ),
    Case(
        "remote trigger",
        "RemoteTrigger",
        {"action": "run", "trigger_id": "trg_1", "body": {"branch": "main"}},
        {"status": 404, "json": '{"error": "not found"}'},
    ),
    # Everything else
    Case(
        "enter worktree",
        "EnterWorktree",
        {"name": "feature-x"},
        {
            "worktreePath": "/work/project/.claude/worktrees/feature-x",
            "worktreeBranch": "worktree-feature-x",
            "message": "Entered",
        },
    ),
    Case(
        "exit worktree",
        "ExitWorktree",
        {"action": "remove", "discard_changes": True},
        {
            "action": "remove",
            "originalCwd": "/work/project",
            "discardedFiles": 2,
            "discardedCommits": 1,
        },
    ),
    Case("config", "Config", {"setting": "theme", "value": "dark"}, content="Set theme to dark"),
    Case(
        "artifact",
        "Artifact",
        {"action": "publish", "file_path": "/work/project/page.html", "title": "Report"},
        {
            "url": "https://claude.ai/public/artifacts/abc",
            "title": "Report",
            "version": "3",
            "seq": 3,
            "warnings": ["big file"],
        },
    ),
    Case(
        "projects",
        "Projects",
        {"method": "search", "query": "deploy", "n": 3},
        {
            "method": "search",
            "hits": [{"path": "docs/deploy.md", "score": 0.9}],
            "instructions": "Use **care**.",
        },
    ),
    Case(
        "claude design",
        "ClaudeDesign",
        {"operation": "render", "arguments": {"frame": "home"}},
        {
            "operation": "render",
            "content": [{"type": "text", "text": "Rendered home"}],
            "isError": False,
        },
    ),
    Case(
        "report findings",
        "ReportFindings",
        {
            "level": "thorough",
            "findings": [
                {
                    "file": "src/app.py",
                    "line": 12,
                    "summary": "Off by one",
                    "failure_scenario": "An empty list **crashes**.",
                    "category": "bug",
                    "severity": "high",
                }
            ],
        },
        {"count": 1, "level": "thorough"},
    ),
    Case(
        "propose skills",
        "propose_skills",
        {
            "proposals": [
                {
                    "name": "release-notes",
                    "kind": "new",
                    "description": "Write **notes**",
                    "evidence": ["asked 3 times"],
                }
            ]
        },
        {"proposalCount": 1},
    ),
]


def _cases_by_view() -> dict[str, list[Case]]:
    grouped: dict[str, list[Case]] = {}
    for case in CASES:
        name = MCP_VIEW.name if case.tool.startswith("mcp__") else TOOL_VIEWS[case.tool].name
        grouped.setdefault(name, []).append(case)
    return grouped


CASES_BY_VIEW = _cases_by_view()
ALL_VIEWS = sorted({view.name for view, _ in VIEWS} | {MCP_VIEW.name})


# Coverage of the catalogue ----------------------------------------------------------------------


def test_every_builtin_tool_name_has_a_dedicated_view() -> None:
    names = {name for spec in BUILTIN_TOOLS for name in spec.names}
    assert sorted(names - TOOL_VIEWS.keys()) == []
    assert sorted(TOOL_VIEWS.keys() - names) == []


def test_aliases_share_their_tool_s_view() -> None:
    assert TOOL_VIEWS["Task"] is TOOL_VIEWS["Agent"]
    assert TOOL_VIEWS["KillShell"] is TOOL_VIEWS["TaskStop"] is TOOL_VIEWS["KillBash"]
    assert TOOL_VIEWS["BashOutput"] is TOOL_VIEWS["TaskOutput"] is TOOL_VIEWS["AgentOutputTool"]
    assert TOOL_VIEWS["exit_plan_mode"] is TOOL_VIEWS["ExitPlanMode"]
    assert TOOL_VIEWS["ListMcpResources"] is TOOL_VIEWS["ListMcpResourcesTool"]
    assert TOOL_VIEWS["ReadMcpResource"] is TOOL_VIEWS["ReadMcpResourceTool"]


def test_every_view_has_a_snapshot_case() -> None:
    assert sorted(set(ALL_VIEWS) - CASES_BY_VIEW.keys()) == []


# The corpus --------------------------------------------------------------------------------------


def _all_calls(session: Session) -> Iterator[ToolCall]:
    for candidate in session.all_sessions():
        yield from candidate.tool_calls.values()


_TOOL_TAG = re.compile(r'<section class="tool[^"]*" data-tool="([^"]*)" data-view="([^"]*)"')


@pytest.mark.parametrize("path", sampled(corpus_files(), quick=20), ids=lambda p: p.name)
def test_every_corpus_call_is_drawn_by_its_own_view(path: Path) -> None:
    session = load_session(path)
    renderer = SessionRenderer(EAGER)
    for call in _all_calls(session):
        html = str(renderer.tool(call))
        tags = _TOOL_TAG.findall(html)
        assert tags, f"{path.name}: {call.name} {call.id} drew no tool frame"
        _, view = tags[0]
        known = is_known_tool(call.name) and not isinstance(call.input, UnknownToolInput)
        expected = view_for(call).name
        assert view == expected, f"{path.name}: {call.name} {call.id} drawn by {view}"
        if known:
            assert view != "generic", f"{path.name}: {call.name} {call.id} fell back to generic"
    assert renderer.view_failures == []


# Snapshots ---------------------------------------------------------------------------------------


def _normalized(html: str) -> str:
    lines = (line.rstrip() for line in html.split("\n"))
    return "\n".join(line for line in lines if line.strip()) + "\n"


@pytest.mark.parametrize("view", ALL_VIEWS)
def test_view_snapshot(view: str, tmp_path: Path) -> None:
    cases = CASES_BY_VIEW[view]
    parts = []
    for case, (_, call) in zip(cases, load_cases(tmp_path, cases), strict=True):
        drawn = render(call)
        assert drawn.failures == []
        assert f'data-view="{view}"' in drawn.html
        parts.append(f"<!-- case: {case.label} -->\n{_normalized(drawn.html)}")
    text = "".join(parts)
    snapshot = SNAPSHOTS / f"{view}.html"
    if UPDATE or not snapshot.exists():
        if not UPDATE:
            pytest.fail(f"missing snapshot {snapshot.name}: run with CCLENS_UPDATE_SNAPSHOTS=1")
        snapshot.parent.mkdir(parents=True, exist_ok=True)
        snapshot.write_text(text)
    assert canonical(text) == canonical(snapshot.read_text())


# What the views show ----------------------------------------------------------------------------


def _drawn(tmp_path: Path, label: str) -> str:
    case = next(c for c in CASES if c.label == label)
    directory = tmp_path / re.sub(r"\W+", "-", label)
    directory.mkdir()
    ((_, call),) = load_cases(directory, [case])
    drawn = render(call)
    assert drawn.failures == []
    return drawn.html


def test_bash_styles_stdout_and_stderr_apart_and_reads_the_exit_code(tmp_path: Path) -> None:
    html = _drawn(tmp_path, "bash ok")
    assert 'class="output output-stdout"' in html and 'class="output output-stderr"' in html
    failed = _drawn(tmp_path, "bash exit code")
    assert "exit code 1" in failed and "something broke" in failed
    assert 'class="output output-error"' in failed


def test_background_views_link_to_the_task_they_act_on(tmp_path: Path) -> None:
    started = _drawn(tmp_path, "bash background")
    assert 'id="task-bash_1"' in started and "sandbox disabled" in started
    polled = _drawn(tmp_path, "bash output")
    assert 'href="#task-bash_1"' in polled
    text_only = _drawn(tmp_path, "task output text")
    assert 'href="#task-b1bg01"' in text_only and "(still sleeping)" in text_only
    assert "in progress" in text_only


def test_read_numbers_lines_from_the_real_start_line(tmp_path: Path) -> None:
    html = _drawn(tmp_path, "read text")
    assert 'data-n="10"' in html and 'data-n="11"' in html and "Lines 10–11 of 40" in html
    text_only = _drawn(tmp_path, "read text only")
    # The reminder Claude Code appended is not a line of the file: it is shown apart, as what
    # the model read besides the file.
    view, besides = text_only.split("tool-body", 1)[1].split("What the model read besides")
    assert 'data-n="5"' in view and "system-reminder" not in view
    assert "&lt;system-reminder&gt;" in besides and "Be careful." in besides


def test_numbered_text_keeps_the_numbers_and_drops_what_follows() -> None:
    assert numbered_text("    12→a\n    13→\tb\n\n<system-reminder>x</system-reminder>") == (
        "a\n\tb",
        12,
    )
    assert numbered_text("     1\told style") == ("old style", 1)
    assert numbered_text("no numbers here") is None


def test_edit_diff_is_computed_when_no_patch_was_recorded(tmp_path: Path) -> None:
    html = _drawn(tmp_path, "edit without result")
    assert "computed from the old and new text" in html
    assert "every occurrence" in html
    recorded = _drawn(tmp_path, "edit patch")
    assert "computed from" not in recorded and "modified by the user" in recorded


def test_write_tells_created_from_updated(tmp_path: Path) -> None:
    assert "created" in _drawn(tmp_path, "write create")
    updated = _drawn(tmp_path, "write update")
    assert "updated" in updated and 'class="diff"' in updated


def test_grep_marks_matches_of_the_pattern(tmp_path: Path) -> None:
    html = _drawn(tmp_path, "grep content")
    assert "<mark>def main</mark>" in html and "<mark>def RUN</mark>" in html
    assert 'class="grep-line grep-context muted"' in html


def test_grep_does_not_rerun_patterns_that_backtrack_for_ever() -> None:
    assert matcher("(a+)+$", False, False) is None
    assert matcher("[unclosed", False, False) is None
    lines = grep_lines("x.py:3:hello world", matcher("wor", False, False))
    assert lines[0].file == "x.py" and lines[0].number == "3"
    assert lines[0].parts == [("hello ", False), ("wor", True), ("ld", False)]


def test_todo_list_shows_icons_and_changes(tmp_path: Path) -> None:
    html = _drawn(tmp_path, "todo write")
    for icon in ("●", "◐", "○"):
        assert icon in html
    assert ">done<" in html and ">new<" in html and ">removed<" in html


def test_agent_nests_the_subagent_conversation(tmp_path: Path) -> None:
    html = _drawn(tmp_path, "agent completed")
    assert 'class="nested-session"' in html and "config.py" in html
    assert "12.3k tokens" in html and "3 tool calls" in html
    assert html.count('class="nested-session"') == 1


def test_ask_user_question_highlights_the_chosen_answers(tmp_path: Path) -> None:
    html = _drawn(tmp_path, "ask user question")
    chosen = re.findall(r'class="option is-chosen[^"]*".*?<strong>(.*?)</strong>', html)
    assert chosen == [".tar", ".tgz, .tar.gz", "Neither: log them"]


def test_exit_plan_mode_shows_the_rejection_reason(tmp_path: Path) -> None:
    html = _drawn(tmp_path, "exit plan mode rejected")
    assert "plan rejected" in html and "Keep the name." in html


def test_web_search_links_are_safe_links(tmp_path: Path) -> None:
    html = _drawn(tmp_path, "web search text")
    assert 'href="https://example.org/cclens" rel="noopener noreferrer"' in html


def test_cron_expressions_in_words() -> None:
    assert describe_cron("*/2 * * * *") == "every 2 minutes"
    assert describe_cron("30 9 * * 1-5") == "on weekdays at 09:30"
    assert describe_cron("0 8 * * 1") == "every Monday at 08:00"
    assert describe_cron("15 14 1 6 *") == "on June 1 at 14:15"
    assert describe_cron("0 */3 * * *") == "every 3 hours at :00"
    assert describe_cron("not a cron") == ""


# Hostile content ---------------------------------------------------------------------------------

HOSTILE = (
    "javascript:alert(1)//<script>alert(1)</script><img src=x onerror=alert(1)>"
    '"><svg onload=alert(1)>[x](javascript:alert(2)) <a href="javascript:alert(3)">a</a>'
)
HOSTILE_KEY = '<img src=x onerror=alert("key")>'


def _hostile(value: Any, key: str = "") -> Any:
    """``value`` with every string (and every key of a free-form object) made hostile.

    Tags, media types and numbers keep their meaning so that each view still takes the path
    that draws those fields.
    """
    if isinstance(value, str):
        if key in ("media_type", "mediaType") or (key == "type" and value.startswith("image/")):
            return "image/svg+xml"
        if key in ("type", "status", "mode", "output_mode", "edit_mode", "cellType", "cell_type"):
            return value
        return HOSTILE if not value.startswith("data:") else value
    if isinstance(value, list):
        return [_hostile(item, key) for item in value]
    if isinstance(value, dict):
        out = {k: _hostile(v, k) for k, v in value.items()}
        if key in ("input", "arguments", "filters", "body", "answers"):
            out[HOSTILE_KEY] = HOSTILE
        return out
    return value


class _Audit(HTMLParser):
    """Collects what would run: script elements, event-handler attributes, script URLs."""

    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "iframe", "object", "embed", "svg", "math", "base", "meta", "form"):
            self.problems.append(f"<{tag}>")
        for name, raw in attrs:
            value = "".join((raw or "").split()).lower()
            if name.startswith("on"):
                self.problems.append(f"<{tag} {name}>")
            if name in ("href", "src", "action", "formaction", "xlink:href"):
                if value.startswith(("javascript:", "vbscript:")):
                    self.problems.append(f"<{tag} {name}={value[:30]}>")
                if value.startswith("data:") and not value.startswith(
                    ("data:image/png", "data:image/jpeg", "data:image/gif", "data:image/webp")
                ):
                    self.problems.append(f"<{tag} {name}={value[:30]}>")
            if name == "style":
                self.problems.append(f"<{tag} style>")


def _audit(html: str) -> list[str]:
    audit = _Audit()
    audit.feed(html)
    audit.close()
    return audit.problems


def _hostile_case(case: Case) -> Case:
    tool = case.tool
    if tool.startswith("mcp__"):
        tool = "mcp__<img src=x onerror=alert(1)>__<script>alert(1)</script>"
    return Case(
        case.label,
        tool,
        _hostile(case.input, "input"),
        case.result if case.result is UNSET else _hostile(case.result, "result"),
        case.content if case.content is None else _hostile(case.content, "content"),
        case.is_error,
        case.subagent if case.subagent is None else _hostile(case.subagent, "subagent"),
    )


@pytest.mark.parametrize("view", ALL_VIEWS)
def test_hostile_strings_in_every_field_never_run(view: str, tmp_path: Path) -> None:
    cases = [_hostile_case(case) for case in CASES_BY_VIEW[view]]
    for case, (_, call) in zip(cases, load_cases(tmp_path, cases), strict=True):
        drawn = render(call)
        assert drawn.failures == [], case.label
        assert _audit(drawn.html) == [], f"{case.label}: {drawn.html[:2000]}"
        assert "alert(1)" in drawn.html, f"{case.label}: the hostile text is not shown at all"


def test_the_audit_catches_what_it_looks_for() -> None:
    assert _audit('<a href=" java\tscript:alert(1)">x</a>') != []
    assert _audit("<img src=x onerror=alert(1)>") != []
    assert _audit("<script>alert(1)</script>") != []
    assert _audit('<img src="data:image/svg+xml;base64,AAAA">') != []
    assert _audit("&lt;script&gt;alert(1)&lt;/script&gt;") == []


# Odd shapes -------------------------------------------------------------------------------------

#: Results a call may carry whatever the tool: none at all, an error, an empty or unexpected value.
ODD_RESULTS: list[tuple[str, Any, Any, bool | None]] = [
    ("no result", UNSET, None, None),
    ("error text", "Error: it broke", "<tool_use_error>it broke</tool_use_error>", True),
    ("plain text", UNSET, "just text", None),
    ("empty object", {}, "", None),
    ("empty list", [], [], None),
    ("wrong shape", {"unexpected": [1, {"deep": None}]}, "?", False),
    ("number", 42, "42", None),
]


def _minimal_input(tool: str) -> dict[str, Any]:
    """The smallest input of ``tool`` that still has its type: its required fields, as text."""
    input_type = tool_spec(tool).input_type
    if not isinstance(input_type, type) or not issubclass(input_type, msgspec.Struct):
        return {}
    return {f.encode_name: "x" for f in msgspec.structs.fields(input_type) if f.required}


@pytest.mark.parametrize("tool", sorted(TOOL_VIEWS))
def test_every_view_draws_odd_results_without_failing(tool: str, tmp_path: Path) -> None:
    cases = [
        Case(label, tool, _minimal_input(tool), result, content, is_error)
        for label, result, content, is_error in ODD_RESULTS
    ]
    for case, (_, call) in zip(cases, load_cases(tmp_path, cases), strict=True):
        drawn = render(call)
        assert drawn.failures == [], f"{tool} with {case.label}"
        expected = view_for(call).name
        assert f'data-view="{expected}"' in drawn.html
        assert not isinstance(call.input, UnknownToolInput)
        assert expected == TOOL_VIEWS[tool].name
        if case.label == "error text":
            assert "it broke" in drawn.html


class _LookupHelpers(ViewHelpers):
    """Helpers of a page that can look up the call that started a background task."""

    def __init__(self, session: Session) -> None:
        super().__init__(template_environment())
        self._session = session

    def find_background(self, task_id: str) -> ToolCall | None:
        for call in self._session.tool_calls.values():
            result = call.result
            if isinstance(result, BashResult) and result.background_task_id == task_id:
                return call
            if isinstance(result, AgentAsyncLaunchedResult) and result.agent_id == task_id:
                return call
        return None


def test_background_links_go_to_the_starting_call_when_the_page_can_find_it(corpus: Path) -> None:
    session = load_session(next(corpus.rglob("task_id_linking.jsonl")))
    helpers = _LookupHelpers(session)
    calls = session.tool_calls
    polled = prepare_background_output(calls["toolu_154_to_bash"], helpers)
    assert polled.link == Link("#tool-toolu_154_bash_bg", "b1bg01")
    agent = prepare_background_output(calls["toolu_154_to_agent"], helpers)
    assert agent.link == Link("#tool-toolu_154_task_async", "a1agnt")
    stopped = prepare_task_stop(calls["toolu_154_stop_bash"], helpers)
    assert stopped.link == Link("#tool-toolu_154_bash_bg", "b1bg01")
    missing = prepare_task_stop(calls["toolu_154_stop_missing"], helpers)
    assert missing.link is None and missing.task_id == "nope1234"


@pytest.mark.browser
def test_hostile_views_run_nothing_in_chromium(tmp_path: Path) -> None:
    from playwright.sync_api import Dialog, sync_playwright

    session = load_session(write_session(tmp_path, [_hostile_case(case) for case in CASES]))
    assert len(session.tool_calls) == len(CASES)
    page_file = tmp_path / "page.html"
    page_file.write_text(render_session_page(session))
    dialogs: list[str] = []
    errors: list[str] = []

    def on_dialog(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
            ],
        )
        try:
            page = browser.new_page()
            page.on("dialog", on_dialog)
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(page_file.as_uri())
            # Unfold everything (drawing every folded part), so nothing hostile stays out of the
            # rendered tree.
            page.evaluate("window.cclens.drawChunks()")
            for _ in range(4):
                page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
                page.wait_for_timeout(150)
            assert page.locator("[data-lazy]:not([data-ready])").count() == 0
            for button in page.locator("button.expand:visible").all():
                button.click()
            assert page.locator("section.tool").count() == len(CASES)
            artifacts = Path(__file__).resolve().parents[1] / "test-artifacts"
            artifacts.mkdir(exist_ok=True)
            page.screenshot(path=str(artifacts / "tool-views-hostile.png"))
        finally:
            browser.close()
    assert dialogs == []
    assert errors == []


def test_json_printed_by_a_command_stays_its_output(tmp_path: Path) -> None:
    case = Case("json output", "Bash", {"command": "cat package.json"}, content='{"name": "app"}')
    ((_, call),) = load_cases(tmp_path, [case])
    drawn = render(call)
    assert "No output" not in drawn.html
    assert "&#34;name&#34;: &#34;app&#34;" in drawn.html or "&quot;name&quot;" in drawn.html
