"""Each term's sections and weighted counts kept beside FTS5's index, so a question's bm25 is summed over
arrays instead of row by row.

FTS5 scores every row holding any of a question's terms (a third of all sections for a typical question)
through its auxiliary-function API, which costs ten times what reading those rows does. Its bm25 is a sum
over the query's phrases of ``idf * f * (k1 + 1) / (f + k1 * (1 - b + b * D / avgdl))``, with ``f`` the
phrase's occurrences weighted by column and ``D`` the row's length in tokens (fts5_aux.c). Both are fixed
when a row is indexed, so they are stored here, one array of rows and one of counts per term (a byte a
row for most: the steps between ascending row ids, and the counts, are small): a search reads a few arrays
and sums them with numpy, in the same operations and order as FTS5, so each row gets the very score the
plain query gives it. The written questions' FTS table has its arrays too. A phrase of two words (a split
word, "api key") has no array: FTS5 scores it over the rows holding it, and its share is added in its place
in the sum.
"""

from __future__ import annotations

import math
import re
import sqlite3
from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

K1 = 1.2  # FTS5's bm25 constants (fts5_aux.c)
B = 0.75

TABLES = "".join(
    f"""
CREATE TABLE postings_{table}(term TEXT PRIMARY KEY, n INTEGER NOT NULL, first INTEGER NOT NULL,
                              steps BLOB NOT NULL, counts BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE tokens_{table}(n INTEGER NOT NULL, first INTEGER NOT NULL, steps BLOB NOT NULL, tokens BLOB NOT NULL);
"""
    for table in ("fts", "asked")  # the sections' FTS table and the written questions'
)
META_KEY = "postings_weights"  # the column weights the stored counts are weighted with
_BATCH = 500  # terms read or written per statement when the arrays are rewritten

Ranked = list[tuple[int, float]]  # (rowid, bm25): negative as FTS5's, the best row first, ties by rowid
TOKEN = re.compile(r"[a-z0-9_]+")  # a term FTS5's tokenizer keeps as one token: it has a stored array
_QUOTE = re.compile(r'"')


def any_of(terms: Iterable[str]) -> str:
    """An FTS5 query matching any of the analysed ``terms``, each as a phrase (quotes in a term dropped)."""
    return " OR ".join(f'"{_QUOTE.sub("", t)}"' for t in terms)


def weights_text(weights: Sequence[float]) -> str:
    """The weights as the meta table records them; counts can be weighted only by whole numbers."""
    # a row matched only in a column weighted 0 would score 0 and be lost among the rows not holding it
    if any(w != int(w) or w < 1 for w in weights):
        raise ValueError(f"stored term counts need whole, positive column weights, not {tuple(weights)}")
    return ",".join(str(int(w)) for w in weights)


class Collector:
    """Rows as they are indexed (or taken out): each term's rows with its weighted count, and each row's
    length, exactly as FTS5 counts them (the indexed columns are analysed terms separated by spaces, each
    one token of FTS5's tokenizer)."""

    def __init__(self, weights: Sequence[float]) -> None:
        weights_text(weights)
        self._weights = [int(w) for w in weights]
        self.terms: dict[str, tuple[array, array]] = {}
        self.sizes: dict[int, int] = {}

    def add(self, rowid: int, columns: Sequence[str]) -> None:
        counts: dict[str, int] = {}
        size = 0
        for weight, text in zip(self._weights, columns, strict=True):
            words = text.split()
            size += len(words)
            for word in words:
                counts[word] = counts.get(word, 0) + weight
        terms = self.terms
        for term, count in counts.items():
            entry = terms.get(term)
            if entry is None:
                entry = terms[term] = (array("q"), array("q"))
            entry[0].append(rowid)
            entry[1].append(count)
        self.sizes[rowid] = size


def write(con: sqlite3.Connection, table: str, added: Collector, removed: Collector | None = None) -> None:
    """Store the rows of ``added`` for the FTS ``table`` and forget those of ``removed`` (the rows a source
    held before it was taken out, collected from the same columns): only the terms either holds are
    rewritten."""
    import numpy as np

    # every row's length in one array (one row of the table): a search reads it at once
    ids, sizes = row_tokens(con, table)
    taken_out = list(removed.sizes) if removed else []
    gone = np.zeros(max([int(ids[-1]) if len(ids) else 0, *taken_out]) + 1, dtype=bool)  # by row id: a lookup
    gone[taken_out] = True
    if taken_out:
        keep = ~gone[ids]
        ids, sizes = ids[keep], sizes[keep]
    if added.sizes:
        ids = np.concatenate([ids, np.fromiter(added.sizes, dtype=np.int64, count=len(added.sizes))])
        sizes = np.concatenate([sizes, np.fromiter(added.sizes.values(), dtype=np.int64, count=len(added.sizes))])
        order = np.argsort(ids, kind="stable")
        ids, sizes = ids[order], sizes[order]
    con.execute(f"DELETE FROM tokens_{table}")
    if len(ids):
        con.execute(f"INSERT INTO tokens_{table} VALUES (?, ?, ?, ?)", (*_encoded(np, ids), _packed(np, sizes)))
    terms = sorted(set(added.terms) | set(removed.terms if removed else ()))
    for start in range(0, len(terms), _BATCH):
        batch = terms[start : start + _BATCH]
        stored = {
            term: (_decoded(np, n, first, steps), _unpacked(np, n, counts))
            for term, n, first, steps, counts in con.execute(
                f"SELECT term, n, first, steps, counts FROM postings_{table} WHERE term IN ({','.join('?' * len(batch))})",
                batch,
            )
        }
        kept, dropped = [], []
        for term in batch:
            rows, counts = stored.get(term, (np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)))
            if taken_out and len(rows):  # a stored row is one of the rows with a length: below len(gone)
                keep = ~gone[rows]
                rows, counts = rows[keep], counts[keep]
            new = added.terms.get(term)
            if new is not None:
                rows = np.concatenate([rows, np.frombuffer(new[0], dtype=np.int64)])
                counts = np.concatenate([counts.astype(np.int64), np.frombuffer(new[1], dtype=np.int64)])
                order = np.argsort(rows, kind="stable")
                rows, counts = rows[order], counts[order]
            if len(rows):
                kept.append((term, *_encoded(np, rows), _packed(np, counts)))
            elif term in stored:
                dropped.append((term,))
        con.executemany(f"DELETE FROM postings_{table} WHERE term = ?", dropped)
        con.executemany(f"INSERT OR REPLACE INTO postings_{table} VALUES (?, ?, ?, ?, ?)", kept)


def row_tokens(con: sqlite3.Connection, table: str) -> tuple[np.ndarray, np.ndarray]:
    """The FTS ``table``'s row ids (ascending) and each row's length in tokens."""
    import numpy as np

    row = con.execute(f"SELECT n, first, steps, tokens FROM tokens_{table}").fetchone()
    if row is None:
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
    n, first, steps, tokens = row
    return _decoded(np, n, first, steps), _unpacked(np, n, tokens)


_ESCAPE = 255  # a byte saying "the value is the next of the four-byte ones at the end"


def _packed(np: Any, values: np.ndarray) -> bytes:
    """Non-negative integers a byte each, those of 255 and more four bytes at the end in their order: most
    counts and steps between rows are small, and a few large ones do not widen all the others."""
    if len(values) and int(values.max()) >= 1 << 32:
        raise ValueError("a stored count or row step of 2**32 or more")
    large = values >= _ESCAPE
    return np.where(large, _ESCAPE, values).astype("<u1").tobytes() + values[large].astype("<u4").tobytes()


def _unpacked(np: Any, n: int, blob: bytes) -> np.ndarray:
    values = np.frombuffer(blob, dtype="<u1", count=n).astype(np.int64)
    large = np.flatnonzero(values == _ESCAPE)
    if len(large):
        values[large] = np.frombuffer(blob, dtype="<u4", offset=n, count=len(large))
    return values


def _encoded(np: Any, rows: np.ndarray) -> tuple[int, int, bytes]:
    """(count, first row, the steps between rows): ascending row ids take a byte a row, not eight."""
    return len(rows), int(rows[0]), _packed(np, np.diff(rows))


def _decoded(np: Any, n: int, first: int, steps: bytes) -> np.ndarray:
    rows = np.empty(n, dtype=np.int64)
    rows[0] = first
    if n > 1:
        np.cumsum(_unpacked(np, n - 1, steps), out=rows[1:])
        rows[1:] += first
    return rows


def averages(con: sqlite3.Connection, table: str = "fts") -> tuple[int, int] | None:
    """FTS5's row count and token total, from the table's averages record (what its bm25 divides by), or
    None when unreadable."""
    try:
        row = con.execute(f"SELECT block FROM {table}_data WHERE id = 1").fetchone()
    except sqlite3.Error:
        return None
    if not row or not row[0]:
        return None
    numbers = list(_varints(bytes(row[0])))
    return (numbers[0], sum(numbers[1:])) if numbers else None


def _varints(block: bytes) -> Iterable[int]:
    """SQLite's varints: 7 bits a byte, high bit set while more follow, the ninth byte whole."""
    value, length = 0, 0
    for byte in block:
        length += 1
        if length == 9:
            yield (value << 8) | byte
            value, length = 0, 0
        elif byte < 0x80:
            yield (value << 7) | byte
            value, length = 0, 0
        else:
            value = (value << 7) | (byte & 0x7F)


def idf(rows: int, df: int) -> float:
    """FTS5's idf of a phrase held by ``df`` of ``rows`` rows."""
    value = math.log((rows - df + 0.5) / (df + 0.5))
    return value if value > 0 else 1e-6


class Scorer:
    """bm25 over the stored arrays of one FTS table of an open index (the file never changes while open)."""

    def __init__(self, con: sqlite3.Connection, table: str = "fts") -> None:
        import numpy as np

        self._np = np
        self._con = con
        self._table = table
        # an FTS table never written to (an index without written questions) has no averages record
        self.rows, tokens = averages(con, table) or (0, 0)
        ids, sizes = row_tokens(con, table)
        last = int(ids[-1]) if len(ids) else 0
        # rows numbered densely (the sections) are their own positions in the sums; sparse ones (the written
        # questions, numbered by page) are found by their rank among all
        self._ids = None if last < 2 * len(ids) + 1024 else ids
        length = np.zeros(last + 1 if self._ids is None else len(ids), dtype=np.float64)
        length[ids if self._ids is None else slice(None)] = sizes
        avgdl = float(tokens) / float(self.rows) if self.rows else 1.0
        # FTS5's k1 * (1 - b + b * D / avgdl), each row's once, in its order of operations
        self._norm = K1 * ((1 - B) + (B * length) / avgdl)
        self._memo: dict[str, tuple[np.ndarray, np.ndarray] | None] | None = None

    def _at(self, rows: np.ndarray) -> np.ndarray:
        return rows if self._ids is None else self._np.searchsorted(self._ids, rows)

    def _rows(self, at: np.ndarray) -> np.ndarray:
        return at if self._ids is None else self._ids[at]

    def _share(self, rows: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """Each of a term's ``rows``' share of the score, for holding it ``counts`` (weighted) times."""
        weight = idf(self.rows, len(rows))  # the rows holding the term are the rows FTS5 counts for its idf
        return weight * ((counts * (K1 + 1.0)) / (counts + self._norm[self._at(rows)]))

    def best(
        self,
        phrases: Sequence[str],
        limit: int,
        alone: Mapping[str, Ranked] | None = None,
        ranges: Sequence[tuple[int, int]] | None = None,
    ) -> Ranked:
        """The ``limit`` best rows holding any of ``phrases`` (within ``ranges`` if given), as FTS5's
        ``ORDER BY bm25 LIMIT`` gives them. A phrase without a stored array (several words) must come with
        its rows and its bm25 alone in ``alone``."""
        np = self._np
        arrays = self.arrays([p for p in dict.fromkeys(phrases) if not alone or p not in alone])
        score = np.zeros(len(self._norm), dtype=np.float64)
        for phrase in phrases:  # in the query's order, as FTS5 adds them up
            if alone and phrase in alone:  # FTS5's bm25 of the phrase alone is its share
                if found := alone[phrase]:
                    ids = np.fromiter((r for r, _ in found), dtype=np.int64, count=len(found))
                    score[self._at(ids)] += -np.fromiter((s for _, s in found), dtype=np.float64, count=len(found))
            elif (stored := arrays.get(phrase)) is not None:
                score[self._at(stored[0])] += self._share(*stored)
        at = np.flatnonzero(score)
        held = self._rows(at)
        if ranges:
            starts = np.fromiter((a for a, _ in ranges), dtype=np.int64, count=len(ranges))
            ends = np.fromiter((b for _, b in ranges), dtype=np.int64, count=len(ranges))
            of = np.searchsorted(starts, held, side="right") - 1
            inside = (of >= 0) & (held <= ends[np.maximum(of, 0)])
            at, held = at[inside], held[inside]
        values = score[at]
        if len(held) > limit:  # every row tied with the limit-th stays, so ties are settled by rowid
            kth = np.partition(values, len(held) - limit)[len(held) - limit]
            keep = values >= kth
            held, values = held[keep], values[keep]
        order = np.lexsort((held, -values))[:limit]
        return [(int(r), -float(v)) for r, v in zip(held[order], values[order], strict=True)]

    def arrays(self, terms: Iterable[str]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Each term's rows (ascending) and weighted counts, for the terms some row holds; within ``memo``
        each term is read once."""
        np = self._np
        terms = list(dict.fromkeys(terms))
        memo = self._memo
        wanted = terms if memo is None else [t for t in terms if t not in memo]
        found: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        if wanted:
            marks = ",".join("?" * len(wanted))
            sql = f"SELECT term, n, first, steps, counts FROM postings_{self._table} WHERE term IN ({marks})"
            for term, n, first, steps, counts in self._con.execute(sql, wanted):
                found[term] = (_decoded(np, n, first, steps), _unpacked(np, n, counts).astype(np.float64))
        if memo is None:
            return found
        memo.update({t: found.get(t) for t in wanted})
        return {t: a for t in terms if (a := memo[t]) is not None}

    def holding(self, term: str, rows: Sequence[int]) -> list[int] | None:
        """The positions in ``rows`` of the rows holding ``term``, None for a term without an array (a phrase)."""
        np = self._np
        if not TOKEN.fullmatch(term):
            return None
        stored = self.arrays([term]).get(term)
        if stored is None:
            return []
        held, wanted = stored[0], np.asarray(rows, dtype=np.int64)
        at = np.minimum(np.searchsorted(held, wanted), len(held) - 1)
        return np.flatnonzero(held[at] == wanted).tolist()

    @contextmanager
    def memo(self) -> Iterator[None]:
        """Read each term's array once for the calls within (one search, under the index's lock)."""
        self._memo = {}
        try:
            yield
        finally:
            self._memo = None
