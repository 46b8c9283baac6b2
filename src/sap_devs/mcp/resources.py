"""MCP resources: SAP knowledge a user attaches to a conversation (``@sap-devs:...``).

``resources/list`` stays short: each pack's context, each profile, and the active profile's rules.
Templates carry the rest: a pack's context at any verbosity, its tips, known errors and samples,
and any page of the SAP documentation. A resource reads the same content the tool serves: the
context and documentation pages go through get_context and read_doc themselves, and tips, known
errors and samples are shaped by the tools' own output models (with ``origin`` for content that
did not ship with sap-devs).
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, unquote, urlsplit

from sap_devs.core.errors import SapDevsError

if TYPE_CHECKING:
    from sap_devs.knowledge.packs import Pack
    from sap_devs.mcp.framework import ToolContext

SCHEME = "sap-devs://"
MARKDOWN = "text/markdown"
JSON = "application/json"
VERBOSITIES = ("minimal", "standard", "full")
MAX_COMPLETIONS = 100
DOC_READ = 30_000  # read_doc's largest page of text


class ResourceError(SapDevsError):
    """An unknown or malformed resource URI."""


SHOWN_CHARS = 200


def _shown(value: str) -> str:
    """A client's value as an error repeats it: quoted, and cut, so a 100 kB URI is not sent back."""
    if len(value) <= SHOWN_CHARS:
        return repr(value)
    return f"{value[:SHOWN_CHARS]!r}... ({len(value)} characters)"


@dataclass(frozen=True)
class Listed:
    uri: str
    name: str
    title: str
    description: str
    mime_type: str
    size: int
    last_modified: str | None


@dataclass(frozen=True)
class Template:
    uri_template: str
    name: str
    title: str
    description: str
    mime_type: str


TEMPLATES = (
    Template(
        "sap-devs://packs/{pack}/context{?verbosity}",
        "pack-context",
        "SAP pack context",
        "A pack's context and 'Never ...' rules as markdown (what get_context returns); verbosity minimal, standard (default) or full.",
        MARKDOWN,
    ),
    Template(
        "sap-devs://packs/{pack}/tips",
        "pack-tips",
        "SAP pack tips",
        "Every tip of a pack as JSON (the fields get_tip returns).",
        JSON,
    ),
    Template(
        "sap-devs://packs/{pack}/known-errors",
        "pack-known-errors",
        "SAP known errors",
        "Every known error of a pack with cause and fix as JSON (the fields get_known_errors returns).",
        JSON,
    ),
    Template(
        "sap-devs://packs/{pack}/samples",
        "pack-samples",
        "SAP code samples",
        "The canonical sample repositories of a pack as JSON (what get_samples returns).",
        JSON,
    ),
    Template(
        "sap-devs://profiles/{profile}",
        "profile",
        "SAP developer profile",
        "A profile: its packs and their 'Never ...' rules as markdown.",
        MARKDOWN,
    ),
    Template(
        "sap-devs://docs/{source}/{+path}",
        "doc-page",
        "SAP documentation page",
        "One page of the SAP documentation as markdown (what read_doc returns, whole), with its URL and licence; source is the repository owner/repo, path the file inside it (as search_docs names them).",
        MARKDOWN,
    ),
)
RULES_URI = "sap-devs://profile/rules"


def _modified(pack: Pack) -> str | None:
    """The date of a pack's data: its newest file's modification time, in UTC."""
    if pack.path is None:
        return None
    try:
        newest = max(p.stat().st_mtime for p in Path(pack.path).iterdir() if p.is_file())
    except (OSError, ValueError):
        return None
    return dt.datetime.fromtimestamp(newest, dt.UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _size(text: str) -> int:
    return len(text.encode("utf-8"))


class Resources:
    """The resources of one server, read through its tools."""

    def __init__(self, ctx: ToolContext) -> None:
        self.ctx = ctx

    # -- list ---------------------------------------------------------------------------------------

    def listed(self) -> list[Listed]:
        from sap_devs.knowledge.render import render_pack

        kb = self.ctx.knowledge
        out = []
        for pack in kb.packs:
            text = render_pack(pack, "standard")
            if not text:
                continue
            out.append(
                Listed(
                    f"sap-devs://packs/{pack.id}/context",
                    f"{pack.id}-context",
                    f"{pack.meta.name} context",
                    f"{pack.meta.description} Context and 'Never ...' rules, standard verbosity.",
                    MARKDOWN,
                    _size(text),
                    _modified(pack),
                )
            )
        for profile_id in sorted(kb.profiles):
            profile = kb.profiles[profile_id]
            out.append(
                Listed(
                    f"sap-devs://profiles/{profile_id}",
                    f"{profile_id}-profile",
                    f"{profile.name} profile",
                    profile.description or f"The {profile.name} profile's packs and rules.",
                    MARKDOWN,
                    _size(self._profile(profile_id)),
                    None,
                )
            )
        rules = self._rules()
        active = kb.profile.name if kb.profile else "no profile: every pack"
        out.append(
            Listed(
                RULES_URI,
                "active-rules",
                "Active SAP rules",
                f"The 'Never ...' rules of the active profile ({active}), one markdown document.",
                MARKDOWN,
                _size(rules),
                None,
            )
        )
        return out

    def templates(self) -> tuple[Template, ...]:
        return TEMPLATES

    # -- read ---------------------------------------------------------------------------------------

    async def read(self, uri: str) -> tuple[str, str]:
        """(mime type, text) of one resource; ResourceError for a URI that names nothing."""
        if not uri.startswith(SCHEME):
            raise ResourceError(f"Unknown resource {_shown(uri)}: sap-devs resources start with {SCHEME}.")
        import anyio

        await anyio.to_thread.run_sync(lambda: self.ctx.knowledge)  # the first load stays off the event loop
        parts = urlsplit(uri)
        kind = parts.netloc
        segments = [unquote(s) for s in parts.path.strip("/").split("/")] if parts.path.strip("/") else []
        query = parse_qs(parts.query)
        if kind == "packs" and len(segments) == 2:
            pack, what = segments
            self._check_pack(pack)
            if what == "context":
                verbosity = (query.get("verbosity") or ["standard"])[0]
                if verbosity not in VERBOSITIES:
                    raise ResourceError(
                        f"Unknown verbosity {_shown(verbosity)} in {_shown(uri)}.",
                        hint=f"Use one of: {', '.join(VERBOSITIES)}.",
                    )
                result = await self._tool("get_context", {"pack": pack, "verbosity": verbosity})
                return MARKDOWN, result["content"]
            if what == "tips":
                return JSON, _json(self._tips(pack))
            if what == "known-errors":
                return JSON, _json(self._known_errors(pack))
            if what == "samples":
                return JSON, _json(await self._tool("get_samples", {"pack": pack, "limit": 100}))
        if kind == "profiles" and len(segments) == 1:
            if segments[0] not in self.ctx.knowledge.profiles:
                raise ResourceError(
                    f"Unknown profile {_shown(segments[0])}.",
                    hint=f"Use one of: {', '.join(sorted(self.ctx.knowledge.profiles))}.",
                )
            return MARKDOWN, self._profile(segments[0])
        if uri == RULES_URI:
            return MARKDOWN, self._rules()
        if kind == "docs":
            return MARKDOWN, await self._doc(unquote(parts.path.strip("/")))
        raise ResourceError(
            f"Unknown resource {_shown(uri)}.",
            hint="resources/list and resources/templates/list name what there is, e.g. sap-devs://packs/cap/context.",
        )

    def _check_pack(self, pack: str) -> None:
        ids = self.ctx.knowledge.pack_ids
        if pack not in ids:
            raise ResourceError(f"Unknown pack {_shown(pack)}.", hint=f"Use one of: {', '.join(ids)}.")

    async def _tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        from sap_devs.mcp.dispatch import invoke

        registry = self.ctx.registry
        tool = registry.get(name) if registry is not None else None
        if tool is None:
            from sap_devs.mcp.registry import discover

            tool = next((t for t in discover(f"sap_devs.mcp.tools.{_CATEGORY[name]}") if t.name == name), None)
        if tool is None:  # pragma: no cover - the knowledge and docs tools are in every environment
            raise ResourceError(f"The {name} tool is not available on this server.")
        outcome = await invoke(tool, arguments, self.ctx)
        if outcome.is_error or outcome.structured is None:
            raise ResourceError(outcome.text)
        return outcome.structured

    def _tips(self, pack: str) -> list[dict[str, Any]]:
        from sap_devs.mcp.tools._origin import origin_of
        from sap_devs.mcp.tools.knowledge.get_tip import Output

        return [
            Output(title=t.title, content=t.content, tags=t.tags, pack=t.pack or p.id, origin=origin_of(t)).model_dump(
                exclude_none=True
            )
            for p, t in self.ctx.knowledge.items("tips", pack)
        ]

    def _known_errors(self, pack: str) -> list[dict[str, Any]]:
        from sap_devs.mcp.tools._origin import origin_of
        from sap_devs.mcp.tools.knowledge.get_known_errors import KnownErrorOut

        return [
            KnownErrorOut(
                id=e.id,
                pattern=e.pattern,
                cause=e.cause,
                fix=e.fix,
                docs=e.docs,
                tags=e.tags,
                pack=p.id,
                origin=origin_of(e, e.docs),
            ).model_dump(exclude_none=True)
            for p, e in self.ctx.knowledge.items("known_errors", pack)
        ]

    def _profile(self, profile_id: str) -> str:
        kb = self.ctx.knowledge
        profile = kb.profiles[profile_id]
        ids = [p.id for p in profile.packs]
        lines = [f"# {profile.name}", ""]
        if profile.description:
            lines += [profile.description, ""]
        lines += [f"Packs: {', '.join(ids) or 'none'}.", ""]
        if profile.tip_tags:
            lines += [f"Tip tags: {', '.join(profile.tip_tags)}.", ""]
        rules = _rules_of([p for p in kb.packs if p.id in ids or p.meta.base])
        return "\n".join(lines) + ("\n" + rules if rules else "")

    def _rules(self) -> str:
        kb = self.ctx.knowledge
        packs = kb.packs
        if kb.profile is not None:
            ids = {p.id for p in kb.profile.packs}
            packs = [p for p in kb.packs if p.id in ids or p.meta.base]
        title = kb.profile.name if kb.profile else "all packs"
        return f"# SAP rules ({title})\n\n" + _rules_of(packs)

    async def _doc(self, rest: str) -> str:
        source, path = self._split_doc(rest)
        first = await self._tool("read_doc", {"source": source, "path": path, "max_chars": DOC_READ})
        parts = [first["content"]]
        offset = first.get("next_offset")
        while offset is not None:
            more = await self._tool(
                "read_doc", {"source": source, "path": path, "max_chars": DOC_READ, "offset": offset}
            )
            parts.append(more["content"])
            offset = more.get("next_offset")
        head = f"<!-- {first['title']} | {first['url']} | {first['licence']} | commit {first['commit']} -->"
        return f"{head}\n\n{''.join(parts)}\n\n---\n{first['attribution']}\n"

    def _split_doc(self, rest: str) -> tuple[str, str]:
        owner, _, tail = rest.partition("/")
        repo, _, path = tail.partition("/")
        if not (owner and repo and path):
            raise ResourceError(
                f"A documentation page is sap-devs://docs/<owner>/<repo>/<path>, not {_shown(SCHEME + 'docs/' + rest)}.",
                hint="search_docs gives each page's source (owner/repo) and path.",
            )
        return f"{owner}/{repo}", path

    # -- completion ---------------------------------------------------------------------------------

    def complete(self, uri_template: str, argument: str, value: str, filled: dict[str, str] | None = None) -> list[str]:
        known: list[str] = []
        kb = self.ctx.knowledge
        if argument == "pack":
            known = kb.pack_ids
        elif argument == "profile":
            known = sorted(kb.profiles)
        elif argument == "verbosity":
            known = list(VERBOSITIES)
        elif argument == "source" and uri_template.startswith(f"{SCHEME}docs/"):
            known = [s.repo for s in _docs_index().sources()]
        elif argument == "path" and uri_template.startswith(f"{SCHEME}docs/"):
            return _doc_paths((filled or {}).get("source", ""), value)
        lowered = value.lower()
        return [v for v in known if v.lower().startswith(lowered)][:MAX_COMPLETIONS]


_CATEGORY = {"get_context": "knowledge", "get_samples": "knowledge", "read_doc": "docs"}


def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1)


def _rules_of(packs: list[Pack]) -> str:
    parts = []
    for pack in packs:
        rules = pack.constraints.at("full")
        if rules:
            parts.append(f"## {pack.meta.name}\n\n{rules}")
    return "\n\n".join(parts)


def _docs_index() -> Any:
    from sap_devs.docs import store

    return store.current()


def _doc_paths(source: str, prefix: str) -> list[str]:
    """Page paths of one documentation source starting with ``prefix`` (read from the index file)."""
    if not source:
        return []
    try:
        path = _docs_index().path
        con = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro&immutable=1", uri=True)
        try:
            escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            rows = con.execute(
                "SELECT path FROM pages WHERE lower(source) = lower(?) AND path LIKE ? ESCAPE '\\' "
                "ORDER BY path LIMIT ?",
                (source, f"{escaped}%", MAX_COMPLETIONS),
            ).fetchall()
        finally:
            con.close()
    except (sqlite3.Error, SapDevsError):
        return []
    return [r[0] for r in rows]
