"""``cclens permissions``: what today's permission rules decide for every recorded tool call."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..formats import local_time, plural
from ._folders import given
from ._output import (
    UNREADABLE_EXIT,
    console,
    json_option,
    print_json,
    print_wrapped,
    report_unreadable,
)

if TYPE_CHECKING:
    from rich.table import Table

    from ..reports.permission_audit import PermissionAudit, ProjectAudit

_SHOWN_SUGGESTIONS = 20
_DESTINATION_NAMES = {
    "userSettings": "user",
    "projectSettings": "project",
    "localSettings": "local",
    "session": "session",
    "cliArg": "command line",
}


def _settings_lines(project: ProjectAudit) -> list[str]:
    lines = []
    for file in project.settings:
        name = _DESTINATION_NAMES[file.destination]
        if not file.exists:
            lines.append(f"  {name}: {file.path} (none)")
            continue
        mode = f", defaultMode {file.default_mode}" if file.default_mode else ""
        lines.append(f"  {name}: {file.path} ({len(file.rules)} rules{mode})")
        lines.extend(f"    problem: {problem}" for problem in file.problems)
    return lines


def _decisions(project: ProjectAudit) -> Table:
    from rich.table import Table

    table = Table(title="What today's rules decide", title_justify="left")
    table.add_column("tool")
    for column in ("calls", "allow", "ask", "deny", "rejected"):
        table.add_column(column, justify="right")
    for tool in project.tools:
        table.add_row(
            tool.tool,
            f"{tool.calls:,}",
            f"{tool.allow:,}",
            f"{tool.ask:,}",
            f"{tool.deny:,}",
            f"{tool.rejected:,}",
        )
    return table


def _rules(project: ProjectAudit) -> Table:
    from rich.table import Table

    table = Table(title="Rules that decided", title_justify="left")
    for column in ("rule", "behavior", "from", "calls"):
        table.add_column(column, justify="right" if column == "calls" else "left")
    for use in project.rules_used:
        table.add_row(
            _one_line(use.rule), use.behavior, _DESTINATION_NAMES[use.destination], f"{use.calls:,}"
        )
    return table


def _suggestions(project: ProjectAudit) -> Table:
    from rich.table import Table

    table = Table(title="Suggested rules, by prompts saved", title_justify="left")
    table.add_column("rule", no_wrap=True, overflow="ellipsis", max_width=44)
    table.add_column("to", no_wrap=True, min_width=7)
    table.add_column("saved", justify="right", no_wrap=True, min_width=5)
    table.add_column("for example", no_wrap=True, overflow="ellipsis", max_width=30)
    for suggestion in project.suggestions[:_SHOWN_SUGGESTIONS]:
        table.add_row(
            _one_line(suggestion.rule),
            _DESTINATION_NAMES[suggestion.update.destination],
            f"{suggestion.prompts_saved:,}",
            ", ".join(_one_line(example) for example in suggestion.examples[:2]),
        )
    return table


def _one_line(text: str) -> str:
    """Multi-line commands on one line, for a table cell (``--json`` keeps them whole)."""
    return " ".join(text.split())


def _print(audit: PermissionAudit) -> None:
    import msgspec

    from ..permissions import merge_suggestions
    from ..times import parse_time

    out = console()
    out.print(f"User settings from {audit.claude_dir}", markup=False)
    if not audit.projects:
        out.print("No recorded tool calls found.")
    for project in audit.projects:
        asked = sum(tool.ask for tool in project.tools)
        out.print()
        out.rule(project.project_dir or project.project)
        out.print(
            f"{plural(len(project.sessions), 'session')}, "
            f"{plural(len(project.calls), 'tool call')}, "
            f"{asked:,} that today's rules would still ask about, "
            f"{len(project.rejected):,} rejected by the user.",
            markup=False,
        )
        out.print("Settings:")
        for line in _settings_lines(project):
            out.print(line, markup=False)
        if project.tools:
            out.print(_decisions(project))
        if project.rules_used:
            out.print(_rules(project))
        if project.rejected:
            out.print("[bold]Rejected by the user[/]")
            for call in project.rejected:
                when = local_time(parse_time(call.timestamp)) or "?"
                print_wrapped(
                    out,
                    f"  {when}  {call.tool}: {_one_line(call.subject)}  → today: "
                    f"{call.behavior} ({call.explanation})",
                )
        if project.suggestions:
            out.print(_suggestions(project))
            updates = merge_suggestions(project.suggestions[:_SHOWN_SUGGESTIONS])
            out.print("As PermissionUpdate objects:")
            for update in updates:
                # Indented, one rule a line: it fits the terminal and pastes as it is.
                text = msgspec.json.format(msgspec.json.encode(update), indent=2).decode()
                out.print(text, markup=False, overflow="fold")


@click.command("permissions")
@click.argument("project", required=False)
@json_option
@click.option(
    "--claude-dir",
    "--dir",
    "claude_dir",
    type=click.Path(path_type=Path),
    metavar="DIR",
    help="Claude's folder: transcripts under DIR/projects, user settings in DIR/settings.json "
    "(default $CLAUDE_CONFIG_DIR or ~/.claude).",
)
def command(project: str | None, as_json: bool, claude_dir: Path | None) -> None:
    """Audit every Claude Code tool call recorded against today's permission rules.

    (Claude Code's permission rules: other agents' sessions are not audited.)

    For each project (optionally only PROJECT: its folder name under projects/, its path, or
    the end of its path; a folder name that starts with "-" goes after --), the rules are read,
    never written, from the user settings (DIR/settings.json), the project's
    .claude/settings.json and .claude/settings.local.json, where the project is the working
    directory the sessions recorded. Each call is decided as Claude Code would today (deny,
    then ask, then allow rules; then the permission mode the session recorded at that point),
    naming the deciding rule and the file it is in. Calls the user rejected are listed, and
    allow rules are suggested for the calls that would still prompt, ranked by the prompts
    they would have saved; destructive commands and anything a rejected call would match are
    never suggested.

    With --json, one object: claude_dir, diagnostics, and projects, each with project,
    project_dir, sessions, settings (destination, path, exists, rules, default_mode,
    problems), tools (calls, allow, ask, deny, rejected per tool), rules_used, calls (per
    call: session_id, agent_id, tool_use_id, tool, subject, timestamp, cwd, status, mode,
    mode_source, recorded_mode, behavior, decided_by, rule, rules, destination,
    settings_path, explanation), rejected (the same for rejected calls) and suggestions
    (update, a PermissionUpdate of type addRules; rule, prompts_saved, examples, reason).
    Exits with 2 when PROJECT matches no session.
    """
    from ..readers.claude import claude_dirs
    from ..reports.permission_audit import audit_transcripts

    if claude_dir is not None:
        claude_dir = given([claude_dir])[0]
    elif not claude_dirs():
        raise click.ClickException(
            "no Claude Code folder found ($CLAUDE_CONFIG_DIR, ~/.claude, ~/.config/claude); "
            "give one with --dir DIR"
        )
    roots = (claude_dir,) if claude_dir is not None else ()
    audit = audit_transcripts(
        roots,
        claude_dir=str(claude_dir) if claude_dir is not None else None,
        project=project,
    )
    unreadable = report_unreadable(audit.unreadable)
    for problem in audit.diagnostics:
        click.echo(f"cclens: {problem}", err=True)
    if as_json:
        print_json(audit)
    else:
        _print(audit)
    if project is not None and not audit.projects:
        raise click.ClickException(
            f"no session of project {project!r} found; give a project folder under projects/, "
            "its path or the end of its path"
        )
    if unreadable:
        raise SystemExit(UNREADABLE_EXIT)
