"""Field-weighted BM25 (BM25F) over an inverted index, with typo tolerance and phrase and id bonuses.

An ``Index`` is built once per corpus (lazily, on first search) and reused; ``rank`` keeps a small
cache of indexes keyed by the corpus list, so callers that hold on to their record list (the
knowledge base, a loaded snapshot) pay for indexing once. Filters stay with the caller: ``allow``
restricts the candidates, and ranking only orders what passes.
"""

from __future__ import annotations

import bisect
import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from sap_devs.search.analysis import RELATED, analyze

T = TypeVar("T")

K1 = 1.2
B = 0.75
PREFIX_WEIGHT = 0.6
TYPO_WEIGHT = 0.7
RELATED_WEIGHT = 0.4
PHRASE_BONUS = 1.5
ID_BONUS = 3.0
RELATIVE_CUTOFF = 0.2  # drop weak partial matches scoring under a fifth of the best one
PHRASE_CHECK_TOP = 30
_MAX_EXPANSIONS = 8
FUZZY_MAX_TERMS = 6  # typed questions get prefix and typo expansion; long pasted messages do not
FUZZY_MAX_LENGTH = 40  # no real word is longer; typo variants of a 60,000-letter token would take gigabytes
MAX_QUERY_TERMS = 200  # a pasted log says what it is about early; the rest only costs time


@dataclass(frozen=True)
class Field:
    name: str
    weight: float = 1.0


def _deletes(term: str) -> set[str]:
    return {term[:i] + term[i + 1 :] for i in range(len(term))}


class Index(Generic[T]):
    def __init__(
        self,
        records: Sequence[T],
        fields: Sequence[Field],
        text_of: Callable[[T], Mapping[str, str]],
        *,
        id_of: Callable[[T], str] | None = None,
    ) -> None:
        self.records = records
        self.fields = list(fields)
        self._id_of = id_of
        self.postings: dict[str, dict[int, list[int]]] = {}
        nf = len(self.fields)
        lengths: list[list[int]] = [[0] * len(records) for _ in range(nf)]
        self._phrases: list[str] = []
        for doc, record in enumerate(records):
            texts = text_of(record)
            joined = []
            for fi, field in enumerate(self.fields):
                terms = analyze(texts.get(field.name) or "")
                joined.append(" ".join(terms))
                lengths[fi][doc] = len(terms)
                for term in terms:
                    tfs = self.postings.setdefault(term, {}).setdefault(doc, [0] * nf)
                    tfs[fi] += 1
            self._phrases.append(" | ".join(joined))
        self._norm: list[list[float]] = []
        for fi in range(nf):
            avg = (sum(lengths[fi]) / len(records)) if records else 0.0
            self._norm.append([(1 - B + B * (n / avg)) if avg else 1.0 for n in lengths[fi]])
        self._weights = [f.weight for f in self.fields]
        self._vocab: list[str] | None = None
        self._delete_map: dict[str, list[str]] | None = None
        self._ids = {(id_of(r) or "").lower(): i for i, r in enumerate(records)} if id_of else {}

    # -- query expansion ------------------------------------------------------------------------

    def _vocabulary(self) -> list[str]:
        if self._vocab is None:
            self._vocab = sorted(self.postings)
        return self._vocab

    def _typo_candidates(self, term: str) -> list[str]:
        if self._delete_map is None:
            self._delete_map = {}
            for word in self.postings:
                if 3 <= len(word) <= FUZZY_MAX_LENGTH and word.isalpha():
                    for variant in _deletes(word) | {word}:
                        self._delete_map.setdefault(variant, []).append(word)
        found: set[str] = set(self._delete_map.get(term, []))
        for variant in _deletes(term):
            found.update(self._delete_map.get(variant, []))
        found.discard(term)
        return sorted(found, key=lambda w: -len(self.postings[w]))[:2]

    def _expand(self, term: str, *, fuzzy: bool = True) -> list[tuple[str, float]]:
        if term in self.postings:
            out = [(term, 1.0)]
        else:
            out = []
            fuzzy = fuzzy and len(term) <= FUZZY_MAX_LENGTH
            if fuzzy and len(term) >= 4:
                vocab = self._vocabulary()
                start = bisect.bisect_left(vocab, term)
                for word in vocab[start : start + _MAX_EXPANSIONS]:
                    if not word.startswith(term):
                        break
                    out.append((word, PREFIX_WEIGHT))
            if fuzzy and not out and len(term) >= 4 and term.isalpha():
                out = [(w, TYPO_WEIGHT) for w in self._typo_candidates(term)]
        for related in RELATED.get(term, ()):
            if related in self.postings:
                out.append((related, RELATED_WEIGHT))
        return out

    # -- scoring --------------------------------------------------------------------------------

    def idf(self, term: str) -> float:
        """How rare an analysed term is across the corpus (BM25's idf); 0.0 for a term no record has."""
        posting = self.postings.get(term)
        if not posting:
            return 0.0
        return math.log(1 + (len(self.records) - len(posting) + 0.5) / (len(posting) + 0.5))

    def search(
        self, query: str, *, allow: Callable[[T], bool] | None = None, boost: Callable[[T], float] | None = None
    ) -> list[T]:
        terms = list(dict.fromkeys(analyze(query)))[:MAX_QUERY_TERMS]
        if not terms:
            return [r for r in self.records if allow is None or allow(r)] if not query.strip() else []
        n = len(self.records)
        scores: dict[int, float] = {}
        covered: dict[int, float] = {}  # per document: how much of the query it matches
        weights, norms = self._weights, self._norm
        fuzzy = len(terms) <= FUZZY_MAX_TERMS
        for term in terms:
            best: dict[int, float] = {}
            for expanded, weight in self._expand(term, fuzzy=fuzzy):
                posting = self.postings[expanded]
                idf = math.log(1 + (n - len(posting) + 0.5) / (len(posting) + 0.5))
                for doc, tfs in posting.items():
                    pseudo = 0.0
                    for fi, tf in enumerate(tfs):
                        if tf:
                            pseudo += weights[fi] * tf / norms[fi][doc]
                    scores[doc] = scores.get(doc, 0.0) + weight * idf * pseudo * (K1 + 1) / (K1 + pseudo)
                    if weight > best.get(doc, 0.0):
                        best[doc] = weight
            for doc, weight in best.items():
                covered[doc] = covered.get(doc, 0.0) + weight
        exact_id = self._ids.get(query.strip().lower())
        if exact_id is not None:
            scores[exact_id] = max(scores.values(), default=1.0) or 1.0  # an exact id is the answer
            covered[exact_id] = float(len(terms))
        if allow is not None:
            scores = {d: s for d, s in scores.items() if allow(self.records[d])}
        if not scores:
            return []
        for doc in scores:
            coverage = covered[doc] / len(terms)
            scores[doc] *= 0.5 + 0.5 * coverage
            if boost is not None:
                scores[doc] *= boost(self.records[doc])
        if exact_id is not None and exact_id in scores:
            scores[exact_id] *= ID_BONUS
        ranked = sorted(scores, key=lambda d: (-scores[d], d))
        phrase = " ".join(terms)
        if len(terms) >= 2:
            for doc in ranked[:PHRASE_CHECK_TOP]:
                if phrase in self._phrases[doc]:
                    scores[doc] *= PHRASE_BONUS
            ranked = sorted(scores, key=lambda d: (-scores[d], d))
        floor = scores[ranked[0]] * RELATIVE_CUTOFF
        return [self.records[d] for d in ranked if scores[d] >= floor]


_cache: OrderedDict[tuple[int, tuple[tuple[str, float], ...]], tuple[Sequence[object], Index[object]]] = OrderedDict()
_CACHE_SIZE = 32
_cache_lock = threading.Lock()  # tools run on worker threads; two may look up or add at once


def index_for(
    records: Sequence[T],
    fields: Iterable[Field],
    text_of: Callable[[T], Mapping[str, str]],
    *,
    id_of: Callable[[T], str] | None = None,
) -> Index[T]:
    """The index of ``records``, built on first use and kept while the same list object is in use."""
    field_list = list(fields)
    key = (id(records), tuple((f.name, f.weight) for f in field_list))
    with _cache_lock:
        hit = _cache.get(key)
        if hit is not None and hit[0] is records:
            _cache.move_to_end(key)
            return hit[1]  # type: ignore[return-value]
    index = Index(records, field_list, text_of, id_of=id_of)  # outside the lock: a rare double build is cheaper
    with _cache_lock:
        _cache[key] = (records, index)  # holding the list keeps its id from being reused
        if len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return index


def rank(
    query: str,
    records: Sequence[T],
    fields: Iterable[Field],
    text_of: Callable[[T], Mapping[str, str]],
    *,
    allow: Callable[[T], bool] | None = None,
    id_of: Callable[[T], str] | None = None,
) -> list[T]:
    """Records matching ``query`` best first; an empty query keeps every allowed record in its order."""
    return index_for(records, fields, text_of, id_of=id_of).search(query, allow=allow)
