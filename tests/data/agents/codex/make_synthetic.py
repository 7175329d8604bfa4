"""Write the synthetic Codex CLI rollout files of ``tests/data/agents/codex/synthetic``.

The files hold every response item and persisted event kind of Codex's protocol
(``codex-rs/protocol`` and the rollout recorder's persistence policy), a subagent thread forked
from its parent, an orphan review thread, the mid-2025 bare form, and a file with bad lines.
They are written with the json module only (no cclens import), so the tests read files that
cclens did not write. The output is the same on every run.

Run it from this folder to write the files again, then commit them::

    cd tests/data/agents/codex && python3 make_synthetic.py synthetic
"""

import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypedDict

JsonObject = dict[str, Any]
"""A JSON object, as the json module reads and writes it."""

PARENT_THREAD_ID = "019f1000-0000-7000-8000-00000000000a"
SUBAGENT_THREAD_ID = "019f1000-0000-7000-8000-00000000000b"
REVIEW_THREAD_ID = "019f1000-0000-7000-8000-00000000000c"
BARE_SESSION_ID = "5f0c2a1e-1111-4c22-9333-444455556666"
BROKEN_THREAD_ID = "019f1000-0000-7000-8000-0000000000dd"

FORKED_LINE_COUNT = 19
"""How many of the parent's lines the forked subagent thread copies: up to the repeated count."""


class RolloutLine(TypedDict):
    """One line of a rollout file since mid-2025: when, what kind, and that kind's payload."""

    timestamp: str
    type: str
    payload: JsonObject


class TokenUsage(TypedDict):
    """The token figures of a ``token_count`` event, in the order Codex writes them."""

    input_tokens: int
    cached_input_tokens: int
    output_tokens: int
    reasoning_output_tokens: int
    total_tokens: int


class Clock:
    """Timestamps one millisecond apart after a start time, as Codex writes them."""

    def __init__(self, start: str = "2026-05-01T10:00:00") -> None:
        self.start = start
        self.milliseconds = 0

    def next_timestamp(self) -> str:
        """The next timestamp: the start plus one more millisecond."""
        self.milliseconds += 1
        return f"{self.start}.{self.milliseconds:03d}Z"


def json_line(record: object) -> str:
    """One record as Codex writes it on a line: compact, non-ASCII characters kept."""
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False)


def write_file(output_folder: Path, relative_path: str, text: str) -> None:
    """Write a file below the output folder, making its folders first."""
    path = output_folder / relative_path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")


def write_rollout(
    output_folder: Path, relative_path: str, records: Sequence[Mapping[str, object]]
) -> None:
    """Write a rollout file: one JSON record a line, each line ending with a newline."""
    write_file(
        output_folder, relative_path, "".join(json_line(record) + "\n" for record in records)
    )


def rollout_line(clock: Clock, kind: str, payload: JsonObject) -> RolloutLine:
    """A line of the given kind, stamped with the clock's next timestamp."""
    return {"timestamp": clock.next_timestamp(), "type": kind, "payload": payload}


def event(clock: Clock, payload: JsonObject) -> RolloutLine:
    """An ``event_msg`` line."""
    return rollout_line(clock, "event_msg", payload)


def response_item(clock: Clock, payload: JsonObject) -> RolloutLine:
    """A ``response_item`` line."""
    return rollout_line(clock, "response_item", payload)


def token_usage(
    input_tokens: int, cached_input_tokens: int, output_tokens: int, reasoning_output_tokens: int
) -> TokenUsage:
    """Token figures whose total is the input plus the output, as Codex counts it."""
    return {
        "input_tokens": input_tokens,
        "cached_input_tokens": cached_input_tokens,
        "output_tokens": output_tokens,
        "reasoning_output_tokens": reasoning_output_tokens,
        "total_tokens": input_tokens + output_tokens,
    }


class TokenCounter:
    """A thread's ``token_count`` events: each response's usage and the thread's running total."""

    def __init__(self, totals: TokenUsage | None = None) -> None:
        self.totals = totals if totals is not None else token_usage(0, 0, 0, 0)

    def count(
        self,
        clock: Clock,
        input_tokens: int,
        cached_input_tokens: int,
        output_tokens: int,
        reasoning_output_tokens: int,
    ) -> RolloutLine:
        """The event for one response's usage, added to the running total."""
        last = token_usage(
            input_tokens, cached_input_tokens, output_tokens, reasoning_output_tokens
        )
        self.totals = token_usage(
            self.totals["input_tokens"] + input_tokens,
            self.totals["cached_input_tokens"] + cached_input_tokens,
            self.totals["output_tokens"] + output_tokens,
            self.totals["reasoning_output_tokens"] + reasoning_output_tokens,
        )
        return event(
            clock,
            {
                "type": "token_count",
                "info": {
                    "total_token_usage": self.totals,
                    "last_token_usage": last,
                    "model_context_window": 258400,
                },
                "rate_limits": {"primary": {"used_percent": 1.0, "window_minutes": 300}},
            },
        )

    def repeat_totals(self, clock: Clock) -> RolloutLine:
        """The event Codex writes again without a new response: the total as the last usage."""
        return event(
            clock,
            {
                "type": "token_count",
                "info": {
                    "total_token_usage": self.totals,
                    "last_token_usage": self.totals,
                    "model_context_window": 258400,
                },
                "rate_limits": None,
            },
        )


PATCH = (
    "*** Begin Patch\n*** Update File: src/app.py\n@@ def main():\n-    print('hi')\n"
    "+    print('hello')\n*** Add File: NOTES.md\n+# Notes\n+first line\n*** Delete File: old.txt\n"
    "*** End Patch\n"
)


def write_parent_thread(output_folder: Path) -> list[RolloutLine]:
    """The parent thread: two turns using every tool kind and every persisted event kind."""
    clock = Clock()
    tokens = TokenCounter()
    session_meta: JsonObject = {
        "id": PARENT_THREAD_ID,
        "timestamp": "2026-05-01T10:00:00.000Z",
        "cwd": "/home/dev/shop",
        "originator": "codex_cli_rs",
        "cli_version": "0.130.0",
        "source": "cli",
        "model_provider": "openai",
        "base_instructions": {"text": "You are Codex."},
        "git": {
            "commit_hash": "0123456789abcdef0123456789abcdef01234567",
            "branch": "feature/cart",
            "repository_url": "git@example.com:dev/shop.git",
        },
    }
    turn_context: JsonObject = {
        "turn_id": "turn-1",
        "cwd": "/home/dev/shop",
        "approval_policy": "on-request",
        "sandbox_policy": {"type": "workspace-write", "network_access": False},
        "model": "gpt-5.1-codex",
        "effort": "medium",
        "summary": "auto",
    }
    lines: list[RolloutLine] = [
        rollout_line(clock, "session_meta", session_meta),
        response_item(
            clock,
            {
                "type": "message",
                "role": "developer",
                "content": [
                    {
                        "type": "input_text",
                        "text": "<permissions instructions>sandboxed</permissions instructions>",
                    }
                ],
            },
        ),
        response_item(
            clock,
            {
                "type": "message",
                "role": "user",
                "content": [
                    {
                        "type": "input_text",
                        "text": (
                            "<environment_context>\n  <cwd>/home/dev/shop</cwd>\n"
                            "</environment_context>"
                        ),
                    }
                ],
            },
        ),
        event(clock, {"type": "task_started", "turn_id": "turn-1", "model_context_window": 258400}),
        rollout_line(clock, "turn_context", turn_context),
        response_item(
            clock,
            {
                "type": "message",
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "Fix the greeting and add notes"},
                    {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo="},
                ],
            },
        ),
        event(
            clock,
            {
                "type": "user_message",
                "message": "Fix the greeting and add notes",
                "images": ["data:image/png;base64,iVBORw0KGgo="],
                "local_images": [],
                "text_elements": [],
            },
        ),
        event(
            clock,
            {
                "type": "token_count",
                "info": None,
                "rate_limits": {"primary": {"used_percent": 0.0}},
            },
        ),
        event(clock, {"type": "agent_reasoning", "text": "**Looking at the code**"}),
        response_item(
            clock,
            {
                "type": "reasoning",
                "summary": [{"type": "summary_text", "text": "**Looking at the code**"}],
                "content": None,
                "encrypted_content": "gAAAAAencrypted",
            },
        ),
        event(
            clock,
            {
                "type": "agent_message",
                "message": "I will read the file first.",
                "phase": "commentary",
            },
        ),
        response_item(
            clock,
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "I will read the file first."}],
                "phase": "commentary",
            },
        ),
        response_item(
            clock,
            {
                "type": "function_call",
                "name": "shell",
                "arguments": json.dumps(
                    {
                        "command": ["bash", "-lc", "cat src/app.py"],
                        "workdir": "/home/dev/shop",
                        "timeout_ms": 10000,
                    }
                ),
                "call_id": "call_shell_ok",
            },
        ),
        response_item(
            clock,
            {
                "type": "function_call",
                "name": "shell_command",
                "arguments": json.dumps({"command": "git status", "workdir": "/home/dev/shop"}),
                "call_id": "call_shell_fail",
            },
        ),
        tokens.count(clock, 1200, 1000, 80, 40),
        response_item(
            clock,
            {
                "type": "function_call_output",
                "call_id": "call_shell_ok",
                "output": json.dumps(
                    {
                        "output": "def main():\n    print('hi')\n",
                        "metadata": {"exit_code": 0, "duration_seconds": 0.1},
                    }
                ),
            },
        ),
        response_item(
            clock,
            {
                "type": "function_call_output",
                "call_id": "call_shell_fail",
                "output": (
                    "Exit code: 128\nWall time: 0.2 seconds\nOutput:\nfatal: not a git repository\n"
                ),
            },
        ),
        rollout_line(clock, "turn_context", turn_context),
        tokens.repeat_totals(clock),
        response_item(
            clock,
            {
                "type": "reasoning",
                "summary": [],
                "content": None,
                "encrypted_content": "gAAAAAencrypted2",
            },
        ),
        response_item(
            clock,
            {
                "type": "custom_tool_call",
                "status": "completed",
                "call_id": "call_patch",
                "name": "apply_patch",
                "input": PATCH,
            },
        ),
        tokens.count(clock, 1500, 1200, 200, 100),
        event(
            clock,
            {
                "type": "patch_apply_end",
                "call_id": "call_patch",
                "turn_id": "turn-1",
                "stdout": (
                    "Success. Updated the following files:\nM src/app.py\nA NOTES.md\nD old.txt\n"
                ),
                "stderr": "",
                "success": True,
                "changes": {
                    "/home/dev/shop/src/app.py": {
                        "type": "update",
                        "unified_diff": (
                            "@@ -1,2 +1,2 @@\n def main():\n-    print('hi')\n+    print('hello')\n"
                        ),
                        "move_path": None,
                    },
                    "/home/dev/shop/NOTES.md": {"type": "add", "content": "# Notes\nfirst line\n"},
                    "/home/dev/shop/old.txt": {"type": "delete", "content": "old\n"},
                },
            },
        ),
        response_item(
            clock,
            {
                "type": "custom_tool_call_output",
                "call_id": "call_patch",
                "output": json.dumps(
                    {
                        "output": (
                            "Success. Updated the following files:\nM src/app.py\nA NOTES.md\n"
                            "D old.txt\n"
                        ),
                        "metadata": {"exit_code": 0, "duration_seconds": 0.0},
                    }
                ),
            },
        ),
        response_item(
            clock,
            {
                "type": "function_call",
                "name": "update_plan",
                "arguments": json.dumps(
                    {
                        "explanation": "Greeting done",
                        "plan": [
                            {"step": "Fix the greeting", "status": "completed"},
                            {"step": "Add notes", "status": "in_progress"},
                            {"step": "Run tests", "status": "pending"},
                        ],
                    }
                ),
                "call_id": "call_plan",
            },
        ),
        response_item(
            clock,
            {
                "type": "local_shell_call",
                "call_id": "call_local",
                "status": "completed",
                "action": {
                    "type": "exec",
                    "command": ["ls", "-la"],
                    "timeout_ms": 5000,
                    "working_directory": "/home/dev/shop",
                    "env": None,
                    "user": None,
                },
            },
        ),
        response_item(
            clock,
            {
                "type": "web_search_call",
                "id": "ws_1",
                "status": "completed",
                "action": {"type": "search", "query": "python print unicode"},
            },
        ),
        tokens.count(clock, 2000, 1500, 150, 60),
        response_item(
            clock,
            {"type": "function_call_output", "call_id": "call_plan", "output": "Plan updated"},
        ),
        response_item(
            clock,
            {
                "type": "function_call_output",
                "call_id": "call_local",
                "output": "total 8\n-rw-r--r-- 1 dev dev 40 app.py\n",
            },
        ),
        event(
            clock,
            {
                "type": "web_search_end",
                "call_id": "ws_1",
                "query": "python print unicode",
                "action": {"type": "search", "query": "python print unicode"},
                "results": [
                    {
                        "title": "Unicode HOWTO",
                        "url": "https://docs.python.org/3/howto/unicode.html",
                    }
                ],
            },
        ),
        response_item(
            clock,
            {
                "type": "function_call",
                "name": "view_image",
                "arguments": json.dumps({"path": "/home/dev/shop/screen.png"}),
                "call_id": "call_image",
            },
        ),
        response_item(
            clock,
            {
                "type": "function_call",
                "name": "exec_command",
                "arguments": json.dumps(
                    {"cmd": "pytest -q", "workdir": "/home/dev/shop", "yield_time_ms": 10000}
                ),
                "call_id": "call_exec",
            },
        ),
        response_item(
            clock,
            {
                "type": "function_call",
                "name": "docs__search",
                "arguments": json.dumps({"query": "greeting style"}),
                "call_id": "call_mcp_ok",
            },
        ),
        response_item(
            clock,
            {
                "type": "function_call",
                "name": "docs__fetch",
                "arguments": json.dumps({"id": "42"}),
                "call_id": "call_mcp_err",
            },
        ),
        response_item(
            clock,
            {
                "type": "tool_search_call",
                "call_id": "call_search",
                "status": "completed",
                "execution": "client",
                "arguments": {"query": "calendar"},
            },
        ),
        response_item(
            clock,
            {
                "type": "image_generation_call",
                "id": "ig_1",
                "status": "completed",
                "revised_prompt": "a cart icon",
                "result": "iVBORw0KGgo=",
            },
        ),
        tokens.count(clock, 2500, 2000, 300, 120),
        event(
            clock,
            {
                "type": "view_image_tool_call",
                "call_id": "call_image",
                "path": "/home/dev/shop/screen.png",
            },
        ),
        response_item(
            clock,
            {
                "type": "function_call_output",
                "call_id": "call_image",
                "output": [
                    {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo="}
                ],
            },
        ),
        event(
            clock,
            {
                "type": "exec_command_end",
                "call_id": "call_exec",
                "turn_id": "turn-1",
                "command": ["bash", "-lc", "pytest -q"],
                "cwd": "/home/dev/shop",
                "parsed_cmd": [{"type": "unknown", "cmd": "pytest -q"}],
                "source": "agent",
                "stdout": "1 failed\n",
                "stderr": "",
                "aggregated_output": "1 failed\n",
                "exit_code": 1,
                "duration": {"secs": 2, "nanos": 500000000},
                "formatted_output": "1 failed\n",
                "status": "failed",
            },
        ),
        response_item(
            clock,
            {
                "type": "function_call_output",
                "call_id": "call_exec",
                "output": (
                    "Chunk ID: 1a2b3c\nWall time: 2.5000 seconds\nProcess exited with code 1\n"
                    "Original token count: 3\nOutput:\n1 failed\n"
                ),
            },
        ),
        event(
            clock,
            {
                "type": "mcp_tool_call_end",
                "call_id": "call_mcp_ok",
                "invocation": {
                    "server": "docs",
                    "tool": "search",
                    "arguments": {"query": "greeting style"},
                },
                "duration": {"secs": 0, "nanos": 300000000},
                "result": {
                    "Ok": {"content": [{"type": "text", "text": "Use 'hello'."}], "isError": False}
                },
            },
        ),
        response_item(
            clock,
            {
                "type": "function_call_output",
                "call_id": "call_mcp_ok",
                "output": json.dumps([{"type": "text", "text": "Use 'hello'."}]),
            },
        ),
        event(
            clock,
            {
                "type": "mcp_tool_call_end",
                "call_id": "call_mcp_err",
                "invocation": {"server": "docs", "tool": "fetch", "arguments": {"id": "42"}},
                "duration": {"secs": 0, "nanos": 1000000},
                "result": {"Err": "tool call failed: not found"},
            },
        ),
        response_item(
            clock,
            {
                "type": "function_call_output",
                "call_id": "call_mcp_err",
                "output": "err: tool call failed: not found",
            },
        ),
        response_item(
            clock,
            {
                "type": "tool_search_output",
                "call_id": "call_search",
                "status": "completed",
                "execution": "client",
                "tools": [{"type": "function", "name": "calendar__list"}],
            },
        ),
        event(
            clock,
            {
                "type": "image_generation_end",
                "call_id": "ig_1",
                "status": "completed",
                "revised_prompt": "a cart icon",
                "result": "iVBORw0KGgo=",
                "saved_path": "/home/dev/shop/cart.png",
            },
        ),
        response_item(
            clock,
            {
                "type": "function_call",
                "name": "spawn_agent",
                "arguments": json.dumps({"message": "Review the tests", "agent_type": "explorer"}),
                "call_id": "call_spawn",
            },
        ),
        tokens.count(clock, 2800, 2500, 90, 30),
        event(
            clock,
            {
                "type": "collab_agent_spawn_end",
                "call_id": "call_spawn",
                "sender_thread_id": PARENT_THREAD_ID,
                "new_thread_id": SUBAGENT_THREAD_ID,
                "new_agent_nickname": "Euclid",
                "new_agent_role": "explorer",
                "prompt": "Review the tests",
                "model": "gpt-5.1-codex-mini",
                "status": "pending_init",
            },
        ),
        response_item(
            clock,
            {
                "type": "function_call_output",
                "call_id": "call_spawn",
                "output": json.dumps({"agent_id": SUBAGENT_THREAD_ID, "nickname": "Euclid"}),
            },
        ),
        event(
            clock,
            {
                "type": "agent_message",
                "message": "Done: the greeting is fixed.",
                "phase": "final_answer",
            },
        ),
        response_item(
            clock,
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "Done: the greeting is fixed."}],
                "phase": "final_answer",
            },
        ),
        tokens.count(clock, 3000, 2800, 60, 0),
        event(
            clock,
            {
                "type": "task_complete",
                "turn_id": "turn-1",
                "last_agent_message": "Done: the greeting is fixed.",
                "duration_ms": 65000,
            },
        ),
        event(
            clock,
            {
                "type": "thread_name_updated",
                "thread_id": PARENT_THREAD_ID,
                "thread_name": "Greeting fix",
            },
        ),
        response_item(
            clock,
            {
                "type": "ghost_snapshot",
                "ghost_commit": {
                    "id": "89abcdef0123456789abcdef0123456789abcdef",
                    "parent": "0123456789abcdef0123456789abcdef01234567",
                    "preexisting_untracked_files": [],
                    "preexisting_untracked_dirs": [],
                },
            },
        ),
        event(clock, {"type": "task_started", "turn_id": "turn-2", "model_context_window": 258400}),
        rollout_line(clock, "turn_context", dict(turn_context, turn_id="turn-2")),
        response_item(
            clock,
            {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": "Now run the whole suite"}],
            },
        ),
        event(clock, {"type": "user_message", "message": "Now run the whole suite", "images": []}),
        response_item(
            clock,
            {
                "type": "function_call",
                "name": "shell",
                "arguments": json.dumps({"command": ["bash", "-lc", "pytest"]}),
                "call_id": "call_aborted",
            },
        ),
        response_item(
            clock,
            {
                "type": "function_call",
                "name": "shell",
                "arguments": json.dumps({"command": ["rm", "-rf", "build"]}),
                "call_id": "call_rejected",
            },
        ),
        tokens.count(clock, 3200, 3000, 40, 0),
        response_item(
            clock,
            {
                "type": "function_call_output",
                "call_id": "call_rejected",
                "output": "exec command rejected by user",
            },
        ),
        event(clock, {"type": "turn_aborted", "reason": "interrupted", "turn_id": "turn-2"}),
        response_item(
            clock,
            {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": "Compact please"}],
            },
        ),
        event(clock, {"type": "user_message", "message": "Compact please", "images": []}),
        rollout_line(
            clock,
            "compacted",
            {
                "message": "The user fixed a greeting, added notes, and ran the tests (1 failed).",
                "replacement_history": [
                    {
                        "type": "message",
                        "role": "user",
                        "content": [
                            {"type": "input_text", "text": "Fix the greeting and add notes"}
                        ],
                    }
                ],
            },
        ),
        event(clock, {"type": "context_compacted"}),
        event(
            clock,
            {
                "type": "entered_review_mode",
                "target": {"type": "uncommittedChanges"},
                "user_facing_hint": "current changes",
            },
        ),
        event(
            clock,
            {
                "type": "exited_review_mode",
                "review_output": {
                    "findings": [{"title": "Test fails", "body": "pytest reports a failure"}],
                    "overall_explanation": "One test fails.",
                },
            },
        ),
        event(
            clock,
            {
                "type": "error",
                "message": "stream disconnected before completion",
                "codex_error_info": {"response_stream_disconnected": {"http_status_code": 502}},
            },
        ),
        event(clock, {"type": "warning", "message": "Heads up: the context is nearly full"}),
        event(clock, {"type": "undo_completed", "success": True, "message": "Undid the last turn"}),
        event(clock, {"type": "thread_rolled_back", "num_turns": 1}),
        event(
            clock,
            {
                "type": "item_completed",
                "thread_id": PARENT_THREAD_ID,
                "turn_id": "turn-2",
                "item": {"type": "Plan", "id": "p1", "text": "- step"},
            },
        ),
        event(clock, {"type": "agent_reasoning_raw_content", "text": "raw thoughts"}),
        rollout_line(
            clock,
            "world_state",
            {
                "full": True,
                "state": {"agents_md": {"directory": "/home/dev/shop", "text": "Be brief."}},
            },
        ),
        response_item(clock, {"type": "compaction", "encrypted_content": "gAAAAAcompacted"}),
        response_item(
            clock,
            {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": "Thanks"}],
            },
        ),
        event(clock, {"type": "user_message", "message": "Thanks", "images": []}),
        response_item(
            clock,
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "You're welcome."}],
            },
        ),
        tokens.count(clock, 900, 0, 10, 0),
        event(clock, {"type": "stream_error", "message": "reconnecting 1/5"}),
    ]
    write_rollout(
        output_folder,
        f"sessions/2026/05/01/rollout-2026-05-01T10-00-00-{PARENT_THREAD_ID}.jsonl",
        lines,
    )
    return lines


def write_subagent_thread(output_folder: Path, parent_lines: Sequence[RolloutLine]) -> None:
    """A subagent thread spawned with the parent's history (forked): its own session_meta, the
    parent's session_meta and lines copied, then its own work."""
    clock = Clock("2026-05-01T10:05:00")
    session_meta: JsonObject = {
        "id": SUBAGENT_THREAD_ID,
        "forked_from_id": PARENT_THREAD_ID,
        "timestamp": "2026-05-01T10:05:00.000Z",
        "cwd": "/home/dev/shop",
        "originator": "codex_cli_rs",
        "cli_version": "0.130.0",
        "source": {
            "subagent": {
                "thread_spawn": {
                    "parent_thread_id": PARENT_THREAD_ID,
                    "depth": 1,
                    "agent_nickname": "Euclid",
                    "agent_role": "explorer",
                }
            }
        },
        "agent_nickname": "Euclid",
        "agent_role": "explorer",
        "model_provider": "openai",
    }
    # The copies take the first timestamps, before the thread's own session_meta.
    copied: list[RolloutLine] = [
        {"timestamp": clock.next_timestamp(), "type": line["type"], "payload": line["payload"]}
        for line in parent_lines[:FORKED_LINE_COUNT]
    ]
    # The running total goes on from the parent's at the fork.
    tokens = TokenCounter(copied[-1]["payload"]["info"]["total_token_usage"])
    lines: list[RolloutLine] = [
        rollout_line(clock, "session_meta", session_meta),
        *copied,
        event(
            clock, {"type": "task_started", "turn_id": "turn-b1", "model_context_window": 258400}
        ),
        rollout_line(
            clock,
            "turn_context",
            {
                "turn_id": "turn-b1",
                "cwd": "/home/dev/shop",
                "approval_policy": "never",
                "sandbox_policy": {"type": "read-only"},
                "model": "gpt-5.1-codex-mini",
                "effort": "low",
                "summary": "auto",
            },
        ),
        response_item(
            clock,
            {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": "Review the tests"}],
            },
        ),
        event(clock, {"type": "user_message", "message": "Review the tests", "images": []}),
        tokens.repeat_totals(clock),
        response_item(
            clock,
            {
                "type": "function_call",
                "name": "shell_command",
                "arguments": json.dumps({"command": "pytest --collect-only -q"}),
                "call_id": "call_b_shell",
            },
        ),
        tokens.count(clock, 4000, 3500, 50, 20),
        response_item(
            clock,
            {
                "type": "function_call_output",
                "call_id": "call_b_shell",
                "output": "Exit code: 0\nWall time: 1.1 seconds\nOutput:\n3 tests collected\n",
            },
        ),
        response_item(
            clock,
            {
                "type": "message",
                "role": "assistant",
                "content": [
                    {"type": "output_text", "text": "Three tests; one fails on the greeting."}
                ],
            },
        ),
        tokens.count(clock, 4100, 4000, 30, 0),
        event(
            clock,
            {
                "type": "task_complete",
                "turn_id": "turn-b1",
                "last_agent_message": "Three tests; one fails on the greeting.",
            },
        ),
    ]
    write_rollout(
        output_folder,
        f"sessions/2026/05/01/rollout-2026-05-01T10-05-00-{SUBAGENT_THREAD_ID}.jsonl",
        lines,
    )


def write_review_thread(output_folder: Path) -> None:
    """A review thread whose parent thread is not among the files (an orphan)."""
    clock = Clock("2026-05-02T09:00:00")
    tokens = TokenCounter()
    session_meta: JsonObject = {
        "id": REVIEW_THREAD_ID,
        "timestamp": "2026-05-02T09:00:00.000Z",
        "cwd": "/home/dev/shop",
        "originator": "codex_cli_rs",
        "cli_version": "0.64.0",
        "source": {"subagent": "review"},
        "parent_thread_id": "019f0fff-0000-7000-8000-0000000000ff",
        "model_provider": "openai",
    }
    lines: list[RolloutLine] = [
        rollout_line(clock, "session_meta", session_meta),
        rollout_line(
            clock,
            "turn_context",
            {
                "cwd": "/home/dev/shop",
                "approval_policy": "never",
                "sandbox_policy": {"mode": "read-only"},
                "model": "gpt-5-codex",
                "effort": "high",
                "summary": "auto",
            },
        ),
        response_item(
            clock,
            {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": "Review the current changes"}],
            },
        ),
        tokens.count(clock, 5000, 0, 400, 300),
        response_item(
            clock,
            {
                "type": "reasoning",
                "summary": [{"type": "summary_text", "text": "**Reviewing**"}],
                "content": None,
                "encrypted_content": None,
            },
        ),
        response_item(
            clock,
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": '{"findings": []}'}],
            },
        ),
    ]
    write_rollout(
        output_folder,
        f"archived_sessions/rollout-2026-05-02T09-00-00-{REVIEW_THREAD_ID}.jsonl",
        lines,
    )


def write_bare_session(output_folder: Path) -> None:
    """The mid-2025 form: a bare header, bare items, state markers (no token counts)."""
    records: list[JsonObject] = [
        {
            "id": BARE_SESSION_ID,
            "timestamp": "2025-07-20T08:00:00.000Z",
            "instructions": "Be concise.",
            "git": {
                "commit_hash": "abc",
                "branch": "main",
                "repository_url": "https://example.com/r.git",
            },
        },
        {"record_type": "state"},
        {
            "type": "message",
            "id": None,
            "role": "user",
            "content": [
                {
                    "type": "input_text",
                    "text": "<user_instructions>\n\nBe concise.\n\n</user_instructions>",
                }
            ],
        },
        {
            "type": "message",
            "id": None,
            "role": "user",
            "content": [
                {
                    "type": "input_text",
                    "text": (
                        "<environment_context>\n  <cwd>/home/dev/old</cwd>\n</environment_context>"
                    ),
                }
            ],
        },
        {
            "type": "message",
            "id": None,
            "role": "user",
            "content": [{"type": "input_text", "text": "List the files"}],
        },
        {"record_type": "state"},
        {
            "type": "reasoning",
            "id": "rs_1",
            "summary": [{"type": "summary_text", "text": "**Listing**"}],
            "content": [{"type": "reasoning_text", "text": "I should run ls."}],
            "encrypted_content": None,
        },
        {
            "type": "function_call",
            "id": "fc_1",
            "name": "shell",
            "arguments": '{"command":["ls"]}',
            "call_id": "call_bare_ls",
        },
        {
            "type": "function_call_output",
            "call_id": "call_bare_ls",
            "output": (
                '{"output":"a.txt\\nb.txt\\n","metadata":{"exit_code":0,"duration_seconds":0.0}}'
            ),
        },
        {"record_type": "state"},
        {
            "type": "message",
            "id": "msg_1",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "Two files: a.txt and b.txt."}],
        },
        {"record_type": "state"},
    ]
    write_rollout(
        output_folder,
        f"sessions/2025/07/20/rollout-2025-07-20T08-00-00-{BARE_SESSION_ID}.jsonl",
        records,
    )


def write_broken_session(output_folder: Path) -> None:
    """Bad lines among good ones: not JSON, not an object, a kind nobody knows, a last line
    still being written."""
    clock = Clock("2026-05-03T12:00:00")
    lines: list[str] = [
        json_line(
            rollout_line(
                clock,
                "session_meta",
                {
                    "id": BROKEN_THREAD_ID,
                    "cwd": "/home/dev/shop",
                    "cli_version": "0.130.0",
                    "source": "exec",
                    "originator": "codex_exec",
                },
            )
        ),
        "{not json",
        "[1, 2, 3]",
        json_line(rollout_line(clock, "event_msg", {"type": "brand_new_event", "value": 1})),
        json_line(rollout_line(clock, "response_item", {"type": "brand_new_item", "value": 2})),
        json_line(rollout_line(clock, "future_line", {"x": 1})),
        json_line(
            response_item(
                clock,
                {
                    "type": "message",
                    "role": "user",
                    "content": [{"type": "input_text", "text": "hello"}],
                },
            )
        ),
    ]
    still_being_written = (
        '{"timestamp":"2026-05-03T12:00:09.000Z","type":"event_msg","payload":{"type":"agent_mes'
    )
    write_file(
        output_folder,
        f"sessions/2026/05/03/rollout-2026-05-03T12-00-00-{BROKEN_THREAD_ID}.jsonl",
        "\n".join(lines) + "\n" + still_being_written,
    )


def main(arguments: Sequence[str]) -> int:
    """Write every synthetic file below the folder given; status 2 without exactly one folder."""
    if len(arguments) != 1:
        print("usage: python3 make_synthetic.py OUTPUT_FOLDER", file=sys.stderr)
        return 2
    output_folder = Path(arguments[0])
    parent_lines = write_parent_thread(output_folder)
    write_subagent_thread(output_folder, parent_lines)
    write_review_thread(output_folder)
    write_bare_session(output_folder)
    write_broken_session(output_folder)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
