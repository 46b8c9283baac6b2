"""The official MCP conformance suite (@modelcontextprotocol/conformance) against the HTTP server on 127.0.0.1.

Installed with npm into the same cache as the real AI clients (``SAP_DEVS_TEST_CLIENTS``, default
``~/.cache/sap-devs-test-clients``, which ``.ci/run`` fills), and run on that cache's Node 22; skipped
loudly when it is not there and the npm registry cannot be reached.

Many of the suite's scenarios call fixtures of the SDKs' own test servers (a ``test_image_content``
tool, a ``test://static-text`` resource ...) or features sap-devs does not declare (logging,
resource subscriptions). Those must fail for exactly that reason and no other; every scenario that
applies to sap-devs must pass.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from sap_devs.http.app import HttpSettings
from sap_devs.http.run import LOCAL_ONLY_TOOLS
from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.registry import Registry
from sap_devs.mcp.server import build_server
from tests.conftest import bundled_layer
from tests.http_helpers import sap_devs_http
from tests.integrations.test_real_clients import _skip_loudly, cache_dir, skip_if_asked

PACKAGE = "@modelcontextprotocol/conformance@0.1.16"
# Scenarios about the protocol and transport themselves: all their checks must pass.
APPLICABLE = {
    "server-initialize",
    "ping",
    "completion-complete",
    "tools-list",
    "resources-list",
    "prompts-list",
    "dns-rebinding-protection",
}
# Why the other scenarios may fail: a fixture only the SDKs' test servers have ...
MISSING_FIXTURE = re.compile(r"Unknown tool: 'test_|Unknown prompt 'test_|Unknown resource 'test://")
# ... or a feature sap-devs does not declare in its capabilities, answered with "method not found".
UNDECLARED = {"logging-set-level", "tools-call-with-logging", "resources-subscribe", "resources-unsubscribe"}
# ... or, as a warning, sessions: the server is stateless by design (any replica answers any request).
SESSIONS = {"server-sse-multiple-streams"}


def conformance_bin() -> tuple[Path, Path]:
    skip_if_asked()
    folder = cache_dir()
    bin_dir = folder / "node_modules" / ".bin"
    if not (bin_dir / "conformance").exists() or not (bin_dir / "node").exists():
        try:
            proc = subprocess.run(
                ["npm", "install", "--no-audit", "--no-fund", "--prefix", str(folder), "node@22", PACKAGE],
                capture_output=True,
                text=True,
                timeout=600,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            _skip_loudly(f"npm could not install {PACKAGE} ({type(exc).__name__}); MCP CONFORMANCE NOT CHECKED")
        if proc.returncode != 0 or not (bin_dir / "conformance").exists():
            tail = " | ".join((proc.stderr or proc.stdout).strip().splitlines()[-3:])
            _skip_loudly(
                f"npm could not install {PACKAGE} (registry unreachable?): {tail}; MCP CONFORMANCE NOT CHECKED"
            )
    return bin_dir / "node", bin_dir / "conformance"


def test_official_conformance_suite(tmp_path: Path) -> None:
    node, suite = conformance_bin()
    registry = Registry([t for t in Registry.default() if t.name not in LOCAL_ONLY_TOOLS])
    ctx = ToolContext(cwd=tmp_path, layers=[bundled_layer()])
    results = tmp_path / "results"
    with sap_devs_http(build_server(registry, ctx), HttpSettings(), ctx) as base:
        proc = subprocess.run(
            [str(node), str(suite), "server", "--url", base + "/mcp", "-o", str(results)],
            capture_output=True,
            text=True,
            timeout=600,
        )
    checks: dict[str, list[dict]] = {}
    for file in results.glob("server-*/checks.json"):
        scenario = re.sub(r"^server-|-\d{4}-\d\d-\d\dT.*$", "", file.parent.name)
        checks[scenario] = json.loads(file.read_text(encoding="utf-8"))
    summary = proc.stdout[proc.stdout.find("=== SUMMARY ===") :]
    assert set(checks) >= APPLICABLE, summary or proc.stderr
    unexpected = []
    for scenario, found in sorted(checks.items()):
        for check in found:
            if check["status"] in ("SUCCESS", "INFO", "SKIPPED"):
                continue
            message = check.get("errorMessage") or str((check.get("details") or {}).get("message", ""))
            explained = scenario not in APPLICABLE and (
                MISSING_FIXTURE.search(message)
                or (scenario in UNDECLARED and "Method not found" in message)
                or (scenario in SESSIONS and check["status"] == "WARNING" and "session ID" in message)
            )
            if not explained:
                unexpected.append(f"{scenario}/{check['id']}: {check['status']} {message[:200]}")
    assert not unexpected, "\n".join(unexpected) + "\n" + summary
