"""The SAP Application Router: xs-app.json routes, the welcome file, the @sap/approuter version."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from sap_devs.doctor.baseline import Baseline
from sap_devs.doctor.project.cap import first_major, open_ended
from sap_devs.doctor.project.model import Detection, Finding
from sap_devs.doctor.project.reader import Reader, as_list, dependencies_of, line_of, quoted
from sap_devs.doctor.versions import parse_version

_PUBLIC_SOURCES = re.compile(r"^\^?/?(test-)?resources/")  # the UI5 libraries from the CDN


def approuter_findings(root: Path, reader: Reader, det: Detection) -> list[Finding]:
    """Routes that send unauthenticated requests to a backend destination.

    In a CAP project the backend is the project's own service, which declares its authentication
    itself (CAP Java secures every endpoint by default): there the route is worth a look (info).
    In front of any other backend nothing else stops anonymous requests (warning)."""
    own_backend = det.cap_runtime is not None
    out: list[Finding] = []
    for path in reader.markers().get("xs-app.json", []):
        config = reader.json(path)
        if config is None:
            continue
        text = reader.text(path)
        none_line = line_of(text, '"none"')  # once: a file of thousands of routes is split once
        for route in as_list(config.get("routes")):
            if not isinstance(route, dict) or route.get("authenticationType") != "none":
                continue
            destination = route.get("destination")
            if not isinstance(destination, str) or not destination:
                continue  # static content or the HTML5 repository: public pages are fine
            source = route.get("source")
            if isinstance(source, str) and _PUBLIC_SOURCES.match(source):
                continue
            out.append(
                Finding(
                    "security",
                    "info" if own_backend else "warning",
                    f"{reader.show(path)}: route {quoted(source)} forwards requests to destination "
                    f"{quoted(destination)} without login (authenticationType none), so no user token reaches the "
                    "backend; it is open to anyone unless the backend authenticates every request itself"
                    + (" (the CAP service must require authentication for it)." if own_backend else "."),
                    fix='Use "authenticationType": "xsuaa" (or "ias") for routes to a backend; keep "none" for '
                    "public static content only.",
                    file=reader.rel(path),
                    line=none_line,
                )
            )
    return out


def _matches_root(source: Any) -> bool:
    """Does a route's source pattern match the root URL '/'? (A one-character subject cannot make a
    pattern backtrack for long.)"""
    if not isinstance(source, str) or len(source) > 500:
        return False
    try:
        return re.match(source, "/") is not None
    except (re.error, RecursionError, OverflowError):
        return False


def welcome_file_findings(root: Path, reader: Reader) -> list[Finding]:
    """A standalone app router (its folder's package.json has @sap/approuter) without a welcomeFile: the
    application URL answers 'Not Found' until the user appends the app's path."""
    out: list[Finding] = []
    for path in reader.markers().get("xs-app.json", []):
        pkg_path = path.parent / "package.json"
        pkg = reader.json(pkg_path) if reader.is_file(pkg_path) else None
        if pkg is None:
            continue
        deps, dev = dependencies_of(pkg)
        if "@sap/approuter" not in deps and "@sap/approuter" not in dev:
            continue
        config = reader.json(path)
        if config is None or config.get("welcomeFile"):
            continue
        sources = [r.get("source") for r in as_list(config.get("routes")) if isinstance(r, dict)]
        if any(_matches_root(s) for s in sources[:500]):
            continue  # the root URL is routed (a catch-all route to the backend, or '^/$')
        out.append(
            Finding(
                "approuter",
                "warning",
                f"{reader.show(path)} has no 'welcomeFile', so the application URL answers 'Not Found' until users "
                "add the app's path.",
                fix='Add "welcomeFile": "/<app path>/index.html" (for an HTML5 repository app: "/<sap.app id without '
                'dots>/index.html").',
                file=reader.rel(path),
            )
        )
    return out


_MAX_ROUTERS = 20  # app router folders looked at; a repository has one or two


def approuter_version_findings(root: Path, reader: Reader, baseline: Baseline) -> list[Finding]:
    """@sap/approuter majors behind the current one. Fixes, security fixes included, ship on the newest
    major only (its CHANGELOG is one line of releases), and the app router is what faces the internet."""
    current = parse_version(baseline.approuter) if baseline.approuter else None
    if current is None:
        return []
    found: dict[int, list[tuple[Path, str]]] = {}  # major -> (package.json, spec): one finding per major
    for manifest in reader.markers().get("package.json", [])[: _MAX_ROUTERS * 10]:
        if not reader.check():
            break
        pkg = reader.json(manifest)
        if pkg is None:
            continue
        deps, dev = dependencies_of(pkg)
        spec = deps.get("@sap/approuter") or dev.get("@sap/approuter")
        have = first_major(spec)
        if have is not None and have < current[0] and not open_ended(spec) and len(found) < _MAX_ROUTERS:
            found.setdefault(have, []).append((manifest, str(spec)))
    out: list[Finding] = []
    for have, where in sorted(found.items()):
        behind = current[0] - have
        why = (
            "out of maintenance: it gets no fixes, security fixes included"
            if behind >= 2
            else "one major behind; fixes ship on the newest major only"
        )
        files = [reader.show(m) for m, _spec in where]
        shown = ", ".join(files[:3]) + (f" and {len(files) - 3} more" if len(files) > 3 else "")
        manifest, spec = where[0]
        out.append(
            Finding(
                "version",
                "warning" if behind >= 2 else "info",
                f"{shown}: @sap/approuter {quoted(spec)} is {why} (current: {baseline.approuter}).",
                fix=f"npm add @sap/approuter@{current[0]} where it is a dependency, then check its CHANGELOG for the "
                "Node.js versions it supports.",
                file=reader.rel(manifest),
                line=line_of(reader.text(manifest), '"@sap/approuter"'),
            )
        )
    return out
