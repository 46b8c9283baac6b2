"""bm25 summed over the stored term arrays gives exactly the rows, scores and order of the plain FTS5 query."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from sap_devs.docs import index as docs_index
from sap_devs.docs import postings, store
from sap_devs.docs.build import build_from
from tests.test_docs import _tarball

WEIGHTS = (6.0, 3.0, 1.0, 2.0)
# a few rare words, some common ones and filler, so questions mix both and many rows tie
RARE = ["xsuaa", "destination", "odata", "cds_view", "hana"]
COMMON = ["service", "app", "deploy", "data"]
FILLER = ["lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit"]
FTS = (
    "CREATE VIRTUAL TABLE fts USING fts5(title, heading, body, asks, content='', tokenize=\"unicode61 tokenchars '_'\")"
)


def _table(rows: int, seed: int) -> sqlite3.Connection:
    """An FTS table and its stored arrays, written as an index writes them: three sources in turn, the
    second taken out again and written anew after the third (so its rows come last, and the row count and
    token total bm25 uses have seen deletes)."""
    rnd = random.Random(seed)
    con = sqlite3.connect(":memory:")
    con.executescript(FTS + ";" + "CREATE VIRTUAL TABLE vocab USING fts5vocab(fts, 'row');" + postings.TABLES)

    def words(n: int) -> str:
        picked = []
        for _ in range(n):
            roll = rnd.random()
            pool = RARE if roll < 0.04 else COMMON if roll < 0.35 else FILLER
            picked.append(rnd.choice(pool))
        return " ".join(picked)

    def source(first: int, count: int, collected: postings.Collector) -> list[tuple[int, tuple[str, ...]]]:
        kept: list[tuple[int, tuple[str, ...]]] = []
        for rowid in range(first, first + count):
            columns = (
                words(rnd.randint(0, 4)),
                words(rnd.randint(0, 3)),
                words(rnd.randint(1, 60)),
                words(rnd.randint(0, 5)),
            )
            if rowid % 7 == 0 and kept:  # identical rows tie exactly: their order must be the plain query's
                columns = kept[-1][1]
            con.execute("INSERT INTO fts(rowid, title, heading, body, asks) VALUES (?,?,?,?,?)", (rowid, *columns))
            collected.add(rowid, columns)
            kept.append((rowid, columns))
        return kept

    third = rows // 3
    built = postings.Collector(WEIGHTS)
    source(1, third, built)
    second = source(third + 1, third, built)
    source(2 * third + 1, rows - 2 * third, built)
    postings.write(con, "fts", built)
    added, removed = postings.Collector(WEIGHTS), postings.Collector(WEIGHTS)
    for rowid, columns in second:
        con.execute(
            "INSERT INTO fts(fts, rowid, title, heading, body, asks) VALUES ('delete', ?,?,?,?,?)", (rowid, *columns)
        )
        removed.add(rowid, columns)
    source(rows + 1, third // 2, added)
    postings.write(con, "fts", added, removed)
    con.commit()  # FTS5 writes its averages when a transaction ends
    return con


def _same(found: postings.Ranked, plain: postings.Ranked) -> None:
    """The same rows in the same order with the same scores. Where a phrase scored by FTS5 alone is added
    in, a score may differ in its last bits, so only rows whose scores are equal to 12 digits may change
    places (at the limit: which of them is kept)."""
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


def _plain(con: sqlite3.Connection, phrases: list[str], limit: int, where: str = "") -> postings.Ranked:
    return con.execute(
        f"SELECT rowid, bm25(fts, ?, ?, ?, ?) AS s FROM fts WHERE fts MATCH ? {where} ORDER BY s LIMIT ?",
        [*WEIGHTS, postings.any_of(phrases), limit],
    ).fetchall()


def _alone(con: sqlite3.Connection, phrases: list[str]) -> dict[str, postings.Ranked]:
    sql = "SELECT rowid, bm25(fts, ?, ?, ?, ?) FROM fts WHERE fts MATCH ?"
    return {p: con.execute(sql, [*WEIGHTS, postings.any_of([p])]).fetchall() for p in phrases if " " in p}


def assert_arrays_match_fts5(
    con: sqlite3.Connection, weights: tuple[float, ...] = docs_index.WEIGHTS, table: str = "fts"
) -> None:
    """Every stored term array holds exactly the rows FTS5's own index has for the term, each with its
    occurrences weighted by column, and every row its length: read back from FTS5 itself."""
    import numpy as np

    con.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.instances_{table} USING fts5vocab(main, {table}, 'instance')")
    columns = {"title": 0, "heading": 1, "body": 2, "asks": 3, "terms": 0}
    expected: dict[str, dict[int, float]] = {}
    for term, doc, column in con.execute(f"SELECT term, doc, col FROM instances_{table}"):
        rows = expected.setdefault(term, {})
        rows[doc] = rows.get(doc, 0) + weights[columns[column]]
    stored: dict[str, dict[int, float]] = {}
    for term, n, first, steps, counts in con.execute(f"SELECT term, n, first, steps, counts FROM postings_{table}"):
        rows_of = postings._decoded(np, n, first, steps).tolist()
        stored[term] = dict(zip(rows_of, postings._unpacked(np, n, counts).tolist(), strict=True))
    assert stored == expected
    sizes = {}
    for rowid, blob in con.execute(f"SELECT id, sz FROM {table}_docsize"):
        total, value = 0, 0
        for byte in blob:  # one varint per column
            value = (value << 7) | (byte & 0x7F)
            if byte < 0x80:
                total, value = total + value, 0
        sizes[rowid] = total
    ids, tokens = postings.row_tokens(con, table)
    assert dict(zip(ids.tolist(), tokens.tolist(), strict=True)) == sizes


def test_the_row_count_and_token_total_are_the_ones_fts5_keeps_after_deletes() -> None:
    con = _table(600, seed=1)
    rows, tokens = postings.averages(con) or (0, 0)
    assert rows == 600 + 100 - 200
    assert_arrays_match_fts5(con, WEIGHTS)
    ids, sizes = postings.row_tokens(con, "fts")
    assert (len(ids), int(sizes.sum())) == (
        rows,
        tokens,
    )  # FTS5's rows and lengths: the source taken out left none behind
    held = {r for (r,) in con.execute("SELECT rowid FROM fts WHERE fts MATCH 'xsuaa OR service OR lorem'")}
    scorer = postings.Scorer(con)
    assert {r for r, _ in scorer.best(["xsuaa", "service", "lorem"], 10_000)} == held
    assert postings.averages(sqlite3.connect(":memory:")) is None  # no FTS table
    assert scorer.rows == rows and tokens > rows


@pytest.mark.parametrize("seed", [2, 3, 4])
def test_the_stored_arrays_give_the_plain_querys_rows_scores_and_order(seed: int) -> None:
    con = _table(3000, seed)
    scorer = postings.Scorer(con)
    rnd = random.Random(seed)
    for _ in range(60):
        phrases = rnd.sample(RARE, rnd.randint(1, 3)) + rnd.sample(COMMON, rnd.randint(0, 4))
        if rnd.random() < 0.2:
            phrases.append(phrases[-1])  # a term two query groups share is two phrases
        if rnd.random() < 0.2:
            phrases.insert(rnd.randint(0, len(phrases)), "lorem ipsum")  # two words: FTS5 scores it alone
        limit = rnd.choice([5, 50, 200, 5000])
        _same(scorer.best(phrases, limit, _alone(con, phrases)), _plain(con, phrases, limit))


def test_ranges_keep_only_their_rows_as_fts5_does_with_rowid_constraints() -> None:
    con = _table(3000, seed=5)
    scorer = postings.Scorer(con)
    ranges = [(1, 150), (700, 900), (2990, 3400)]
    where = "AND (" + " OR ".join(f"rowid BETWEEN {a} AND {b}" for a, b in ranges) + ")"
    for phrases in (["xsuaa", "service", "app"], ["hana", "odata", "data"], ["cds_view"], ["deploy", "lorem ipsum"]):
        found = scorer.best(phrases, 40, _alone(con, phrases), ranges)
        assert found and all(any(a <= r <= b for a, b in ranges) for r, _ in found)
        _same(found, _plain(con, phrases, 40, where))


def test_a_term_no_row_holds_adds_nothing() -> None:
    con = _table(300, seed=6)
    scorer = postings.Scorer(con)
    assert scorer.best(["xsuaa", "neverindexed"], 10) == scorer.best(["xsuaa"], 10)
    assert scorer.best(["neverindexed"], 10) == []


def test_sparse_row_ids_rank_as_fts5_ranks_them() -> None:
    """The written questions: sparse row ids (a page's id shifted, plus the question's number), one column."""
    rnd = random.Random(7)
    con = sqlite3.connect(":memory:")
    con.executescript(
        "CREATE VIRTUAL TABLE asked USING fts5(terms, content='', tokenize=\"unicode61 tokenchars '_'\");"
        + postings.TABLES
    )
    collected = postings.Collector((1.0,))
    for page in range(1, 400):
        for number in range(rnd.randint(0, 6)):
            terms = " ".join(rnd.choice(RARE + COMMON + FILLER) for _ in range(rnd.randint(2, 12)))
            con.execute("INSERT INTO asked(rowid, terms) VALUES (?, ?)", ((page << 10) + number, terms))
            collected.add((page << 10) + number, (terms,))
    postings.write(con, "asked", collected)
    con.commit()
    assert_arrays_match_fts5(con, (1.0,), "asked")
    scorer = postings.Scorer(con, "asked")
    assert scorer._ids is not None  # numbered sparsely: rows are found by their rank
    for terms in (["xsuaa", "service"], ["hana", "odata", "deploy", "lorem"], ["cds_view"]):
        sql = "SELECT rowid, bm25(asked) AS s FROM asked WHERE asked MATCH ? ORDER BY s LIMIT 50"
        _same(scorer.best(terms, 50), con.execute(sql, (postings.any_of(terms),)).fetchall())


def test_counts_need_whole_positive_weights() -> None:
    assert postings.weights_text((4.0, 3.0, 1.0, 3.0)) == "4,3,1,3"
    for bad in ((4.5, 3.0), (4.0, 0.0)):
        with pytest.raises(ValueError, match="whole, positive"):
            postings.Collector(bad)


def test_large_counts_and_far_apart_rows_are_stored_exactly() -> None:
    con = sqlite3.connect(":memory:")
    con.executescript(FTS + ";" + postings.TABLES)
    collected = postings.Collector(WEIGHTS)
    rows = {
        1: ("", "", " ".join(["odata"] * 70_000), ""),
        90_000: ("odata", "", "hana", ""),
        200_001: ("", "", "x", ""),
    }
    for rowid, columns in rows.items():
        con.execute("INSERT INTO fts(rowid, title, heading, body, asks) VALUES (?,?,?,?,?)", (rowid, *columns))
        collected.add(rowid, columns)
    postings.write(con, "fts", collected)
    con.commit()
    found = postings.Scorer(con).best(["odata", "hana"], 10)
    _same(found, _plain(con, ["odata", "hana"], 10))
    assert [r for r, _ in found] == [90_000, 1]


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
def test_searches_through_the_stored_arrays_and_through_fts5_alone_rank_the_same() -> None:
    summed = docs_index.DocsIndex(store.bundled_path())
    answers = _answers(summed, unfiltered=True) + _answers(summed)
    assert isinstance(summed._scorers, tuple) and all(hits for hits in answers[:-1])
    alone = docs_index.DocsIndex(store.bundled_path())
    alone._scorers = None  # as for an index whose counts were weighted otherwise: FTS5 scores every row itself
    assert _answers(alone, unfiltered=True) + _answers(alone) == answers


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


def test_an_index_whose_counts_were_weighted_otherwise_is_searched_by_fts5_alone(tmp_path: Path) -> None:
    cap = _tarball(tmp_path, "capire/docs", {"cds/cdl.md": "# CDL\n\nUnmanaged associations have an on condition.\n"})
    out = tmp_path / "docs.sqlite"
    build_from({"capire/docs": (cap, "bundled", None)}, out)
    expected = docs_index.DocsIndex(out).search("unmanaged associations")[0]
    con = sqlite3.connect(out)
    con.execute("UPDATE meta SET value = '9,9,9,9' WHERE key = ?", (postings.META_KEY,))
    con.commit()
    con.close()
    index = docs_index.DocsIndex(out)
    assert index.search("unmanaged associations")[0] == expected and index._scorers is None
