"""Send sessions' spans to an OTLP/HTTP endpoint (protobuf), one session at a time."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from urllib.parse import urlsplit, urlunsplit

from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.trace.export import SpanExportResult

from ..readers.claude import Session
from .spans import TraceBuilder

TRACES_PATH = "/v1/traces"
#: Spans per request: small enough for collectors' default request limits with content on.
BATCH = 256


def traces_endpoint(url: str) -> str:
    """The traces URL of an OTLP/HTTP endpoint.

    A base URL (``http://collector:4318`` or ``https://host/otlp``) gets ``/v1/traces``
    appended, as ``OTEL_EXPORTER_OTLP_ENDPOINT`` does; a URL already ending in ``/v1/traces`` is
    used as it is. Raises ``ValueError`` for anything but an http or https URL.
    """
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"not an http(s) URL: {url!r}")
    path = parts.path.rstrip("/")
    if not path.endswith(TRACES_PATH):
        path += TRACES_PATH
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))


@dataclass(slots=True)
class SendReport:
    """What was sent."""

    endpoint: str
    sessions: int = 0
    spans: int = 0
    #: Sessions whose spans were not accepted, with the reason.
    failed: list[tuple[str, str]] = field(default_factory=list)
    #: Whether sending stopped early because too many sessions in a row failed.
    stopped: bool = False


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@contextmanager
def _exporter_messages() -> Iterator[list[str]]:
    """Collect what the OTLP exporter logs instead of letting it print: the library reports
    failures through its return value and the CLI decides what to show."""
    logger = logging.getLogger("opentelemetry.exporter")
    handler = _Collect()
    propagate = logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        yield handler.messages
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate


def _reason(messages: list[str]) -> str:
    """What went wrong, from the exporter's log: its conclusion and the first error met."""
    if not messages:
        return "the endpoint did not accept the spans"
    if len(messages) == 1:
        return messages[0]
    return f"{messages[-1]} First error: {messages[0]}"


def send_sessions(
    sessions: Iterable[Session],
    builder: TraceBuilder,
    *,
    endpoint: str,
    headers: Mapping[str, str] | None = None,
    timeout: float = 10.0,
    on_session: Callable[[Session, int], None] | None = None,
    give_up_after: int = 3,
) -> SendReport:
    """Build the spans of each session and send them to ``endpoint``.

    A session whose spans are refused (or cannot be delivered within ``timeout`` seconds,
    retries included) is listed in ``SendReport.failed`` and the others are still sent.
    ``headers`` are added to every request, on top of ``OTEL_EXPORTER_OTLP_HEADERS``.
    ``on_session`` is called with each session and its number of spans once it is sent.
    After ``give_up_after`` sessions in a row fail (an endpoint that is down), the rest are
    not tried and ``SendReport.stopped`` is set.
    """
    url = traces_endpoint(endpoint)
    report = SendReport(url)
    exporter = OTLPSpanExporter(
        endpoint=url, headers=dict(headers) if headers else None, timeout=timeout
    )
    try:
        with _exporter_messages() as messages:
            failures = 0
            for session, spans in builder.traces(sessions):
                report.sessions += 1
                for start in range(0, len(spans), BATCH):
                    del messages[:]
                    if exporter.export(spans[start : start + BATCH]) != SpanExportResult.SUCCESS:
                        report.failed.append((session.session_id, _reason(messages)))
                        failures += 1
                        break
                else:
                    report.spans += len(spans)
                    failures = 0
                if on_session is not None:
                    on_session(session, len(spans))
                if failures >= give_up_after:
                    report.stopped = True
                    break
    finally:
        exporter.shutdown()  # type: ignore[no-untyped-call]  # untyped in the SDK
    return report


__all__ = ["BATCH", "TRACES_PATH", "SendReport", "send_sessions", "traces_endpoint"]
