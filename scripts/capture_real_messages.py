"""Re-provoke the `source: run` messages of tests/data/real_messages/*.yaml with SAP's real tools.

The corpus is what SAP's tools really print when developers get something wrong. Each case below
sets up a small project in a scratch folder, runs the tool (or starts a server and sends it a
request) and cuts the message out of what the tool printed. The fixture files keep `expect` and
`heldout` as they were decided; this script only refreshes `message`, `version` and `command` of
the cases it knows, adds new ones (expect null to decide by hand; heldout by `heldout()`) and
leaves `source: docs` entries alone. Not run in CI: it needs the tools installed from npm.

    mkdir -p /tmp/h28tools && cd /tmp/h28tools && npm i @sap/cds-dk@10 @sap/cds@10 ...   (see TOOLS)
    mkdir -p /tmp/h28cdsonly && cd /tmp/h28cdsonly && npm i @sap/cds@10
    mkdir -p /tmp/h28cds8 && cd /tmp/h28cds8 && npm i @sap/cds@8
    python scripts/capture_real_messages.py --tools /tmp/h28tools [--only cds-compiler] [--check]

`--check` writes nothing and lists the messages that changed (a tool's new wording).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from real_message_cases import CASES, Case, HttpCase

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "data" / "real_messages"
CACHE = Path.home() / ".cache" / "sap-devs-test-sap-tools" / "node_modules"
NODE22 = CACHE / ".bin"
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
STACK_FRAME = re.compile(r"^\s+at \S")
PROJECT = "/home/dev/bookshop"

TOOLS = (
    "@sap/cds-dk@10 @sap/cds@10 @sap/cds-compiler@7 @cap-js/sqlite @cap-js/hana @sap/xssec @sap/hdi-deploy "
    "@ui5/cli@4 @ui5/linter @sap/approuter@21 @sap-cloud-sdk/connectivity @sap-cloud-sdk/http-client @abaplint/cli"
)


@dataclass
class Run:
    tools: Path
    node_bin: Path
    cds_only: Path
    cds8: Path
    env: dict[str, str] = field(default_factory=dict)

    def environ(self, extra: dict[str, str]) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CDS_", "VCAP_", "npm_"))}
        env["PATH"] = f"{self.tools / 'node_modules' / '.bin'}:{self.node_bin}:{env.get('PATH', '')}"
        env["NO_COLOR"] = "1"
        env["FORCE_COLOR"] = "0"
        # a case may run with another PATH (say, an older Node first): {tools} names the scratch install
        env.update({k: v.replace("{tools}", str(self.tools)) for k, v in extra.items()})
        return env

    def base(self, name: str) -> Path:
        """The node_modules a case links its packages from: the scratch install with everything, the
        test cache, or one with @sap/cds alone (what a project gets that forgot its plugins)."""
        return {
            "tools": self.tools / "node_modules",
            "cache": CACHE,
            "cds-only": self.cds_only / "node_modules",
            "cds8": self.cds8 / "node_modules",
        }[name]

    def version(self, package: str) -> str:
        if package == "node":
            return subprocess.run(
                [str(self.node_bin / "node"), "--version"], capture_output=True, text=True, check=True
            ).stdout.strip()
        if package == "npm":
            return subprocess.run(
                ["npm", "--version"], capture_output=True, text=True, check=True, env=self.environ({})
            ).stdout.strip()
        meta = self.tools / "node_modules" / package / "package.json"
        return json.loads(meta.read_text(encoding="utf-8"))["version"]


RAW = False


def cut(
    output: str, start: str, lines: int, folder: Path | None = None, tools: Path | None = None, skip: int = 0
) -> str:
    """From the first line matching `start`, `lines` lines, stopping early at a blank line. Stack frames
    are left out and the scratch folders read as a developer's project, so that a message is the same
    on every run."""
    text = ANSI.sub("", output).replace("\r\n", "\n")
    if tools is not None:
        text = text.replace(str(tools / "node_modules"), f"{PROJECT}/node_modules")
        text = text.replace(str(CACHE), f"{PROJECT}/node_modules")
        text = text.replace("/tmp/h28cdsonly/node_modules", f"{PROJECT}/node_modules")
    if folder is not None:
        text = text.replace(str(folder), PROJECT)
    if RAW:
        print(text)
    found = [line for line in text.split("\n") if not STACK_FRAME.match(line)]
    for i, line in enumerate(found):
        if re.search(start, line):
            picked: list[str] = []
            # `skip` steps over a heading ("Error Message:"); then blank lines separate paragraphs of one message
            rest = [x for x in found[i + skip :] if x.strip()] if skip else found[i:]
            for nxt in rest[:lines]:
                if picked and not nxt.strip():
                    break
                picked.append(nxt.rstrip())
            return "\n".join(picked).strip("\n")
    raise LookupError(f"no line matches {start!r} in:\n{text[:2000]}")


def _project(case: Case | HttpCase, run: Run) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="rm-"))
    for name, content in case.files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    for pkg in case.link:
        # the project sees the scratch install's packages as if it had run npm install
        target = folder / "node_modules" / pkg
        target.parent.mkdir(parents=True, exist_ok=True)
        target.symlink_to(run.base(case.base) / pkg)
    return folder


def findings(output: str, case: Case, folder: Path, tools: Path) -> tuple[list[str], list[str]]:
    """A linter's report: one message per distinct finding, named by its rule and a counter."""
    text = ANSI.sub("", output).replace(str(folder), PROJECT).replace(str(tools), PROJECT)
    if RAW:
        print(text)
    messages: list[str] = []
    names: list[str] = []
    seen: set[str] = set()
    counts: dict[str, int] = {}
    for line in text.split("\n"):
        if not re.search(case.each, line):
            continue
        line = line.strip()
        # the same finding at another place is the same message
        wording = re.sub(case.where, "", line)
        if wording in seen:
            continue
        seen.add(wording)
        rule = m.group(1) if (m := re.search(case.rule, line)) else "finding"
        counts[rule] = counts.get(rule, 0) + 1
        names.append(f"{case.scenario}-{rule}-{counts[rule]}")
        messages.append(re.sub(case.strip, "", line) if case.strip else line)
    if not messages:
        raise LookupError(f"no finding matches {case.each!r} in:\n{text[:2000]}")
    return names, messages


def run_case(case: Case, run: Run) -> str | tuple[list[str], list[str]]:
    folder = _project(case, run)
    try:
        done = subprocess.run(
            case.cmd,
            cwd=folder,
            shell=True,
            capture_output=True,
            text=True,
            timeout=case.timeout,
            env=run.environ(case.env),
        )
        if case.each:
            return findings(done.stdout + "\n" + done.stderr, case, folder, run.tools)
        return cut(done.stdout + "\n" + done.stderr, case.start, case.lines, folder, run.tools, case.skip)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run_http(case: HttpCase, run: Run) -> list[str]:
    """Start the server, send each request, and take the message from the response body (or, with
    `from_log`, from what the server logged)."""
    folder = _project(case, run)
    port = _free_port()
    log = folder / "server.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            case.cmd.format(port=port),
            cwd=folder,
            shell=True,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=run.environ({**case.env, "PORT": str(port)}),
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + case.timeout
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.3)
        else:
            raise TimeoutError(f"{case.scenario}: the server did not start:\n{log.read_text()[:2000]}")
        messages = []
        for method, path, body, headers in case.requests:
            data = body.encode() if body is not None else None
            req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method)
            req.add_header("Content-Type", "application/json")
            for k, v in headers.items():
                req.add_header(k, v)
            try:
                with urllib.request.urlopen(req, timeout=10) as resp:
                    text = resp.read().decode()
            except urllib.error.HTTPError as e:
                text = e.read().decode()
            messages.append(text.strip())
        time.sleep(0.5)
        if case.from_log:
            line = cut(log.read_text(), case.from_log, case.lines, folder, run.tools)
            return [re.sub(case.strip, "", line) if case.strip else line]
        return messages
    finally:
        os.killpg(server.pid, 15)
        server.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)


def heldout(tool: str, scenario: str) -> bool:
    """About a quarter of the corpus is held out of tuning. The choice is a fixed function of the
    fixture's name (a seeded hash, so random-like and spread over the tools), made before any entry
    was written, and it never changes when messages are added."""
    digest = hashlib.sha256(f"{HELDOUT_SEED}:{tool}/{scenario}".encode()).digest()
    return digest[0] % 4 == 0


HELDOUT_SEED = "sap-devs-issue-28"


def load(tool: str) -> list[dict]:
    path = FIXTURES / f"{tool}.yaml"
    return yaml.safe_load(path.read_text(encoding="utf-8")) or [] if path.is_file() else []


def save(tool: str, items: list[dict]) -> None:
    FIXTURES.mkdir(parents=True, exist_ok=True)
    path = FIXTURES / f"{tool}.yaml"
    tmp = path.with_suffix(".tmp")
    tmp.write_text(
        yaml.safe_dump(items, sort_keys=False, allow_unicode=True, width=1000, default_style=None), encoding="utf-8"
    )
    os.replace(tmp, path)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tools", type=Path, default=Path("/tmp/h28tools"), help="folder with node_modules of TOOLS")
    parser.add_argument(
        "--cds-only", type=Path, default=Path("/tmp/h28cdsonly"), help="folder with node_modules of @sap/cds@10 alone"
    )
    parser.add_argument(
        "--cds8", type=Path, default=Path("/tmp/h28cds8"), help="folder with node_modules of @sap/cds@8"
    )
    parser.add_argument("--node-bin", type=Path, default=NODE22, help="folder with Node 22's node")
    parser.add_argument("--only", help="one tool (fixture file name)")
    parser.add_argument("--scenario", help="one scenario")
    parser.add_argument("--check", action="store_true", help="write nothing, list changed messages")
    parser.add_argument("--raw", action="store_true", help="print each tool's whole output (to write a case)")
    args = parser.parse_args()
    global RAW
    RAW = args.raw
    run = Run(args.tools, args.node_bin, args.cds_only, args.cds8)

    captured: dict[str, list[dict]] = {}
    failed = 0
    for case in CASES:
        if (args.only and case.tool != args.only) or (args.scenario and case.scenario != args.scenario):
            continue
        names = case.names or [case.scenario]
        try:
            if isinstance(case, HttpCase):
                messages = run_http(case, run)
            else:
                got = run_case(case, run)
                names, messages = got if isinstance(got, tuple) else (names, [got])
        except (LookupError, TimeoutError, subprocess.TimeoutExpired, OSError) as e:
            print(f"FAILED {case.tool}/{case.scenario}: {e}", file=sys.stderr)
            failed += 1
            continue
        version = f"{case.package} {run.version(case.package)}"
        commands = case.commands() * (len(names) if len(case.commands()) == 1 else 1)
        for name, message, command in zip(names, messages, commands, strict=True):
            if name.startswith("_"):  # a step that sets up the next one, not a message
                continue
            captured.setdefault(case.tool, []).append(
                {"scenario": name, "message": message, "version": version, "command": command}
            )
            print(f"{case.tool}/{name}: {message.splitlines()[0][:110]}")

    declared = {(c.tool, n) for c in CASES for n in (c.names or [c.scenario])}
    declared |= {(t, i["scenario"]) for t, got in captured.items() for i in got}
    for tool, fresh in captured.items():
        items = load(tool)
        if not args.scenario:  # a case that is gone takes its message with it
            items = [i for i in items if i["source"] != "run" or (tool, i["scenario"]) in declared]
        by_name = {i["scenario"]: i for i in items}
        for got in fresh:
            old = by_name.get(got["scenario"])
            if old is None:
                item = {
                    "tool": tool,
                    "version": got["version"],
                    "command": got["command"],
                    "scenario": got["scenario"],
                    "message": got["message"],
                    "source": "run",
                    "expect": None,
                    "heldout": heldout(tool, got["scenario"]),
                }
                items.append(item)
                by_name[got["scenario"]] = item
                print(f"NEW {tool}/{got['scenario']}")
                continue
            if old["message"] != got["message"]:
                print(
                    f"CHANGED {tool}/{got['scenario']}:\n  was: {old['message'][:300]}\n  now: {got['message'][:300]}"
                )
            old.update(version=got["version"], command=got["command"], message=got["message"])
        if not args.check:
            save(tool, items)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
