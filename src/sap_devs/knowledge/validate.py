"""Checking pack folders the way a pack author needs: every problem at once, errors and warnings."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from sap_devs.core.errors import ContentError
from sap_devs.knowledge.hosts import link_problem
from sap_devs.knowledge.models import Profile
from sap_devs.knowledge.packs import KNOWN_FILES, Pack, load_pack
from sap_devs.knowledge.yamlio import read_yaml, validate_mapping

Level = Literal["error", "warning"]


@dataclass(frozen=True)
class Problem:
    level: Level
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.level.upper():7} {self.path}: {self.message}"


@dataclass
class Report:
    packs: list[str] = field(default_factory=list)
    profiles: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.level == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.level == "warning"]


def _links(pack: Pack) -> list[tuple[str, str, str]]:
    """(file, item id, url) for every link in the pack."""
    out = []
    for attr, filename, fields in (
        ("resources", "resources.yaml", ("url",)),
        ("known_errors", "known_errors.yaml", ("docs",)),
        ("samples", "samples.yaml", ("url",)),
        ("tools", "tools.yaml", ("docs",)),
        ("event_instances", "event-instances.yaml", ("url",)),
        ("event_types", "event-types.yaml", ("rss_url",)),
    ):
        for item in getattr(pack, attr):
            for name in fields:
                url = getattr(item, name, None)
                if url:
                    out.append((filename, item.id, url))
    return out


def check_pack(folder: Path, report: Report) -> Pack | None:
    errors: list[ContentError] = []
    pack = load_pack(folder, layer="check", problems=errors)
    report.problems += [Problem("error", e.path, e.detail) for e in errors]
    report.packs.append(folder.name)
    for entry in sorted(folder.iterdir()):
        if entry.is_file() and entry.name not in KNOWN_FILES and not entry.name.startswith("."):
            close = difflib.get_close_matches(entry.name, sorted(KNOWN_FILES), n=1)
            hint = f" Did you mean {close[0]}?" if close else " It is ignored."
            report.problems.append(Problem("warning", str(entry), f"not a pack file.{hint}"))
    for filename, item_id, url in _links(pack):
        problem = link_problem(url)
        if problem:
            report.problems.append(Problem("warning", str(folder / filename), f"{item_id}: {url} {problem}"))
    for item in pack.known_errors:
        if len(item.pattern) < 12:
            report.problems.append(
                Problem(
                    "warning",
                    str(folder / "known_errors.yaml"),
                    f"{item.id}: pattern {item.pattern!r} is very short; use the message as developers see it",
                )
            )
    return pack


def check_profile(path: Path, report: Report, pack_ids: set[str]) -> None:
    report.profiles.append(path.stem)
    try:
        profile = validate_mapping(Profile, read_yaml(path), path)
    except ContentError as exc:
        report.problems.append(Problem("error", exc.path, exc.detail))
        return
    if profile.id != path.stem:
        report.problems.append(Problem("error", str(path), f"field 'id': {profile.id!r} must match the file name"))
    for ref in profile.packs:
        if pack_ids and ref.id not in pack_ids:
            report.problems.append(
                Problem("warning", str(path), f"pack {ref.id!r} is not in this folder (fine if another layer has it)")
            )


def validate_path(path: Path) -> Report:
    """``path`` may be one pack folder, a ``packs`` folder, or a layer root with ``packs/`` and ``profiles/``."""
    report = Report()
    path = path.resolve()
    if not path.is_dir():
        report.problems.append(Problem("error", str(path), "is not a folder"))
        return report
    if (path / "pack.yaml").is_file():
        check_pack(path, report)
        return report
    packs_dir = path / "packs" if (path / "packs").is_dir() else path
    folders = sorted(p for p in packs_dir.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))
    pack_folders = [f for f in folders if (f / "pack.yaml").is_file() or packs_dir != path]
    for folder in pack_folders:
        check_pack(folder, report)
    if (path / "profiles").is_dir():
        ids = set(report.packs)
        for profile in sorted((path / "profiles").glob("*.yaml")):
            check_profile(profile, report, ids)
    if not report.packs and not report.profiles:
        report.problems.append(
            Problem(
                "error",
                str(path),
                "no pack found: expected a pack folder with pack.yaml, a packs/ folder, or a folder of packs",
            )
        )
    return report
