"""Write the synthetic Codex rollout files of tests/data/agents/codex/synthetic (json only)."""
# ruff: noqa: E501

import json
import os
import sys

OUT = sys.argv[1]
A = "019f1000-0000-7000-8000-00000000000a"
B = "019f1000-0000-7000-8000-00000000000b"
C = "019f1000-0000-7000-8000-00000000000c"
H = "5f0c2a1e-1111-4c22-9333-444455556666"


def write(path, lines):
    full = os.path.join(OUT, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        for line in lines:
            f.write(json.dumps(line, separators=(",", ":"), ensure_ascii=False) + "\n")


class T:
    def __init__(self, start="2026-05-01T10:00:00"):
        self.n = 0
        self.start = start

    def __call__(self):
        self.n += 1
        return f"{self.start}.{self.n:03d}Z"


def line(t, kind, payload):
    return {"timestamp": t(), "type": kind, "payload": payload}


def ev(t, payload):
    return line(t, "event_msg", payload)


def it(t, payload):
    return line(t, "response_item", payload)


def usage(i, c, o, r):
    return {
        "input_tokens": i,
        "cached_input_tokens": c,
        "output_tokens": o,
        "reasoning_output_tokens": r,
        "total_tokens": i + o,
    }


class Counts:
    def __init__(self):
        self.total = [0, 0, 0, 0, 0]

    def tc(self, t, i, c, o, r):
        last = usage(i, c, o, r)
        for k, v in enumerate((i, c, o, r, i + o)):
            self.total[k] += v
        tot = dict(
            zip(
                [
                    "input_tokens",
                    "cached_input_tokens",
                    "output_tokens",
                    "reasoning_output_tokens",
                    "total_tokens",
                ],
                self.total,
                strict=False,
            )
        )
        return ev(
            t,
            {
                "type": "token_count",
                "info": {
                    "total_token_usage": tot,
                    "last_token_usage": last,
                    "model_context_window": 258400,
                },
                "rate_limits": {"primary": {"used_percent": 1.0, "window_minutes": 300}},
            },
        )

    def repeat(self, t):
        tot = dict(
            zip(
                [
                    "input_tokens",
                    "cached_input_tokens",
                    "output_tokens",
                    "reasoning_output_tokens",
                    "total_tokens",
                ],
                self.total,
                strict=False,
            )
        )
        return ev(
            t,
            {
                "type": "token_count",
                "info": {
                    "total_token_usage": tot,
                    "last_token_usage": tot,
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


def thread_a():
    t = T()
    k = Counts()
    meta = {
        "id": A,
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
    ctx = {
        "turn_id": "turn-1",
        "cwd": "/home/dev/shop",
        "approval_policy": "on-request",
        "sandbox_policy": {"type": "workspace-write", "network_access": False},
        "model": "gpt-5.1-codex",
        "effort": "medium",
        "summary": "auto",
    }
    L = [
        line(t, "session_meta", meta),
        it(
            t,
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
        it(
            t,
            {
                "type": "message",
                "role": "user",
                "content": [
                    {
                        "type": "input_text",
                        "text": "<environment_context>\n  <cwd>/home/dev/shop</cwd>\n</environment_context>",
                    }
                ],
            },
        ),
        ev(t, {"type": "task_started", "turn_id": "turn-1", "model_context_window": 258400}),
        line(t, "turn_context", ctx),
        it(
            t,
            {
                "type": "message",
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "Fix the greeting and add notes"},
                    {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo="},
                ],
            },
        ),
        ev(
            t,
            {
                "type": "user_message",
                "message": "Fix the greeting and add notes",
                "images": ["data:image/png;base64,iVBORw0KGgo="],
                "local_images": [],
                "text_elements": [],
            },
        ),
        k.tc(t, 0, 0, 0, 0)
        if False
        else ev(
            t,
            {
                "type": "token_count",
                "info": None,
                "rate_limits": {"primary": {"used_percent": 0.0}},
            },
        ),
        ev(t, {"type": "agent_reasoning", "text": "**Looking at the code**"}),
        it(
            t,
            {
                "type": "reasoning",
                "summary": [{"type": "summary_text", "text": "**Looking at the code**"}],
                "content": None,
                "encrypted_content": "gAAAAAencrypted",
            },
        ),
        ev(
            t,
            {
                "type": "agent_message",
                "message": "I will read the file first.",
                "phase": "commentary",
            },
        ),
        it(
            t,
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "I will read the file first."}],
                "phase": "commentary",
            },
        ),
        it(
            t,
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
        it(
            t,
            {
                "type": "function_call",
                "name": "shell_command",
                "arguments": json.dumps({"command": "git status", "workdir": "/home/dev/shop"}),
                "call_id": "call_shell_fail",
            },
        ),
        k.tc(t, 1200, 1000, 80, 40),
        it(
            t,
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
        it(
            t,
            {
                "type": "function_call_output",
                "call_id": "call_shell_fail",
                "output": "Exit code: 128\nWall time: 0.2 seconds\nOutput:\nfatal: not a git repository\n",
            },
        ),
        line(t, "turn_context", ctx),
        k.repeat(t),
        it(
            t,
            {
                "type": "reasoning",
                "summary": [],
                "content": None,
                "encrypted_content": "gAAAAAencrypted2",
            },
        ),
        it(
            t,
            {
                "type": "custom_tool_call",
                "status": "completed",
                "call_id": "call_patch",
                "name": "apply_patch",
                "input": PATCH,
            },
        ),
        k.tc(t, 1500, 1200, 200, 100),
        ev(
            t,
            {
                "type": "patch_apply_end",
                "call_id": "call_patch",
                "turn_id": "turn-1",
                "stdout": "Success. Updated the following files:\nM src/app.py\nA NOTES.md\nD old.txt\n",
                "stderr": "",
                "success": True,
                "changes": {
                    "/home/dev/shop/src/app.py": {
                        "type": "update",
                        "unified_diff": "@@ -1,2 +1,2 @@\n def main():\n-    print('hi')\n+    print('hello')\n",
                        "move_path": None,
                    },
                    "/home/dev/shop/NOTES.md": {"type": "add", "content": "# Notes\nfirst line\n"},
                    "/home/dev/shop/old.txt": {"type": "delete", "content": "old\n"},
                },
            },
        ),
        it(
            t,
            {
                "type": "custom_tool_call_output",
                "call_id": "call_patch",
                "output": json.dumps(
                    {
                        "output": "Success. Updated the following files:\nM src/app.py\nA NOTES.md\nD old.txt\n",
                        "metadata": {"exit_code": 0, "duration_seconds": 0.0},
                    }
                ),
            },
        ),
        it(
            t,
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
        it(
            t,
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
        it(
            t,
            {
                "type": "web_search_call",
                "id": "ws_1",
                "status": "completed",
                "action": {"type": "search", "query": "python print unicode"},
            },
        ),
        k.tc(t, 2000, 1500, 150, 60),
        it(t, {"type": "function_call_output", "call_id": "call_plan", "output": "Plan updated"}),
        it(
            t,
            {
                "type": "function_call_output",
                "call_id": "call_local",
                "output": "total 8\n-rw-r--r-- 1 dev dev 40 app.py\n",
            },
        ),
        ev(
            t,
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
        it(
            t,
            {
                "type": "function_call",
                "name": "view_image",
                "arguments": json.dumps({"path": "/home/dev/shop/screen.png"}),
                "call_id": "call_image",
            },
        ),
        it(
            t,
            {
                "type": "function_call",
                "name": "exec_command",
                "arguments": json.dumps(
                    {"cmd": "pytest -q", "workdir": "/home/dev/shop", "yield_time_ms": 10000}
                ),
                "call_id": "call_exec",
            },
        ),
        it(
            t,
            {
                "type": "function_call",
                "name": "docs__search",
                "arguments": json.dumps({"query": "greeting style"}),
                "call_id": "call_mcp_ok",
            },
        ),
        it(
            t,
            {
                "type": "function_call",
                "name": "docs__fetch",
                "arguments": json.dumps({"id": "42"}),
                "call_id": "call_mcp_err",
            },
        ),
        it(
            t,
            {
                "type": "tool_search_call",
                "call_id": "call_search",
                "status": "completed",
                "execution": "client",
                "arguments": {"query": "calendar"},
            },
        ),
        it(
            t,
            {
                "type": "image_generation_call",
                "id": "ig_1",
                "status": "completed",
                "revised_prompt": "a cart icon",
                "result": "iVBORw0KGgo=",
            },
        ),
        k.tc(t, 2500, 2000, 300, 120),
        ev(
            t,
            {
                "type": "view_image_tool_call",
                "call_id": "call_image",
                "path": "/home/dev/shop/screen.png",
            },
        ),
        it(
            t,
            {
                "type": "function_call_output",
                "call_id": "call_image",
                "output": [
                    {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo="}
                ],
            },
        ),
        ev(
            t,
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
        it(
            t,
            {
                "type": "function_call_output",
                "call_id": "call_exec",
                "output": "Chunk ID: 1a2b3c\nWall time: 2.5000 seconds\nProcess exited with code 1\nOriginal token count: 3\nOutput:\n1 failed\n",
            },
        ),
        ev(
            t,
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
        it(
            t,
            {
                "type": "function_call_output",
                "call_id": "call_mcp_ok",
                "output": json.dumps([{"type": "text", "text": "Use 'hello'."}]),
            },
        ),
        ev(
            t,
            {
                "type": "mcp_tool_call_end",
                "call_id": "call_mcp_err",
                "invocation": {"server": "docs", "tool": "fetch", "arguments": {"id": "42"}},
                "duration": {"secs": 0, "nanos": 1000000},
                "result": {"Err": "tool call failed: not found"},
            },
        ),
        it(
            t,
            {
                "type": "function_call_output",
                "call_id": "call_mcp_err",
                "output": "err: tool call failed: not found",
            },
        ),
        it(
            t,
            {
                "type": "tool_search_output",
                "call_id": "call_search",
                "status": "completed",
                "execution": "client",
                "tools": [{"type": "function", "name": "calendar__list"}],
            },
        ),
        ev(
            t,
            {
                "type": "image_generation_end",
                "call_id": "ig_1",
                "status": "completed",
                "revised_prompt": "a cart icon",
                "result": "iVBORw0KGgo=",
                "saved_path": "/home/dev/shop/cart.png",
            },
        ),
        it(
            t,
            {
                "type": "function_call",
                "name": "spawn_agent",
                "arguments": json.dumps({"message": "Review the tests", "agent_type": "explorer"}),
                "call_id": "call_spawn",
            },
        ),
        k.tc(t, 2800, 2500, 90, 30),
        ev(
            t,
            {
                "type": "collab_agent_spawn_end",
                "call_id": "call_spawn",
                "sender_thread_id": A,
                "new_thread_id": B,
                "new_agent_nickname": "Euclid",
                "new_agent_role": "explorer",
                "prompt": "Review the tests",
                "model": "gpt-5.1-codex-mini",
                "status": "pending_init",
            },
        ),
        it(
            t,
            {
                "type": "function_call_output",
                "call_id": "call_spawn",
                "output": json.dumps({"agent_id": B, "nickname": "Euclid"}),
            },
        ),
        ev(
            t,
            {
                "type": "agent_message",
                "message": "Done: the greeting is fixed.",
                "phase": "final_answer",
            },
        ),
        it(
            t,
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "Done: the greeting is fixed."}],
                "phase": "final_answer",
            },
        ),
        k.tc(t, 3000, 2800, 60, 0),
        ev(
            t,
            {
                "type": "task_complete",
                "turn_id": "turn-1",
                "last_agent_message": "Done: the greeting is fixed.",
                "duration_ms": 65000,
            },
        ),
        ev(t, {"type": "thread_name_updated", "thread_id": A, "thread_name": "Greeting fix"}),
        it(
            t,
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
        ev(t, {"type": "task_started", "turn_id": "turn-2", "model_context_window": 258400}),
        line(t, "turn_context", dict(ctx, turn_id="turn-2")),
        it(
            t,
            {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": "Now run the whole suite"}],
            },
        ),
        ev(t, {"type": "user_message", "message": "Now run the whole suite", "images": []}),
        it(
            t,
            {
                "type": "function_call",
                "name": "shell",
                "arguments": json.dumps({"command": ["bash", "-lc", "pytest"]}),
                "call_id": "call_aborted",
            },
        ),
        it(
            t,
            {
                "type": "function_call",
                "name": "shell",
                "arguments": json.dumps({"command": ["rm", "-rf", "build"]}),
                "call_id": "call_rejected",
            },
        ),
        k.tc(t, 3200, 3000, 40, 0),
        it(
            t,
            {
                "type": "function_call_output",
                "call_id": "call_rejected",
                "output": "exec command rejected by user",
            },
        ),
        ev(t, {"type": "turn_aborted", "reason": "interrupted", "turn_id": "turn-2"}),
        it(
            t,
            {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": "Compact please"}],
            },
        ),
        ev(t, {"type": "user_message", "message": "Compact please", "images": []}),
        line(
            t,
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
        ev(t, {"type": "context_compacted"}),
        ev(
            t,
            {
                "type": "entered_review_mode",
                "target": {"type": "uncommittedChanges"},
                "user_facing_hint": "current changes",
            },
        ),
        ev(
            t,
            {
                "type": "exited_review_mode",
                "review_output": {
                    "findings": [{"title": "Test fails", "body": "pytest reports a failure"}],
                    "overall_explanation": "One test fails.",
                },
            },
        ),
        ev(
            t,
            {
                "type": "error",
                "message": "stream disconnected before completion",
                "codex_error_info": {"response_stream_disconnected": {"http_status_code": 502}},
            },
        ),
        ev(t, {"type": "warning", "message": "Heads up: the context is nearly full"}),
        ev(t, {"type": "undo_completed", "success": True, "message": "Undid the last turn"}),
        ev(t, {"type": "thread_rolled_back", "num_turns": 1}),
        ev(
            t,
            {
                "type": "item_completed",
                "thread_id": A,
                "turn_id": "turn-2",
                "item": {"type": "Plan", "id": "p1", "text": "- step"},
            },
        ),
        ev(t, {"type": "agent_reasoning_raw_content", "text": "raw thoughts"}),
        line(
            t,
            "world_state",
            {
                "full": True,
                "state": {"agents_md": {"directory": "/home/dev/shop", "text": "Be brief."}},
            },
        ),
        it(t, {"type": "compaction", "encrypted_content": "gAAAAAcompacted"}),
        it(
            t,
            {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": "Thanks"}],
            },
        ),
        ev(t, {"type": "user_message", "message": "Thanks", "images": []}),
        it(
            t,
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "You're welcome."}],
            },
        ),
        k.tc(t, 900, 0, 10, 0),
        ev(t, {"type": "stream_error", "message": "reconnecting 1/5"}),
    ]
    write(f"sessions/2026/05/01/rollout-2026-05-01T10-00-00-{A}.jsonl", L)
    return L, meta


def thread_b(parent_lines, parent_meta):
    """A subagent thread spawned with the parent's history (forked): its own session_meta, the
    parent's session_meta and lines copied, then its own work."""
    t = T("2026-05-01T10:05:00")
    k = Counts()
    meta = {
        "id": B,
        "forked_from_id": A,
        "timestamp": "2026-05-01T10:05:00.000Z",
        "cwd": "/home/dev/shop",
        "originator": "codex_cli_rs",
        "cli_version": "0.130.0",
        "source": {
            "subagent": {
                "thread_spawn": {
                    "parent_thread_id": A,
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
    copied = [dict(row, timestamp=t()) for row in parent_lines[:19]]  # up to the repeated count
    # totals continue from the parent's at the fork
    k.total = list(
        json.loads(json.dumps(copied[-1]["payload"]["info"]["total_token_usage"])).values()
    )
    L = [
        line(t, "session_meta", meta),
        *copied,
        ev(t, {"type": "task_started", "turn_id": "turn-b1", "model_context_window": 258400}),
        line(
            t,
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
        it(
            t,
            {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": "Review the tests"}],
            },
        ),
        ev(t, {"type": "user_message", "message": "Review the tests", "images": []}),
        k.repeat(t),
        it(
            t,
            {
                "type": "function_call",
                "name": "shell_command",
                "arguments": json.dumps({"command": "pytest --collect-only -q"}),
                "call_id": "call_b_shell",
            },
        ),
        k.tc(t, 4000, 3500, 50, 20),
        it(
            t,
            {
                "type": "function_call_output",
                "call_id": "call_b_shell",
                "output": "Exit code: 0\nWall time: 1.1 seconds\nOutput:\n3 tests collected\n",
            },
        ),
        it(
            t,
            {
                "type": "message",
                "role": "assistant",
                "content": [
                    {"type": "output_text", "text": "Three tests; one fails on the greeting."}
                ],
            },
        ),
        k.tc(t, 4100, 4000, 30, 0),
        ev(
            t,
            {
                "type": "task_complete",
                "turn_id": "turn-b1",
                "last_agent_message": "Three tests; one fails on the greeting.",
            },
        ),
    ]
    write(f"sessions/2026/05/01/rollout-2026-05-01T10-05-00-{B}.jsonl", L)


def thread_c():
    """A review thread whose parent thread is not among the files (an orphan)."""
    t = T("2026-05-02T09:00:00")
    k = Counts()
    meta = {
        "id": C,
        "timestamp": "2026-05-02T09:00:00.000Z",
        "cwd": "/home/dev/shop",
        "originator": "codex_cli_rs",
        "cli_version": "0.64.0",
        "source": {"subagent": "review"},
        "parent_thread_id": "019f0fff-0000-7000-8000-0000000000ff",
        "model_provider": "openai",
    }
    L = [
        line(t, "session_meta", meta),
        line(
            t,
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
        it(
            t,
            {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": "Review the current changes"}],
            },
        ),
        k.tc(t, 5000, 0, 400, 300),
        it(
            t,
            {
                "type": "reasoning",
                "summary": [{"type": "summary_text", "text": "**Reviewing**"}],
                "content": None,
                "encrypted_content": None,
            },
        ),
        it(
            t,
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": '{"findings": []}'}],
            },
        ),
    ]
    write(f"archived_sessions/rollout-2026-05-02T09-00-00-{C}.jsonl", L)


def bare():
    """The mid-2025 form: a bare header, bare items, state markers (no token counts)."""
    L = [
        {
            "id": H,
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
                    "text": "<environment_context>\n  <cwd>/home/dev/old</cwd>\n</environment_context>",
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
            "output": '{"output":"a.txt\\nb.txt\\n","metadata":{"exit_code":0,"duration_seconds":0.0}}',
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
    write(f"sessions/2025/07/20/rollout-2025-07-20T08-00-00-{H}.jsonl", L)


def broken():
    """Bad lines among good ones: not JSON, not an object, a kind nobody knows, a last line
    still being written."""
    t = T("2026-05-03T12:00:00")
    ident = "019f1000-0000-7000-8000-0000000000dd"
    rows = [
        json.dumps(
            line(
                t,
                "session_meta",
                {
                    "id": ident,
                    "cwd": "/home/dev/shop",
                    "cli_version": "0.130.0",
                    "source": "exec",
                    "originator": "codex_exec",
                },
            ),
            separators=(",", ":"),
        ),
        "{not json",
        "[1, 2, 3]",
        json.dumps(
            line(t, "event_msg", {"type": "brand_new_event", "value": 1}), separators=(",", ":")
        ),
        json.dumps(
            line(t, "response_item", {"type": "brand_new_item", "value": 2}), separators=(",", ":")
        ),
        json.dumps(line(t, "future_line", {"x": 1}), separators=(",", ":")),
        json.dumps(
            it(
                t,
                {
                    "type": "message",
                    "role": "user",
                    "content": [{"type": "input_text", "text": "hello"}],
                },
            ),
            separators=(",", ":"),
        ),
    ]
    full = os.path.join(OUT, f"sessions/2026/05/03/rollout-2026-05-03T12-00-00-{ident}.jsonl")
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(
            "\n".join(rows)
            + "\n"
            + '{"timestamp":"2026-05-03T12:00:09.000Z","type":"event_msg","payload":{"type":"agent_mes'
        )


lines, meta = thread_a()
thread_b(lines, meta)
thread_c()
bare()
broken()
