"""Time and peak memory of hostile input: YAML alias bombs, a folder full of symlink loops, and two
documentation tarball bombs (3,000,000 empty members; 200 pages of 2 MiB) as ``sync --only docs``
ingests them.

Each scenario runs in its own child process under a memory cap (RLIMIT_AS) and a timeout, so a
regression shows up as "killed" instead of taking the machine down. Peak RSS is the child's own
(``os.wait4``), not this script's. Usage: python benchmarks/hostile_input.py [--cap-gb 4] [--timeout 90]
[--only tarball] [--src OTHER_CHECKOUT/src] (the children import sap_devs from there, to compare builds).
"""

from __future__ import annotations

import argparse
import gzip
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


TAR_TOP = "SAP-docs-btp-fiori-tools-abc1234"
TAR_COMMIT = "abc1234" + "0" * 33


def _tar_header(name: bytes, size: int) -> bytes:
    header = bytearray(512)
    header[0 : len(name)] = name
    header[100:108] = b"0000644\0"
    header[108:116] = header[116:124] = b"0000000\0"
    header[124:136] = b"%011o\0" % size
    header[136:148] = b"00000000000\0"
    header[148:156] = b" " * 8
    header[156:157] = b"0"
    header[257:265] = b"ustar\x0000"
    header[148:156] = b"%06o\0 " % sum(header)
    return bytes(header)


def many_members_tarball(path: Path, members: int = 3_000_000) -> Path:
    """A gzip tarball of ``members`` empty pages, written header by header (tarfile takes minutes)."""
    with gzip.open(path, "wb", compresslevel=1) as out:
        for n in range(members):
            out.write(_tar_header(b"%s/docs/p%07d.md" % (TAR_TOP.encode(), n), 0))
        out.write(b"\0" * 1024)
    return path


def big_pages_tarball(path: Path, pages: int = 200, size: int = 2 * 1024 * 1024) -> Path:
    """``pages`` pages of exactly ``size`` bytes each (a loio, so each has an address, and one line of
    prose, repeated)."""
    line = b"The generator builds an SAP Fiori elements application from the service metadata.\n"
    prose = line * (size // len(line) + 1)
    padding = b"\0" * (-size % 512)
    with gzip.open(path, "wb", compresslevel=9) as out:
        for n in range(pages):
            head = b"<!-- loio%032x -->\n\n# Generating Application %d\n\n" % (n, n)
            out.write(_tar_header(b"%s/docs/big%03d.md" % (TAR_TOP.encode(), n), size))
            out.write((head + prose)[:size] + padding)
        out.write(b"\0" * 1024)
    return path


TARBALL_CODE = (
    "import time; from pathlib import Path; from sap_devs.core.errors import SapDevsError; "
    "from sap_devs.docs.sources import BY_REPO; from sap_devs.docs.sync import _ingest\n"
    "try:\n    pages, _ = _ingest(BY_REPO['sap-docs/btp-fiori-tools'], Path({arg!r}), "
    f"{TAR_COMMIT!r}); print(len(pages), 'pages indexed')\n"
    "except SapDevsError as exc:\n    print('refused:', exc)"
)

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
    "tarball of 3,000,000 empty members": TARBALL_CODE,
    "tarball of 200 pages of 2 MiB": TARBALL_CODE,
    "tarball of 200 pages of 1.4 MiB": TARBALL_CODE,
}


def run(code: str, cap_bytes: int, timeout: float, src: str | None = None) -> tuple[float, int, str]:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cap_bytes, cap_bytes))

    start = time.perf_counter()
    proc = subprocess.Popen(
        [PYTHON, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        preexec_fn=limit,
        env={**os.environ, "SAP_DEVS_EXECUTABLE": sys.executable, **({"PYTHONPATH": src} if src else {})},
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
    parser.add_argument("--src", help="import sap_devs from this folder in the children (another checkout's src)")
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
        if not args.only or "tarball" in args.only:
            fixtures["tarball of 3,000,000 empty members"] = many_members_tarball(base / "many.tar.gz")
            fixtures["tarball of 200 pages of 2 MiB"] = big_pages_tarball(base / "big.tar.gz")
            fixtures["tarball of 200 pages of 1.4 MiB"] = big_pages_tarball(base / "big14.tar.gz", size=1400 * 1024)
            for name in ("many", "big", "big14"):
                print(f"{name}.tar.gz: {(base / f'{name}.tar.gz').stat().st_size / 1e6:.2f} MB compressed")
        size = len((base / "p1/layer/packs/demo/tools.yaml").read_bytes())
        print(f"bomb file: {size} bytes; cap {args.cap_gb:g} GB address space, timeout {args.timeout:g}s\n")
        for name, fixture in fixtures.items():
            if args.only and args.only not in name:
                continue
            code = SCENARIOS[name] or SCENARIOS["pack tools.yaml bomb" if "bomb" in name else "24 symlinks to ."]
            assert code is not None
            elapsed, peak_kb, output = run(code.format(arg=str(fixture)), cap, args.timeout, args.src)
            print(f"{name:36} {elapsed:7.2f} s  {peak_kb / 1024:8.0f} MB peak RSS  {output}")


if __name__ == "__main__":
    main()
