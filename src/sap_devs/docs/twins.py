"""Pages published twice: the same text under another loio, in another guide folder or another repository.

SAP-docs copies pages between guides under new loio ids (btp-cloud-platform holds the Kyma module docs
that kyma-project publishes too; the audit-log pages sit in two folders), so two result slots would go to
one answer. Twins are found when the index is written: the same title words, the same flavours, and nearly the
same text (the share of four-word runs the two have in common). Pages of another flavour stay apart even
when their text is close (a Fiori elements V2 page and its V4 sibling differ in the lines that matter).
"""

from __future__ import annotations

import re
import sqlite3
import zlib
from collections import defaultdict
from collections.abc import Iterable

from sap_devs.search.analysis import analyze

SHARE = 0.9  # of their four-word runs two pages of one repository must share to be one page
# ... of two repositories: SAP's Help Portal republishes kyma-project's module docs edited (a reworded
# sentence, its own notes and links), while one repository's two same-titled pages are often siblings
SHARE_ELSEWHERE = 0.5
RUN = 4
_WORD = re.compile(r"[a-z0-9]+")

TABLE = "CREATE TABLE twins(page INTEGER PRIMARY KEY, first INTEGER NOT NULL);"


def runs(text: str) -> set[tuple[str, ...]]:
    """The four-word runs of ``text`` (a text shorter than that is one run)."""
    words = _WORD.findall(text.lower())
    if len(words) < RUN:
        return {tuple(words)} if words else set()
    return set(zip(*(words[i:] for i in range(RUN)), strict=False))  # the shorter tails end it


def similar(a: set[tuple[str, ...]], b: set[tuple[str, ...]], share: float = SHARE) -> bool:
    if not a or not b:
        return False
    small, large = (a, b) if len(a) <= len(b) else (b, a)
    if len(small) < share * len(large):  # the share cannot be reached: skip the intersection
        return False
    common = len(small & large)
    return common >= share * (len(a) + len(b) - common)


def title_key(title: str) -> str:
    """What "the same title" means: the title's search terms ("Rotating Service Bindings" and "Rotate
    Service Bindings", "Can't" and "Can’t" are one title; SAP's Help Portal edits kyma-project's wording)."""
    return " ".join(analyze(title))


def link(con: sqlite3.Connection, changed: Iterable[str] | None = None) -> int:
    """Fill the twins table from the pages of the index on ``con``: each page that has a twin points at
    the first page (lowest id) of its group. With ``changed`` (repositories whose pages were just
    replaced), only the titles those pages have, or had, are looked at again: twins share their title, so
    the other groups cannot have changed. Returns how many pages are linked now."""
    pages = {
        page: (source, title_key(title), flavour)
        for page, source, title, flavour in con.execute("SELECT id, source, title, flavour FROM pages")
    }
    if changed is None:
        con.execute("DELETE FROM twins")
        keys = None
    else:
        repos = set(changed)
        rows = con.execute("SELECT page, first FROM twins").fetchall()
        # the groups that lost a page, or hold a page of a changed source
        stale = {first for page, first in rows if page not in pages or pages[page][0] in repos}
        keys = {key for source, key, _ in pages.values() if source in repos}
        keys |= {pages[page][1] for page, first in rows if first in stale and page in pages}
        gone = {page for page, first in rows if first in stale or page not in pages or pages[page][1] in keys}
        con.executemany("DELETE FROM twins WHERE page = ?", [(page,) for page in gone])
    groups: dict[tuple[str, str], list[tuple[int, str]]] = defaultdict(list)
    for page, (source, key, flavour) in sorted(pages.items()):
        if keys is None or key in keys:
            groups[(key, flavour)].append((page, source))
    first: dict[int, int] = {}
    for members in groups.values():
        if len(members) < 2:
            continue
        texts = {page: runs(_text(con, page)) for page, _ in members}
        for i, (a, source_a) in enumerate(members):
            for b, source_b in members[i + 1 :]:
                if similar(texts[a], texts[b], SHARE if source_a == source_b else SHARE_ELSEWHERE):
                    root_a, root_b = _root(first, a), _root(first, b)
                    if root_a != root_b:
                        first[max(root_a, root_b)] = min(root_a, root_b)
    linked = {page: _root(first, page) for page in first}
    roots = set(linked.values())
    con.executemany("INSERT INTO twins VALUES (?, ?)", [*linked.items(), *((root, root) for root in roots)])
    return con.execute("SELECT count(*) FROM twins").fetchone()[0]


def _root(first: dict[int, int], page: int) -> int:
    while page in first:
        page = first[page]
    return page


def _text(con: sqlite3.Connection, page: int) -> str:
    bodies = con.execute("SELECT body FROM sections WHERE page = ? ORDER BY ord", (page,)).fetchall()
    return "\n".join(zlib.decompress(body).decode("utf-8") for (body,) in bodies)
