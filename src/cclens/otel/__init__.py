"""Sessions as OpenTelemetry traces, following the GenAI semantic conventions, sent to any
OTLP/HTTP collector.

``TraceBuilder(machine, content)`` turns a session into spans with ids derived from the session
(:mod:`cclens.otel.ids`); ``send_sessions`` sends them.
"""

from .content import Content, clip
from .ids import span_id, span_key, trace_id
from .send import SendReport, send_sessions, traces_endpoint
from .spans import TraceBuilder, resource

__all__ = [
    "Content",
    "SendReport",
    "TraceBuilder",
    "clip",
    "resource",
    "send_sessions",
    "span_id",
    "span_key",
    "trace_id",
    "traces_endpoint",
]
