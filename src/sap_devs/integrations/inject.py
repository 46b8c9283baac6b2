"""``sap-devs inject``: SAP rules and context as a marked block in each client's instruction file.

The block sits between ``<!-- sap-devs:start -->`` and ``<!-- sap-devs:end -->`` lines, so it can
be replaced or removed without touching anything the user wrote above or below it. Its first
line records the profile, verbosity and whether sap-devs created the file, which lets ``--status``
re-render the same block to tell "present" from "stale", and ``--uninstall`` delete only files
that were ours.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sap_devs.core.errors import SapDevsError
from sap_devs.integrations.clients import Client, InstructionFile, Scope, resolve
from sap_devs.integrations.mcp_install import read_text, unified_diff, write_with_backup
from sap_devs.knowledge.packs import Pack
from sap_devs.knowledge.render import render_pack
from sap_devs.knowledge.verbosity import Verbosity

START = "<!-- sap-devs:start -->"
END = "<!-- sap-devs:end -->"
_META = re.compile(r"<!-- sap-devs inject: profile=(\S+) verbosity=(\w+) packs=(\S*) created=(yes|no)\b")


# --- rendering ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Block:
    text: str  # from the start marker line to the end marker line, "\n" line ends, no final newline
    packs: list[str]
    dropped: list[str]
    over_budget: bool


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _known_errors(packs: list[Pack]) -> str:
    rows = [f"| {_cell(e.pattern)} | {_cell(e.cause)} | {_cell(e.fix)} |" for pack in packs for e in pack.known_errors]
    if not rows:
        return ""
    return "## Known SAP errors\n\n| Error message | Cause | Fix |\n|---|---|---|\n" + "\n".join(rows)


def neutralise(text: str) -> str:
    """Pack text that spells a marker (by accident or to break uninstall) is shown as text, not read as one."""
    return text.replace("<!-- sap-devs", "&lt;!-- sap-devs")


def _compose(packs: list[Pack], verbosity: Verbosity, profile: str | None, created: bool) -> tuple[str, list[str]]:
    bodies = [(p.id, neutralise(render_pack(p, verbosity))) for p in packs]
    used = [pid for pid, body in bodies if body]
    meta = (
        f"<!-- sap-devs inject: profile={profile or 'all'} verbosity={verbosity} packs={','.join(used)} "
        f"created={'yes' if created else 'no'}. Generated block: edit outside the markers; "
        "`sap-devs inject` replaces it and `sap-devs inject --uninstall` removes it. -->"
    )
    parts = [
        START,
        meta,
        "# SAP developer context (sap-devs)",
        "Follow these rules when working on SAP projects (CAP, ABAP Cloud, SAP BTP, Fiori/UI5 ...). "
        "When the sap-devs MCP server is connected, prefer its tools (get_context, get_known_errors, "
        "search_tutorials) over memory for details.",
        *(body for _, body in bodies if body),
    ]
    if verbosity == "full":
        table = _known_errors([p for p in packs if p.id in used])
        if table:
            parts.append(neutralise(table))
    return "\n\n".join(parts) + "\n\n" + END, used


def render_block(packs: list[Pack], verbosity: Verbosity, budget: int, *, profile: str | None, created: bool) -> Block:
    """Render the block, dropping the lowest-priority non-base packs (the end of ``packs``) until it fits
    ``budget`` bytes. Base packs always stay, even when they alone exceed the budget."""
    kept = list(packs)
    dropped: list[str] = []
    while True:
        text, used = _compose(kept, verbosity, profile, created)
        if len(text.encode("utf-8")) <= budget:
            return Block(text, used, dropped, False)
        removable = [i for i, p in enumerate(kept) if not p.meta.base]
        if not removable:
            return Block(text, used, dropped, True)
        dropped.insert(0, kept.pop(removable[-1]).id)


# --- finding the block ----------------------------------------------------------------------------


class MarkerError(SapDevsError):
    """Start and end markers that do not pair up; we cannot tell which text is ours."""


@dataclass(frozen=True)
class Found:
    start: int  # offset of the start marker line
    end: int  # offset after the end marker line (and its line break)
    text: str  # the block, "\n" line ends, without the final line break


def find_block(path: Path, text: str) -> Found | None:
    """The marked block, or None; mismatched markers are an error naming the lines (file untouched)."""
    starts, ends = [], []
    offset = 0
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        stripped = line.strip()
        if stripped == START:
            starts.append((number, offset))
        elif stripped == END:
            ends.append((number, offset + len(line)))
        offset += len(line)
    if not starts and not ends:
        return None
    recovered = _written_by_us(text, starts, ends)
    if recovered is not None:
        starts, ends = [recovered[0]], [recovered[1]]
    if len(starts) != 1 or len(ends) != 1 or starts[0][0] > ends[0][0]:

        def lines(found: list[tuple[int, int]]) -> str:
            return ", ".join(str(n) for n, _ in found) or "none"

        raise MarkerError(
            f"{path}: the sap-devs markers do not match (start marker on line {lines(starts)}, "
            f"end marker on line {lines(ends)}); sap-devs left the file unchanged.",
            hint=f"Keep exactly one '{START}' line followed by one '{END}' line, or delete both, then run it again.",
        )
    start, end = starts[0][1], ends[0][1]
    block = text[start:end].replace("\r\n", "\n").rstrip("\n")
    return Found(start, end, block)


def _written_by_us(
    text: str, starts: list[tuple[int, int]], ends: list[tuple[int, int]]
) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """A block an earlier sap-devs wrote with marker lines inside its content (before markers in pack
    text were neutralised): the first start marker is followed by our header line, and every other
    marker comes after it. The block then runs to the last end marker, so uninstall and re-inject can
    still clean up."""
    if len(starts) + len(ends) <= 2 or not ends:
        return None
    first_number, first_offset = starts[0] if starts else (0, 0)
    if not starts or any(n <= first_number for n, _ in ends) or ends[-1][0] < starts[-1][0]:
        return None
    following = text[first_offset:].splitlines()[1:4]
    header = next((line for line in following if line.strip()), "")
    if not _META.match(header.strip()):
        return None
    return starts[0], ends[-1]


def _meta(block: str) -> tuple[str | None, str | None, bool]:
    """(profile, verbosity, created) recorded in an existing block."""
    match = _META.search(block)
    if not match:
        return None, None, False
    profile = None if match.group(1) == "all" else match.group(1)
    return profile, match.group(2), match.group(4) == "yes"


# --- operations -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class InjectTarget:
    client: Client
    file: InstructionFile
    path: Path

    @property
    def scope(self) -> Scope:
        return self.file.scope


def targets(clients: list[Client], scope: Scope, home: Path, project: Path) -> tuple[list[InjectTarget], list[str]]:
    """The instruction files of ``clients`` for ``scope`` (one target per file) and notes on the rest."""
    found: list[InjectTarget] = []
    notes: list[str] = []
    for client in clients:
        file = client.instruction_file(scope)
        if file is None:
            notes.append(f"{client.name}: no {scope}-scope instruction file")
            continue
        path = resolve(file.path, home, project)
        if all(t.path != path for t in found):
            found.append(InjectTarget(client, file, path))
    return found, notes


@dataclass
class Outcome:
    target: InjectTarget
    status: str  # created, updated, unchanged, removed, file deleted, absent, would ...
    diff: str = ""
    block: Block | None = None
    backup: Path | None = None


PackLoader = Callable[[str | None], list[Pack]]


def _newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def inject(
    t: InjectTarget, load: PackLoader, verbosity: Verbosity, profile: str | None, *, dry_run: bool = False
) -> Outcome:
    old = read_text(t.path)
    found = find_block(t.path, old) if old is not None else None
    created = old is None or (found is not None and _meta(found.text)[2])
    block = render_block(load(profile), verbosity, t.file.budget, profile=profile, created=created)
    if old is None:
        front = f"{t.file.front_matter}\n" if t.file.front_matter else ""
        new = front + block.text + "\n"
    else:
        nl = _newline(old)
        body = block.text.replace("\n", nl) + nl
        if found is not None:
            if found.text == block.text:
                return Outcome(t, "unchanged", block=block)
            new = old[: found.start] + body + old[found.end :]
        else:
            head = old if not old or old.endswith("\n") else old + nl
            new = head + (nl if head.strip() else "") + body
    diff = unified_diff(t.path, old, new)
    status = "created" if old is None else ("updated" if found is not None else "added")
    if dry_run:
        return Outcome(t, f"would be {status}", diff, block)
    backup = write_with_backup(t.path, old, new)
    return Outcome(t, status, diff, block, backup)


def uninstall(t: InjectTarget, *, dry_run: bool = False) -> Outcome:
    old = read_text(t.path)
    if old is None:
        return Outcome(t, "absent")
    found = find_block(t.path, old)
    if found is None:
        return Outcome(t, "absent")
    nl = _newline(old)
    before, after = old[: found.start], old[found.end :]
    if before.endswith(nl + nl):
        before = before[: -len(nl)]  # the blank line inject put above the block
    new = before + after if before else after.lstrip("\r\n")
    created = _meta(found.text)[2]
    leftover = new.replace("\r\n", "\n").strip()
    front = t.file.front_matter.strip()
    delete = created and (not leftover or (front and leftover == front))
    diff = unified_diff(t.path, old, None if delete else new)
    if dry_run:
        return Outcome(t, "would be removed", diff)
    if delete:
        write_with_backup(t.path.with_name(t.path.name + ".sap-devs.bak"), None, old)
        t.path.unlink()
        return Outcome(t, "file deleted", diff)
    backup = write_with_backup(t.path, old, new)
    return Outcome(t, "removed", diff, backup=backup)


@dataclass
class StatusRow:
    target: InjectTarget
    state: str  # present, stale, absent, no file, mismatched markers
    detail: str = ""


def status(t: InjectTarget, load: PackLoader, verbosity: Verbosity | None, profile: str | None) -> StatusRow:
    try:
        old = read_text(t.path)
        if old is None:
            return StatusRow(t, "no file")
        found = find_block(t.path, old)
    except MarkerError as exc:
        return StatusRow(t, "mismatched markers", exc.message)
    except SapDevsError as exc:
        return StatusRow(t, "unreadable", exc.message)
    if found is None:
        return StatusRow(t, "absent")
    rec_profile, rec_verbosity, created = _meta(found.text)
    use_profile = profile if profile is not None else rec_profile
    use_verbosity: Verbosity = verbosity or rec_verbosity or "standard"  # type: ignore[assignment]
    block = render_block(load(use_profile), use_verbosity, t.file.budget, profile=use_profile, created=created)
    if block.text == found.text:
        return StatusRow(t, "present", f"packs: {', '.join(block.packs)}")
    return StatusRow(t, "stale", "differs from what `sap-devs inject` would write now")
