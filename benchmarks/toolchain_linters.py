"""What sap-devs adds to SAP's linters: run_ui5_linter against `ui5lint --format json` run directly on
the same seeded app, and check_abap_code on a cloud class, medians over rounds.

Needs the test cache of SAP's tools (tests/sap_tools/package.json, installed by .ci/run).
Usage: python benchmarks/toolchain_linters.py [rounds]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest import bundled_layer, write_files  # noqa: E402
from tests.sap_tools import cache_dir  # noqa: E402
from tests.test_project_linters import CLOUD_SOURCE, UI5_APP  # noqa: E402

from sap_devs.mcp.dispatch import invoke  # noqa: E402
from sap_devs.mcp.framework import ToolContext  # noqa: E402
from sap_devs.mcp.registry import discover  # noqa: E402


def _median(values: list[float]) -> float:
    return statistics.median(values)


def main(rounds: int) -> None:
    tools = cache_dir()
    node = tools / "node_modules" / ".bin" / "node"
    cli = tools / "node_modules" / "@ui5" / "linter" / "bin" / "ui5lint.js"
    if not cli.exists() or not (tools / "node_modules" / "@abaplint" / "core").exists():
        sys.exit(f"{tools} lacks @ui5/linter or @abaplint/core: run .ci/run (or the tests) first")
    os.environ["SAP_DEVS_TOOLCHAIN_DIR"] = str(tools)
    by_name = {t.name: t for t in discover()}
    with tempfile.TemporaryDirectory() as tmp:
        app = write_files(Path(tmp) / "app", UI5_APP)
        ctx = ToolContext(cwd=Path(tmp), layers=[bundled_layer()])
        direct, ours, abap = [], [], []
        for _ in range(rounds):
            started = time.perf_counter()
            subprocess.run([str(node), str(cli), "--format", "json"], cwd=app, capture_output=True, check=False)
            direct.append(time.perf_counter() - started)
            started = time.perf_counter()
            outcome = anyio.run(invoke, by_name["run_ui5_linter"], {"path": str(app)}, ctx)
            ours.append(time.perf_counter() - started)
            assert not outcome.is_error, outcome.text
            started = time.perf_counter()
            outcome = anyio.run(invoke, by_name["check_abap_code"], {"source": CLOUD_SOURCE}, ctx)
            abap.append(time.perf_counter() - started)
            assert not outcome.is_error, outcome.text
    d, o = _median(direct), _median(ours)
    print(f"seeded UI5 app ({len(UI5_APP)} files), {rounds} rounds, medians:")
    print(f"  ui5lint --format json directly : {d:6.2f} s")
    print(f"  run_ui5_linter (sap-devs)      : {o:6.2f} s   overhead {o - d:+.2f} s ({o / d:.2f}x)")
    print(f"check_abap_code, cloud class with MARA and WRITE: {_median(abap):6.2f} s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
