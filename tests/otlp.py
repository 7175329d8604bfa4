"""A real OTLP/HTTP trace receiver on 127.0.0.1, for tests, and how to read what it got."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue
from opentelemetry.proto.trace.v1.trace_pb2 import Span


@dataclass
class Received:
    """What one POST brought."""

    path: str
    headers: dict[str, str]
    body: bytes
    request: ExportTraceServiceRequest


@dataclass
class Receiver:
    url: str
    requests: list[Received] = field(default_factory=list)

    def spans(self) -> list[Span]:
        return [
            span
            for received in self.requests
            for resource in received.request.resource_spans
            for scope in resource.scope_spans
            for span in scope.spans
        ]

    def resources(self) -> list[dict[str, Any]]:
        return [
            attributes(resource.resource.attributes)
            for received in self.requests
            for resource in received.request.resource_spans
        ]

    def body(self) -> bytes:
        return b"".join(received.body for received in self.requests)


@contextmanager
def otlp_receiver() -> Iterator[Receiver]:
    """An OTLP/HTTP trace receiver on a free port of 127.0.0.1."""
    box: list[Receiver] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            request = ExportTraceServiceRequest()
            request.ParseFromString(body)
            headers = {key.lower(): value for key, value in self.headers.items()}
            box[0].requests.append(Received(self.path, headers, body, request))
            answer = ExportTraceServiceResponse().SerializeToString()
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, format: str, *args: Any) -> None:
            del format, args  # keep the test output clean

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    box.append(Receiver(f"http://127.0.0.1:{server.server_address[1]}"))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield box[0]
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def _value(value: AnyValue) -> Any:
    kind = value.WhichOneof("value")
    if kind == "array_value":
        return [_value(item) for item in value.array_value.values]
    return getattr(value, kind) if kind else None


def attributes(pairs: Any) -> dict[str, Any]:
    """OTLP key-value pairs as a dict."""
    items: list[KeyValue] = list(pairs)
    return {pair.key: _value(pair.value) for pair in items}
