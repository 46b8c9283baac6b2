"""The best sections by FTS5's bm25 for "any of these terms", computed over fewer rows, with the same answer.

FTS5 scores every row that holds any of the terms (a quarter of all sections for a typical question) and
its bm25 costs ten times reading the rows. A row's bm25 is a sum over the query's phrases, each term
adding ``idf * f * (k1 + 1) / (f + k1 * (1 - b + b * D / avgdl))``, which is below ``idf * (k1 + 1)``
however often the term occurs: so a row holding only the most common terms of a question scores below
the sum of their bounds. When the best ``limit`` rows among those holding a rarer term score above that
sum, no row holding only common terms can be among them (MaxScore, Turtle and Flood 1995). The rarer
rows are scored by two queries that name every term once, so each row's bm25 is the one the plain query
gives it: ``(rare) AND (common)`` and ``(rare) NOT (common)`` (FTS5 adds a row's terms in the order a
query names them: where three or more meet in a row the sum can differ in its last bit, so only rows
whose scores agree to 15 digits could trade places). A guess of the threshold too high is seen
from the answer and corrected once, with a split the answer proves; the plain query remains when no split
can be proved.
"""

from __future__ import annotations

import math
import re
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence

K1 = 1.2  # FTS5's bm25 constant (fts5_aux.c): a term adds less than idf * (K1 + 1) to a row's score
GUESS = 1.0  # the limit-th best score, guessed as this share of the two largest idfs' sum (benchmarks)
MARGIN = 1e-9  # of the bound, against rounding in the sums
_TOKEN = re.compile(r"[a-z0-9_]+")  # a term FTS5's tokenizer keeps as one token: its row count is its idf's

Ranked = list[tuple[int, float]]  # (rowid, bm25): FTS5's bm25 is negative, the best row first
Rank = Callable[[str], Ranked]  # the best rows of an FTS5 MATCH expression, best first, ties by rowid

_QUOTE = re.compile(r'"')


def any_of(terms: Iterable[str]) -> str:
    """An FTS5 query matching any of the analysed ``terms``, each as a phrase (quotes in a term dropped)."""
    return " OR ".join(f'"{_QUOTE.sub("", t)}"' for t in terms)


def table_rows(con: sqlite3.Connection, table: str = "fts") -> int | None:
    """The row count FTS5's bm25 uses (the first number of the table's averages record), None if unreadable."""
    try:
        row = con.execute(f"SELECT block FROM {table}_data WHERE id = 1").fetchone()
    except sqlite3.Error:
        return None
    if not row or not row[0]:
        return None
    value, block = 0, bytes(row[0])
    for i, byte in enumerate(block[:9]):  # SQLite's varint: 7 bits a byte, the ninth byte whole
        if i == 8:
            return (value << 8) | byte
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value
    return None


def idf(rows: int, df: int) -> float:
    """FTS5's idf of a term held by ``df`` of ``rows`` rows."""
    value = math.log((rows - df + 0.5) / (df + 0.5))
    return value if value > 0 else 1e-6


def best(rank: Rank, phrases: Sequence[str], df: Mapping[str, int], rows: int | None, limit: int) -> Ranked:
    """What ``rank(any_of(phrases))`` answers (the ``limit`` best rows), scoring fewer rows where it can."""
    plain = any_of(phrases)
    if rows is None:
        return rank(plain)
    # a term named twice is two phrases, each adding its share
    idfs = {t: idf(rows, df[t]) for t in dict.fromkeys(phrases) if t in df and _TOKEN.fullmatch(t)}
    if len(idfs) < 2:
        return rank(plain)
    bounds = {t: phrases.count(t) * (K1 + 1) * v for t, v in idfs.items()}
    common = sorted(bounds, key=lambda t: -df[t])  # the most common first: they hold the most rows
    guess = GUESS * sum(sorted(idfs.values())[-2:])
    split = _split(common, bounds, guess, len(bounds))
    if not split:
        return rank(plain)
    found, proved = _ranked(rank, phrases, split, bounds, limit)
    if proved:
        return found
    # the limit-th score seen is a floor for every split that keeps more terms rare: one that fits under it holds
    floor = -found[limit - 1][1] if len(found) >= limit else 0.0
    split = _split(common, bounds, floor, len(bounds))
    if not split:
        return rank(plain)
    found, proved = _ranked(rank, phrases, split, bounds, limit)
    if not proved:  # cannot happen (the floor only rises with more rare terms); kept rather than trusted
        return rank(plain)
    return found


def _split(common: list[str], bounds: Mapping[str, float], threshold: float, terms: int) -> set[str]:
    """The most common terms whose bounds together stay below ``threshold`` (at least one term stays rare)."""
    total, chosen = 0.0, set()
    for term in common[: terms - 1]:
        if _bounded(total + bounds[term]) >= threshold:
            break
        total += bounds[term]
        chosen.add(term)
    return chosen


def _bounded(total: float) -> float:
    return total * (1 + MARGIN) + MARGIN


def _ranked(
    rank: Rank, phrases: Sequence[str], split: set[str], bounds: Mapping[str, float], limit: int
) -> tuple[Ranked, bool]:
    """The ``limit`` best rows holding a term outside ``split``, and whether no row holding only ``split``
    terms can be among the best ``limit`` of all."""
    rare = any_of(t for t in phrases if t not in split)
    common = any_of(t for t in phrases if t in split)
    found = rank(f"({rare}) AND ({common})") + rank(f"({rare}) NOT ({common})")
    found.sort(key=lambda r: (r[1], r[0]))  # as SQLite orders them: by score, ties by rowid
    found = found[:limit]
    ceiling = _bounded(sum(bounds[t] for t in split))
    return found, len(found) >= limit and -found[limit - 1][1] > ceiling
