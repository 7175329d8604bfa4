"""``cclens otel``: send sessions as OpenTelemetry traces to an OTLP/HTTP collector."""

from __future__ import annotations

from pathlib import Path

import click

from ..formats import plural
from ._folders import required_folders
from ._output import console, json_option, need_extra, print_json
from ._redaction import redaction_options, redaction_summary, redactor
from .dataset import progress, report_problems, selection_options, session_filter


def _headers(values: tuple[str, ...]) -> dict[str, str]:
    headers: dict[str, str] = {}
    for value in values:
        key, separator, content = value.partition("=")
        if not separator or not key.strip():
            raise click.BadParameter(f"{value!r} is not KEY=VALUE", param_hint="--header")
        headers[key.strip()] = content.strip()
    return headers


@click.command("otel")
@click.option(
    "--endpoint",
    required=True,
    envvar="OTEL_EXPORTER_OTLP_ENDPOINT",
    metavar="URL",
    help="OTLP/HTTP endpoint, e.g. http://localhost:4318 (/v1/traces is added) "
    "[env: OTEL_EXPORTER_OTLP_ENDPOINT].",
)
@click.option(
    "--session",
    "sessions",
    multiple=True,
    metavar="ID",
    help="Only this session: an id, an id prefix or a file path (repeatable).",
)
@selection_options
@click.option(
    "--no-content", is_flag=True, help="Send structure only: no prompt, output or tool data."
)
@redaction_options
@click.option(
    "--header",
    "header_values",
    multiple=True,
    metavar="KEY=VALUE",
    help="HTTP header for every request, e.g. an API key (repeatable).",
)
@click.option("--machine", metavar="NAME", help="Value of cclens.machine (default: the host name).")
@click.option(
    "--content-limit",
    type=click.IntRange(min=0),
    default=8192,
    show_default=True,
    help="Cut each text in the content at this many characters (0: no limit).",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0.1),
    default=10.0,
    show_default=True,
    help="Seconds to deliver each request, retries included.",
)
@json_option
def command(
    endpoint: str,
    sessions: tuple[str, ...],
    since: str | None,
    projects: tuple[str, ...],
    roots: tuple[Path, ...],
    no_content: bool,
    no_redact: bool,
    redact_patterns: tuple[str, ...],
    anonymize_paths: bool,
    header_values: tuple[str, ...],
    machine: str | None,
    content_limit: int,
    timeout: float,
    as_json: bool,
) -> None:
    """Send sessions to an OpenTelemetry collector as traces.

    Each session becomes a trace following the OpenTelemetry GenAI semantic conventions: a
    span for the session, one per turn (a prompt and what followed it), one per model response
    (chat, with model and token usage) and one per tool call (execute_tool), with subagents
    below the call that spawned them and failed tool calls marked as errors. Trace and span ids
    are derived from the session and record ids, so sending a session twice sends the same
    ids. Prompts, responses and tool input and output are sent redacted; --no-content sends
    the structure only. docs/otel.md lists every span and attribute.

    Exit code 1 when a session could not be delivered, 2 when a path could not be read.
    With --json, one object with endpoint, sessions, spans, failed, stopped, redacted and
    unreadable.
    """
    from ..dataset import default_machine, load_selected, select_files

    need_extra("otel", "otel", "opentelemetry.sdk", "opentelemetry.exporter.otlp.proto.http")
    from ..otel import Content, TraceBuilder, send_sessions, traces_endpoint

    try:
        traces_endpoint(endpoint)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--endpoint") from None
    headers = _headers(header_values)
    wanted = session_filter(since, projects, sessions)
    redaction = redactor(no_redact, redact_patterns, anonymize_paths)
    selection = select_files(required_folders(roots), wanted)
    for key in sessions:
        matches = selection.discovery.find(key)
        if not matches:
            raise click.ClickException(
                f"no session matches {key!r}; give a session id, the start of one, or a "
                "transcript path"
            )
        exact = [m for m in matches if m.session_id == key or str(m.path) == key]
        if len(matches) > 1 and not exact:
            listed = "\n".join(f"  {m.session_id}  {m.path}" for m in matches)
            raise click.ClickException(
                f"{key!r} matches several sessions; give more of the id:\n{listed}"
            )
    content = None if no_content else Content(redaction, content_limit)
    builder = TraceBuilder(machine or default_machine(), content)
    with progress(len(selection.files), "Sending sessions") as advance:
        report = send_sessions(
            load_selected(selection, wanted),
            builder,
            endpoint=endpoint,
            headers=headers,
            timeout=timeout,
            on_session=advance,
        )
    if as_json:
        print_json(
            {
                "endpoint": report.endpoint,
                "sessions": report.sessions,
                "spans": report.spans,
                "failed": [{"session": s, "reason": r} for s, r in report.failed],
                "stopped": report.stopped,
                "redacted": dict(redaction.counts),
                "unreadable": [{"path": str(p), "reason": r} for p, r in selection.errors],
            }
        )
    else:
        out = console()
        out.print(
            f"Sent {plural(report.spans, 'span')} of "
            f"{plural(report.sessions - len(report.failed), 'session')} "
            f"to {report.endpoint} as machine [bold]{builder.machine}[/].",
        )
        out.print(
            "Content was not sent (--no-content)." if no_content else redaction_summary(redaction)
        )
    for session_id, reason in report.failed:
        click.echo(
            f"cclens: session {session_id} was not delivered to {report.endpoint}: {reason}",
            err=True,
        )
    if report.stopped:
        click.echo("cclens: stopped after several sessions in a row failed.", err=True)
    report_problems([], selection.errors)
    if report.failed:
        raise SystemExit(1)
    if selection.errors:
        raise SystemExit(2)
