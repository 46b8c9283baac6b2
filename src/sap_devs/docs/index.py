"""The documentation index: one SQLite file with an FTS5 table over every section of every page.

Text goes through the same analysis as every other sap-devs search (SAP synonyms and acronyms,
stemming, ABAP names kept whole) before FTS5 sees it, so "CF", "Cloud Foundry" and "cloudfoundry"
meet, and "deploying" finds "deployment". The FTS table is contentless (it holds only the index);
the section text is stored zlib-compressed beside it, for snippets and for read_doc.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import itertools
import json
import re
import shutil
import sqlite3
import threading
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from sap_devs.docs import flavours, hints, postings, questions, twins
from sap_devs.docs.postings import any_of as _any_of
from sap_devs.docs.sources import REPO_ALIASES, SOURCES, DocSource
from sap_devs.search.analysis import STOP_WORDS, _term, analyze

if TYPE_CHECKING:  # the reader (ingest, with tarfile) is for building; a search never loads it
    from sap_devs.docs.ingest import Page

FORMAT = 7  # 4: pages carry their flavours; meta records the digest of what made the terms; 5: twins; 6: asked;
# 7: postings
# title, heading path, body, the questions the page answers; every section row holds its page's title, and the
# title counts again in TITLE_BOOST and PAGE_COVERAGE: at 6 a title's words outweighed what sections say
WEIGHTS = (4.0, 3.0, 1.0, 3.0)
CANDIDATES = 200  # sections ranked by FTS5 before pages are grouped
PRODUCT_RANGES = 8  # a product filter on more runs of consecutive sections than this joins every match instead
COVERAGE_TOP = 100  # of those, how many are checked for the share of the query they hold (and for word pairs)
COMMON_SHARE = 0.15
TITLE_BOOST = 1.0
PHRASE_BOOST = 0.5  # a checked section holding all the question's neighbouring word pairs side by side: x1.5
PAIRS_MAX = 8
PAGE_COVERAGE = 1.0  # the share of the question a page's checked sections and title hold together
HINT_BOOST = 1.5  # a page of the product the question names (hints.py)
SECTION_WEIGHTS = (0.3, 0.15)  # the second and third best sections of a page add this share of their score
CHANGE_LOG_WEIGHT = 0.5
SUPERSEDED_WEIGHT = 0.5
FLAVOUR_WEIGHT = 0.5  # a page of another flavour than the question asks for (V2 for a V4 question)
NAMED_WEIGHT = 3.0  # an API reference page of a symbol the question names ("sap.m.Input", "MultiComboBox")
ASKED_BOOST = 0.3  # the candidate page whose written question matches the question best of theirs: x1.3
ASKED_WEIGHTS = (1.0,)  # the written questions' one column, as their bm25 weighs it
ASKED_TOP = 100  # the written questions that match best, of which the candidate pages' count
ASKED_SHIFT = 10  # a written question's row id is its page's id shifted by this, plus its number on the page
ADJACENT_SHARE = 0.5  # a neighbouring section scoring this share of the best one is part of the answer
STRONG, PARTIAL = 0.75, 0.4  # shares of the question a hit's passage and title hold, for its strength
_SUPERSEDED = re.compile(r"\bdeprecated\b|\bobsolete\b|\bneo\b", re.I)
_NEO_FOLDER = re.compile(r"Neo/")
# a symbol as code names it: a dotted name (sap.m.Input, module:sap/base/Log) or a CamelCase one (DatePicker)
_SYMBOL = re.compile(
    r"(?<![\w$./:])((?:module:)?[A-Za-z_$][\w$]*(?:[./][A-Za-z_$][\w$]*)+|[A-Z]+[a-z0-9]*(?:[A-Z][a-z0-9]+)+)(?![\w$])"
)
_SYMBOLS_MAX = 8
_SPELLED_WORD = re.compile(r"[a-z]+")
_SPELLED_WORDS = 64
_SPELLED_KINDS = (b"Control", b"Element")
SPELLED_WEIGHT = 2.0  # an API reference page of a symbol the question spells out as words ("message strip")
_SHORT_NAMES_MAX = 6  # a short name more symbols share than this names none of them
_OVERVIEW = re.compile(r"^(?:what is|what's|overview|introduction|about)\b", re.I)
_ASKS_OVERVIEW = re.compile(r"\bwhat(?: is|'s| are)\b|\boverview\b|\bintroduc|\bexplain\b|\bdifference\b", re.I)
OVERVIEW_WEIGHT = 0.7  # a "What Is ..." / overview page, for a question that does not ask what something is
LIBRARY_WEIGHT = 0.7  # a page of a library's documentation (the Cloud SDK), for a question naming no language
# ... nor an SDK: "sdk js app on kyma: Unable to get access token" asks about the library's code, not the platform
_NAMES_SDK = re.compile(r"\bsdks?\b", re.I)
_LIBRARIES = frozenset(s.repo.lower() for s in SOURCES if s.folder_flavours)
_CHANGE_LOG = re.compile(r"what'?s new|new and changed|release notes?|patch releases?|change ?log", re.I)
SNIPPET_CHARS = 300
_TYPO_MIN, _TYPO_MAX = 4, 40
_SPLIT_MIN = 6
DF_CACHE = 50_000  # terms whose section counts a process remembers
PAGE_CACHE_KB = 32 * 1024  # SQLite's page cache for the index, at most
SPLIT_SHARE = 0.0015  # a part must be in this share of all sections to split a rare word into it

SCHEMA = (
    """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE sources(repo TEXT PRIMARY KEY, product TEXT, licence TEXT, site TEXT, commit_id TEXT,
                     origin TEXT, fetched_at TEXT);
CREATE TABLE pages(id INTEGER PRIMARY KEY, source TEXT NOT NULL, path TEXT NOT NULL, title TEXT NOT NULL,
                   url TEXT NOT NULL, product TEXT NOT NULL, flavour TEXT NOT NULL DEFAULT '',
                   UNIQUE(source, path));
CREATE INDEX pages_url ON pages(url);
CREATE TABLE sections(id INTEGER PRIMARY KEY, page INTEGER NOT NULL, ord INTEGER NOT NULL, heading TEXT NOT NULL,
                      anchor TEXT, body BLOB NOT NULL);
CREATE INDEX sections_page ON sections(page, ord);
CREATE INDEX pages_source ON pages(source);
CREATE VIRTUAL TABLE fts USING fts5(title, heading, body, asks, content='', tokenize="unicode61 tokenchars '_'");
CREATE VIRTUAL TABLE vocab USING fts5vocab(fts, 'row');
CREATE VIRTUAL TABLE asked USING fts5(terms, content='', tokenize="unicode61 tokenchars '_'");
CREATE TABLE redirects(source TEXT NOT NULL, old TEXT NOT NULL, new TEXT NOT NULL);
"""
    + twins.TABLE
    + postings.TABLES
)


class DocsIndexError(Exception):
    """The index file is missing, from another format, or unreadable."""


@dataclass(frozen=True)
class SourceInfo:
    repo: str
    product: str
    licence: str
    site: str
    commit: str
    origin: str  # bundled or synced
    fetched_at: str | None


def _terms(text: str) -> str:
    return " ".join(analyze(text))


SourceRows: TypeAlias = "tuple[DocSource, str, list[Page], str, str | None, list[tuple[str, str]]]"


def terms_digest() -> str:
    """What the indexed terms of a section are made from besides its text: the analysis and the questions
    written for the pages. An index whose terms came from others cannot have pages taken out in place
    (its contentless FTS table forgets a row only given the very terms it was indexed with)."""
    from sap_devs.search import analysis

    h = hashlib.sha256(str(FORMAT).encode())
    h.update(postings.weights_text(WEIGHTS).encode())  # the stored term counts are weighted by them
    for path in [Path(analysis.__file__), *sorted(questions.QUESTIONS_DIR.glob("*.tsv"))]:
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def build(path: Path, sources: Iterable[SourceRows]) -> dict[str, int]:
    """Write a new index at ``path`` from (source, commit, pages, origin, fetched_at, redirects) tuples.

    Written to a temporary file and moved into place, so a reader never sees half an index and a
    failed build leaves the previous one.
    """
    tmp = path.with_name(path.name + ".building")
    tmp.unlink(missing_ok=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(tmp)
    counts = {"pages": 0, "sections": 0}
    try:
        con.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;" + SCHEMA)
        con.executemany("INSERT INTO meta VALUES (?, ?)", _meta())
        arrays = _Arrays()
        for rows in sources:
            _insert(con, rows, counts, arrays)
        arrays.write(con)
        twins.link(con)
        con.execute("INSERT INTO fts(fts) VALUES ('optimize')")
        con.execute("INSERT INTO asked(asked) VALUES ('optimize')")
        con.commit()
        con.execute("VACUUM")
    except BaseException:
        con.close()
        tmp.unlink(missing_ok=True)
        raise
    con.close()
    tmp.replace(path)
    return counts


def _meta() -> list[tuple[str, str]]:
    from sap_devs import package_version

    return [
        ("format", str(FORMAT)),
        ("built_at", _now()),
        ("sap_devs", package_version()),
        ("terms", terms_digest()),
        (postings.META_KEY, postings.weights_text(WEIGHTS)),
    ]


def updatable(path: Path) -> bool:
    """Whether the index at ``path`` can have sources replaced in place (``update``): this format, and
    terms made the way this sap-devs makes them."""
    try:
        con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
        try:
            meta = dict(con.execute("SELECT key, value FROM meta").fetchall())
        finally:
            con.close()
    except sqlite3.Error:
        return False
    return meta.get("format") == str(FORMAT) and meta.get("terms") == terms_digest()


def update(
    base: Path, path: Path, replaced: Iterable[SourceRows], *, keep: Iterable[str], prepare: Callable[[], None]
) -> dict[str, int]:
    """Write at ``path`` a copy of the index ``base`` in which the sources of ``replaced`` have their new
    pages and only the repositories in ``keep`` (or replaced) remain: the pages of unchanged sources are
    neither read nor analysed again. ``base`` must be ``updatable``. Atomic like ``build``."""
    tmp = path.with_name(path.name + ".building")
    tmp.unlink(missing_ok=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(base, tmp)
    con = sqlite3.connect(tmp)
    counts = {"pages": 0, "sections": 0}
    try:
        con.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;")
        kept = set(keep)
        gone = [repo for (repo,) in con.execute("SELECT repo FROM sources").fetchall() if repo not in kept]
        arrays = _Arrays()
        for repo in gone:
            _remove(con, repo, arrays)
        changed = list(gone)
        for rows in replaced:
            prepare()
            _remove(con, rows[0].repo, arrays)
            _insert(con, rows, counts, arrays)
            changed.append(rows[0].repo)
        arrays.write(con)
        # a changed page can gain or lose its twin in a source that did not change, a dropped source's
        # pages leave their groups
        twins.link(con, changed)
        con.execute("DELETE FROM meta")
        con.executemany("INSERT INTO meta VALUES (?, ?)", _meta())
        # merged into one segment again, as a build leaves it: a search over many segments is slower
        con.execute("INSERT INTO fts(fts) VALUES ('optimize')")
        con.execute("INSERT INTO asked(asked) VALUES ('optimize')")
        con.commit()
        counts["pages"] = con.execute("SELECT count(*) FROM pages").fetchone()[0]
        counts["sections"] = con.execute("SELECT count(*) FROM sections").fetchone()[0]
    except BaseException:
        con.close()
        tmp.unlink(missing_ok=True)
        raise
    con.close()
    tmp.replace(path)
    return counts


class _Arrays:
    """The rows an index write adds and takes out, in both FTS tables, for their stored term arrays."""

    def __init__(self) -> None:
        self.added, self.removed = postings.Collector(WEIGHTS), postings.Collector(WEIGHTS)
        self.asked_added, self.asked_removed = postings.Collector(ASKED_WEIGHTS), postings.Collector(ASKED_WEIGHTS)

    def write(self, con: sqlite3.Connection) -> None:
        postings.write(con, "fts", self.added, self.removed)
        postings.write(con, "asked", self.asked_added, self.asked_removed)


def _insert(con: sqlite3.Connection, rows: SourceRows, counts: dict[str, int], arrays: _Arrays) -> None:
    source, commit, pages, origin, fetched_at, redirects = rows
    con.execute(
        "INSERT INTO sources VALUES (?,?,?,?,?,?,?)",
        (source.repo, source.product, source.licence, source.site, commit, origin, fetched_at),
    )
    con.executemany("INSERT INTO redirects VALUES (?,?,?)", [(source.repo, o, n) for o, n in redirects])
    asked = questions.for_source(source.repo)
    for page in pages:
        text = "\n".join(s.text for s in page.sections)
        if source.from_package:  # the API reference: a symbol is of no flavour
            flavour = ""
        else:
            declared = [f] if (f := source.folder_flavours.get(page.path.split("/", 1)[0])) else []
            flavour = flavours.encode(flavours.of_page(page.path, page.title, text, declared))
        cur = con.execute(
            "INSERT INTO pages(source, path, title, url, product, flavour) VALUES (?,?,?,?,?,?)",
            (page.source, page.path, page.title, page.url, page.product, flavour),
        )
        page_id = cur.lastrowid
        headings = [" > ".join(s.heading) for s in page.sections]
        questions_of = _asked_rows(asked, page_id, page.path, headings)
        con.executemany("INSERT INTO asked(rowid, terms) VALUES (?, ?)", questions_of)
        for rowid, terms in questions_of:
            arrays.asked_added.add(rowid, (terms,))
        for ord_, section in enumerate(page.sections):
            cur = con.execute(
                "INSERT INTO sections(page, ord, heading, anchor, body) VALUES (?,?,?,?,?)",
                (page_id, ord_, headings[ord_], section.anchor, zlib.compress(section.text.encode("utf-8"), 6)),
            )
            columns = _fts_row(
                asked, page.path, searched_title(page.source, page.title), ord_, section.heading, section.text
            )
            con.execute(
                "INSERT INTO fts(rowid, title, heading, body, asks) VALUES (?,?,?,?,?)", (cur.lastrowid, *columns)
            )
            arrays.added.add(cur.lastrowid, columns)
            counts["sections"] += 1
        counts["pages"] += 1


def _asked_rows(asked: questions.Questions, page_id: int, path: str, headings: Sequence[str]) -> list[tuple[int, str]]:
    """The page's written questions one per row, (row id, analysed terms): the page's own, then its sections'
    in order; the row id says the page, so a search needs no lookup and a removal can name each row again."""
    lines = asked.of(path).splitlines() + [q for h in headings for q in asked.of(path, h).splitlines()]
    first = page_id << ASKED_SHIFT
    return [(first + n, _terms(q)) for n, q in enumerate(lines[: 1 << ASKED_SHIFT])]


def _fts_row(
    asked: questions.Questions, path: str, title: str, ord_: int, heading: Sequence[str], text: str
) -> tuple[str, str, str, str]:
    """The analysed columns of one section (its page's questions go on its first section: they ask of the
    whole page)."""
    joined = " > ".join(heading)
    asks = ("" if ord_ else asked.of(path) + "\n") + asked.of(path, joined)
    return _terms(title), _terms(" ".join(heading[1:])), _terms(text), _terms(asks)


_SYMBOL_TITLE = re.compile(r"^(?:module:)?[\w$]+(?:[./][\w$]+)+(?= \(deprecated\)$|$)")


def searched_title(source: str, title: str) -> str:
    """The words of a title that count as title words: an API symbol's title counts by its own name, not
    its namespace (sap.ui.model.odata.v4.ODataListBinding is a list binding, not a page about OData V4
    models: a question's "odata v4 model" is answered by the guides first); other titles as they are."""
    from sap_devs.docs.sources import API_REFERENCE

    found = _SYMBOL_TITLE.match(title) if source == API_REFERENCE.repo else None
    if found is None:
        return title
    return re.split(r"[./]", found.group())[-1] + title[found.end() :]


def _remove(con: sqlite3.Connection, repo: str, arrays: _Arrays) -> None:
    """Take one source's pages out of the index, its FTS rows given back the terms they were indexed with
    (and collected in ``arrays``, for the stored term arrays to forget)."""
    asked = questions.for_source(repo)
    rows = con.execute(
        "SELECT s.id, s.page, s.ord, s.heading, s.body, p.path, p.title FROM sections s JOIN pages p ON p.id = s.page "
        "WHERE p.source = ? ORDER BY s.page, s.ord",
        (repo,),
    )
    headings: dict[int, list[str]] = {}  # page -> its section headings in order, for its written questions' rows
    for sid, page_id, ord_, heading, body, path, title in rows.fetchall():
        headings.setdefault(page_id, []).append(heading)
        text = zlib.decompress(body).decode("utf-8")
        columns = _fts_row(asked, path, searched_title(repo, title), ord_, heading.split(" > "), text)
        con.execute(
            "INSERT INTO fts(fts, rowid, title, heading, body, asks) VALUES ('delete', ?, ?, ?, ?, ?)", (sid, *columns)
        )
        arrays.removed.add(sid, columns)
    for page_id, path in con.execute("SELECT id, path FROM pages WHERE source = ?", (repo,)).fetchall():
        questions_of = _asked_rows(asked, page_id, path, headings.get(page_id, []))
        con.executemany("INSERT INTO asked(asked, rowid, terms) VALUES ('delete', ?, ?)", questions_of)
        for rowid, terms in questions_of:
            arrays.asked_removed.add(rowid, (terms,))
    con.execute("DELETE FROM sections WHERE page IN (SELECT id FROM pages WHERE source = ?)", (repo,))
    con.execute("DELETE FROM pages WHERE source = ?", (repo,))
    con.execute("DELETE FROM redirects WHERE source = ?", (repo,))
    con.execute("DELETE FROM sources WHERE repo = ?", (repo,))


def _now() -> str:
    return dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()


@dataclass(frozen=True)
class Hit:
    page_id: int
    source: str
    path: str
    title: str
    url: str
    product: str
    section: str
    anchor: str | None
    snippet: str
    score: float
    ords: tuple[int, ...] = ()  # the sections that answer: the best one, and a neighbour that matched as well
    sids: tuple[int, ...] = ()  # their row ids
    sections: tuple[str, ...] = ()  # their heading paths
    flavours: tuple[str, ...] = ()
    strength: float = 0.0  # share of the question the passage and the page title hold, 0..1
    also: tuple[tuple[str, str, str], ...] = ()  # (source, path, url) of the same page published elsewhere

    @property
    def match(self) -> str:
        """strong, partial or weak: how much of the question this hit answers."""
        return "strong" if self.strength >= STRONG else "partial" if self.strength >= PARTIAL else "weak"


@dataclass(frozen=True)
class Doc:
    source: SourceInfo
    path: str
    title: str
    url: str
    product: str
    sections: list[tuple[str, str | None, str]]  # (heading path, anchor, markdown)


CAPIRE_BASE = "https://cap.cloud.sap/docs/"


class DocsIndex:
    """A read-only connection to one index file, shared by the threads that search it."""

    def __init__(self, path: Path) -> None:
        if not path.is_file():
            raise DocsIndexError(f"{path} does not exist")
        self.path = path
        try:
            # immutable: the file never changes while open (a sync writes a new file and swaps it in)
            self._con = sqlite3.connect(
                f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True, check_same_thread=False
            )
            # a search reads a few MB of doclists; the default 2 MB page cache re-reads them from the file
            self._con.execute(f"PRAGMA cache_size=-{PAGE_CACHE_KB}")
            version = self._con.execute("SELECT value FROM meta WHERE key='format'").fetchone()
        except sqlite3.Error as exc:
            raise DocsIndexError(f"{path} cannot be read ({exc})") from None
        if version is None or version[0] != str(FORMAT):
            raise DocsIndexError(f"{path} is from another sap-devs version (format {version and version[0]})")
        row = self._con.execute("SELECT value FROM meta WHERE key='sap_devs'").fetchone()
        self.built_by: str | None = row[0] if row else None
        """The sap-devs version that wrote this index (a synced index from before an upgrade is set aside)."""
        self._lock = threading.Lock()  # one sqlite connection: calls from worker threads take turns
        self._vocab: dict[str, list[tuple[str, int]]] = {}
        self._df: dict[str, int | None] = {}  # sections holding each term looked up so far
        self._sections = self._con.execute("SELECT count(*) FROM sections").fetchone()[0]
        self._split_floor = max(2, int(self._sections * SPLIT_SHARE))
        self._titles: dict[int, frozenset[str]] = {}  # analysed page titles, filled as pages are ranked
        self._short_names: dict[str, set[int]] | None = None  # API symbol short name -> its live pages
        self._twin_of: dict[int, int] | None = None  # page -> first page of its twins, read at the first search
        # made at the first search (numpy loads then): the sections' and the written questions' scorers
        self._scorers: tuple[postings.Scorer, postings.Scorer] | bool | None = False
        self._product_ranges: dict[str, list[tuple[int, int]] | None] | None = None  # read at the first filter

    def close(self) -> None:
        self._con.close()

    def sources(self) -> list[SourceInfo]:
        with self._lock:
            rows = self._con.execute("SELECT * FROM sources ORDER BY repo").fetchall()
        return [SourceInfo(*row) for row in rows]

    def counts(self) -> tuple[int, int]:
        with self._lock:
            pages = self._con.execute("SELECT count(*) FROM pages").fetchone()[0]
            sections = self._con.execute("SELECT count(*) FROM sections").fetchone()[0]
        return pages, sections

    def pages_per_source(self) -> dict[str, int]:
        with self._lock:
            return dict(self._con.execute("SELECT source, count(*) FROM pages GROUP BY source").fetchall())

    # -- search -----------------------------------------------------------------------------------

    def _frequencies(self, terms: Sequence[str]) -> dict[str, int]:
        """Sections containing each term (terms absent from the index are left out)."""
        # fts5vocab counts a term's sections by reading its whole doclist: each term is counted once per
        # process (the file never changes while open), None for a term the index lacks
        unknown = [t for t in dict.fromkeys(terms) if t not in self._df]
        if unknown:
            if len(self._df) + len(unknown) > DF_CACHE:
                self._df.clear()
            marks = ",".join("?" * len(unknown))
            rows = self._con.execute(f"SELECT term, doc FROM vocab WHERE term IN ({marks})", unknown).fetchall()
            self._df.update(dict.fromkeys(unknown))
            self._df.update(rows)
        return {t: n for t in terms if (n := self._df.get(t)) is not None}

    def _typo_candidates(self, term: str) -> list[str]:
        """Vocabulary terms one edit away (same first letter), most frequent first."""
        bucket = self._vocab.get(term[0])
        if bucket is None:
            rows = self._con.execute(
                "SELECT term, doc FROM vocab WHERE term >= ? AND term < ? AND length(term) BETWEEN ? AND ?",
                (term[0], chr(ord(term[0]) + 1), _TYPO_MIN - 1, _TYPO_MAX + 1),
            ).fetchall()
            bucket = [(t, d) for t, d in rows if t.isalpha()]
            self._vocab[term[0]] = bucket
        found = [(t, d) for t, d in bucket if abs(len(t) - len(term)) <= 1 and _one_edit(term, t)]
        return [t for t, _ in sorted(found, key=lambda x: -x[1])[:2]]

    def _split_candidates(self, term: str) -> list[str]:
        """A word written as one that the docs write as two ("apikey" -> "api key"), as a phrase."""
        splits = [(analyze(term[:i]), analyze(term[i:])) for i in range(3, len(term) - 2)]
        splits = [(a[0], b[0]) for a, b in splits if len(a) == 1 and len(b) == 1]
        if not splits:
            return []
        df = self._frequencies(list({part for pair in splits for part in pair}))
        known = [(min(df.get(a, 0), df.get(b, 0)), f"{a} {b}") for a, b in splits]
        best = max(known, default=(0, ""))
        return [best[1]] if best[0] >= self._split_floor else []

    def search(self, query: str, *, product: str | None = None, limit: int = 10) -> tuple[list[Hit], int]:
        """Pages best first (each with the section or two neighbouring sections that matched best), and how
        many pages matched."""
        analysed = analyze(query)
        terms = list(dict.fromkeys(analysed))[:32]
        if not terms:
            return [], 0
        with self._lock, self._memo():
            df = self._frequencies(terms)
            groups: list[list[str]] = []
            for term in terms:
                alternatives = [term] if term in df else []
                if term not in df and _TYPO_MIN <= len(term) <= _TYPO_MAX and term.isalpha() and len(terms) <= 8:
                    alternatives = self._typo_candidates(term)
                    df.update(self._frequencies(alternatives) if alternatives else {})
                if _SPLIT_MIN <= len(term) <= _TYPO_MAX and term.isalpha() and df.get(term, 0) < self._split_floor:
                    alternatives += self._split_candidates(term)
                if alternatives:
                    groups.append(alternatives)
            if not groups:
                return [], 0
            rows = self._candidates(groups, df, product)
            named = self._named(query, product)
            weights = {
                **dict.fromkeys(self._spelled(query, product), SPELLED_WEIGHT),
                **dict.fromkeys(named, NAMED_WEIGHT),
            }
            rows += self._named_rows(groups, set(weights) - {r[1] for r in rows})
            # a named page's sections are checked for coverage wherever their bm25 put them
            held: dict[int, set[int]] = self._held([r[0] for r in rows[COVERAGE_TOP:] if r[1] in weights], groups)
            hinted = hints.of_query(analysed[:64])
            asked = flavours.of_query(query)
            general = _ASKS_OVERVIEW.search(query) is not None
            sdk = _NAMES_SDK.search(query) is not None
            hits = self._rank_pages(
                rows, groups, asked, held, hinted, weights, general, sdk, self._asked(groups, {r[1] for r in rows})
            )
            top = hits[:limit]
            held.update(self._held([sid for h in top for sid in h.sids if sid not in held], groups))
            return [self._finished(h, groups, len(terms), held) for h in top], len(hits)

    def _candidates(self, groups: list[list[str]], df: dict[str, int], product: str | None) -> list[tuple]:
        """Sections by bm25 over the query's distinctive terms: a term in more than COMMON_SHARE of all
        sections adds little to the ranking and a lot to the work, so it only counts in the coverage. The best
        CANDIDATES are the plain FTS5 query's, summed over the stored term arrays (postings)."""
        common = self._sections * COMMON_SHARE
        rare = [g for g in groups if min(df.get(t, 0) for t in g) <= common]
        used = rare if len(rare) >= 2 or (rare and len(groups) <= 2) else groups
        phrases = [t for group in used for t in group]
        ranges = self._ranges_of(product) if product else None
        scorers = self._scorers_or_none()
        if ranges is not None and not ranges:
            return []
        if scorers is not None and (ranges is not None or not product):
            # a phrase of several words has no array: FTS5 scores it alone, over the rows holding it
            alone = {p: self._bm25_alone(p) for p in dict.fromkeys(phrases) if not postings.TOKEN.fullmatch(p)}
            ranked = scorers[0].best(phrases, CANDIDATES, alone, ranges)
        elif product:  # the filter needs the page of every match: join before ranking
            sql = (
                "SELECT fts.rowid, bm25(fts, ?, ?, ?, ?) AS score FROM fts JOIN sections s ON s.id = fts.rowid "
                "JOIN pages p ON p.id = s.page WHERE fts MATCH ? AND p.product = ? ORDER BY score LIMIT ?"
            )
            ranked = self._con.execute(sql, [*WEIGHTS, _any_of(phrases), product, CANDIDATES]).fetchall()
        else:  # an index whose stored counts are weighted otherwise: FTS5 scores every row
            sql = "SELECT rowid, bm25(fts, ?, ?, ?, ?) AS score FROM fts WHERE fts MATCH ? ORDER BY score LIMIT ?"
            ranked = self._con.execute(sql, [*WEIGHTS, _any_of(phrases), CANDIDATES]).fetchall()
        if not ranked:
            return []
        meta = (
            "SELECT s.id, s.page, s.heading, s.anchor, p.source, p.path, p.title, p.url, p.product, s.ord, p.flavour "
            "FROM sections s JOIN pages p ON p.id = s.page WHERE s.id IN ({})"
        )
        info = {r[0]: r for r in self._con.execute(meta.format(",".join("?" * len(ranked))), [r[0] for r in ranked])}
        return [(*info[sid][:4], score, *info[sid][4:]) for sid, score in ranked if sid in info]

    def _scorers_or_none(self) -> tuple[postings.Scorer, postings.Scorer] | None:
        """The stored arrays' scorers (sections, written questions), or None for an index whose counts were
        weighted with other weights."""
        if self._scorers is False:
            row = self._con.execute("SELECT value FROM meta WHERE key = ?", (postings.META_KEY,)).fetchone()
            usable = row is not None and row[0] == postings.weights_text(WEIGHTS)
            self._scorers = (postings.Scorer(self._con), postings.Scorer(self._con, "asked")) if usable else None
        return self._scorers if isinstance(self._scorers, tuple) else None

    @contextlib.contextmanager
    def _memo(self) -> Iterator[None]:
        """Within one search, each term's stored arrays are read once (for bm25 and the coverage checks)."""
        scorers = self._scorers_or_none()
        if scorers is None:
            yield
            return
        with scorers[0].memo(), scorers[1].memo():
            yield

    def _bm25_alone(self, phrase: str) -> postings.Ranked:
        """FTS5's bm25 of each row holding ``phrase``, for the phrase alone (its share of any query's)."""
        sql = "SELECT rowid, bm25(fts, ?, ?, ?, ?) FROM fts WHERE fts MATCH ?"
        return self._con.execute(sql, [*WEIGHTS, _any_of([phrase])]).fetchall()

    def _ranges_of(self, product: str) -> list[tuple[int, int]] | None:
        """The row ids of the sections of ``product``'s pages as a few ranges of consecutive ids, or None when
        they are not (the filter then joins every match to its page). An index writes a page's sections after
        it, source by source, so a product is one range per run of its pages; each range is checked to hold
        nothing else (as many sections as ids) before it stands for the product."""
        if self._product_ranges is None:
            runs: dict[str, list[list[int]]] = {}  # product -> [first page, last page] of each run of its pages
            last = None
            for page, of in self._con.execute("SELECT id, product FROM pages ORDER BY id"):
                if of == last:
                    runs[of][-1][1] = page
                else:
                    runs.setdefault(of, []).append([page, page])
                last = of
            self._product_ranges = {
                of: self._section_ranges(pages) if len(pages) <= PRODUCT_RANGES else None for of, pages in runs.items()
            }
        return self._product_ranges.get(product, [])

    def _section_ranges(self, pages: list[list[int]]) -> list[tuple[int, int]] | None:
        """The sections of each run of pages (first and last page id) as one range of row ids, None when a
        run's sections are not consecutive ids."""
        ranges = []
        for first, final in pages:
            count, low, high = self._con.execute(
                "SELECT count(*), min(id), max(id) FROM sections WHERE page BETWEEN ? AND ?", (first, final)
            ).fetchone()
            if count and high - low + 1 != count:
                return None
            if count:
                ranges.append((low, high))
        return sorted(ranges)

    def _named(self, query: str, product: str | None = None) -> set[int]:
        """The API reference pages of the symbols ``query`` names: a full name, or a CamelCase short name of
        a live symbol (a deprecated one only when no live symbol has it), the least nested first."""
        from sap_devs.docs.sources import API_REFERENCE

        found: set[int] = set()
        if product and product != API_REFERENCE.product:
            return found
        for name in list(dict.fromkeys(_SYMBOL.findall(query)))[:_SYMBOLS_MAX]:
            exact = self._con.execute(
                "SELECT id FROM pages WHERE source = ? AND path = ? COLLATE NOCASE", (API_REFERENCE.repo, name)
            ).fetchall()
            if exact or "." in name or "/" in name:
                found.update(r[0] for r in exact)
                continue
            rows = self._con.execute(
                "SELECT id, path, title FROM pages WHERE source = ? AND (path LIKE ? OR path LIKE ?) LIMIT ?",
                (API_REFERENCE.repo, f"%.{name}", f"%/{name}", _SHORT_NAMES_MAX + 1),
            ).fetchall()
            rows = [r for r in rows if re.split(r"[./]", r[1])[-1].lower() == name.lower()]
            if not rows or len(rows) > _SHORT_NAMES_MAX:
                continue
            live = [r for r in rows if not _SUPERSEDED.search(r[2])] or rows
            fewest = min(r[1].count(".") for r in live)
            found.update(r[0] for r in live if r[1].count(".") == fewest)
        return found

    def _spelled(self, query: str, product: str | None = None) -> set[int]:
        """The API reference pages of the controls ``query`` spells out as words ("message strip"
        for MessageStrip, "icon tab bar" for IconTabBar): two or three neighbouring words that together are
        the short name of one live symbol (a single word, "select" or "table", names too many things)."""
        from sap_devs.docs.sources import API_REFERENCE

        if product and product != API_REFERENCE.product:
            return set()
        if self._short_names is None:
            by_name: dict[str, list[tuple[int, str]]] = {}
            rows = self._con.execute(
                "SELECT p.id, p.path, p.title, s.body FROM pages p JOIN sections s ON s.page = p.id AND s.ord = 0 "
                "WHERE p.source = ?",
                (API_REFERENCE.repo,),
            )
            for page, path, title, body in rows:
                # a page's opening says what the symbol is ("Control `sap.m.Input` of ..."): the words of a
                # control's name are the control ("list binding" is the guides' topic, not the ListBinding class)
                kind = zlib.decompressobj().decompress(body, 16).split(b" ", 1)[0]
                if kind in _SPELLED_KINDS and not _SUPERSEDED.search(title):
                    by_name.setdefault(re.split(r"[./]", path)[-1].lower(), []).append((page, path))
            self._short_names = {
                name: {p for p, path in found if path.count(".") == min(q.count(".") for _, q in found)}
                for name, found in by_name.items()
            }
        words = _SPELLED_WORD.findall(query.lower())[:_SPELLED_WORDS]
        found: set[int] = set()
        for n in (3, 2):
            for i in range(len(words) - n + 1):
                pages = self._short_names.get("".join(words[i : i + n]), set())
                if len(pages) <= _SHORT_NAMES_MAX:
                    found |= pages
        return found

    def _named_rows(self, groups: list[list[str]], pages: set[int]) -> list[tuple]:
        """Candidate rows for the sections of ``pages`` that match the query, scored as ``_candidates`` scores
        (a page the question names by its symbol may hold too few of its words to be among the best 200)."""
        if not pages:
            return []
        match = _any_of(t for group in groups for t in group)
        marks = ",".join("?" * len(pages))
        sql = (
            "SELECT s.id, s.page, s.heading, s.anchor, bm25(fts, ?, ?, ?, ?), p.source, p.path, p.title, p.url, "
            "p.product, s.ord, p.flavour FROM fts JOIN sections s ON s.id = fts.rowid JOIN pages p ON p.id = s.page "
            f"WHERE fts MATCH ? AND s.page IN ({marks})"
        )
        return self._con.execute(sql, [*WEIGHTS, match, *pages]).fetchall()

    def _rank_pages(
        self,
        rows: list[tuple],
        groups: list[list[str]],
        asked: frozenset[str],
        held: dict[int, set[int]],
        hinted: frozenset[str] = frozenset(),
        named: dict[int, float] | None = None,
        general: bool = True,
        sdk: bool = False,
        written: dict[int, float] | None = None,
    ) -> list[Hit]:
        """Sections scored by bm25 and by how much of the query they cover; pages by their best sections and
        by how much of the query their title says, pages of another flavour than the one asked for set back;
        one page per file name within a source (SAP-docs publishes some pages in two guides). ``held`` gets
        the query groups each checked section holds."""
        if not rows:
            return []
        held.update(self._held([r[0] for r in rows[:COVERAGE_TOP]], groups))
        # (value, row) per section, grouped by page in the order pages first appear; a Hit is made only for
        # each page's best section (one per row cost more than the ranking itself)
        by_page: dict[int, list[tuple[float, tuple]]] = {}
        phrased = self._phrased([r[0] for r in rows[:COVERAGE_TOP]], groups)
        for row in rows:
            share = len(held.get(row[0], ())) / len(groups)
            value = -row[4] * (0.4 + 0.6 * share) * (1 + PHRASE_BOOST * phrased.get(row[0], 0.0))
            by_page.setdefault(row[1], []).append((value, row))
        wanted = [set(g) for g in groups]
        # the question names Node.js or Java, or an SDK
        coded = sdk or any(flavours.BY_NAME[f].axis == "cap" for f in asked)
        superseded_wanted = any(t.startswith(("deprecat", "neo", "obsolet")) for g in groups for t in g)
        pages: list[Hit] = []
        for scored in by_page.values():
            scored.sort(key=lambda e: -e[0])
            best_value, best = scored[0]
            sid, page, heading, anchor, _, source, path, title, url, product, ord_, flavour = best
            value = best_value + sum(w * e[0] for w, e in zip(SECTION_WEIGHTS, scored[1:3], strict=False))
            title_terms = self._title_terms(page, title, source)
            title_share = sum(1 for g in wanted if g & title_terms) / len(wanted)
            value *= 1 + TITLE_BOOST * title_share
            # a page whose sections and title between them hold the whole question beats one that has a
            # part of it many times over
            covered = set().union(*(held.get(e[1][0], set()) for e in scored))
            covered |= {i for i, g in enumerate(wanted) if g & title_terms}
            value *= 1 + PAGE_COVERAGE * len(covered) / len(wanted)
            page_flavours = flavours.decode(flavour)
            if not superseded_wanted and (_SUPERSEDED.search(title) or _NEO_FOLDER.search(path)):
                value *= SUPERSEDED_WEIGHT  # deprecated APIs and the retiring Neo environment: only when asked for
            if _CHANGE_LOG.search(title):
                value *= CHANGE_LOG_WEIGHT  # release notes mention everything once; they rarely explain it
            if not general and _OVERVIEW.search(title):
                value *= OVERVIEW_WEIGHT  # an overview names every task of its product once; it rarely does one
            if source.lower() in _LIBRARIES and source.lower() not in hinted and not coded:
                value *= LIBRARY_WEIGHT  # the SDK's pages retell the platform's (destinations, Kyma) for its code
            if asked and flavours.other_flavour(page_flavours, asked):
                value *= FLAVOUR_WEIGHT
            if source.lower() in hinted:
                value *= HINT_BOOST
            if named and page in named:
                value *= named[page]
            if written:
                value *= 1 + ASKED_BOOST * written.get(page, 0.0)
            pair = [best]
            neighbour = next((e for e in scored[1:3] if abs(e[1][10] - ord_) == 1), None)
            if neighbour is not None and neighbour[0] >= ADJACENT_SHARE * best_value:
                pair = sorted([best, neighbour[1]], key=lambda r: r[10])
            pages.append(
                Hit(
                    page,
                    source,
                    path,
                    title,
                    url,
                    product,
                    heading,
                    anchor,
                    str(sid),
                    value,
                    ords=tuple(r[10] for r in pair),
                    sids=tuple(r[0] for r in pair),
                    sections=tuple(r[2] for r in pair),
                    flavours=page_flavours,
                )
            )
        pages.sort(key=lambda h: -h.score)
        return self._one_per_page(pages)

    def _asked(self, groups: list[list[str]], pages: set[int]) -> dict[int, float]:
        """The candidate ``pages`` whose written questions are among the ASKED_TOP that match the question
        best, by their best one as a share of the best of all: one question that says what the developer asks
        beats its words spread over a page's many questions (in the asks column they are one text, diluted by
        a long first section)."""
        terms = list(dict.fromkeys(t for group in groups for t in group))
        if not ASKED_BOOST or not terms or not pages:
            return {}
        scorers = self._scorers_or_none()
        if scorers is not None and all(postings.TOKEN.fullmatch(t) for t in terms):
            top = scorers[1].best(terms, ASKED_TOP)
        else:  # a phrase of several words (a split word): FTS5 scores the questions itself
            sql = "SELECT rowid, bm25(asked) AS score FROM asked WHERE asked MATCH ? ORDER BY score LIMIT ?"
            top = self._con.execute(sql, (_any_of(terms), ASKED_TOP)).fetchall()
        if not top or top[0][1] >= 0:
            return {}
        found: dict[int, float] = {}
        for rowid, score in top:
            page = rowid >> ASKED_SHIFT
            if page in pages and page not in found:  # best first: a page's first is its best
                found[page] = score / top[0][1]
        return found

    def _phrased(self, ids: list[int], groups: list[list[str]]) -> dict[int, float]:
        """The share of the question's neighbouring word pairs ("service binding", "content package") each of
        the sections ``ids`` holds as written, next to each other: a section that says what the question says
        beats one that has its words scattered."""
        words = [g[0] for g in groups if " " not in g[0]]
        pairs = list(dict.fromkeys(f"{a} {b}" for a, b in itertools.pairwise(words) if a != b))[:PAIRS_MAX]
        if not ids or not pairs or not PHRASE_BOOST:
            return {}
        scorers = self._scorers_or_none()
        # only a section holding both words can hold them side by side: FTS5 checks those
        holding = {w: scorers[0].holding(w, ids) for p in pairs for w in p.split(" ")} if scorers else {}
        found: dict[int, float] = {}
        for pair in pairs:
            rows = ids
            first, second = (holding.get(word) for word in pair.split(" "))
            if first is not None and second is not None:
                rows = [ids[at] for at in sorted(set(first).intersection(second))]
            for rowid in self._matching(_any_of([pair]), rows) if rows else ():
                found[rowid] = found.get(rowid, 0.0) + 1 / len(pairs)
        return found

    def _matching(self, match: str, ids: Sequence[int]) -> list[int]:
        """Which of the sections ``ids`` match the FTS5 expression ``match``. FTS5 answers "rowid IN (...)"
        with one lookup of the whole expression per id (ten times the time for 60 ids); a rowid range is one
        pass over the expression's rows within it."""
        marks = ",".join("?" * len(ids))
        # "+" keeps the list from FTS5 (SQLite then checks each row of the range against it)
        sql = f"SELECT rowid FROM fts WHERE fts MATCH ? AND rowid BETWEEN ? AND ? AND +rowid IN ({marks})"
        return [r for (r,) in self._con.execute(sql, (match, min(ids), max(ids), *ids))]

    def _one_per_page(self, pages: list[Hit]) -> list[Hit]:
        """The best of the hits that are one page published twice (the same file name within a source, or
        twins: the same text under another loio or in another repository); the others it names as ``also``."""
        if self._twin_of is None:
            self._twin_of = dict(self._con.execute("SELECT page, first FROM twins"))
        kept: dict[object, int] = {}
        unique: list[Hit] = []
        for hit in pages:
            keys: list[object] = [(hit.source, hit.path.rsplit("/", 1)[-1])]
            if hit.page_id in self._twin_of:
                keys.append(self._twin_of[hit.page_id])
            at = next((kept[k] for k in keys if k in kept), None)
            if at is None:
                kept.update(dict.fromkeys(keys, len(unique)))
                unique.append(hit)
            else:
                first = unique[at]
                unique[at] = Hit(**{**first.__dict__, "also": (*first.also, (hit.source, hit.path, hit.url))})
                kept.update(dict.fromkeys(keys, at))
        return unique

    def _title_terms(self, page_id: int, title: str, source: str) -> frozenset[str]:
        terms = self._titles.get(page_id)
        if terms is None:
            terms = self._titles[page_id] = frozenset(analyze(searched_title(source, title)))
        return terms

    def _held(self, ids: list[int], groups: list[list[str]]) -> dict[int, set[int]]:
        """The query groups (by position) each of the sections ``ids`` holds, in any column."""
        if not ids or not groups:
            return {}
        found: dict[int, set[int]] = {sid: set() for sid in ids}
        scorers = self._scorers_or_none()
        for i, group in enumerate(groups):
            asked = []  # the terms FTS5 is asked about: phrases, or all for an index without usable arrays
            for term in group:
                holding = scorers[0].holding(term, ids) if scorers else None
                if holding is None:
                    asked.append(term)
                    continue
                for at in holding:
                    found[ids[at]].add(i)
            if asked:
                for rowid in self._matching(_any_of(asked), ids):
                    found[rowid].add(i)
        return found

    def _finished(self, hit: Hit, groups: list[list[str]], asked: int, held: dict[int, set[int]]) -> Hit:
        """The hit with its snippet, from the best section, and its strength: the share of the question's
        ``asked`` terms its answering sections (or, for what they lack, the page title) hold; a term no page
        has counts as missing."""
        row = self._con.execute("SELECT body FROM sections WHERE id = ?", (int(hit.snippet),)).fetchone()  # the best
        body = zlib.decompress(row[0]).decode("utf-8") if row else ""
        wanted = {t for group in groups for t in group}
        title_terms = self._title_terms(hit.page_id, hit.title, hit.source)
        answered = set().union(*(held.get(sid, set()) for sid in hit.sids))
        share = sum(1 for i, g in enumerate(groups) if i in answered or set(g) & title_terms) / max(asked, len(groups))
        return Hit(**{**hit.__dict__, "snippet": snippet(body, wanted), "strength": round(share, 2)})

    # -- reading ----------------------------------------------------------------------------------

    def find_page(self, *, page_id: str | None = None, url: str | None = None) -> tuple[int, str, str] | None:
        """(row id, source, path) of a page given its id (``owner/repo:path``) or public url; pages that
        moved are found through the source's redirects (old links in training data still resolve)."""
        with self._lock:
            if page_id:
                source, _, path = page_id.partition(":")
                source = REPO_ALIASES.get(source.lower(), source)
                return self._page_by_path(source, path)
            base = (url or "").split("?", 1)[0]
            if "#/api/" in base:  # the API reference routes after '#': a section follows as %23
                base = base.split("%23", 1)[0]
            elif "#/topic/" not in base:
                base = base.split("#", 1)[0]
            for candidate in dict.fromkeys([base, base.rstrip("/"), base.rstrip("/") + "/"]):
                row = self._con.execute("SELECT id, source, path FROM pages WHERE url = ?", (candidate,)).fetchone()
                if row:
                    return row
            if base.startswith(CAPIRE_BASE):
                return self._page_by_path("capire/docs", base[len(CAPIRE_BASE) :].strip("/") + ".md")
        return None

    def _page_by_path(self, source: str, path: str) -> tuple[int, str, str] | None:
        query = "SELECT id, source, path FROM pages WHERE lower(source) = lower(?) AND path = ?"
        row = self._con.execute(query, (source, path)).fetchone()
        if row or not path.endswith(".md"):
            return row
        moved = self._redirected(source, path[: -len(".md")].strip("/"))
        if moved is None:
            return None
        for candidate in (f"{moved}.md", f"{moved}/index.md"):
            row = self._con.execute(query, (source, candidate)).fetchone()
            if row:
                return row
        return None

    def _redirected(self, source: str, old: str) -> str | None:
        rules = self._con.execute("SELECT old, new FROM redirects WHERE lower(source) = lower(?)", (source,)).fetchall()
        for pattern, new in rules:
            if pattern == old:
                return new.split("#", 1)[0].strip("/")
        for pattern, new in rules:  # "guides/deployment/(.*)" -> "guides/deploy/$1"
            if "(.*)" in pattern:
                match = re.fullmatch(re.escape(pattern).replace(re.escape("(.*)"), "(.*)"), old)
                if match:
                    return new.replace("$1", match.group(1)).split("#", 1)[0].strip("/")
        return None

    def read(self, page_row: int) -> Doc:
        with self._lock:
            page = self._con.execute(
                "SELECT source, path, title, url, product FROM pages WHERE id = ?", (page_row,)
            ).fetchone()
            sections = self._con.execute(
                "SELECT heading, anchor, body FROM sections WHERE page = ? ORDER BY ord", (page_row,)
            ).fetchall()
            source = self._con.execute("SELECT * FROM sources WHERE repo = ?", (page[0],)).fetchone()
        return Doc(
            source=SourceInfo(*source),
            path=page[1],
            title=page[2],
            url=page[3],
            product=page[4],
            sections=[(h, a, zlib.decompress(b).decode("utf-8")) for h, a, b in sections],
        )

    def pages_of(self, repo: str) -> tuple[list[Page], list[tuple[str, str]]]:
        """Every page of one source as ingested, and its redirects: what a rebuild needs to carry a source
        over unchanged (sync re-downloads only the repositories that changed)."""
        from sap_devs.docs.ingest import Page, Section

        with self._lock:
            rows = self._con.execute(
                "SELECT p.id, p.path, p.title, p.url, p.product, s.heading, s.anchor, s.body FROM pages p "
                "JOIN sections s ON s.page = p.id WHERE p.source = ? ORDER BY p.id, s.ord",
                (repo,),
            ).fetchall()
            redirects = self._con.execute("SELECT old, new FROM redirects WHERE source = ?", (repo,)).fetchall()
        pages: dict[int, Page] = {}
        for page_id, path, title, url, product, heading, anchor, body in rows:
            page = pages.setdefault(page_id, Page(repo, path, title, url, product))
            page.sections.append(Section(heading.split(" > "), anchor, zlib.decompress(body).decode("utf-8")))
        return list(pages.values()), [tuple(r) for r in redirects]  # type: ignore[misc]

    def urls(self) -> set[str]:
        with self._lock:
            return {r[0] for r in self._con.execute("SELECT url FROM pages")}


def _one_edit(a: str, b: str) -> bool:
    """Levenshtein distance 1 (or a swap of two neighbours)."""
    if a == b:
        return False
    if len(a) == len(b):
        diff = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        return len(diff) == 1 or (
            len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
        )
    if len(a) > len(b):
        a, b = b, a
    return any(b[:i] + b[i + 1 :] == a for i in range(len(b)))


_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


_WORDS = re.compile(r"[a-z0-9_]+")
_SPLIT_AT_ONCE = 256


def _passages(body: str) -> Iterator[str]:
    """The sentences and lines of ``body``, code fences left out, as they are needed: a section can hold
    hundreds of KB, and splitting all of it cost more than the rest of its snippet."""
    rest = body
    while rest:
        # a piece after the last split begins past a whole separator, so splitting it on loses none
        pieces = _SENTENCE.split(rest, maxsplit=_SPLIT_AT_ONCE)
        rest = pieces.pop() if len(pieces) > _SPLIT_AT_ONCE else ""
        for piece in pieces:
            part = piece.strip()
            if part and not part.startswith("```"):
                yield part


def snippet(body: str, wanted: set[str], limit: int = SNIPPET_CHARS) -> str:
    """The passage of ``body`` that holds the most query terms, at most ``limit`` characters."""
    rest = _passages(body)
    parts = list(itertools.islice(rest, 300))
    if not parts:
        return body[:limit]
    best, best_score = 0, -1
    for i, part in enumerate(parts):
        score = len(wanted.intersection(map(_term, set(_WORDS.findall(part[:600].lower())) - STOP_WORDS)))
        if score > best_score:
            best, best_score = i, score
            if score == len(wanted):
                break  # no later passage can hold more, and a tie keeps the first
    text = parts[best]
    for extra in itertools.chain(parts[best + 1 :], rest):
        if len(text) + 1 + len(extra) > limit:
            break
        text += " " + extra
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"


def describe(sources: list[SourceInfo]) -> str:
    return json.dumps([s.__dict__ for s in sources])
