"""Version pairs that break SAP projects: @sap/xssec for the CDS major, an @sap/approuter out of
maintenance, and a CAP Java project built for an older JDK or Maven than its CAP Java major needs.

Every version compared here comes from the packs (:class:`Baseline`, see baseline.py), never from
this code. Severity follows docs/CHECKS.md.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from sap_devs.doctor.baseline import Baseline
from sap_devs.doctor.project import Finding, _deps, _line_of, _Reader, _show, shorten_path
from sap_devs.doctor.versions import parse_version, satisfies

_MAX_ROUTERS = 20  # app router folders looked at; a repository has one or two


def _major(spec: Any) -> int | None:
    from sap_devs.doctor.mistakes import _major as first_major

    return first_major(spec)


def _allowed_majors(spec: str) -> list[int]:
    """'^3 || ^4' -> [3, 4]: the majors an npm range of whole majors names."""
    return sorted({int(n) for n in re.findall(r"(?<![\d.])(\d{1,4})(?=\D|$)", spec[:200])})


def xssec_findings(root: Path, reader: _Reader, pkg: dict[str, Any] | None, baseline: Baseline) -> list[Finding]:
    """@sap/xssec of a major the project's @sap/cds major does not work with."""
    if pkg is None or not baseline.xssec_for_cds:
        return []
    deps, dev = _deps(pkg)
    cds_spec = deps.get("@sap/cds") or dev.get("@sap/cds")
    # an open range ('>=9.5') installs the current release, whatever it starts from
    cds_major = baseline.cds_major if _open_ended(cds_spec) else _major(cds_spec)
    xssec_spec = deps.get("@sap/xssec") or dev.get("@sap/xssec")
    xssec_major = _major(xssec_spec)
    wanted = baseline.xssec_for_cds.get(cds_major) if cds_major is not None else None
    if xssec_major is None or wanted is None:
        return []
    allowed = _allowed_majors(wanted)
    if not allowed or xssec_major in allowed:
        return []
    line = _line_of(reader.text(root / "package.json"), '"@sap/xssec"')
    fix = f"npm add @sap/xssec@{allowed[-1]}"
    if xssec_major < allowed[0]:
        return [
            Finding(
                "dependency",
                "error",
                f"package.json: @sap/cds {cds_major} works with @sap/xssec {wanted}, not {_show(xssec_spec)}: its "
                f"authentication calls the @sap/xssec {allowed[0]} API, so the app fails at start-up with "
                "xsuaa, ias or jwt authentication.",
                fix=fix + " (read the @sap/xssec migration guide if your own code calls it).",
                file="package.json",
                line=line,
            )
        ]
    return [
        Finding(
            "dependency",
            "warning",
            f"package.json: @sap/cds {cds_major} supports @sap/xssec {wanted}, not {_show(xssec_spec)}: "
            "authentication runs on a combination CAP does not test.",
            fix=f"{fix}, or upgrade @sap/cds to a major that supports @sap/xssec {xssec_major}.",
            file="package.json",
            line=line,
        )
    ]


def approuter_version_findings(root: Path, reader: _Reader, baseline: Baseline) -> list[Finding]:
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
        deps, dev = _deps(pkg)
        spec = deps.get("@sap/approuter") or dev.get("@sap/approuter")
        have = _major(spec)
        if have is not None and have < current[0] and not _open_ended(spec) and len(found) < _MAX_ROUTERS:
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
                f"{shown}: @sap/approuter {_show(spec)} is {why} (current: {baseline.approuter}).",
                fix=f"npm add @sap/approuter@{current[0]} where it is a dependency, then check its CHANGELOG for the "
                "Node.js versions it supports.",
                file=reader.rel(manifest),
                line=_line_of(reader.text(manifest), '"@sap/approuter"'),
            )
        )
    return out


def _open_ended(spec: Any) -> bool:
    """A range such as '>=16' or '*' installs the current release."""
    from sap_devs.doctor.mistakes import highest_major

    return isinstance(spec, str) and highest_major(spec[:200]) == float("inf")


# --- CAP Java: JDK and Maven -----------------------------------------------------------------------

_PROPERTY = re.compile(r"<([\w.-]{1,100})>\s*([^<>\s]{1,100})\s*</\1>")
_RELEASE = re.compile(r"<release>\s*([^<\s]{1,100})\s*</release>")
_JAVA_PROPERTIES = ("maven.compiler.release", "java.version", "jdk.version", "maven.compiler.target")
_ENFORCED_MAVEN = re.compile(r"<requireMavenVersion>\s*<version>\s*([^<\s]{1,100})\s*</version>", re.S)
_WRAPPER_MAVEN = re.compile(r"apache-maven-(\d+\.\d+\.\d+)-bin")


def _resolve(value: str, properties: dict[str, str]) -> str:
    ref = re.fullmatch(r"\$\{([\w.-]+)\}", value)
    return properties.get(ref.group(1), value) if ref else value


def _java_release(text: str) -> int | None:
    """'17', '1.8' -> 17, 8: the Java release the build compiles for."""
    parsed = parse_version(text)
    if parsed is None:
        return None
    return parsed[1] if parsed[0] == 1 else parsed[0]


def cap_java_toolchain_findings(root: Path, reader: _Reader, baseline: Baseline) -> list[Finding]:
    """The Java release the pom compiles for and the Maven the project pins, against what the CAP Java
    major (cds-services) in the pom needs."""
    from sap_devs.doctor.mistakes import cap_java_runtime

    runtime = cap_java_runtime(root, reader)
    have = parse_version(runtime) if runtime else None
    if have is None:
        return []
    jdk = baseline.jdk_for_cap_java.get(have[0])
    maven = baseline.maven_for_cap_java.get(have[0])
    texts = [(p, reader.text(p) or "") for p in (root / "pom.xml", root / "srv" / "pom.xml") if reader.is_file(p)]
    properties: dict[str, str] = {}
    for _path, text in texts:
        for name, value in _PROPERTY.findall(text[:500_000]):
            properties.setdefault(name, value)
    out: list[Finding] = []
    cap = f"CAP Java {have[0]} (cds-services {shorten_path(runtime or '', 40)})"
    if jdk:
        release, where = _declared_release(texts, properties)
        if release is not None and where is not None and satisfies(str(release), jdk) is False:
            path, line = where
            out.append(
                Finding(
                    "runtime",
                    "error",
                    f"{reader.rel(path)} compiles for Java {release}, but {cap} needs JDK "
                    f"{jdk.lstrip('>= ')}: its classes are built for a newer Java, so the compiler rejects them "
                    "('class file has wrong version').",
                    fix=f"Compile for Java {jdk.lstrip('>= ')} or newer (e.g. <jdk.version> or "
                    "<maven.compiler.release>) and build with that JDK.",
                    file=reader.rel(path),
                    line=line,
                )
            )
    if maven:
        out += _maven_findings(root, reader, texts, properties, maven, cap)
    return out


def _line_at(text: str, position: int) -> int:
    return text.count("\n", 0, position) + 1


def _declared_release(
    texts: list[tuple[Path, str]], properties: dict[str, str]
) -> tuple[int | None, tuple[Path, int] | None]:
    """The Java release the build compiles for, and where it is written (file, line): the compiler
    plugin's <release>, else the usual properties."""
    for path, text in texts:
        match = _RELEASE.search(text[:500_000])
        if match:
            value = _resolve(match.group(1), properties)
            if value != match.group(1):  # a property: point at its value
                defined = re.search(rf"<{re.escape(match.group(1)[2:-1])}>", text)
                return _java_release(value), (path, _line_at(text, defined.start() if defined else match.start()))
            return _java_release(value), (path, _line_at(text, match.start()))
    for name in _JAVA_PROPERTIES:
        for path, text in texts:
            defined = re.search(rf"<{re.escape(name)}>\s*([^<\s]+)\s*</", text[:500_000])
            if defined:
                return _java_release(_resolve(defined.group(1), properties)), (path, _line_at(text, defined.start()))
    return None, None


def _maven_findings(
    root: Path,
    reader: _Reader,
    texts: list[tuple[Path, str]],
    properties: dict[str, str],
    maven: str,
    cap: str,
) -> list[Finding]:
    out: list[Finding] = []
    need = maven.lstrip(">= ")
    wrapper = root / ".mvn" / "wrapper" / "maven-wrapper.properties"
    pinned = _WRAPPER_MAVEN.search(reader.text(wrapper) or "") if reader.is_file(wrapper) else None
    if pinned and satisfies(pinned.group(1), maven) is False:
        out.append(
            Finding(
                "runtime",
                "error",
                f"{reader.rel(wrapper)} pins Maven {pinned.group(1)}, but {cap} needs Maven {need}: './mvnw' "
                "builds with a Maven the CAP build plugins refuse.",
                fix=f"Set distributionUrl to Maven {need} or newer (mvn wrapper:wrapper -Dmaven={need}).",
                file=reader.rel(wrapper),
                line=_line_of(reader.text(wrapper), "distributionUrl"),
            )
        )
    for path, text in texts:
        match = _ENFORCED_MAVEN.search(text[:500_000])
        if not match:
            continue
        lowest = re.search(r"\d+(\.\d+){0,2}", _resolve(match.group(1), properties))
        if lowest and satisfies(lowest.group(), maven) is False:
            out.append(
                Finding(
                    "runtime",
                    "info",
                    f"{reader.rel(path)}: the enforcer accepts Maven {lowest.group()}, but {cap} needs Maven {need}; "
                    "an older Maven fails later with a less clear message.",
                    fix=f"Set requireMavenVersion to {need}.",
                    file=reader.rel(path),
                    line=_line_at(text, match.start(1)),
                )
            )
        break
    return out
