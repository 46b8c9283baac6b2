"""Time and peak memory of hostile project input: YAML alias bombs and a folder full of symlink loops.

Each scenario runs in its own child process under a memory cap (RLIMIT_AS) and a timeout, so a
regression shows up as "killed" instead of taking the machine down. Peak RSS is the child's own
(``os.wait4``), not this script's. Usage: python benchmarks/hostile_input.py [--cap-gb 4] [--timeout 90]
"""

from __future__ import annotations

import argparse
import itertools
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable


def bomb(levels: int = 9, width: int = 9, indent: str = "  ") -> str:
    """Mapping lines ``a: &a [...]`` ... ``i: &i [*h, ...]``: each level repeats the previous ``width`` times."""
    names = [chr(ord("a") + n) for n in range(levels)]
    lines = [f"{names[0]}: &{names[0]} [{', '.join(['lol'] * width)}]"]
    for prev, name in itertools.pairwise(names):
        lines.append(f"{name}: &{name} [{', '.join([f'*{prev}'] * width)}]")
    return "\n".join(indent + line for line in lines) + "\n"


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def pack_layer(base: Path, filename: str) -> Path:
    layer = base / "layer"
    write(layer / "packs/demo/pack.yaml", "id: demo\nname: Demo\ndescription: hostile pack\n")
    body = "- " + bomb()[2:] + "  id: *i\n"
    write(layer / "packs/demo" / filename, body)
    return layer


def mta_project(base: Path) -> Path:
    project = base / "mta"
    write(project / "mta.yaml", "_schema-version: '3.1'\nID: x\nversion: 1.0.0\nx:\n" + bomb() + "modules:\n"
          "  - name: *i\n    path: nowhere\n")  # fmt: skip
    return project


def continue_home(base: Path) -> Path:
    home = base / "home"
    write(home / ".continue/config.yaml", "x:\n" + bomb() + "mcpServers:\n  - name: other\n    args: *i\n")
    return home


def symlink_project(base: Path, *, to_root: bool, links: int = 24) -> Path:
    project = base / ("links-root" if to_root else "links")
    write(project / "package.json", '{"dependencies": {"@sap/cds": "^8"}}')
    write(project / "app/webapp/manifest.json", '{"sap.app": {"id": "a"}}')
    for n in range(links):
        os.symlink(".", project / f"l{n}")
    if to_root:
        os.symlink("/", project / "root")
    return project


SCENARIOS = {
    "pack tools.yaml bomb": (
        "from pathlib import Path; from sap_devs.knowledge.layers import load_layers; "
        "from sap_devs.knowledge.layer_paths import Layer; "
        "out = load_layers([Layer('project', Path({arg!r}))]); print(len(out.packs), 'packs;', out.problems[0][-160:])"
    ),
    "pack known_errors.yaml bomb": None,  # same code, other fixture
    "mta.yaml bomb": (
        "from pathlib import Path; from sap_devs.doctor.project import check_project; "
        "r = check_project(Path({arg!r})); print(len(r.findings), 'findings;', r.findings[0].message[:160])"
    ),
    "Continue config bomb": (
        "import os, sys; from sap_devs.cli.entry import main; os.environ['SAP_DEVS_HOME'] = {arg!r}; "
        "sys.argv = ['sap-devs', 'mcp', 'install', '-c', 'continue']; main()"
    ),
    "24 symlinks to .": (
        "from pathlib import Path; from sap_devs.doctor.project import check_project; "
        "r = check_project(Path({arg!r})); print(len(r.findings), 'findings;', getattr(r, 'notes', ''))"
    ),
    "24 symlinks to . and one to /": None,
}


def run(code: str, cap_bytes: int, timeout: float) -> tuple[float, int, str]:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cap_bytes, cap_bytes))

    start = time.perf_counter()
    proc = subprocess.Popen(
        [PYTHON, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        preexec_fn=limit,
        env={**os.environ, "SAP_DEVS_EXECUTABLE": sys.executable},
    )
    deadline = start + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            proc.send_signal(signal.SIGKILL)
            pid, status, usage = os.wait4(proc.pid, 0)
            break
        time.sleep(0.05)
    elapsed = time.perf_counter() - start
    output = proc.stdout.read().decode(errors="replace") if proc.stdout else ""
    if os.WIFSIGNALED(status):
        output = f"killed by signal {os.WTERMSIG(status)} (timeout {timeout:.0f}s)" + (
            f"; {output.strip()[-200:]}" if output.strip() else ""
        )
    elif os.WEXITSTATUS(status) and "MemoryError" in output:
        output = f"MemoryError under the {cap_bytes / 2**30:.0f} GB cap"
    peak_kb = usage.ru_maxrss  # kilobytes on Linux
    return elapsed, peak_kb, " ".join(output.split())[-240:]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cap-gb", type=float, default=4.0)
    parser.add_argument("--timeout", type=float, default=90.0)
    parser.add_argument("--only", default="", help="run only the scenarios whose name contains this")
    args = parser.parse_args()
    cap = int(args.cap_gb * 2**30)
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        fixtures = {
            "pack tools.yaml bomb": pack_layer(base / "p1", "tools.yaml"),
            "pack known_errors.yaml bomb": pack_layer(base / "p2", "known_errors.yaml"),
            "mta.yaml bomb": mta_project(base),
            "Continue config bomb": continue_home(base),
            "24 symlinks to .": symlink_project(base, to_root=False),
            "24 symlinks to . and one to /": symlink_project(base, to_root=True),
        }
        size = len((base / "p1/layer/packs/demo/tools.yaml").read_bytes())
        print(f"bomb file: {size} bytes; cap {args.cap_gb:g} GB address space, timeout {args.timeout:g}s\n")
        for name, fixture in fixtures.items():
            if args.only and args.only not in name:
                continue
            code = SCENARIOS[name] or SCENARIOS["pack tools.yaml bomb" if "bomb" in name else "24 symlinks to ."]
            assert code is not None
            elapsed, peak_kb, output = run(code.format(arg=str(fixture)), cap, args.timeout)
            print(f"{name:32} {elapsed:7.2f} s  {peak_kb / 1024:8.0f} MB peak RSS  {output}")


if __name__ == "__main__":
    main()
