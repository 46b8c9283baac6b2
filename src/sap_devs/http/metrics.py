"""Prometheus metrics of the HTTP server: requests, latency and errors per MCP method, tool and auth method.

Label values are bounded: tool names only from the server's registry and JSON-RPC methods only from
the protocol's, anything else counts as ``other``, so a client cannot grow the series without end.
With ``--workers N`` each worker counts its own requests (scrape each pod; replicas scale better
than workers on Kubernetes).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

RPC_METHODS = frozenset(
    {
        "initialize",
        "notifications/initialized",
        "ping",
        "server/discover",
        "tools/list",
        "tools/call",
        "resources/list",
        "resources/read",
        "resources/templates/list",
        "prompts/list",
        "prompts/get",
        "completion/complete",
        "logging/setLevel",
        "notifications/cancelled",
    }
)
BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)


class Metrics:
    def __init__(self, tool_names: Iterable[str]) -> None:
        self.tools = frozenset(tool_names)
        self.registry = CollectorRegistry()
        labels = ("rpc", "tool", "auth")
        self.requests = Counter(
            "sap_devs_http_requests", "MCP requests over HTTP", (*labels, "status"), registry=self.registry
        )
        self.errors = Counter(
            "sap_devs_http_errors",
            "MCP requests answered with HTTP 4xx/5xx",
            (*labels, "status"),
            registry=self.registry,
        )
        self.latency = Histogram(
            "sap_devs_http_request_duration_seconds",
            "Time from request to the end of the response",
            labels,
            buckets=BUCKETS,
            registry=self.registry,
        )

    def observe(self, entry: dict[str, Any]) -> None:
        rpc = entry.get("rpc", "")
        rpc = rpc if rpc in RPC_METHODS else ("none" if not rpc else "other")
        tool = entry.get("tool", "")
        tool = tool if tool in self.tools else ("" if not tool else "other")
        auth = entry.get("auth", "none")
        status = str(entry.get("status", 0))
        self.requests.labels(rpc, tool, auth, status).inc()
        if not status.startswith(("2", "3")):
            self.errors.labels(rpc, tool, auth, status).inc()
        self.latency.labels(rpc, tool, auth).observe(entry.get("ms", 0.0) / 1000)

    def exposition(self) -> tuple[bytes, str]:
        return generate_latest(self.registry), CONTENT_TYPE_LATEST
