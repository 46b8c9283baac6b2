"""Pages published twice: the same text under another loio, in another guide folder or another repository.

SAP-docs copies pages between guides under new loio ids (btp-cloud-platform holds the Kyma module docs
that kyma-project publishes too; the audit-log pages sit in two folders), so two result slots would go to
one answer. Twins are found when the index is written: the same title, the same flavours, and nearly the
same text (the share of four-word runs the two have in common). Pages of another flavour stay apart even
when their text is close (a Fiori elements V2 page and its V4 sibling differ in the lines that matter).
"""

from __future__ import annotations

import re
import sqlite3
import zlib
from collections import defaultdict
from collections.abc import Iterable

SHARE = 0.9  # of their four-word runs two pages must share to be one page
RUN = 4
_WORD = re.compile(r"[a-z0-9]+")

_TITLE = "lower(trim(title))"  # what "the same title" means
TABLE = "CREATE TABLE twins(page INTEGER PRIMARY KEY, first INTEGER NOT NULL);"


def runs(text: str) -> set[tuple[str, ...]]:
    """The four-word runs of ``text`` (a text shorter than that is one run)."""
    words = _WORD.findall(text.lower())
    if len(words) < RUN:
        return {tuple(words)} if words else set()
    return set(zip(*(words[i:] for i in range(RUN)), strict=False))  # the shorter tails end it


def similar(a: set[tuple[str, ...]], b: set[tuple[str, ...]]) -> bool:
    if not a or not b:
        return False
    small, large = (a, b) if len(a) <= len(b) else (b, a)
    if len(small) < SHARE * len(large):  # the share cannot be reached: skip the intersection
        return False
    common = len(small & large)
    return common >= SHARE * (len(a) + len(b) - common)


def link(con: sqlite3.Connection, changed: Iterable[str] | None = None) -> int:
    """Fill the twins table from the pages of the index on ``con``: each page that has a twin points at
    the first page (lowest id) of its group. With ``changed`` (repositories whose pages were just
    replaced), only the titles those pages have, or had, are looked at again: twins share their title, so
    the other groups cannot have changed. Returns how many pages are linked now."""
    if changed is None:
        con.execute("DELETE FROM twins")
        where, args = "", []
    else:
        repos = list(changed)
        marks = ",".join("?" * len(repos)) or "NULL"
        con.execute("CREATE TEMP TABLE IF NOT EXISTS twin_titles(title TEXT PRIMARY KEY)")
        con.execute("DELETE FROM twin_titles")
        con.execute(f"INSERT OR IGNORE INTO twin_titles SELECT {_TITLE} FROM pages WHERE source IN ({marks})", repos)
        # the groups that lost a page, or whose row ids now name a page of a changed source
        stale = (
            "SELECT t.first FROM twins t LEFT JOIN pages p ON p.id = t.page "
            f"WHERE p.id IS NULL OR p.source IN ({marks})"
        )
        con.execute(
            f"INSERT OR IGNORE INTO twin_titles SELECT {_TITLE} FROM pages p JOIN twins t ON t.page = p.id "
            f"WHERE t.first IN ({stale})",
            repos,
        )
        con.execute(f"DELETE FROM twins WHERE first IN ({stale})", repos)
        con.execute("DELETE FROM twins WHERE page NOT IN (SELECT id FROM pages)")
        con.execute(f"DELETE FROM twins WHERE page IN (SELECT id FROM pages WHERE {_TITLE} IN twin_titles)")
        where, args = f" AND {_TITLE} IN twin_titles", []
    rows = con.execute(
        f"SELECT id, {_TITLE}, flavour FROM pages WHERE {_TITLE} IN "
        f"(SELECT {_TITLE} FROM pages GROUP BY 1 HAVING count(*) > 1){where} ORDER BY id",
        args,
    ).fetchall()
    groups: dict[tuple[str, str], list[int]] = defaultdict(list)
    for page, title, flavour in rows:
        groups[(title, flavour)].append(page)
    first: dict[int, int] = {}
    for ids in groups.values():
        if len(ids) < 2:
            continue
        texts = {page: runs(_text(con, page)) for page in ids}
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                if similar(texts[a], texts[b]):
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
