"""CAP Java checks: the CAP Java SDK version in pom.xml, and the JDK and Maven it needs."""

from __future__ import annotations

import re
from pathlib import Path

from sap_devs.doctor.baseline import Baseline
from sap_devs.doctor.project.model import Finding, shorten_path
from sap_devs.doctor.project.reader import Reader, line_of
from sap_devs.doctor.versions import parse_version, satisfies

_POM_PROPERTY = re.compile(r"<([\w.-]+)>\s*([^<>${}\s]+)\s*</\1>")
_POM_ARTIFACT = (
    r"<artifactId>\s*{}\s*</artifactId>\s*(?:<[^>]+>[^<]*</[^>]+>\s*){{0,3}}?<version>\s*([^<\s]+)\s*</version>"
)


def _pom_version(texts: list[str], artifact: str, properties: dict[str, str]) -> str | None:
    pattern = re.compile(_POM_ARTIFACT.format(re.escape(artifact)))
    for text in texts:
        match = pattern.search(text)
        if match:
            value = match.group(1)
            ref = re.fullmatch(r"\$\{([\w.-]+)\}", value)
            return properties.get(ref.group(1)) if ref else value
    return None


def _poms(root: Path, reader: Reader) -> tuple[list[str], dict[str, str]]:
    """The texts of the project's pom.xml and srv/pom.xml, and the properties they define."""
    poms = [root / "pom.xml", root / "srv" / "pom.xml"]
    texts = [t[:500_000] for t in (reader.text(p) if reader.is_file(p) else None for p in poms) if t]
    properties: dict[str, str] = {}
    for text in texts:
        for name, value in _POM_PROPERTY.findall(text):
            properties.setdefault(name, value)
    return texts, properties


def cap_java_runtime(root: Path, reader: Reader) -> str | None:
    """The CAP Java runtime version (cds-services BOM or API) the project's pom.xml files name."""
    texts, properties = _poms(root, reader)
    return _pom_version(texts, "cds-services-bom", properties) or _pom_version(texts, "cds-services-api", properties)


def cap_java_findings(root: Path, reader: Reader) -> list[Finding]:
    """cds-maven-plugin and the CAP Java runtime (cds-services) at different versions."""
    texts, properties = _poms(root, reader)
    if not texts:
        return []
    runtime = cap_java_runtime(root, reader)
    plugin = _pom_version(texts, "cds-maven-plugin", properties)
    have, want = (parse_version(runtime) if runtime else None), (parse_version(plugin) if plugin else None)
    if not have or not want or have[:2] == want[:2]:
        return []
    return [
        Finding(
            "dependency",
            "warning",
            f"pom.xml: cds-maven-plugin {shorten_path(plugin or '', 40)} and the CAP Java runtime (cds-services) "
            f"{shorten_path(runtime or '', 40)} differ: the plugin generates code and runs the CDS compiler for its "
            "own version.",
            fix="Use one property for both, e.g. <cds.services.version> in the cds-services-bom import and the "
            "cds-maven-plugin version.",
            file="pom.xml",
            line=line_of(reader.text(root / "pom.xml"), "cds-maven-plugin"),
        )
    ]


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


def cap_java_toolchain_findings(root: Path, reader: Reader, baseline: Baseline) -> list[Finding]:
    """The Java release the pom compiles for and the Maven the project pins, against what the CAP Java
    major (cds-services) in the pom needs."""

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
    reader: Reader,
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
                line=line_of(reader.text(wrapper), "distributionUrl"),
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
