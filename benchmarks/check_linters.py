"""`sap-devs check` with and without SAP's compilers and linters, on a CAP, a UI5 and an abapGit project:
whole-command seconds (process start to exit, as a user runs it) and findings, medians over rounds.

Projects: SAP's cap-sflight model (tests/fixtures/cap), SAP's fiori-tools-ui5-manage-products app
(tests/fixtures/projects, its descriptor and Component.js) and the seeded UI5 app and abapGit cloud
class of the linter tests. Needs the test cache of SAP's tools (tests/sap_tools/package.json).

Usage: python benchmarks/check_linters.py [rounds, default 3]
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest import write_files  # noqa: E402
from tests.sap_tools import cache_dir  # noqa: E402
from tests.test_check_linters import CLOUD_XML  # noqa: E402
from tests.test_project_linters import ABAPGIT, CLOUD_SOURCE, UI5_APP  # noqa: E402

SAP_DEVS = Path(sys.executable).with_name("sap-devs")


def _projects(tmp: Path) -> dict[str, Path]:
    return {
        "CAP: cap-sflight": Path(shutil.copytree(ROOT / "tests/fixtures/cap/cap-sflight", tmp / "sflight")),
        "UI5: fiori-tools-ui5-manage-products": Path(
            shutil.copytree(ROOT / "tests/fixtures/projects/fiori-tools-ui5-manage-products", tmp / "products")
        ),
        "UI5: seeded app (5 files)": write_files(tmp / "ui5", UI5_APP),
        "abapGit: seeded cloud class": write_files(
            tmp / "abap",
            {".abapgit.xml": ABAPGIT, "src/zcl_demo.clas.abap": CLOUD_SOURCE, "src/zcl_demo.clas.xml": CLOUD_XML},
        ),
    }


def _run(project: Path, *flags: str, env: dict[str, str]) -> tuple[float, dict]:
    started = time.perf_counter()
    proc = subprocess.run(
        [str(SAP_DEVS), "check", str(project), "--json", "--tools", "none", *flags],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    elapsed = time.perf_counter() - started
    if proc.returncode not in (0, 1):
        raise SystemExit(f"sap-devs check {project} failed ({proc.returncode}): {proc.stderr[-500:]}")
    return elapsed, json.loads(proc.stdout)


def main(rounds: int) -> None:
    tools = cache_dir()
    if not (tools / "node_modules" / "@sap" / "cds-compiler").exists():
        sys.exit(f"{tools} lacks SAP's tools: run .ci/run (or the tests) first")
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "SAP_DEVS_TOOLCHAIN_DIR": str(tools), "SAP_DEVS_CACHE_DIR": str(Path(tmp) / "cache")}
        print(f"sap-devs check --json --tools none, {rounds} round(s), medians (cold = first run, model not cached):")
        for name, project in _projects(Path(tmp)).items():
            without, with_, first = [], [], None
            counts: dict[str, int] = {}
            for n in range(rounds):
                seconds, data = _run(project, "--no-linters", env=env)
                without.append(seconds)
                seconds, data = _run(project, env=env)
                if n == 0:
                    first = seconds
                with_.append(seconds)
                counts = {}
                for f in data["findings"]:
                    counts[f["category"]] = counts.get(f["category"], 0) + 1
            linted = {k: v for k, v in counts.items() if k in ("cds", "ui5lint", "abaplint", "toolchain")}
            errors = data["summary"]["error"]
            print(
                f"  {name:38} without {statistics.median(without):5.2f} s | with {statistics.median(with_):5.2f} s "
                f"(first {first:5.2f} s) | linter findings {linted or 0}, errors {errors}"
            )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
