"""``cclens setup``: make cclens part of Claude Code, show what changes first, and take it back.

Each step is in :mod:`cclens.setup`: the plan (:mod:`~cclens.setup.plan`), the backups and
the undo (:mod:`~cclens.setup.backups`), the check (:mod:`~cclens.setup.check`). This module
asks, shows and reports.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..formats import duration, plural, size, utc_time
from ..places import setup_dir
from ..setup.plan import STATUS_LINE_CHOICES
from ._output import console, json_option, print_json, print_wrapped
from .index import db_option, resolve_db, resolve_roots

if TYPE_CHECKING:
    from ..setup.check import CheckReport
    from ..setup.plan import FileChange, SetupOptions, SetupPlan, StatusLineChoice

#: The ``cleanupPeriodDays`` setup offers when transcripts are kept for less.
SUGGESTED_KEEP_DAYS = 365


def _run(command: list[str]) -> bool:
    """Run ``claude mcp …``; say what failed rather than stop."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        click.echo(f"cclens: could not run {' '.join(command)}: {error}", err=True)
        return False
    if done.returncode != 0:
        reason = (done.stderr or done.stdout).strip().splitlines()
        click.echo(
            f"cclens: {' '.join(command)} failed ({reason[-1] if reason else done.returncode})",
            err=True,
        )
        return False
    return True


def _show_diff(change: FileChange) -> None:
    colours = sys.stdout.isatty()
    for reason in change.reasons:
        click.echo(f"  + {reason}")
    click.echo()
    for line in change.diff().splitlines():
        colour = None
        if colours and line.startswith(("+", "-")) and not line.startswith(("+++", "---")):
            colour = "green" if line.startswith("+") else "red"
        click.secho(line, fg=colour)
    click.echo()


def _keep_days_text(days: float, said: bool, hooks: bool = True) -> str:
    source = "cleanupPeriodDays" if said else "the default; cleanupPeriodDays is not set"
    text = f"Claude Code deletes a transcript {days:g} days after its last activity ({source})."
    if hooks:
        text += " The hooks archive each session when it ends, so cclens keeps it anyway."
    if days == 0:
        text += " With 0, Claude Code may not keep transcripts at all: set a number of days."
    return text


def _choice(text: str) -> StatusLineChoice:
    return STATUS_LINE_CHOICES[STATUS_LINE_CHOICES.index(text)]


def _status_line_choice(
    given: str | None, settings: dict[str, object], asking: bool
) -> StatusLineChoice:
    """What to do with a status line of the user's own: as given, else asked (chain when
    not asking)."""
    from ..setup.claude_settings import status_line

    line = status_line(settings)
    if given is not None:
        return _choice(given)
    if line is None or line.command is None or line.ours or not asking:
        return "chain"
    click.echo(f"Your status line runs: {line.command}")
    click.echo("  chain:   run yours, then show cclens's line after its output")
    click.echo("  keep:    leave yours as it is (no plan limits recorded from the status line)")
    click.echo("  replace: cclens's line instead of yours")
    chosen: str = click.prompt(
        "What should setup do with it?",
        type=click.Choice(STATUS_LINE_CHOICES),
        default="chain",
    )
    return _choice(chosen)


def _undo(yes: bool, dry_run: bool) -> None:
    from ..setup.backups import apply_undo, load_runs, plan_undo

    folder = setup_dir()
    try:
        undo = plan_undo(folder)
        runs = load_runs(folder)
    except (OSError, ValueError) as error:
        raise click.ClickException(f"cannot read setup's backups: {error}") from error
    if undo.empty:
        click.echo("Nothing to undo: cclens setup has not changed anything here.")
        return
    for change in undo.changes:
        click.echo(f"{change.path}:")
        _show_diff(change)
    for path in undo.changed_since:
        click.echo(
            f"{path} changed since cclens setup wrote it: undoing drops those changes too.",
        )
    remove = ["claude", "mcp", "remove", "--scope", "user", "cclens"]
    if undo.mcp:
        click.echo(f"Removes the MCP server: {' '.join(remove)}")
    if dry_run:
        return
    if not yes and not click.confirm("Undo these changes?", default=False):
        raise click.ClickException("nothing was changed")
    claude = shutil.which("claude")
    if undo.mcp and claude is None:
        click.echo(f"Claude Code is not on the PATH: run `{' '.join(remove)}` yourself.")
    apply_undo(
        folder, _run if claude else (lambda command: False), [claude or "claude", *remove[1:]]
    )
    click.echo(
        f"Put back {plural(len(undo.changes), 'file')} as before cclens setup "
        f"({plural(len(runs), 'run')} undone)."
    )


def _plan(folder: Path, options: SetupOptions) -> SetupPlan:
    from ..setup.claude_settings import SettingsError
    from ..setup.plan import plan_setup

    try:
        return plan_setup(folder, options, claude=shutil.which("claude"))
    except SettingsError as error:
        raise click.ClickException(f"{error}; nothing was written") from error


def _age(moment: float) -> str:
    seconds = max(0.0, datetime.now(UTC).timestamp() - moment)
    return f"{duration(seconds)} ago"


def _print_check(report: CheckReport) -> None:
    from ..setup.check import AT_RISK_DAYS

    out = console()

    def say(text: str) -> None:
        print_wrapped(out, text)

    say(f"Claude Code's settings: {report.settings_path}")
    if report.settings_problem:
        say(f"  cannot be read: {report.settings_problem}")
    for event, installed in report.hooks.items():
        say(f"  {event} hook:  {'installed' if installed else 'not installed'}")
    line = report.status_line
    if line is None:
        shown = "not set"
    elif line.chained:
        shown = f"cclens's, after yours ({line.chained})"
    elif line.ours:
        shown = "cclens's"
    else:
        shown = f"your own ({line.command}); plan limits are not recorded"
    say(f"  status line:  {shown}")
    say(f"  MCP server:   {'installed' if report.mcp else 'not installed'}")
    hooks = all(report.hooks.values())
    say(f"  {_keep_days_text(report.keep_days, report.keep_days_set, hooks)}")
    last = report.hook_last
    if last and isinstance(last.get("time"), int | float):
        say(f"Last hook: {_age(last['time'])}: {last.get('outcome')}")
    else:
        say("Last hook: never ran")
    if report.index_problem:
        say(f"Archive: {report.index_path}: {report.index_problem}")
    elif report.totals is not None:
        totals = report.totals
        say(
            f"Archive: {report.index_path}, {size(report.index_bytes)}: "
            f"{plural(totals.sessions, 'session')} ({totals.archived} only in the archive), "
            f"{size(totals.stored_bytes)} of transcripts kept"
        )
    if not report.at_risk:
        say(
            f"At risk: none of {report.transcripts} transcripts is due for deletion within "
            f"{AT_RISK_DAYS} days without being archived."
        )
        return
    say(
        f"At risk: {plural(len(report.at_risk), 'transcript')} Claude Code deletes within "
        f"{AT_RISK_DAYS} days, not (fully) archived; run cclens index to keep them:"
    )
    now = datetime.now(UTC)
    for risk in report.at_risk:
        when = (
            "when Claude Code next starts" if risk.deleted_at <= now else utc_time(risk.deleted_at)
        )
        say(f"  {risk.path} ({size(risk.missing)} not archived; deleted {when})")


def _check_json(report: CheckReport) -> dict[str, object]:
    line = report.status_line
    return {
        "settings": str(report.settings_path),
        "settings_problem": report.settings_problem,
        "hooks": report.hooks,
        "status_line": None
        if line is None
        else {"command": line.command, "cclens": line.ours, "chained": line.chained},
        "mcp": report.mcp,
        "cleanup_period_days": report.keep_days,
        "cleanup_period_days_set": report.keep_days_set,
        "hook_last_run": report.hook_last,
        "index": str(report.index_path),
        "index_bytes": report.index_bytes,
        "index_problem": report.index_problem,
        "sessions": report.totals.sessions if report.totals else None,
        "archived_sessions": report.totals.archived if report.totals else None,
        "transcripts": report.transcripts,
        "at_risk": [
            {
                "path": str(risk.path),
                "size": risk.size,
                "missing": risk.missing,
                "deleted_at": risk.deleted_at.isoformat(),
            }
            for risk in report.at_risk
        ],
    }


@click.command("setup", short_help="Make cclens part of Claude Code (hooks, status line, MCP).")
@click.option("--yes", "-y", is_flag=True, help="Apply without asking.")
@click.option("--dry-run", is_flag=True, help="Only show what would change.")
@click.option("--undo", is_flag=True, help="Put back every file setup changed, byte for byte.")
@click.option("--check", "doctor", is_flag=True, help="Show what is installed and what is at risk.")
@click.option(
    "--status-line",
    "status_line_choice",
    type=click.Choice(STATUS_LINE_CHOICES),
    default=None,
    help="With a status line of your own: run it and add cclens's (chain, the default with "
    "--yes), keep it, or replace it.",
)
@click.option(
    "--keep-days",
    type=click.IntRange(1, 100_000),
    default=None,
    help="Raise cleanupPeriodDays (how long Claude Code keeps transcripts) to this many days.",
)
@click.option("--no-mcp", is_flag=True, help="Leave the MCP server out.")
@db_option
@json_option
def command(
    yes: bool,
    dry_run: bool,
    undo: bool,
    doctor: bool,
    status_line_choice: str | None,
    keep_days: int | None,
    no_mcp: bool,
    db: Path | None,
    as_json: bool,
) -> None:
    """Make cclens part of Claude Code, showing each file's change as a diff and asking first:

    \b
    - SessionEnd and PreCompact hooks running `cclens hook`, which archive each
      session into the index when it ends or is about to be compacted;
    - the status line (`cclens statusline`), which also records your plan's
      limits; a status line of your own is kept: chained (yours, then cclens's)
      or left as it is;
    - the MCP server (`claude mcp add --scope user cclens -- cclens mcp`);
    - a look at cleanupPeriodDays: how long Claude Code keeps transcripts.

    Settings are in $CLAUDE_CONFIG_DIR/settings.json (else ~/.claude/settings.json); only
    the keys setup changes differ. Running it again changes nothing. Every file it changes
    is kept in cclens's data folder first: `cclens setup --undo` puts them back byte for
    byte. `--check` says what is installed, when the hook last ran, how big the archive is,
    and which sessions Claude Code will delete soon that are not archived.
    """
    from ..setup.backups import apply_plan
    from ..setup.check import check
    from ..setup.claude_settings import SettingsError, config_dir, read_json, user_settings_path
    from ..setup.plan import SetupOptions, cclens_program

    if undo and doctor:
        raise click.UsageError("choose one of --undo and --check")
    if as_json and not doctor:
        raise click.UsageError("--json goes with --check")
    if undo:
        _undo(yes, dry_run)
        return
    folder = config_dir()
    roots = resolve_roots(())
    index = resolve_db(db, roots)
    if doctor:
        report = check(folder, index, roots, now=datetime.now(UTC))
        if as_json:
            print_json(_check_json(report))
        else:
            _print_check(report)
        return
    if not folder.is_dir():
        raise click.ClickException(
            f"no Claude Code folder at {folder}: run Claude Code once, or set CLAUDE_CONFIG_DIR"
        )
    asking = not (yes or dry_run)
    try:
        _, settings = read_json(user_settings_path(folder))
    except SettingsError as error:
        raise click.ClickException(f"{error}; nothing was written") from error
    click.echo(f"Claude Code's settings: {user_settings_path(folder)}")
    options = SetupOptions(
        program=cclens_program(),
        db=db.expanduser().absolute() if db is not None else None,
        status_line=_status_line_choice(status_line_choice, settings, asking),
        keep_days=keep_days,
        mcp=not no_mcp,
    )
    plan = _plan(folder, options)
    for note in plan.notes:
        click.echo(f"  {note}")
    click.echo(f"  {_keep_days_text(plan.keep_days, plan.keep_days_set)}")
    ask_keep = keep_days is None and asking and plan.keep_days < SUGGESTED_KEEP_DAYS
    if ask_keep and click.confirm(
        f"Raise cleanupPeriodDays to {SUGGESTED_KEEP_DAYS} days?", default=False
    ):
        options = replace(options, keep_days=SUGGESTED_KEEP_DAYS)
        plan = _plan(folder, options)
    click.echo()
    for change in plan.changes:
        click.echo(f"{change.path}:")
        _show_diff(change)
    runnable = plan.mcp is not None and plan.mcp.runnable
    if plan.mcp is not None:
        if runnable:
            click.echo(f"Adds the MCP server: {plan.mcp.shell}")
        else:
            click.echo(f"Claude Code is not on the PATH: add the MCP server with: {plan.mcp.shell}")
    if not plan.changes and not runnable:
        click.echo("cclens is set up already: nothing to change here.")
        return
    if dry_run:
        return
    if not yes and not click.confirm("Apply these changes?", default=True):
        raise click.ClickException("nothing was written")
    run = apply_plan(plan, setup_dir(), _run)
    if run.files:
        click.echo(
            f"Done. The files as they were are kept in {setup_dir()}; "
            "`cclens setup --undo` puts them back."
        )
    if runnable:
        click.echo("MCP server added." if run.mcp_added else "The MCP server was not added.")
