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

SHARE = 0.9  # of their four-word runs two pages must share to be one page
RUN = 4
_WORD = re.compile(r"[a-z0-9]+")

TABLE = "CREATE TABLE twins(page INTEGER PRIMARY KEY, first INTEGER NOT NULL);"


def runs(text: str) -> set[int]:
    """The four-word runs of ``text``, hashed (compared within one process only)."""
    words = _WORD.findall(text.lower())
    return {hash(tuple(words[i : i + RUN])) for i in range(max(1, len(words) - RUN + 1))}


def similar(a: set[int], b: set[int]) -> bool:
    if not a or not b:
        return False
    small, large = (a, b) if len(a) <= len(b) else (b, a)
    if len(small) < SHARE * len(large):  # the share cannot be reached: skip the intersection
        return False
    common = len(small & large)
    return common >= SHARE * (len(a) + len(b) - common)


def link(con: sqlite3.Connection) -> int:
    """Fill the twins table from the pages of the index on ``con``: each page that has a twin points at
    the first page (lowest id) of its group. Returns how many pages were linked."""
    con.execute("DELETE FROM twins")
    rows = con.execute(
        "SELECT id, lower(trim(title)), flavour FROM pages WHERE lower(trim(title)) IN "
        "(SELECT lower(trim(title)) FROM pages GROUP BY 1 HAVING count(*) > 1) ORDER BY id"
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
    pairs = [(page, root) for page, root in linked.items()] + [(root, root) for root in roots]
    con.executemany("INSERT INTO twins VALUES (?, ?)", pairs)
    return len(pairs)


def _root(first: dict[int, int], page: int) -> int:
    while page in first:
        page = first[page]
    return page


def _text(con: sqlite3.Connection, page: int) -> str:
    bodies = con.execute("SELECT body FROM sections WHERE page = ? ORDER BY ord", (page,)).fetchall()
    return "\n".join(zlib.decompress(body).decode("utf-8") for (body,) in bodies)
