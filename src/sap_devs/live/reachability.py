"""Is there a network at all? One quick look before a sync, so an offline machine gets one clear answer.

Without a network every source would fail on its own after its retries (about ten seconds of
ConnectError lines). When no host the sync would contact resolves within a few seconds, and no
proxy is configured (a proxy resolves names itself), the sync is skipped and the bundled snapshots
are said to stay in use.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterable, Mapping
from urllib.parse import urlsplit

PROXY_VARIABLES = ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy")


def hosts_of(bases: Mapping[str, str]) -> list[str]:
    return sorted({h for h in (urlsplit(url).hostname for url in bases.values()) if h})


class _Lookups:
    """Resolves hosts on daemon threads; ``wait`` ends at the first success or once all have failed."""

    def __init__(self, hosts: list[str]) -> None:
        self._left = len(hosts)
        self._lock = threading.Lock()
        self.done = threading.Event()
        self.resolved = False
        for host in hosts:  # daemon threads: a resolver that hangs must not hold the command
            threading.Thread(target=self._resolve, args=(host,), daemon=True).start()

    def _resolve(self, host: str) -> None:
        try:
            socket.getaddrinfo(host, 443, type=socket.SOCK_STREAM)
            ok = True
        except OSError:
            ok = False
        with self._lock:
            self._left -= 1
            self.resolved = self.resolved or ok
            if ok or self._left == 0:
                self.done.set()


def offline(hosts: Iterable[str], env: Mapping[str, str], *, timeout: float = 3.0) -> bool:
    """True when no proxy is set and none of ``hosts`` resolves within ``timeout`` seconds."""
    if any(env.get(name) for name in PROXY_VARIABLES):
        return False
    names = list(hosts)
    if not names:
        return False
    lookups = _Lookups(names)
    lookups.done.wait(timeout)
    return not lookups.resolved
