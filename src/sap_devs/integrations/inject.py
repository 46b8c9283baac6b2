"""``sap-devs inject``: SAP rules and context as a marked block in each client's instruction file.

The block sits between ``<!-- sap-devs:start -->`` and ``<!-- sap-devs:end -->`` lines, so it can
be replaced or removed without touching anything the user wrote above or below it. Its first
line records the profile, verbosity and whether sap-devs created the file, which lets ``--status``
re-render the same block to tell "present" from "stale", and ``--uninstall`` delete only files
that were ours.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sap_devs.core.errors import SapDevsError
from sap_devs.integrations import agents_chain, state
from sap_devs.integrations.clients import Client, InstructionFile, Scope, home_dir, resolve
from sap_devs.integrations.mcp_install import read_text, unified_diff, write_with_backup
from sap_devs.knowledge.packs import Pack
from sap_devs.knowledge.render import render_pack
from sap_devs.knowledge.verbosity import Verbosity

START = "<!-- sap-devs:start -->"
END = "<!-- sap-devs:end -->"
_META = re.compile(r"<!-- sap-devs inject: profile=(\S+) verbosity=(\w+) packs=(\S*) created=(yes|no)\b")


# --- rendering ------------------------------------------------------------------------------------

LEAN_CHARS = 12_000
"""The default block's ceiling: about 3,000 tokens, estimated as characters / 4."""
READ_WHOLE = sys.maxsize
"""The limit of a file the client reads whole (Codex's ~/.codex/AGENTS.md): every block fits."""

WORKFLOW = """## Which sap-devs tool to call when

- An SAP error message, dump or failing command: `get_known_errors` with the message.
- How a CAP, ABAP Cloud/RAP, SAP BTP, Fiori/UI5, SAP HANA Cloud or Integration Suite feature works, \
its syntax or options: `search_docs`, then `read_doc` for the page (cite its URL).
- Background, rules and current versions of a technology: `get_context` (a pack, verbosity standard or full).
- Whether an ABAP object (table, BAPI, class) is released for ABAP Cloud and what replaces it: \
`check_released_api`.
- A project's setup (CAP, UI5, MTA, ABAP) or the installed tool versions: `check_project`, `check_tools`.
- Step-by-step guides and working code: `search_tutorials`, `get_samples`.

Call these instead of answering SAP specifics from memory; product behaviour and versions change often."""

_LOWER: dict[str, Verbosity] = {"full": "standard", "standard": "minimal"}
_RANK = {"minimal": 0, "standard": 1, "full": 2}


@dataclass(frozen=True)
class Selection:
    """The packs a block may hold, highest priority first, and those it must never drop."""

    packs: list[Pack]
    required: frozenset[str]
    left_out: tuple[str, ...] = ()
    """Untrusted folders whose packs were not read (``loader(trusted_only=True)``)."""


def selection(packs: list[Pack], profile_packs: list[str] | None, left_out: tuple[str, ...] = ()) -> Selection:
    """With a profile: the base packs and the profile's own, all required. Without one (profile
    ``all``): every pack, of which only the base packs are required."""
    if profile_packs is None:
        return Selection(list(packs), frozenset(p.id for p in packs if p.meta.base), left_out)
    own = [p for p in packs if p.meta.base or p.id in profile_packs]
    return Selection(own, frozenset(p.id for p in own), left_out)


@dataclass(frozen=True)
class Block:
    text: str  # from the start marker line to the end marker line, "\n" line ends, no final newline
    packs: list[str]
    dropped: list[str]  # packs left out to fit (never a required one)
    shrunk: list[str]  # "pack: full -> minimal": verbosity lowered to fit
    cut: bool  # even the required packs at minimal did not fit: the block ends early
    size: int = 0  # the whole file, in the client's unit, once the block is in it (plus ``others``)
    limit: int = 0
    unit: str = "bytes"
    others: str = ""  # other files the client counts against the same limit, described

    @property
    def over_budget(self) -> bool:
        return self.cut


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


_CUT_NOTE = "(Cut here to fit the client's size limit: call `get_context` for the rest.)"


def _compose(
    levels: list[tuple[Pack, Verbosity]],
    table: list[str],
    verbosity: Verbosity | None,
    profile: str | None,
    created: bool,
    fit: str = "",
) -> tuple[str, list[str]]:
    bodies = [(p.id, neutralise(render_pack(p, level))) for p, level in levels]
    used = [pid for pid, body in bodies if body]
    meta = (
        f"<!-- sap-devs inject: profile={profile or 'all'} verbosity={verbosity or 'default'} packs={','.join(used)} "
        f"created={'yes' if created else 'no'}{f' fit={fit}' if fit else ''}. Generated block: edit outside the "
        "markers; `sap-devs inject` replaces it and `sap-devs inject --uninstall` removes it. -->"
    )
    parts = [
        START,
        meta,
        "# SAP developer context (sap-devs)",
        "Follow these rules when working on SAP projects (CAP, ABAP Cloud, SAP BTP, Fiori/UI5 ...). "
        "When the sap-devs MCP server is connected, prefer its tools over memory for details.",
        WORKFLOW,
        *(body for _, body in bodies if body),
    ]
    if table:
        errors = _known_errors([p for p, _ in levels if p.id in used and p.id in table])
        if errors:
            parts.append(neutralise(errors))
    return "\n\n".join(parts) + "\n\n" + END, used


@dataclass(frozen=True)
class Room:
    """The client's limit and the size of the whole file once it holds a given block, in the client's
    unit (characters or bytes): the user's text outside the markers counts against the same limit."""

    limit: int
    size: Callable[[str], int]
    unit: str = "bytes"
    others: str = ""
    """Other files the client reads first and counts against the same limit (Codex's AGENTS.md
    chain); ``size`` includes them."""


def render_block(
    sel: Selection | list[Pack],
    verbosity: Verbosity | None,
    room: Room | int,
    *,
    profile: str | None,
    created: bool,
) -> Block:
    """The block for ``sel``, fitted to the client's limit.

    ``verbosity`` None is the lean default: the packs at minimal, and packs that are not required
    only while the block stays within ``LEAN_CHARS`` (about 3,000 tokens). To fit the limit, the
    known-errors table loses the rows of the lowest-priority packs first, then the lowest-priority packs lose verbosity one level at a
    time (all leave full before any goes to minimal; base packs first, then the lowest priority), then packs that are not required are left out, lowest priority first.
    Required packs are never left out: if they do not fit at minimal, the block is cut after a
    whole line and says so (``Block.cut``). An int ``room`` is a limit in bytes for the block alone."""
    if isinstance(sel, list):
        sel = selection(sel, None)
    if isinstance(room, int):
        room = Room(room, lambda text: len(text.encode("utf-8")))
    start: Verbosity = verbosity or "minimal"
    levels: list[tuple[Pack, Verbosity]] = [(p, start) for p in sel.packs]
    table = [p.id for p in sel.packs] if verbosity == "full" else []  # packs whose known errors are listed
    dropped: list[str] = []
    lowered: dict[str, Verbosity] = {}
    while True:
        text, used = _compose(levels, table, verbosity, profile, created)
        if room.size(text) <= room.limit and (verbosity is not None or len(text) <= LEAN_CHARS):
            break
        if table:
            table.pop()
            continue
        higher = [i for i, (_, level) in enumerate(levels) if level in _LOWER]
        if higher:  # one level at a time: every pack leaves full before any goes down to minimal;
            # within a level the general base packs shrink first, then the rest from the lowest priority up
            i = max(higher, key=lambda n: (_RANK[levels[n][1]], levels[n][0].meta.base, n))
            pack, level = levels[i]
            levels[i] = (pack, _LOWER[level])
            lowered[pack.id] = _LOWER[level]
            continue
        optional = [i for i, (p, _) in enumerate(levels) if p.id not in sel.required]
        if optional:
            dropped.insert(0, levels.pop(optional[-1])[0].id)
            continue
        return _cut(levels, verbosity, profile, created, room, dropped, _shrunk(lowered, start))
    if lowered:  # room left over: give packs back a level, the profile's first, while it still fits
        _regrow(levels, lowered, start, lambda: _compose(levels, table, verbosity, profile, created, "shrunk")[0], room)
    if lowered or dropped:  # record it in the header line, for the reader of the file
        text, used = _compose(levels, table, verbosity, profile, created, "shrunk")
    shrunk = _shrunk(lowered, start)
    return Block(text, used, dropped, shrunk, False, room.size(text), room.limit, room.unit, room.others)


_RAISE: dict[str, Verbosity] = {"minimal": "standard", "standard": "full"}


def _regrow(
    levels: list[tuple[Pack, Verbosity]],
    lowered: dict[str, Verbosity],
    start: Verbosity,
    render: Callable[[], str],
    room: Room,
) -> None:
    """Raise lowered packs one level at a time (non-base packs in priority order, then base packs) for as
    long as the block still fits; a pack never goes above the verbosity asked for."""
    order = sorted(range(len(levels)), key=lambda n: (levels[n][0].meta.base, n))
    grown = True
    while grown:
        grown = False
        for i in order:
            pack, level = levels[i]
            if pack.id not in lowered or _RANK[level] >= _RANK[start]:
                continue
            levels[i] = (pack, _RAISE[level])
            if room.size(render()) <= room.limit:
                grown = True
                if levels[i][1] == start:
                    del lowered[pack.id]
                else:
                    lowered[pack.id] = levels[i][1]
            else:
                levels[i] = (pack, level)


def _shrunk(lowered: dict[str, Verbosity], start: Verbosity) -> list[str]:
    return [f"{pid} {start} -> {level}" for pid, level in lowered.items()]


def _cut(
    levels: list[tuple[Pack, Verbosity]],
    verbosity: Verbosity | None,
    profile: str | None,
    created: bool,
    room: Room,
    dropped: list[str],
    shrunk: list[str],
) -> Block:
    """Required packs at minimal that still do not fit: keep whole lines from the top while they do."""
    full, used = _compose(levels, [], verbosity, profile, created, "cut")
    lines = full.split("\n")[:-1]  # without the end marker
    tail = f"\n\n{_CUT_NOTE}\n\n{END}"

    def text_of(count: int) -> str:
        return "\n".join(lines[:count]).rstrip() + tail

    low, high = 3, len(lines)  # the start marker, header line and blank line always stay
    while low < high:  # the longest prefix that fits (sizes only grow with more lines)
        middle = (low + high + 1) // 2
        if room.size(text_of(middle)) <= room.limit:
            low = middle
        else:
            high = middle - 1
    text = text_of(low)
    if room.size(text) > room.limit:
        counting = f" (counting {room.others})" if room.others else ""
        raise SapDevsError(
            f"No room for the sap-devs block: the text outside the markers already takes {room.size('')} "
            f"of the {room.limit} {room.unit} the client reads{counting}; sap-devs left the file unchanged.",
            hint="Shorten your own text in the file"
            + (" or in those files" if room.others else "")
            + ", or inject into the other scope.",
        )
    kept = [p.id for p, _ in levels if p.id in used and f"\n## {p.meta.name}\n" in text]
    left_out = [*dropped, *(pid for pid in used if pid not in kept)]
    return Block(text, kept, left_out, shrunk, True, room.size(text), room.limit, room.unit, room.others)


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


def _meta(block: str) -> tuple[str | None, Verbosity | None, bool]:
    """(profile, verbosity, created) recorded in an existing block; verbosity None is the lean default."""
    match = _META.search(block)
    if not match:
        return None, None, False
    profile = None if match.group(1) == "all" else match.group(1)
    level = match.group(2)
    verbosity: Verbosity | None = level if level in ("minimal", "standard", "full") else None  # type: ignore[assignment]
    return profile, verbosity, match.group(4) == "yes"


# --- operations -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class InjectTarget:
    client: Client
    file: InstructionFile
    path: Path
    root: Path | None = None
    """The project, for a project file (see ``check_own_file``)."""

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
            found.append(InjectTarget(client, file, path, project if scope == "project" else None))
    return found, notes


def duplicate(t: InjectTarget, home: Path, project: Path) -> str | None:
    """A warning when the client's file of the other scope holds a sap-devs block too: the client loads
    both (Gemini CLI, Claude Code and Codex read the user and the project file), so the block counts twice."""
    other_scope: Scope = "user" if t.scope == "project" else "project"
    other = t.client.instruction_file(other_scope)
    if other is None:
        return None
    path = resolve(other.path, home, project)
    try:
        text = read_text(path, project if other_scope == "project" else None)
        found = find_block(path, text) if text is not None else None
    except SapDevsError:
        return None
    if found is None or path == t.path:
        return None
    return (
        f"{t.client.name} also reads the sap-devs block in {path} ({other_scope} scope, {len(found.text):,} characters): "
        f"it loads both. Keep one: `sap-devs inject --scope {other_scope} --uninstall -c {t.client.id}`."
    )


@dataclass
class Outcome:
    target: InjectTarget
    status: str  # created, updated, unchanged, removed, file deleted, absent, would ...
    diff: str = ""
    block: Block | None = None
    backup: Path | None = None


PackLoader = Callable[[str | None], Selection]


def _newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def _assembler(t: InjectTarget, old: str | None, found: Found | None) -> Callable[[str], str]:
    """How the file reads with a given block in it: the user's text outside the markers is kept."""
    if old is None:
        front = f"{t.file.front_matter}\n" if t.file.front_matter else ""
        return lambda block: front + block + "\n"
    nl = _newline(old)
    if found is not None:
        before, after = old[: found.start], old[found.end :]
        return lambda block: before + block.replace("\n", nl) + nl + after
    head = old if not old or old.endswith("\n") else old + nl
    gap = nl if head.strip() else ""
    return lambda block: head + gap + block.replace("\n", nl) + nl


def room(t: InjectTarget, assemble: Callable[[str], str]) -> Room:
    if _codex_project(t):
        # Codex's limit is shared by every project AGENTS.md it reads, and those above ours come first.
        found = agents_chain.chain(t.path, home_dir())
        before = found.bytes_before
        describe_others = agents_chain.describe_before(found)
        return Room(found.limit, lambda block: before + len(assemble(block).encode("utf-8")), "bytes", describe_others)
    limit = READ_WHOLE if t.file.budget is None else t.file.budget
    if t.file.unit == "bytes":
        return Room(limit, lambda block: len(assemble(block).encode("utf-8")), "bytes")
    return Room(limit, lambda block: len(assemble(block)), "characters")


def _codex_project(t: InjectTarget) -> bool:
    return t.client.id == "codex" and t.scope == "project"


def hidden(t: InjectTarget, home: Path) -> str | None:
    """A warning when the client reads another file instead of this one (Codex's AGENTS.override.md)."""
    if t.client.id != "codex":
        return None
    project = t.scope == "project"
    other = agents_chain.chain(t.path, home).hidden_by if project else agents_chain.global_hidden_by(home)
    if other is None:
        return None
    return (
        f"Codex reads {other} instead of {t.path}, so it does not see the sap-devs block; "
        f"to let it, move what {other.name} holds into {t.path.name} and delete {other.name}."
    )


def loader(cwd: Path | None = None, *, trusted_only: bool = False) -> PackLoader:
    """Packs per profile from the knowledge base, cached. With ``trusted_only`` (files every project
    shares: the user-scope ones), an untrusted project's, company's or cache's packs are left out whole:
    one cloned repository must not write its text into what the agent reads in every other project."""
    from sap_devs.knowledge.base import KnowledgeBase

    cache: dict[str | None, Selection] = {}

    def load(profile: str | None) -> Selection:
        if profile not in cache:
            kb = KnowledgeBase.load(profile, cwd=cwd, trusted_only=trusted_only)
            own = [p.id for p in kb.profile.packs] if kb.profile is not None else None
            cache[profile] = selection(kb.packs, own, tuple(kb.left_out))
        return cache[profile]

    return load


_PROFILE_BY_TYPE = (
    ("CAP", "cap-developer"),
    ("ABAP", "abap-developer"),
    ("SAPUI5 / Fiori", "fiori-developer"),
    ("MTA", "btp-developer"),
    ("Kyma / Helm", "btp-developer"),
    ("App router", "btp-developer"),
)


def detect_profile(project: Path) -> tuple[str | None, list[str]]:
    """The profile for a project, from what check_project detects (CAP, ABAP, UI5/Fiori, MTA ...),
    and the project types it saw; None when nothing SAP-specific was found."""
    from sap_devs.doctor.project import detect

    try:
        types = detect(project)[0].types
    except (OSError, ValueError):
        return None, []
    for prefix, profile in _PROFILE_BY_TYPE:
        if any(kind.startswith(prefix) for kind in types):
            return profile, types
    return None, types


def inject(
    t: InjectTarget, load: PackLoader, verbosity: Verbosity | None, profile: str | None, *, dry_run: bool = False
) -> Outcome:
    """Write the block; ``verbosity`` None is the lean default (see ``render_block``)."""
    old = read_text(t.path, t.root)
    found = find_block(t.path, old) if old is not None else None
    created = old is None or (found is not None and _meta(found.text)[2])
    assemble = _assembler(t, old, found)
    block = render_block(load(profile), verbosity, room(t, assemble), profile=profile, created=created)
    if found is not None and found.text == block.text:
        return Outcome(t, "unchanged", block=block)
    new = assemble(block.text)
    diff = unified_diff(t.path, old, new)
    status = "created" if old is None else ("updated" if found is not None else "added")
    if dry_run:
        return Outcome(t, f"would be {status}", diff, block)
    backup = write_with_backup(t.path, old, new, root=t.root)
    return Outcome(t, status, diff, block, backup)


def uninstall(t: InjectTarget, *, dry_run: bool = False) -> Outcome:
    old = read_text(t.path, t.root)
    if old is None:
        return Outcome(t, "absent")
    found = find_block(t.path, old)
    if found is None:
        return Outcome(t, "absent")
    record = state.current(t.path, old)
    if record is not None and _no_block(t.path, record.before):
        # The file reads as sap-devs left it: give back what it held before (or delete the file it created).
        diff = unified_diff(t.path, old, record.before)
        if dry_run:
            return Outcome(t, "would be removed", diff)
        backup = state.restore(t.path, old, record, root=t.root)
        return Outcome(t, "file deleted" if record.before is None else "removed", diff, backup=backup)
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
        return Outcome(t, "file deleted", diff, backup=state.delete(t.path, old, state.load(t.path), root=t.root))
    backup = write_with_backup(t.path, old, new, root=t.root)
    return Outcome(t, "removed", diff, backup=backup)


def _no_block(path: Path, text: str | None) -> bool:
    try:
        return text is None or find_block(path, text) is None
    except MarkerError:
        return False


@dataclass
class StatusRow:
    target: InjectTarget
    state: str  # present, stale, absent, no file, mismatched markers
    detail: str = ""


def status(t: InjectTarget, load: PackLoader, verbosity: Verbosity | None, profile: str | None) -> StatusRow:
    try:
        old = read_text(t.path, t.root)
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
    use_verbosity = verbosity or rec_verbosity
    try:
        block = render_block(
            load(use_profile), use_verbosity, room(t, _assembler(t, old, found)), profile=use_profile, created=created
        )
    except SapDevsError as exc:
        return StatusRow(t, "stale", exc.message)
    if block.text == found.text:
        return StatusRow(t, "cut" if block.cut else "present", describe(block))
    return StatusRow(t, "stale", "differs from what `sap-devs inject` would write now")


def describe(block: Block) -> str:
    """The packs in a block, and what was shrunk, left out or cut to fit the client's limit."""
    note = f"packs: {', '.join(block.packs)}; file {block.size:,} of {block.limit:,} {block.unit} the client reads"
    if block.limit == READ_WHOLE:
        note = f"packs: {', '.join(block.packs)}; file {block.size:,} {block.unit}, which the client reads whole"
    if block.others:
        note += f" (counting {block.others})"
    if block.shrunk:
        note += f"; verbosity lowered to fit: {', '.join(block.shrunk)}"
    if block.dropped:
        note += f"; left out to fit: {', '.join(block.dropped)}"
    if block.cut:
        note += "; CUT: the required packs do not fit at minimal, the block ends early"
    return note
