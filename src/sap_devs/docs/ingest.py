"""Markdown pages of a documentation repository turned into clean pages and sections.

What is not content goes: SAP-docs ``loio`` comments and anchors, "Related Information" and "Parent
topic" link lists, capire front matter and VitePress syntax (``::: tip`` containers, ``{.class}`` and
``{#id}`` attributes, ``[[toc]]``, component tags), the cheat sheets' tables of contents and "back to
top" links, HTML table markup. Code blocks stay verbatim. Relative links to other pages of the same
repository become their public addresses, so what an agent quotes can be followed.
"""

from __future__ import annotations

import html
import logging
import posixpath
import re
import tarfile
import textwrap
import unicodedata
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

from sap_devs.core.errors import SapDevsError
from sap_devs.docs.sources import DocSource, file_url, is_page, page_suffix, page_url

_log = logging.getLogger(__name__)
REDIRECTS = "redirects.md"  # capire's list of moved pages: "- [old/path](new/path)"
MAX_PAGE_BYTES = 1536 * 1024  # the largest real page is ~740 KB; anything bigger is not a page
# A tarball beyond these is refused whole (TarballRefused), before it can take minutes or gigabytes:
# today's largest repository has ~4,000 pages (21 MB of them) in a tarball far below these.
MAX_MEMBERS = 100_000
MAX_EXPANDED_BYTES = 1024 * 1024 * 1024
MAX_PAGES_BYTES = 64 * 1024 * 1024
SECTION_LEVEL = 3  # h1-h3 start sections; deeper headings stay inside their section


@dataclass
class Section:
    heading: list[str]  # heading path from the page title down
    anchor: str | None
    text: str


@dataclass
class Page:
    source: str  # owner/repo
    path: str  # inside the repository
    title: str
    url: str
    product: str
    sections: list[Section] = field(default_factory=list)

    @property
    def id(self) -> str:
        return f"{self.source}:{self.path}"


_LOIO = re.compile(r"<!--\s*(?:loio|copy)([0-9a-f]{32})\s*-->")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_ANCHOR_TAG = re.compile(r"<a\s+name=\"[^\"]*\"\s*/?>(?:\s*</a>)?", re.I)
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_ATTRS = re.compile(r"\s*\{\s*([#.][^}]*)\}\s*$")  # {#anchor} or {.class} at the end of a line
_CONTAINER = re.compile(r"^\s*:{3,}\s*(\w[\w-]*)?\s*(.*)$")
_CELL_END = re.compile(r"</t[dh]\s*>", re.I)
_ROW_END = re.compile(r"</tr\s*>|<br\s*/?>", re.I)
_DROP_BLOCK = re.compile(r"<(style|script)\b.*?</\1\s*>|<link\s+rel=\"stylesheet\"[^>]*>", re.I | re.S)
# tags whose markup goes and whose text stays (HTML and the VitePress components capire uses)
_TAG = re.compile(
    r"</?(?:table|thead|tbody|tfoot|tr|td|th|colgroup|col|span|div|p|em|i|b|strong|sup|sub|u|a|img|code|pre|"
    r"kbd|br|hr|ul|ol|li|dl|dt|dd|details|summary|Badge|Since|Config|Alpha|Beta|Concept|Deprecated|Fragment|"
    r"ImplVariants|UnderConstruction|Icon|Grid|span)\b[^>]*>",
    re.I,
)
_RELATED = re.compile(r"^\s*(?:\*\*|#{1,6}\s*)(?:Related Information|Parent topic:?)(?:\*\*)?\s*:?\s*$", re.I)
_PAGE_LINK = re.compile(r"\]\(([^)\s#]+)(#[^)\s]*)?(\s+\"[^\"]*\")?\)")
_ESCAPES = re.compile(r"\\([()\[\]#_*<>|`.!-])")
_BACK_TO_TOP = re.compile(r"^\s*<p align=\"right\">.*?top.*?</p>\s*$", re.I)
_TOC_LINE = re.compile(r"^\s*[-*]\s+\[[^\]]*\]\(#[^)]*\)\s*$")
_BACK_LINK = re.compile(r"^\s*Back to \[Top\]\([^)]*\)\s*$", re.I)
# Clean ABAP opens each section with its place in the outline: "> [Clean ABAP](#clean-abap) > [Content](#content) > ..."
# docsify's markers for its search and sidebar (Kyma's pages kept them from the old site): not part of the title
_DOCSIFY_IGNORE = re.compile(r"\s*\{docsify-ignore(?:-all)?\}")
_BREADCRUMB = re.compile(r"^\s*>\s*\[[^\]]*\]\(#[^)]*\)(?:\s*>\s*\[[^\]]*\]\(#[^)]*\))+\s*$")
_ALERT = re.compile(r"^(\s*>\s*)\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*$", re.I)  # GitHub's alert syntax
_SLUG_DROP = re.compile(r"[^\w\- ]+")
# a heading that is a link ("### [cds. Service](core-services)" in capire): its text, with any {target=...}
_HEADING_LINK = re.compile(r"\[([^\]]*)\]\([^)\s]*(?:\s+\"[^\"]*\")?\)(?:\s*\{[^}#.]*\})?")
# character references with their semicolon only: "?a=1&copy=2" in a URL is not "©"
_ENTITY = re.compile(r"&(?:#\d{1,7}|#x[0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
# an image in prose says what its alt text (or title) says; an icon's alt is often the only content of a
# table cell ("Yes", "Supported"); the rest is a file name an agent cannot open
_IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)\s]*)(?:\s+\"([^\"]*)\")?\)")
_BOILERPLATE_ALT = re.compile(
    r"^this (?:graphic|screenshot|image|diagram|figure) is explained in the accompanying text\.?$", re.I
)
_UNDERSCORE_EMPHASIS = re.compile(r"(?<![\w])_+([^_]+?)_+(?![\w])")


_QUOTE_MARKERS = re.compile(r"^ {0,3}>(?: ?>)*(?: |(?=\S)|$)")
# any indentation: a fence inside a list item is indented to the item's text (SAP-docs nest most steps' samples so)
_FENCE_OPEN = re.compile(r"^\s*(`{3,}|~{3,})")


class Fences:
    """Code-fence state as CommonMark has it: a fence closes only on a line of the same character, at least
    as long, with nothing else on it; "```cds" inside a fence is code (capire has such a page). SAP-docs put
    most samples inside a blockquote ("> ```"): such a fence is code too, and ends with its blockquote."""

    def __init__(self) -> None:
        self.open: str | None = None
        self.quote = ""  # the blockquote markers of the line that opened the fence

    def step(self, line: str) -> bool:
        """Feed one line; True when the line is a fence line or inside a fence (so: not prose)."""
        marker = _QUOTE_MARKERS.match(line)
        quote = marker.group().replace(" ", "") if marker else ""
        inner = line[marker.end() :] if marker else line
        stripped = inner.strip()
        if self.open is not None:
            if len(quote) < len(self.quote):  # the blockquote ended, and the fence with it
                self.open = None
            else:
                if stripped and set(stripped) == {self.open[0]} and len(stripped) >= len(self.open):
                    self.open = None
                return True
        match = _FENCE_OPEN.match(inner)
        if match and not (match.group(1)[0] == "`" and "`" in stripped[len(match.group(1)) :]):
            self.open, self.quote = match.group(1), quote
            return True
        return False


def _outside_fences(text: str, change: Callable[[str], str]) -> str:
    """``text`` with ``change`` applied to each run of lines outside code fences (an XML sample's
    ``<!-- comment -->`` is code)."""
    out: list[str] = []
    prose: list[str] = []
    fences = Fences()
    for line in text.split("\n"):
        if fences.step(line):
            if prose:
                out.append(change("\n".join(prose)))
                prose = []
            out.append(line)
        else:
            prose.append(line)
    if prose:
        out.append(change("\n".join(prose)))
    return "\n".join(out)


def _outside_code(text: str, change: Callable[[str], str]) -> str:
    """``text`` with ``change`` applied to what is not inside a code span (Markdown shows a span as written)."""
    parts, last = [], 0
    for span in _CODE_SPAN.finditer(text):
        parts += [change(text[last : span.start()]), span.group()]
        last = span.end()
    parts.append(change(text[last:]))
    return "".join(parts)


def slug(heading: str) -> str:
    """GitHub-style anchor of a heading (the cheat sheets link their sections this way, and capire's site uses
    the same rule), made from the heading as shown: ``Things You _Must_ Fix`` -> things-you-must-fix."""
    shown = _outside_code(heading, lambda part: _UNDERSCORE_EMPHASIS.sub(r"\1", part))
    return _SLUG_DROP.sub("", shown.strip().lower()).replace(" ", "-")


def _front_matter(text: str) -> tuple[dict[str, str], str]:
    if not text.startswith("---\n"):
        return {}, text
    end = text.find("\n---", 4)
    if end < 0:
        return {}, text
    head, body = text[4:end], text[end + 4 :]
    meta: dict[str, str] = {}
    key = None
    for line in head.splitlines():  # only flat keys are needed (synopsis, status); no YAML parser for this
        match = re.match(r"^([A-Za-z_][\w-]*):\s*(.*)$", line)
        if match:
            key, value = match.group(1), match.group(2).strip()
            meta[key] = "" if value in (">", "|", ">-", "|-") else value.strip("'\"")
        elif key and line.startswith((" ", "\t")):
            meta[key] = (meta[key] + " " + line.strip()).strip()
    return meta, body


_SPACES = {"\xa0": " ", "\u2002": " ", "\u2003": " ", "\u2009": " "}


def _character(match: re.Match[str]) -> str:
    char = html.unescape(match.group())
    return _SPACES.get(char, char)


def _unescape(text: str) -> str:
    """``&lt;tenant&gt;`` as the page shows it, ``<tenant>``; code spans keep theirs (Markdown shows them as
    written). After the tags are gone, so an escaped ``&lt;p&gt;`` stays text."""
    return _outside_code(text, lambda part: _ENTITY.sub(_character, part))


def _image_text(match: re.Match[str]) -> str:
    alt = match.group(1).strip()
    if alt and not _BOILERPLATE_ALT.match(alt):
        return alt
    return (match.group(3) or "").strip()


def _clean_prose(line: str) -> str:
    line = _outside_code(line, lambda part: _IMAGE.sub(_image_text, part))
    line = _ANCHOR_TAG.sub("", line)
    line = _CELL_END.sub(" | ", line)
    line = _ROW_END.sub("\n", line)
    line = _TAG.sub("", line)
    return _unescape(_ESCAPES.sub(r"\1", line))


def _heading(line: str) -> re.Match[str] | None:
    """The ATX heading a line is; a line indented four spaces or more is list text or code, not a heading."""
    spaces = line.expandtabs(4)
    return _HEADING.match(line.strip()) if len(spaces) - len(spaces.lstrip(" ")) <= 3 else None


def clean(text: str, *, meta: dict[str, str] | None = None) -> str:
    """Markdown without the markup that is not content; code fences untouched."""
    meta = meta or {}
    text = _outside_fences(text, lambda prose: _DROP_BLOCK.sub("", _COMMENT.sub("", prose)))
    out: list[str] = []
    fences = Fences()
    skipping_related = False
    for line in text.splitlines():
        stripped = line.strip()
        if fences.step(line):
            skipping_related = False
            out.append(line.rstrip())
            continue
        if skipping_related:
            if _HEADING.match(stripped):
                skipping_related = False
            else:
                continue
        if _RELATED.match(stripped):
            skipping_related = True
            continue
        if stripped == "[[toc]]" or _BACK_TO_TOP.match(line) or _TOC_LINE.match(line) or _BACK_LINK.match(line):
            continue
        if _BREADCRUMB.match(line):
            continue
        alert = _ALERT.match(line)
        if alert:
            out.append(f"{alert.group(1)}**{alert.group(2).capitalize()}:**")
            continue
        container = _CONTAINER.match(line)
        if container:
            kind, title = container.group(1), container.group(2).strip()
            if kind and kind not in ("code-group", "details", "raw"):
                out.append(f"**{(title or kind).strip()}:**" if title or kind not in ("tip", "info") else "")
            elif title:
                out.append(f"**{title}**")
            continue
        if "{{" in line and "$frontmatter" in line:
            line = re.sub(r"\{\{\s*\$frontmatter\.(\w+)\s*\}\}", lambda m: meta.get(m.group(1), ""), line)
        heading = _heading(line)
        if heading:
            text = _DOCSIFY_IGNORE.sub("", heading.group(2))
            out.append(f"{heading.group(1)} {_clean_prose(text)}".rstrip())
            continue
        out.append(_ATTRS.sub("", _clean_prose(line)).rstrip())
    joined = "\n".join(out)
    return _outside_fences(joined, lambda prose: re.sub(r"\n{3,}", "\n\n", prose)).strip()  # code keeps its blank lines


_MKDOCS_DROP = re.compile(r"[^\w\s-]")
_MKDOCS_COUNTED = re.compile(r"^(.*)_([0-9]+)$")


def mkdocs_ids() -> Callable[[str, str | None], str]:
    """The anchors a MkDocs page gives its headings, in page order: Python-Markdown's toc slugify (ASCII,
    no punctuation, runs of spaces as one hyphen) and its ``_1``, ``_2`` for a repeated id; every heading of
    the page counts, the deeper ones too, and an id the page gives (``{#id}``) is taken as it is."""
    seen: set[str] = set()

    def anchor(heading: str, given: str | None = None) -> str:
        if given:
            seen.add(given)
            return given
        ascii_text = unicodedata.normalize("NFKD", heading).encode("ascii", "ignore").decode("ascii")
        found = re.sub(r"[-\s]+", "-", _MKDOCS_DROP.sub("", ascii_text).strip().lower())
        while found in seen or not found:
            counted = _MKDOCS_COUNTED.match(found)
            found = f"{counted.group(1)}_{int(counted.group(2)) + 1}" if counted else f"{found}_1"
        seen.add(found)
        return found

    return anchor


def split_sections(
    text: str, title: str, level: int = SECTION_LEVEL, anchors: Callable[[str, str | None], str] | None = None
) -> list[Section]:
    """Sections at h1 to h``level`` (h3 unless a source says otherwise; outside code), each with its
    heading path and anchor: the heading's {#id}, else ``anchors`` (called for every heading in page
    order, as a site that numbers repeated ids needs), else its GitHub-style slug."""
    sections: list[Section] = []
    path: list[str] = [title]
    levels: list[int] = [1]
    current: list[str] = []
    anchor: str | None = None
    fences = Fences()

    def flush() -> None:
        body = "\n".join(current).strip()
        if body:
            sections.append(Section(list(path), anchor, body))

    for line in text.splitlines():
        match = None if fences.step(line) else _heading(line)
        if not match or (anchors is None and len(match.group(1)) > level):
            current.append(line)
            continue
        attr = re.search(r"\{\s*#([\w-]+)\s*\}", match.group(2))
        given = attr.group(1) if attr else None
        name = _ATTRS.sub("", _HEADING_LINK.sub(r"\1", match.group(2))).strip()
        own = anchors(name, given) if anchors is not None else None  # every heading counts, the deeper ones too
        if len(match.group(1)) <= level:
            flush()
            current = []
            depth = len(match.group(1))
            anchor = given or own or slug(name)
            if depth == 1:
                path, levels = [name], [1]
                continue
            while levels and levels[-1] >= depth:
                levels.pop()
                path.pop()
            if not path:
                path, levels = [title], [1]
            path.append(name)
            levels.append(depth)
            continue
        current.append(line)
    flush()
    return sections


_TABLE = re.compile(r"<table\b.*?</table\s*>", re.S)  # lower case only: UI5 XML views have <Table> in prose
_ROW = re.compile(r"</tr\s*>", re.I)
# lower case only, as _TABLE: a cell's UI5 sample has <Table> and <Column>
_CELL_TAGS = re.compile(r"</?(?:table|thead|tbody|tfoot|tr|td|th|colgroup|col)\b[^>]*>")


def _cell_text(cell: str) -> str:
    """A cell's Markdown as written, without the table's own tags and the cell's indentation."""
    lines = _CELL_TAGS.sub("", cell).split("\n")
    return textwrap.dedent("\n".join(line.rstrip() for line in lines)).strip("\n").strip()


def _has_code_sample(cell: str) -> bool:
    """A fenced block of two or more lines: a sample, which a one-line table row would run together."""
    inside = 0
    fences = Fences()
    for line in cell.split("\n"):
        was_open = fences.open is not None
        if fences.step(line) and was_open and fences.open is not None:
            inside += 1
            if inside >= 2:
                return True
    return False


def _flatten_table(match: re.Match[str]) -> str:
    rows = [_CELL_END.split(row) for row in _ROW.split(match.group(0))]
    if any(_has_code_sample(cell) for row in rows for cell in row):
        return _table_as_blocks(rows)
    lines = []
    for row in rows:
        cells = [" ".join(_TAG.sub(" ", cell).replace("```", "`").split()) for cell in row]
        cells = [c for c in cells if c]
        if cells:
            lines.append("| " + " | ".join(cells) + " |")
    return "\n" + "\n".join(lines) + "\n"


def _table_as_blocks(rows: list[list[str]]) -> str:
    """A table whose cells hold code samples (the ABAP cheat sheets' syntax tables), one block per row:
    each cell under its column's name, code kept line by line."""
    texts = [[t for t in (_cell_text(c) for c in row) if t] for row in rows]
    texts = [row for row in texts if row]
    if not texts:
        return "\n"
    header = texts[0] if all("\n" not in t and len(t) <= 60 for t in texts[0]) else None
    out: list[str] = []
    for row in texts[1:] if header else texts:
        for i, text in enumerate(row):
            name = " ".join(_TAG.sub(" ", header[i]).split()) if header and i < len(header) else ""
            out.append(f"**{name}:**\n\n{text}" if name else text)
        out.append("---")
    return "\n\n" + "\n\n".join(out) + "\n\n"


def flatten_tables(text: str) -> str:
    """HTML tables (SAP-docs writes its tables so) as one line per row; a table starting inside a code
    block is left alone, a code block inside a table cell becomes inline code."""
    if "<table" not in text:
        return text
    out: list[str] = []
    table: list[str] | None = None
    fences = Fences()
    for line in text.split("\n"):
        if table is not None:
            table.append(line)
            if "</table>" in line:
                out.append(_TABLE.sub(_flatten_table, "\n".join(table)))
                table = None
            continue
        if not fences.step(line) and line.lstrip().startswith("<table"):
            table = [line]
            if "</table>" in line:
                out.append(_TABLE.sub(_flatten_table, line))
                table = None
            continue
        out.append(line)
    if table is not None:  # never closed: keep it as it was
        out.extend(table)
    return "\n".join(out)


# MkDocs' admonitions (!!! tip "Title", ??? collapsed) and content tabs (=== "Tab"): their body is the block
# indented under them, which plain Markdown would read as a code block (and its "# comment" lines as headings)
_MKDOCS_ADMONITION = re.compile(r'^([ \t]*)(?:!!!|\?\?\?\+?)[ \t]+([\w-]+)(?:[ \t]+"([^"]*)")?[ \t]*$')
_MKDOCS_TAB = re.compile(r'^([ \t]*)===\+?[ \t]+"([^"]*)"[ \t]*$')


def mkdocs_blocks(text: str) -> str:
    """MkDocs' admonitions and tabs as a bold title line with their body one level less indented (as the
    site shows them: a code sample in a tab is a code block again); nested ones the same way."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    fences = Fences()
    while i < len(lines):
        line = lines[i]
        admonition = None if fences.step(line) else _MKDOCS_ADMONITION.match(line) or _MKDOCS_TAB.match(line)
        if not admonition:
            out.append(line)
            i += 1
            continue
        indent = admonition.group(1)
        if admonition.re is _MKDOCS_TAB:
            title = admonition.group(2)
        else:
            title = admonition.group(3) if admonition.group(3) is not None else admonition.group(2).capitalize()
        out.append(f"{indent}**{title}:**" if title else "")
        i += 1
        body: list[str] = []
        while i < len(lines) and (not lines[i].strip() or lines[i].startswith((indent + "\t", indent + "    "))):
            rest = lines[i][len(indent) :]
            body.append(indent + (rest[1:] if rest.startswith("\t") else rest[4:]) if lines[i].strip() else "")
            i += 1
        end = len(body)
        while end and not body[end - 1].strip():  # blank lines after the block are the page's again
            end -= 1
        if end:
            out.extend(mkdocs_blocks("\n".join(body[:end])).split("\n"))
        out.extend(body[end:])
    return "\n".join(out)


# MDX (Docusaurus): ES module lines, capitalised JSX components, {/* comments */}
_MDX_MODULE = re.compile(
    r"""^\s*(?:import\s+(?:[\w*{}\s,]+\s+from\s+)?['"][^'"]+['"]|export\s+(?:default|const|let|function)\b.*);?\s*$"""
)
_MDX_IMPORT_START = re.compile(r"^\s*import\s+(?:\w+\s*,\s*)?\{[^}]*$")
_MDX_FROM = re.compile(r"""\bfrom\s+['"][^'"]+['"];?\s*$""")
_MDX_COMMENT = re.compile(r"^\s*\{/\*.*?\*/\}\s*$")
_JSX_OPEN = re.compile(r"^\s*<(/?)([A-Z][\w.]*)")
_JSX_INLINE = re.compile(r"</?[A-Z][\w.]*(?:\s(?:[^<>{}]|\{[^{}]*\})*)?/?>")
_TAB_VALUES = re.compile(
    r"""\{\s*(?:label:\s*(['"])(?P<l1>.*?)\1\s*,\s*value:\s*(['"])(?P<v1>.*?)\3|"""
    r"""value:\s*(['"])(?P<v2>.*?)\5\s*,\s*label:\s*(['"])(?P<l2>.*?)\7)"""
)
_JSX_ATTR = re.compile(r"""\b(value|label)=(?:"([^"]*)"|'([^']*)'|\{['"]([^'"]*)['"]\})""")
_ADMONITION_BOLD = re.compile(r"^(\s*:{3,}\s*\w[\w-]*\s+)\*\*(.*?)\*\*:?\s*$")


def _jsx_tag_end(text: str, start: int) -> int:
    """Index just past the ``>`` closing the JSX tag that opens at ``start`` (braces and quotes skipped),
    or -1 when the text ends first."""
    depth, quote, i = 0, "", start + 1
    while i < len(text):
        char = text[i]
        if quote:
            if char == quote:
                quote = ""
        elif char in "\"'`":
            quote = char
        elif char == "{":
            depth += 1
        elif char == "}":
            depth = max(0, depth - 1)
        elif char == ">" and depth == 0:
            return i + 1
        i += 1
    return -1


_MDX_IMPORT = re.compile(r"""^\s*import\s+(?P<names>[\w*{}\s,]+?)\s+from\s+['"](?P<spec>\.[^'"]+)['"];?\s*$""", re.M)
MAX_PARTIAL_DEPTH = 4  # partials that import partials: Docusaurus pages nest them two deep at most


def _normal(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def mdx_imports(path: str, text: str, files: Mapping[str, str]) -> dict[str, str]:
    """The components a page imports from its own MDX partials: component name -> the partial's path in
    ``files``. ``import Count from './common/count.mdx'`` names the file; ``import { Count } from
    './common/operations'`` goes through the folder's index.jsx, which re-exports its files by name, so
    the name is matched to a file of that folder (Count -> count.mdx, ETagFunctionImport ->
    etag-function-import.mdx). Imports nothing in ``files`` answers are left out, and so is the importing
    file itself: docs-java/release-notes.mdx imports ``{ ReleaseNotes0To14 } from './release-notes'``, the
    folder beside it (its index.js), which must not make the page a partial of itself."""
    folder = posixpath.dirname(path)
    found: dict[str, str] = {}
    for match in _MDX_IMPORT.finditer(text):
        target = posixpath.normpath(posixpath.join(folder, match.group("spec")))
        names = [
            n.split(" as ")[-1].strip() for n in match.group("names").replace("{", ",").replace("}", ",").split(",")
        ]
        for name in (n for n in names if n and n != "*"):
            if target in files and target != path:
                found[name] = target
                continue
            wanted = _normal(name)
            for candidate in (f"{target}.mdx", f"{target}.md"):
                if candidate in files and candidate != path:
                    found[name] = candidate
                    break
            else:
                inside = [
                    f
                    for f in files
                    if posixpath.dirname(f) == target and _normal(posixpath.basename(f).rsplit(".", 1)[0]) == wanted
                ]
                if inside:
                    found[name] = inside[0]
    return found


def _unresolved(path: str, text: str, files: Mapping[str, str]) -> list[str]:
    """The components ``text`` imports from relative paths that no file in ``files`` answers."""
    names = {
        n.split(" as ")[-1].strip()
        for m in _MDX_IMPORT.finditer(text)
        for n in m.group("names").replace("{", ",").replace("}", ",").split(",")
    }
    known = mdx_imports(path, text, files)
    return sorted(n for n in names if n and n != "*" and n not in known)


def mdx_partials(files: Mapping[str, str]) -> set[str]:
    """The MDX files of a Docusaurus source that pages import: parts of those pages, not pages of their own."""
    return {p for path, text in files.items() if path.endswith(".mdx") for p in mdx_imports(path, text, files).values()}


def mdx_blocks(text: str, path: str = "", files: Mapping[str, str] | None = None, depth: int = 0) -> str:
    """An MDX page as Docusaurus shows it, in Markdown: import/export lines and JSX comments go; component
    tags (``<Tabs ...>`` over several lines, ``<TabItem value="v4">``, ``<MvnBadge />``) go and the text
    between them stays; a tab opens with its label in bold (from the ``Tabs`` values or its own label), as
    the MkDocs tabs read; code blocks stay as they are."""
    partials = mdx_imports(path, text, files) if files else {}
    lines = text.split("\n")
    out: list[str] = []
    labels: dict[str, str] = {}
    fences = Fences()
    i = 0
    while i < len(lines):
        line = lines[i]
        if fences.step(line):
            out.append(line)
            i += 1
            continue
        if _MDX_MODULE.match(line) or _MDX_COMMENT.match(line):
            i += 1
            continue
        if _MDX_IMPORT_START.match(line):  # an import over several lines: "import {" ... "} from './x';"
            end = next((j for j in range(i, min(i + 60, len(lines))) if _MDX_FROM.search(lines[j])), None)
            if end is not None:
                i = end + 1
                continue
        opened = _JSX_OPEN.match(line)
        if opened:
            rest = "\n".join(lines[i:])
            start = line.index("<")
            end = _jsx_tag_end(rest, start)
            if end < 0:  # never closed: not a tag after all, the line stays text
                out.append(line)
                i += 1
                continue
            tag = rest[start:end]
            consumed = rest[:end].count("\n")
            after = rest[end:].split("\n", 1)[0]
            name = opened.group(2)
            if not opened.group(1) and name in partials and depth < MAX_PARTIAL_DEPTH and files is not None:
                # the partial's text stands where its component does, as the site renders it
                partial = partials[name]
                out.extend(mdx_blocks(_front_matter(files[partial])[1], partial, files, depth + 1).split("\n"))
            elif not opened.group(1) and name == "Tabs":
                labels = {
                    (m.group("v1") or m.group("v2")): (m.group("l1") or m.group("l2"))
                    for m in _TAB_VALUES.finditer(tag)
                }
            elif not opened.group(1) and name == "TabItem":
                attrs = {m.group(1): m.group(2) or m.group(3) or m.group(4) or "" for m in _JSX_ATTR.finditer(tag)}
                label = attrs.get("label") or labels.get(attrs.get("value", ""), "")
                if label:
                    out.append(f"**{label}:**")
            if after.strip():
                out.append(_JSX_INLINE.sub("", after))
            i += consumed + 1
            continue
        line = _ADMONITION_BOLD.sub(r"\1\2", line)
        out.append(_JSX_INLINE.sub("", line) if "<" in line else line)
        i += 1
    return "\n".join(out)


def parse_page(
    source: DocSource,
    path: str,
    raw: str,
    links: dict[str, str] | None = None,
    files: Mapping[str, str] | None = None,
) -> Page | None:
    """One Markdown file as a Page; None when it has no public address or no content. ``files`` (all files
    of the source) lets an MDX page take in the partials it imports."""
    loio_match = _LOIO.search(raw[:2000])
    meta, body = _front_matter(raw)
    url = page_url(source, path, loio_match.group(1) if loio_match else None, meta)
    if url is None:
        return None
    if source.site_style == "mkdocs":
        body = mkdocs_blocks(body)
    elif source.site_style == "docusaurus":
        body = mdx_blocks(body, path, files)
    if links:
        body = _outside_fences(body, lambda prose: _relink(prose, source, path, links, url))
    # headings keep their {#id} until sections are split; clean() drops attributes on other lines
    heading_attrs: dict[str, str] = {}

    def keep(match: re.Match[str]) -> str:
        marker = f"SAPDEVSANCHOR{len(heading_attrs)}X"
        heading_attrs[marker] = match.group(2)
        return marker

    body = re.sub(r"(?m)^(#{1,6}\s.*?)(\s*\{\s*#[\w-]+\s*\})\s*$", lambda m: m.group(1) + keep(m), body)
    text = clean(flatten_tables(body), meta=meta)
    for marker, attr in heading_attrs.items():
        text = text.replace(marker, " " + attr.strip())
    name = path.rsplit("/", 1)[-1]
    title = meta.get("title") or _first_heading(text) or name[: -len(page_suffix(source, path) or ".md")]
    anchors = mkdocs_ids() if source.site_style == "mkdocs" else None
    sections = split_sections(text, title, source.section_level, anchors)
    if not sections:
        return None
    return Page(source.repo, path, title, url, source.product, sections)


def _first_heading(text: str) -> str | None:
    for line in text.splitlines():
        match = _HEADING.match(line.strip())
        if match:
            return _ATTRS.sub("", match.group(2)).strip()
    return None


def _docusaurus_link(source: DocSource, page: str, target: str) -> str | None:
    """Where a Docusaurus page's link without a file extension goes: the browser resolves it against the
    page's own address (``http-client`` beside ``.../connectivity/destination-service``), a link starting
    with "/" against the site (``/docs/java/...``)."""
    if source.site_base is None or target.startswith("//"):
        return None
    if target.startswith("/"):
        root = source.site_base.rstrip("/")
        prefix = "/" + root.split("://", 1)[-1].partition("/")[2]
        return root + (target[len(prefix) :] if prefix != "/" and target.startswith(prefix + "/") else target)
    folder = page.rsplit("/", 1)[0]
    scheme, _, rest = folder.partition("://")
    host, _, route = rest.partition("/")
    return f"{scheme}://{host}{posixpath.normpath('/' + posixpath.join(route, target))}"


def _relink(text: str, source: DocSource, path: str, links: dict[str, str], page: str = "") -> str:
    """Links between pages of the source made public: ``other-123.md`` (SAP-docs) and capire's
    ``../guides/security/authentication#xsuaa-auth`` (no extension; a folder means its index page); a link
    to another file of a repository published on GitHub goes to that file there (``file_url``); on a
    Docusaurus site a link to a file (``.md``, ``.mdx``) goes to that file's page, any other is relative
    to the page's address."""
    folder = posixpath.dirname(path)

    def replace(match: re.Match[str]) -> str:
        target = match.group(1)
        if "://" in target or target.startswith("mailto:"):
            return match.group(0)
        resolved = posixpath.normpath(posixpath.join(folder, target))
        if source.site_style == "docusaurus":
            is_file = page_suffix(source, resolved) is not None
            url = links.get(resolved) if is_file else _docusaurus_link(source, page, target)
            if url is None:
                return match.group(0)
            return f"]({url}{match.group(2) or ''})"
        candidates = [resolved] if resolved.endswith(".md") else [f"{resolved}.md", f"{resolved}/index.md"]
        url = next((links[c] for c in candidates if c in links), None) or file_url(source, resolved)
        if url is None:
            return match.group(0)
        fragment = match.group(2) or ""
        return f"]({url}{fragment if '#' not in url else ''})"

    return _PAGE_LINK.sub(replace, text)


class TarballRefused(SapDevsError):
    """A tarball over one of the limits above; the index in use stays as it is."""


def read_tarball(source: DocSource, tar_path: str) -> tuple[str, Iterator[tuple[str, str]]]:
    """(commit, iterator of (path, text)) for the pages in a GitHub tarball of ``source``.

    Members are read one at a time (never the whole list up front), and the iterator raises
    TarballRefused once the tarball has more than MAX_MEMBERS entries, more than MAX_EXPANDED_BYTES
    in its files or more than MAX_PAGES_BYTES in its pages; a page over MAX_PAGE_BYTES is skipped."""
    tar = tarfile.open(tar_path, "r:gz")  # noqa: SIM115 - closed by the generator when it is exhausted
    try:
        first = _next_file(tar)
    except BaseException:
        tar.close()
        raise
    top = first.name.split("/", 1)[0] if first is not None else ""
    commit = top.rsplit("-", 1)[-1] if "-" in top else ""

    def pages() -> Iterator[tuple[str, str]]:
        try:
            member, expanded, kept = first, 0, 0
            while member is not None:
                expanded += member.size
                if expanded > MAX_EXPANDED_BYTES:
                    raise TarballRefused(f"it expands to more than {MAX_EXPANDED_BYTES // 2**20} MiB")
                inner = member.name.split("/", 1)[1] if "/" in member.name else member.name
                if member.size <= MAX_PAGE_BYTES and (is_page(source, inner) or inner == REDIRECTS):
                    handle = tar.extractfile(member)
                    if handle is not None:
                        data = handle.read(MAX_PAGE_BYTES + 1)
                        kept += len(data)
                        if kept > MAX_PAGES_BYTES:
                            raise TarballRefused(f"its pages hold more than {MAX_PAGES_BYTES // 2**20} MiB")
                        yield inner, data.decode("utf-8", errors="replace")
                member = _next_file(tar)
        finally:
            tar.close()

    return commit, pages()


def _next_file(tar: tarfile.TarFile) -> tarfile.TarInfo | None:
    """The next regular file of ``tar`` (links, folders and the like are passed over), counted
    against MAX_MEMBERS with everything passed over."""
    while True:
        if len(tar.members) >= MAX_MEMBERS:
            raise TarballRefused(f"it has more than {MAX_MEMBERS:,} entries")
        member = tar.next()
        if member is None or member.isfile():
            return member


_REDIRECT = re.compile(r"^\s*[-*]\s*\[([^\]]+)\]\(([^)\s]*)\)\s*$")


def parse_redirects(text: str) -> list[tuple[str, str]]:
    """(old path, new path) pairs; an old path may hold one ``(.*)`` group the new one uses as ``$1``."""
    pairs = []
    for line in text.splitlines():
        match = _REDIRECT.match(line)
        if match and not match.group(2).startswith(("http:", "https:")):
            pairs.append((match.group(1).strip().strip("/"), match.group(2).strip()))
    return pairs


def load_source(source: DocSource, tar_path: str) -> tuple[str, list[Page], list[tuple[str, str]]]:
    """Every page of one source tarball, links between its pages made public, and its redirects."""
    commit, files = read_tarball(source, tar_path)
    raw = dict(files)
    redirects = parse_redirects(raw.pop(REDIRECTS, ""))
    partials = set()
    if source.site_style == "docusaurus":
        # what pages import are parts of them; an MDX file without front matter (no id, no title) is such a
        # part too even when no page imports it any more: the site lists pages by their front matter ids
        partials = mdx_partials(raw) | {p for p, text in raw.items() if not _front_matter(text)[0]}
        missing = sum(len(_unresolved(p, t, raw)) for p, t in raw.items() if p not in partials)
        if missing:
            _log.info("%s: %d imported MDX component(s) not in the tarball, left out", source.repo, missing)
    everything = dict(raw)
    for partial in partials:
        raw.pop(partial, None)
    links: dict[str, str] = {}
    for path, text in raw.items():
        loio = _LOIO.search(text[:2000])
        url = page_url(source, path, loio.group(1) if loio else None, _front_matter(text)[0])
        if url:
            links[path] = url
    pages = [p for path, text in raw.items() if (p := parse_page(source, path, text, links, everything)) is not None]
    return commit, pages, redirects
