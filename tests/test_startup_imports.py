"""Start-up stays light: registering every tool imports neither the HTTP client, rich nor numpy."""

from __future__ import annotations

import subprocess
import sys


def test_registry_does_not_pull_in_network_or_terminal_libraries() -> None:
    code = (
        "import sys\n"
        "from sap_devs.mcp.registry import Registry\n"
        "Registry.default()\n"
        "heavy = [m for m in ('httpx', 'rich', 'numpy', 'sap_devs.core.http', 'sap_devs.knowledge.ui5_api.catalog') "
        "if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == ""
