"""CAP projects below the root (npm workspaces of a monorepo, or a project in a subfolder), each checked on its own."""

from __future__ import annotations

import dataclasses
import fnmatch
from pathlib import Path
from typing import Any

from sap_devs.doctor.baseline import Baseline
from sap_devs.doctor.project import cap, secrets
from sap_devs.doctor.project.detect import is_cap_root
from sap_devs.doctor.project.model import Detection, Finding
from sap_devs.doctor.project.reader import Reader, as_list, clean_range, dependencies_of, in_folder

_MAX_SUBPROJECTS = 50


def cap_subprojects(root: Path, reader: Reader, pkg: dict[str, Any] | None) -> list[tuple[Path, dict[str, Any]]]:
    """CAP Node.js projects below the root: the npm workspaces of a monorepo (cloud-cap-samples: bookshop,
    orders ...), or, when the root is no CAP project itself, those one or two folders down (a repository
    whose CAP project lives in code/ or cap/)."""
    workspaces = pkg.get("workspaces") if pkg is not None else None
    if isinstance(workspaces, dict):  # yarn: {"packages": [...]}
        workspaces = workspaces.get("packages")
    patterns = [w.strip("./") for w in as_list(workspaces) if isinstance(w, str) and w.strip("./")]
    if not patterns and is_cap_root(root, reader):
        return []
    out: list[tuple[Path, dict[str, Any]]] = []
    for manifest in reader.markers().get("package.json", []):
        folder = manifest.parent
        if folder == root or len(out) >= _MAX_SUBPROJECTS:
            continue
        rel = reader.rel(folder)
        if patterns:
            if not any(fnmatch.fnmatch(rel, pattern) for pattern in patterns):
                continue
        elif len(Path(rel).parts) > 2 or "app" in Path(rel).parts or _inside_any(folder, out):
            continue
        sub = reader.json(manifest)
        if sub is None:
            continue
        deps, dev = dependencies_of(sub)
        if "@sap/cds" in deps or "@sap/cds" in dev:
            out.append((folder, sub))
    return out


def _inside_any(folder: Path, found: list[tuple[Path, dict[str, Any]]]) -> bool:
    return any(parent in folder.parents for parent, _ in found)


def _with_root_tooling(sub: dict[str, Any], pkg: dict[str, Any]) -> dict[str, Any]:
    """A workspace's package.json as npm sees it: the root's devDependencies and scripts are hoisted."""
    merged = dict(sub)
    _deps_root, dev_root = dependencies_of(pkg)
    _deps_sub, dev_sub = dependencies_of(sub)
    merged["devDependencies"] = {**dev_root, **dev_sub}
    scripts_root = pkg.get("scripts") if isinstance(pkg.get("scripts"), dict) else {}
    scripts_sub = sub.get("scripts") if isinstance(sub.get("scripts"), dict) else {}
    merged["scripts"] = {**scripts_root, **scripts_sub}
    return merged


def subproject_findings(
    root: Path, reader: Reader, det: Detection, pkg: dict[str, Any], baseline: Baseline
) -> list[Finding]:
    groups: dict[tuple[str, str, str, str | None], list[Finding]] = {}
    subprojects = cap_subprojects(root, reader, pkg)
    for folder, sub in subprojects:
        if not reader.check():
            break
        view = _with_root_tooling(sub, pkg)
        sub_det = Detection(cap_runtime="nodejs", deployment=det.deployment)
        deps, _dev = dependencies_of(sub)
        version = deps.get("@sap/cds")
        sub_det.cap_version = clean_range(version)[:60] if isinstance(version, str) else None
        found = [
            *cap.cap_findings(folder, reader, sub_det, view, baseline.cds),
            *cap.production_findings(folder, reader, sub_det, sub),
            *cap.dependency_findings(folder, reader, view, baseline),
            *cap.xssec_findings(folder, reader, sub, baseline),
            *secrets.secret_findings(folder, reader),
        ]
        prefix = reader.rel(folder)
        for f in found:
            groups.setdefault((f.category, f.severity, f.message, f.fix), []).append(in_folder(f, prefix))
    out: list[Finding] = []
    for same in groups.values():  # the same finding in several workspaces is one finding
        if len(same) == 1:
            out.append(same[0])
            continue
        where = [f.file.split("/")[0] for f in same if f.file]
        shown = ", ".join(where[:4]) + (f" and {len(where) - 4} more" if len(where) > 4 else "")
        out.append(dataclasses.replace(same[0], message=f"In {len(same)} workspaces ({shown}): {same[0].message}"))
    return out
