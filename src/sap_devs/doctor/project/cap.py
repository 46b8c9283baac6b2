"""CAP Node.js checks: package.json dependencies and versions, production configuration, @sap/xssec."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

from sap_devs.doctor.baseline import Baseline
from sap_devs.doctor.project.model import Detection, Finding, Severity
from sap_devs.doctor.project.reader import Reader, dependencies_of, ignored_by_git, line_of, quoted
from sap_devs.doctor.versions import parse_version


def cap_findings(
    root: Path, reader: Reader, det: Detection, pkg: dict[str, Any] | None, cds_current: str | None
) -> list[Finding]:
    out: list[Finding] = []
    if det.cap_runtime != "nodejs" or pkg is None:
        return out
    deps, dev = dependencies_of(pkg)
    if "@sap/cds-dk" not in deps and "@sap/cds-dk" not in dev:
        out.append(
            Finding(
                "dependency",
                "info",
                "@sap/cds-dk is not a project dependency, so local builds use whichever cds CLI is installed globally.",
                fix="npm add -D @sap/cds-dk",
                file="package.json",
            )
        )
    spec = deps.get("@sap/cds")
    if det.cap_version and cds_current and not _allows_major(spec, parse_version(cds_current)):
        line = line_of(reader.text(root / "package.json"), '"@sap/cds"')
        out.extend(dataclasses.replace(f, line=line) for f in _cds_version_findings(det.cap_version, cds_current))
    if not reader.is_file(root / "default-env.json") and not ignored_by_git(root, reader, "default-env.json"):
        out.append(
            Finding(
                "security",
                "info",
                ".gitignore does not list default-env.json, the usual place for local service credentials.",
                fix="Add 'default-env.json' to .gitignore before anyone creates one.",
                file=".gitignore",
            )
        )
    scripts = pkg.get("scripts") if isinstance(pkg.get("scripts"), dict) else {}
    if not scripts.get("lint"):
        out.append(
            Finding(
                "practice",
                "info",
                "No 'lint' script: CDS models and handlers are not linted.",
                fix='npm add -D @sap/eslint-plugin-cds eslint, then add "lint": "eslint ." to scripts',
                file="package.json",
            )
        )
    if "@sap/cds" in dev and "@sap/cds" not in deps:
        out.append(
            Finding(
                "dependency",
                "error",
                "@sap/cds is only a devDependency; the deployed app will not find it at runtime.",
                fix="npm add @sap/cds (move it to dependencies)",
                file="package.json",
            )
        )
    return out


def _allows_major(spec: Any, current: tuple[int, int, int] | None) -> bool:
    """Does an npm range let npm install the current major ('>=7', '*', '9 || 10')? Then the
    installed version is not behind, whatever the range starts from."""

    if not isinstance(spec, str) or current is None:
        return False
    highest = highest_major(spec[:200])
    return highest is not None and highest >= current[0] and (highest == float("inf") or "||" in spec)


def _cds_version_findings(have_text: str, current: str) -> list[Finding]:
    """CAP's release schedule: the current major is active, the previous one is in maintenance (fixes
    only), older majors are out of maintenance (no security fixes). The current release comes from
    the cap pack (pack.yaml versions), which sync keeps current."""
    have, want = parse_version(have_text), parse_version(current)
    if not have or not want or have >= want:
        return []
    behind = want[0] - have[0]
    if behind == 0:
        if want[1] - have[1] < 2:
            return []
        severity: Severity = "info"
        message = f"@sap/cds {have_text} is behind the current release {current}."
        fix = "npm update @sap/cds @sap/cds-dk"
    elif behind == 1:
        severity = "info"
        message = (
            f"@sap/cds {have_text} is on the previous major; CAP {have[0]} is in maintenance (fixes only), "
            f"{want[0]} ({current}) is current."
        )
        fix = f"Plan the upgrade to @sap/cds {want[0]} (read the CAP release notes first)."
    else:
        severity = "warning"
        message = (
            f"@sap/cds {have_text} is out of maintenance: CAP keeps only the current major ({current}) and the "
            "previous one supported, so this version gets no security fixes."
        )
        fix = f"Upgrade @sap/cds and @sap/cds-dk to {want[0]} (read the CAP release notes for each major in between)."
    return [Finding("version", severity, message, fix=fix, file="package.json")]


_UNSAFE_AUTH = {"mocked": "error", "dummy": "error", "basic": "warning"}
_UNSAFE_AUTH |= {f"{kind}-auth": severity for kind, severity in _UNSAFE_AUTH.items()}  # the older names


# capire guides/databases/new-dbs.md: "You don't need to - and should not - add direct dependencies
# to driver packages, like hdb or sqlite3"; the @cap-js packages replace them (GA with CDS 8)
_LEGACY_DRIVERS = {"sqlite3": "@cap-js/sqlite", "hdb": "@cap-js/hana", "@sap/hana-client": "@cap-js/hana"}


def _kind(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        kind = value.get("kind") or value.get("impl")
        return kind if isinstance(kind, str) else None
    return None


def _profile_entry(config: dict[str, Any], service: str, profile: str) -> tuple[Any, bool]:
    """cds.requires.<service> for ``profile``, in the three places cds.env accepts it; (value, found)."""
    requires = config.get("requires") if isinstance(config.get("requires"), dict) else {}
    key = f"[{profile}]"
    block = config.get(key)
    if isinstance(block, dict) and isinstance(block.get("requires"), dict) and service in block["requires"]:
        return block["requires"][service], True
    scoped = requires.get(key)
    if isinstance(scoped, dict) and service in scoped:
        return scoped[service], True
    entry = requires.get(service)
    if isinstance(entry, dict) and key in entry:
        return entry[key], True
    return None, False


def _plain_entry(config: dict[str, Any], service: str) -> Any:
    """cds.requires.<service> without any profile: it applies to every profile, production included."""
    requires = config.get("requires") if isinstance(config.get("requires"), dict) else {}
    entry = requires.get(service)
    if isinstance(entry, dict) and any(k.startswith("[") for k in entry):
        plain = {k: v for k, v in entry.items() if not k.startswith("[")}
        return plain or None
    return entry


def production_auth(root: Path, reader: Reader, pkg: dict[str, Any] | None) -> str | None:
    """The authentication kind the deployed app uses: cds.requires.auth of the [production] profile,
    else the one for every profile (package.json first, then .cdsrc.json, as cds.env merges them)."""
    for _file, config in cds_configs(root, reader, pkg):
        auth, explicit = _profile_entry(config, "auth", "production")
        kind = _kind(auth if explicit else _plain_entry(config, "auth"))
        if kind:
            return kind[:40]
    return None


def cds_configs(root: Path, reader: Reader, pkg: dict[str, Any] | None) -> list[tuple[str, dict[str, Any]]]:
    """The cds configuration sources of a project root: package.json 'cds' and .cdsrc.json."""
    out: list[tuple[str, dict[str, Any]]] = []
    if pkg is not None and isinstance(pkg.get("cds"), dict):
        out.append(("package.json", pkg["cds"]))
    if reader.is_file(root / ".cdsrc.json"):
        cdsrc = reader.json(root / ".cdsrc.json")
        if cdsrc is not None:
            out.append((".cdsrc.json", cdsrc))
    return out


def production_findings(root: Path, reader: Reader, det: Detection, pkg: dict[str, Any] | None) -> list[Finding]:
    """Mocked or dummy authentication, or SQLite, in what runs in production."""
    out: list[Finding] = []
    deployed = bool(det.deployment)
    for file, config in cds_configs(root, reader, pkg):
        text = reader.text(root / file)
        auth, explicit = _profile_entry(config, "auth", "production")
        if not explicit:
            auth = _plain_entry(config, "auth")
        kind = _kind(auth)
        if kind in _UNSAFE_AUTH:
            where = "the [production] profile" if explicit else "cds.requires.auth for every profile"
            out.append(
                Finding(
                    "security",
                    _UNSAFE_AUTH[kind],  # type: ignore[arg-type]
                    f"{file}: {where} uses '{kind}' authentication, so the deployed app accepts the "
                    "built-in test users (alice, bob ...) or no login at all.",
                    fix="Use 'xsuaa' or 'ias' in production; keep mocked users under '[development]' "
                    '(e.g. "auth": {"[development]": {"kind": "mocked"}, "[production]": {"kind": "xsuaa"}}).',
                    file=file,
                    line=line_of(text, f'"{kind}"'),
                )
            )
        db, explicit = _profile_entry(config, "db", "production")
        if not explicit and deployed:
            db = _plain_entry(config, "db")
        kind = _kind(db)
        if kind in ("sqlite", "@cap-js/sqlite", "better-sqlite"):
            where = "the [production] profile" if explicit else "cds.requires.db for every profile"
            out.append(
                Finding(
                    "database",
                    "warning",
                    f"{file}: {where} uses SQLite, so the deployed app keeps its data in a local file or in "
                    "memory and loses it on every restart or scale-out.",
                    fix='Use SAP HANA Cloud in production: npm add @cap-js/hana and set "[production]": '
                    '{"db": "hana"} (cds add hana does both).',
                    file=file,
                    line=line_of(text, '"sqlite"') or line_of(text, "@cap-js/sqlite"),
                )
            )
    return out


def first_major(spec: Any) -> int | None:
    """The major version an npm range starts from ('^9.1.0' -> 9, '>=8' -> 8); None for tags and URLs."""
    if not isinstance(spec, str):
        return None
    parsed = parse_version(spec.strip().lstrip("^~>=<v ")[:60])
    return parsed[0] if parsed else None


def highest_major(spec: str) -> float | None:
    """The highest major an npm range allows (inf when open-ended); None when it cannot be read."""
    best: float | None = None
    for alternative in spec.split("||"):
        alternative = alternative.strip()
        if not alternative or alternative in ("*", "x", "latest"):
            return float("inf")
        upper: float = float("inf")
        matched = False
        for op, number in re.findall(r"(\^|~|>=|<=|>|<|=)?\s*v?(\d+)(?:\.[\dx*]+)*", alternative):
            matched = True
            major = int(number)
            if op in ("", "=", "^", "~", "<="):
                upper = min(upper, major)
            elif op == "<":
                exact = re.search(r"<\s*v?(\d+)(\.0)*(\s|$)", alternative)
                upper = min(upper, major - 1 if exact else major)
        if not matched:
            return None
        best = upper if best is None else max(best, upper)
    return best


def dependency_findings(root: Path, reader: Reader, pkg: dict[str, Any] | None, baseline: Baseline) -> list[Finding]:
    """@sap/cds and @sap/cds-dk majors, the Node.js engine, legacy database drivers."""
    if pkg is None:
        return []
    out: list[Finding] = []
    deps, dev = dependencies_of(pkg)
    text = reader.text(root / "package.json")
    cds_major = first_major(deps.get("@sap/cds") or dev.get("@sap/cds"))
    dk_major = first_major(dev.get("@sap/cds-dk") or deps.get("@sap/cds-dk"))
    if cds_major is not None and dk_major is not None and cds_major != dk_major:
        out.append(
            Finding(
                "dependency",
                "warning",
                f"@sap/cds {cds_major} and @sap/cds-dk {dk_major} are different majors: the CLI compiles and "
                "builds for its own major, so 'cds build' and 'cds watch' can disagree with the runtime.",
                fix=f"npm add -D @sap/cds-dk@{cds_major} (or upgrade both to the same major).",
                file="package.json",
                line=line_of(text, '"@sap/cds-dk"'),
            )
        )
    engines = pkg.get("engines") if isinstance(pkg.get("engines"), dict) else {}
    node_range = engines.get("node")
    required = parse_version(baseline.node.lstrip(">=~^ ")) if baseline.node else None
    if (
        isinstance(node_range, str)
        and required
        and cds_major is not None
        and baseline.cds_major is not None
        and cds_major >= baseline.cds_major
    ):
        highest = highest_major(node_range[:200])
        if highest is not None and highest < required[0]:
            out.append(
                Finding(
                    "runtime",
                    "error",
                    f"package.json engines.node {quoted(node_range)} allows Node.js {int(highest)} at most, but "
                    f"@sap/cds {cds_major} needs Node.js {baseline.node.lstrip('>= ')}: the app does not start "
                    "where the platform picks the Node.js version from engines (Cloud Foundry buildpack).",
                    fix=f'Set "engines": {{"node": "{baseline.node}"}}.',
                    file="package.json",
                    line=line_of(text, '"node"'),
                )
            )
    if cds_major is not None and cds_major >= 8:
        for driver, successor in _LEGACY_DRIVERS.items():
            if driver not in deps and driver not in dev:
                continue
            has_successor = successor in deps or successor in dev
            out.append(
                Finding(
                    "dependency",
                    "info" if has_successor else "warning",
                    f"package.json depends on the database driver {driver!r} directly"
                    + (
                        f"; {successor} brings its own driver, so this one is unused."
                        if has_successor
                        else f", the legacy database service; @sap/cds {cds_major} uses {successor}."
                    ),
                    fix=f"npm rm {driver}" + ("" if has_successor else f" && npm add {successor}"),
                    file="package.json",
                    line=line_of(text, f'"{driver}"'),
                )
            )
    return out


def _allowed_majors(spec: str) -> list[int]:
    """'^3 || ^4' -> [3, 4]: the majors an npm range of whole majors names."""
    return sorted({int(n) for n in re.findall(r"(?<![\d.])(\d{1,4})(?=\D|$)", spec[:200])})


def open_ended(spec: Any) -> bool:
    """A range such as '>=16' or '*' installs the current release."""

    return isinstance(spec, str) and highest_major(spec[:200]) == float("inf")


def xssec_findings(root: Path, reader: Reader, pkg: dict[str, Any] | None, baseline: Baseline) -> list[Finding]:
    """@sap/xssec of a major the project's @sap/cds major does not work with."""
    if pkg is None or not baseline.xssec_for_cds:
        return []
    deps, dev = dependencies_of(pkg)
    cds_spec = deps.get("@sap/cds") or dev.get("@sap/cds")
    # an open range ('>=9.5') installs the current release, whatever it starts from
    cds_major = baseline.cds_major if open_ended(cds_spec) else first_major(cds_spec)
    xssec_spec = deps.get("@sap/xssec") or dev.get("@sap/xssec")
    xssec_major = first_major(xssec_spec)
    wanted = baseline.xssec_for_cds.get(cds_major) if cds_major is not None else None
    if xssec_major is None or wanted is None:
        return []
    allowed = _allowed_majors(wanted)
    if not allowed or xssec_major in allowed:
        return []
    line = line_of(reader.text(root / "package.json"), '"@sap/xssec"')
    fix = f"npm add @sap/xssec@{allowed[-1]}"
    if xssec_major < allowed[0]:
        return [
            Finding(
                "dependency",
                "error",
                f"package.json: @sap/cds {cds_major} works with @sap/xssec {wanted}, not {quoted(xssec_spec)}: its "
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
            f"package.json: @sap/cds {cds_major} supports @sap/xssec {wanted}, not {quoted(xssec_spec)}: "
            "authentication runs on a combination CAP does not test.",
            fix=f"{fix}, or upgrade @sap/cds to a major that supports @sap/xssec {xssec_major}.",
            file="package.json",
            line=line,
        )
    ]
