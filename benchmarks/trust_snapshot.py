"""What reading a project's ``.sap-devs/`` once (trust.snapshot) costs next to reading it from the disk.

A folder that needs trust is read whole into memory, digested and parsed from those bytes; the
bundled and user layers are parsed from the disk. This builds project folders of 1, 10 and 50 packs
(context, constraints, tools, resources, known errors each) and prints, per size, the median time of
loading the project layer both ways and of the snapshot alone. Usage: python benchmarks/trust_snapshot.py [--runs 9]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))


def pack_files(pack_id: str) -> dict[str, str]:
    resources = "".join(
        f"- id: {pack_id}/r{i}\n  title: Resource {i}\n  url: https://help.sap.com/docs/{i}\n  type: official-docs\n"
        for i in range(20)
    )
    errors = "".join(
        f"- id: {pack_id}/e{i}\n  pattern: Error number {i} happened\n  cause: Cause {i}.\n  fix: Fix {i}.\n"
        for i in range(20)
    )
    tools = (
        f'- id: {pack_id}-tool\n  name: Tool\n  required: ">=1.0.0"\n  detect:\n    command: "true"\n'
        "    pattern: '(\\d+\\.\\d+\\.\\d+)'\n"
    )
    context = "# Core\n\n" + "Some context about the team's conventions. " * 80 + "\n"
    return {
        "pack.yaml": f"id: {pack_id}\nname: {pack_id}\ndescription: Benchmark pack.\n",
        "context.md": context,
        "constraints.md": "# Core\n\n- Never do this.\n" * 10,
        "tools.yaml": tools,
        "resources.yaml": resources,
        "known_errors.yaml": errors,
    }


def build(root: Path, packs: int) -> Path:
    folder = root / ".sap-devs"
    for n in range(packs):
        for name, text in pack_files(f"team{n}").items():
            path = folder / "packs" / f"team{n}" / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    return folder


def median_ms(fn, runs: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for var in ("SAP_DEVS_CONFIG_DIR", "SAP_DEVS_CACHE_DIR", "SAP_DEVS_DATA_DIR"):
            os.environ[var] = str(Path(tmp) / var.lower())
        from sap_devs.knowledge import trust
        from sap_devs.knowledge.layer_paths import Layer
        from sap_devs.knowledge.layers import load_layers

        print(
            f"{'packs':>5} {'files':>6} {'KB':>7} {'disk ms':>8} {'snapshot+parse ms':>18} {'ratio':>6} {'snapshot ms':>12}"
        )
        for packs in (1, 10, 50):
            folder = build(Path(tmp) / f"p{packs}", packs)
            trust.trust(folder)
            for layer in (Layer("user", folder), Layer("project", folder, needs_trust=True)):
                content = load_layers([layer])
                assert len(content.packs) == packs and not content.problems, content.problems[:3]
            size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
            disk = median_ms(lambda folder=folder: load_layers([Layer("user", folder)]), args.runs)
            once = median_ms(lambda folder=folder: load_layers([Layer("project", folder, needs_trust=True)]), args.runs)
            snap = median_ms(lambda folder=folder: trust.snapshot(folder), args.runs)
            files = packs * len(pack_files("x"))
            print(
                f"{packs:>5} {files:>6} {size / 1024:>7.0f} {disk:>8.1f} {once:>18.1f} {once / disk:>6.2f} {snap:>12.1f}"
            )


if __name__ == "__main__":
    main()
