"""The best rows by bm25 over fewer rows are exactly the rows, scores and order the plain FTS5 query gives."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from sap_devs.docs import bm25_top, store
from sap_devs.docs import index as docs_index
from sap_devs.docs.build import build_from
from tests.test_docs import _tarball

WEIGHTS = (6.0, 3.0, 1.0, 2.0)
# a few rare words, some common ones and filler, so questions mix both and many rows tie
RARE = ["xsuaa", "destination", "odata", "cds_view", "hana"]
COMMON = ["service", "app", "deploy", "data"]
FILLER = ["lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit"]


def _table(rows: int, seed: int) -> sqlite3.Connection:
    rnd = random.Random(seed)
    con = sqlite3.connect(":memory:")
    con.execute(
        "CREATE VIRTUAL TABLE fts USING fts5(title, heading, body, asks, content='', tokenize=\"unicode61 tokenchars '_'\")"
    )
    con.execute("CREATE VIRTUAL TABLE vocab USING fts5vocab(fts, 'row')")

    def words(n: int) -> str:
        picked = []
        for _ in range(n):
            roll = rnd.random()
            pool = RARE if roll < 0.04 else COMMON if roll < 0.35 else FILLER
            picked.append(rnd.choice(pool))
        return " ".join(picked)

    kept = []
    for rowid in range(1, rows + 1):
        columns = (
            words(rnd.randint(0, 4)),
            words(rnd.randint(0, 3)),
            words(rnd.randint(1, 60)),
            words(rnd.randint(0, 5)),
        )
        if rowid % 7 == 0:  # identical rows tie exactly: their order must be the plain query's
            columns = kept[-1][1] if kept else columns
        con.execute("INSERT INTO fts(rowid, title, heading, body, asks) VALUES (?,?,?,?,?)", (rowid, *columns))
        kept.append((rowid, columns))
    for rowid, columns in kept[::11]:  # rows taken out again change the row count bm25 uses
        con.execute(
            "INSERT INTO fts(fts, rowid, title, heading, body, asks) VALUES ('delete', ?,?,?,?,?)", (rowid, *columns)
        )
    con.commit()  # FTS5 writes its row count when a transaction ends
    return con


def _rank(con: sqlite3.Connection, asked: list[str], limit: int, where: str = "") -> bm25_top.Rank:
    sql = f"SELECT rowid, bm25(fts, ?, ?, ?, ?) AS s FROM fts WHERE fts MATCH ? {where} ORDER BY s LIMIT ?"

    def rank(match: str) -> bm25_top.Ranked:
        asked.append(match)
        return con.execute(sql, [*WEIGHTS, match, limit]).fetchall()

    return rank


def _same(found: bm25_top.Ranked, plain: bm25_top.Ranked) -> None:
    """The same rows in the same order with the same scores; FTS5 sums a row's terms in the order the query
    names them, so where the split names them in another order and three or more meet in a row, a score may
    differ in its last bits, and only rows whose scores are equal to 12 digits may change places (at the
    limit: which of them is kept)."""
    assert len(found) == len(plain)
    clusters: list[tuple[list[int], list[int]]] = []
    last: float | None = None
    for (row, score), (plain_row, plain_score) in zip(found, plain, strict=True):
        assert score == pytest.approx(plain_score, rel=1e-12, abs=1e-12)
        if last is None or plain_score != pytest.approx(last, rel=1e-12, abs=1e-12):
            clusters.append(([], []))
        clusters[-1][0].append(row)
        clusters[-1][1].append(plain_row)
        last = plain_score
    for mine, theirs in clusters[:-1]:
        assert sorted(mine) == sorted(theirs)


def _df(con: sqlite3.Connection) -> dict[str, int]:
    return dict(con.execute("SELECT term, doc FROM vocab"))


def test_the_row_count_is_the_one_fts5_keeps_after_deletes() -> None:
    con = _table(500, seed=1)
    assert bm25_top.table_rows(con) == 500 - len(range(1, 501)[::11])
    assert bm25_top.table_rows(sqlite3.connect(":memory:")) is None  # no FTS table: no split, the plain query


@pytest.mark.parametrize("seed", [2, 3, 4])
def test_fewer_rows_scored_give_the_plain_querys_rows_scores_and_order(seed: int) -> None:
    con = _table(3000, seed)
    df, rows = _df(con), bm25_top.table_rows(con)
    rnd = random.Random(seed)
    split = 0
    for _ in range(60):
        phrases = rnd.sample(RARE, rnd.randint(1, 3)) + rnd.sample(COMMON, rnd.randint(1, 4))
        if rnd.random() < 0.2:
            phrases.append(phrases[-1])  # a term two query groups share is two phrases
        if rnd.random() < 0.2:
            phrases.append("lorem ipsum")  # a phrase of two words has no row count of its own
        limit = rnd.choice([5, 50, 200])
        asked: list[str] = []
        plain = con.execute(
            "SELECT rowid, bm25(fts, ?, ?, ?, ?) AS s FROM fts WHERE fts MATCH ? ORDER BY s LIMIT ?",
            [*WEIGHTS, bm25_top.any_of(phrases), limit],
        ).fetchall()
        _same(bm25_top.best(_rank(con, asked, limit), phrases, df, rows, limit), plain)
        split += any(" AND " in m for m in asked)
    assert split >= 20  # most questions were answered from fewer rows


def test_a_guess_too_high_is_corrected_and_still_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    con = _table(3000, seed=5)
    df, rows = _df(con), bm25_top.table_rows(con)
    monkeypatch.setattr(bm25_top, "GUESS", 1000.0)  # every common term guessed unable to reach the best rows
    retried = 0
    for phrases in (
        ["xsuaa", "service", "app", "deploy", "data"],
        ["hana", "odata", "data", "app"],
        ["cds_view", "service"],
    ):
        asked: list[str] = []
        plain = con.execute(
            "SELECT rowid, bm25(fts, ?, ?, ?, ?) AS s FROM fts WHERE fts MATCH ? ORDER BY s LIMIT 100",
            [*WEIGHTS, bm25_top.any_of(phrases)],
        ).fetchall()
        _same(bm25_top.best(_rank(con, asked, 100), phrases, df, rows, 100), plain)
        retried += len(asked) > 2
    assert retried


def test_without_a_row_count_or_a_second_term_the_plain_query_runs() -> None:
    con = _table(300, seed=6)
    df = _df(con)
    asked: list[str] = []
    bm25_top.best(_rank(con, asked, 10), ["xsuaa", "service"], df, None, 10)
    bm25_top.best(_rank(con, asked, 10), ["service"], df, bm25_top.table_rows(con), 10)
    assert asked == ['"xsuaa" OR "service"', '"service"']


needs_bundled = pytest.mark.skipif(
    not store.bundled_path().is_file(), reason="the bundled docs index is built by `pip install` (hatch_build.py)"
)
FILTERED = [
    ("fiori elements list report default filter value", "ui5"),
    ("CDS association with an on condition", "cap"),
    ("destination service on premise proxy", "btp"),
    ("SELECT statement with a join", "abap"),
    ("grant HDI container access to another schema", "hana-cloud"),
    ("which control for a date range", "no-such-product"),
]


def _answers(index: docs_index.DocsIndex, unfiltered: bool = False) -> list[list[tuple]]:
    found = []
    for query, product in FILTERED:
        if unfiltered:
            product = None
        hits, total = index.search(query, product=product)
        found.append([(total, h.source, h.path, h.sections, round(h.score, 9), h.snippet) for h in hits])
    return found


@needs_bundled
def test_a_product_filter_on_row_id_ranges_answers_as_the_join(monkeypatch: pytest.MonkeyPatch) -> None:
    ranged = docs_index.DocsIndex(store.bundled_path())
    answers = _answers(ranged)
    assert ranged._product_ranges and all(ranged._product_ranges.get(p) for p, _ in [("ui5", 0), ("btp", 0)])
    monkeypatch.setattr(docs_index, "PRODUCT_RANGES", 0)  # every product joins its matches to their pages
    joined = docs_index.DocsIndex(store.bundled_path())
    assert _answers(joined) == answers
    assert joined._product_ranges and not any(joined._product_ranges.values())
    assert all(hits for hits in answers[:-1]) and answers[-1] == []


@needs_bundled
def test_searches_with_and_without_the_split_rank_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    real = docs_index.bm25_top.any_of
    monkeypatch.setattr(docs_index.bm25_top, "any_of", lambda terms: asked.append(q := real(terms)) or q)
    split = _answers(docs_index.DocsIndex(store.bundled_path()), unfiltered=True)
    assert len(asked) > 2 * len(FILTERED) and all(hits for hits in split)  # most of them split
    monkeypatch.setattr(docs_index.bm25_top, "table_rows", lambda con: None)  # no bound known: the plain query
    assert _answers(docs_index.DocsIndex(store.bundled_path()), unfiltered=True) == split


def test_sections_out_of_order_still_count_for_their_pages_product(tmp_path: Path) -> None:
    cap = _tarball(
        tmp_path,
        "capire/docs",
        {
            "cds/cdl.md": "# CDL\n\nDefinitions.\n\n## Associations\n\nUnmanaged associations have an on condition.\n",
            "guides/deployment/to-cf.md": "# Deploy to Cloud Foundry\n\nRun `cf push` after `mbt build`.\n",
        },
    )
    conn = _tarball(
        tmp_path,
        "SAP-docs/btp-connectivity",
        {
            "docs/cloud-connector-2b8ee62.md": "<!-- loio2b8ee62d19db43649365f82f78b185a0 -->\n\n# Cloud Connector\n\nOn-premise.\n"
        },
    )
    out = tmp_path / "docs.sqlite"
    build_from({"capire/docs": (cap, "bundled", None), "SAP-docs/btp-connectivity": (conn, "bundled", None)}, out)
    con = sqlite3.connect(out)  # the associations section now belongs to the connectivity page, written last
    (moved,) = con.execute("SELECT id FROM sections WHERE heading LIKE '%Associations'").fetchone()
    (page,) = con.execute("SELECT id FROM pages WHERE source = 'SAP-docs/btp-connectivity'").fetchone()
    con.execute("UPDATE sections SET page = ? WHERE id = ?", (page, moved))
    con.commit()
    con.close()
    index = docs_index.DocsIndex(out)
    hits, _ = index.search("unmanaged associations on condition", product="connectivity")
    assert [h.sids for h in hits] == [(moved,)]
    assert all(moved not in h.sids for h in index.search("unmanaged associations on condition", product="cap")[0])
    assert index._ranges_of("connectivity") is None and index._ranges_of("cap") is None  # both join instead
