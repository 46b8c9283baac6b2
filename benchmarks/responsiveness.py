"""Does one slow call hold up the rest? tools/list latency over stdio while a slow tool call runs.

Starts `sap-devs mcp serve`, measures tools/list round trips while the server is idle, then again
while a long check_project walk (a folder of many small projects made for the run) is in flight,
and prints the medians and their ratio. Before local tools moved to a worker thread, tools/list
waited for the whole call. Also prints how long a search with a 500-character query (the bound on
search queries) and a 4,000-character error message take.

Usage: python benchmarks/responsiveness.py [samples]
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any


class Server:
    def __init__(self, home: Path, base_env: dict[str, str] | None = None) -> None:
        env = dict(os.environ if base_env is None else base_env)
        env.update(
            SAP_DEVS_CONFIG_DIR=str(home / "config"),
            SAP_DEVS_CACHE_DIR=str(home / "cache"),
            SAP_DEVS_DATA_DIR=str(home / "data"),
        )
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sap_devs", "mcp", "serve", "--tools", "full"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            cwd=home,
        )
        self._next = 0
        self._waiting: dict[int, tuple[threading.Event, list[Any]]] = {}
        self._lock = threading.Lock()
        threading.Thread(target=self._reader, daemon=True).start()

    def _reader(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            message = json.loads(line)
            slot = self._waiting.get(message.get("id"))
            if slot is not None:
                slot[1].append(message)
                slot[0].set()

    def send(self, method: str, params: dict[str, Any] | None = None) -> tuple[threading.Event, list[Any]]:
        with self._lock:
            self._next += 1
            ident = self._next
            slot: tuple[threading.Event, list[Any]] = (threading.Event(), [])
            self._waiting[ident] = slot
            message = {"jsonrpc": "2.0", "id": ident, "method": method, "params": params or {}}
            assert self.proc.stdin is not None
            self.proc.stdin.write((json.dumps(message) + "\n").encode())
            self.proc.stdin.flush()
        return slot

    def request(self, method: str, params: dict[str, Any] | None = None, timeout: float = 120) -> Any:
        event, box = self.send(method, params)
        if not event.wait(timeout):
            raise TimeoutError(method)
        return box[0]

    def notify(self, method: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((json.dumps({"jsonrpc": "2.0", "method": method}) + "\n").encode())
        self.proc.stdin.flush()

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


def timed(server: Server, method: str, params: dict[str, Any] | None = None) -> float:
    start = time.perf_counter()
    server.request(method, params)
    return (time.perf_counter() - start) * 1000


def big_tree(root: Path, projects: int = 3000) -> Path:
    for i in range(projects):
        app = root / f"app{i}" / "webapp"
        app.mkdir(parents=True)
        (app / "manifest.json").write_text(json.dumps({"sap.app": {"id": f"demo.app{i}"}}), encoding="utf-8")
        (root / f"app{i}" / "package.json").write_text(json.dumps({"name": f"app{i}"}), encoding="utf-8")
    return root


def big_pack(home: Path, items: int = 8000) -> None:
    """A company-sized project pack: loading and indexing it on the first call is seconds of CPU."""
    pack = home / ".sap-devs" / "packs" / "bigco"
    pack.mkdir(parents=True)
    (pack / "pack.yaml").write_text("id: bigco\nname: BigCo\ndescription: Company notes.\n", encoding="utf-8")
    rows = [
        f"- id: bigco/e{i}\n  pattern: 'BIGCO_ERROR_{i} failed in module m{i % 97} with code {i}'\n"
        f"  cause: Cause number {i} of the company process with words w{i % 311} x{i % 53}.\n"
        f"  fix: Apply fix {i} from the company runbook, step {i % 7}.\n"
        for i in range(items)
    ]
    (pack / "known_errors.yaml").write_text("".join(rows), encoding="utf-8")


def main() -> None:
    samples = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        tree = big_tree(home / "tree")
        big_pack(home)
        server = Server(home)
        try:
            server.request(
                "initialize",
                {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}},
            )
            server.notify("notifications/initialized")
            idle = [timed(server, "tools/list") for _ in range(samples)]
            start = time.perf_counter()
            first, _box = server.send(
                "tools/call", {"name": "get_known_errors", "arguments": {"query": "BIGCO_ERROR_7"}}
            )
            during_load: list[float] = []
            while not first.is_set():
                during_load.append(timed(server, "tools/list"))
            first_ms = (time.perf_counter() - start) * 1000

            busy: list[float] = []
            slow_ms: list[float] = []
            for _ in range(3):
                start = time.perf_counter()
                done, _box = server.send("tools/call", {"name": "check_project", "arguments": {"path": str(tree)}})
                time.sleep(0.05)
                while not done.is_set():
                    busy.append(timed(server, "tools/list"))
                done.wait(120)
                slow_ms.append((time.perf_counter() - start) * 1000)

            query = " ".join(["destination", "approuter", "xsuaa", "forbidden"] * 30)[:500]
            message = ("Error: [258] insufficient privilege: Not authorized at ptime/query/checker " * 60)[:4000]
            search = [timed(server, "tools/call", {"name": "search_tutorials", "arguments": {"query": query}})
                      for _ in range(samples)]  # fmt: skip
            errors = [timed(server, "tools/call", {"name": "get_known_errors", "arguments": {"query": message}})
                      for _ in range(samples)]  # fmt: skip
        finally:
            server.close()
    idle_med, busy_med = statistics.median(idle), statistics.median(busy)
    print(f"tools/list idle:                       median {idle_med:7.1f} ms  ({len(idle)} samples)")
    print(
        f"tools/list during check_project walk:  median {busy_med:7.1f} ms  max {max(busy):7.1f} ms "
        f"({len(busy)} samples; ratio to idle {busy_med / idle_med:.1f}x)"
    )
    print(
        f"tools/list during a first call that loads an 8,000-entry project pack ({first_ms:,.0f} ms): "
        f"median {statistics.median(during_load):.1f} ms, max {max(during_load):.1f} ms ({len(during_load)} samples)"
    )
    print(f"check_project on 3,000 apps:           median {statistics.median(slow_ms):7.0f} ms")
    print(f"search_tutorials, 500-char query:      median {statistics.median(search):7.1f} ms")
    print(f"get_known_errors, 4,000-char message:  median {statistics.median(errors):7.1f} ms")


if __name__ == "__main__":
    main()
