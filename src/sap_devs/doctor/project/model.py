"""What a project check produces: findings, the detection, the report, and the budgets it runs within."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

Severity = Literal["error", "warning", "info"]


_MAX_SHOWN_PATH = 160


@dataclass(frozen=True)
class Limits:
    """Budgets for one check; each one hit is named in ``ProjectReport.notes``."""

    max_dirs: int = 10_000  # ~1 s of listing; dependency and build folders are never entered
    max_files: int = 1_000
    max_file_bytes: int = 2 * 1024 * 1024  # manifests larger than this are not a real project file
    max_total_bytes: int = 64 * 1024 * 1024  # texts are kept for the whole check
    max_findings: int = 500
    max_seconds: float = 20.0


class Cancelled(Exception):
    """The caller stopped waiting; the walk stopped at its next check."""


@dataclass(frozen=True)
class Finding:
    category: str
    severity: Severity
    message: str
    fix: str | None = None
    file: str | None = None
    line: int | None = None
    """1-based line in ``file`` where the evidence is, when there is one."""
    rule: str | None = None
    """A compiler's or linter's own id for the finding (``ref-undefined-def``, ``no-globals``, ``parser_error``)."""
    known_error: str | None = None
    """The id of the known error (content packs) the finding matches, when one does."""


@dataclass
class Detection:
    types: list[str] = field(default_factory=list)
    cap_runtime: str | None = None
    cap_version: str | None = None
    database: str | None = None
    deployment: list[str] = field(default_factory=list)
    auth: str | None = None
    ui5_apps: list[str] = field(default_factory=list)
    abap_packages: list[str] = field(default_factory=list)


@dataclass
class ProjectReport:
    path: Path
    detection: Detection
    findings: list[Finding]
    notes: list[str] = field(default_factory=list)
    """Budgets that were hit and links that were not followed: the result may be incomplete."""


def shorten_path(text: str, limit: int = _MAX_SHOWN_PATH) -> str:
    """A path for a message: long ones keep their start and end, which say where and what."""
    if len(text) <= limit:
        return text
    keep = (limit - 1) // 2
    return text[:keep] + "…" + text[-keep:]
