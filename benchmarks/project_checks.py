"""check_project on the fixture corpus: findings by severity and check time per project.

Each fixture in tests/fixtures/projects is checked with the bundled packs' baseline: once cold (the
first run in this process, imports done) and then ``runs`` times warm; prints errors/warnings/infos
and the median and first time in milliseconds. With ``--list`` it prints every finding too. Last, the time of one check
of a fixture seeded with hostile values (backtracking route patterns, a 20,000-fold pom.xml, a
500 KB client secret, a 10,000-character engines range, a 300 KB Component name).

Usage: python benchmarks/project_checks.py [runs] [--list]
"""

from __future__ import annotations

import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from sap_devs.doctor.baseline import baseline_from
from sap_devs.doctor.project import check_project
from sap_devs.knowledge.base import KnowledgeBase
from sap_devs.knowledge.layers import Layer

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "projects"
GOAL_MS = 300.0


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    runs = int(args[0]) if args else 20
    show = "--list" in sys.argv
    from sap_devs.core import paths

    baseline = baseline_from(KnowledgeBase.load(layers=[Layer("bundled", paths.bundled_root(), strict=True)]))
    total = {"error": 0, "warning": 0, "info": 0}
    medians = []
    print(f"{'fixture':34} {'E/W/I':>8} {'median ms':>10} {'first ms':>9}")
    for fixture in sorted(p for p in CORPUS.iterdir() if p.is_dir()):
        start = time.perf_counter()
        report = check_project(fixture, baseline=baseline)
        first = (time.perf_counter() - start) * 1000
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            check_project(fixture, baseline=baseline)
            times.append((time.perf_counter() - start) * 1000)
        counts = {s: sum(f.severity == s for f in report.findings) for s in total}
        for severity, count in counts.items():
            total[severity] += count
        median = statistics.median(times)
        medians.append(median)
        shown = f"{counts['error']}/{counts['warning']}/{counts['info']}"
        print(f"{fixture.name:34} {shown:>8} {median:10.1f} {first:9.1f}")
        if show:
            for f in report.findings:
                print(f"    {f.severity:7} {f.file}:{f.line or ''} {f.message[:150]}")
    shown = f"{total['error']}/{total['warning']}/{total['info']}"
    print(f"{'total':34} {shown:>8} {max(medians):10.1f} (slowest median; goal {GOAL_MS:.0f} ms)")
    with tempfile.TemporaryDirectory() as tmp:
        root = hostile(Path(tmp))
        start = time.perf_counter()
        report = check_project(root, baseline=baseline)
        ms = (time.perf_counter() - start) * 1000
        print(f"{'hostile values (one check)':34} {len(report.findings):>8} {ms:10.1f}")


def hostile(tmp: Path) -> Path:
    root = Path(shutil.copytree(CORPUS / "fiori-tools-cap-hybrid", tmp / "hostile"))
    routes = [{"source": "(a+)+$" * 80, "destination": "x", "authenticationType": "none"}] * 3000
    (root / "localrouter" / "xs-app.json").write_text(json.dumps({"routes": routes}), encoding="utf-8")
    (root / "pom.xml").write_text("<artifactId>cds-maven-plugin</artifactId>" * 20_000, encoding="utf-8")
    (root / "key.json").write_text('{"clientsecret": "' + "x" * 500_000 + '"}', encoding="utf-8")
    pkg = json.loads((root / "package.json").read_text(encoding="utf-8"))
    pkg["engines"] = {"node": "||" * 5_000 + "^" * 5_000}
    (root / "package.json").write_text(json.dumps(pkg), encoding="utf-8")
    component = root / "app" / "feproject-ui" / "webapp" / "Component.js"
    component.write_text('.extend("' + "a." * 150_000 + '")', encoding="utf-8")
    return root


if __name__ == "__main__":
    main()
