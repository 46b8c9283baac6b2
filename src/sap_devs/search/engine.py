"""Token-overlap ranking weighted by field and by how rare a word is across the records.

Deliberately small: words are case-folded and split on anything that is not a letter or digit,
question filler ("how do I ...") is dropped, a query word also matches a longer word it begins
(deploy -> deployment), and rare words count more than common ones. Records that share no word
with the query are not returned.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "can",
        "do",
        "does",
        "for",
        "from",
        "how",
        "i",
        "in",
        "is",
        "it",
        "my",
        "of",
        "on",
        "or",
        "the",
        "to",
        "what",
        "when",
        "where",
        "which",
        "who",
        "why",
        "with",
        "you",
        "your",
        "me",
        "we",
        "our",
        "this",
        "that",
        "get",
        "got",
        "use",
        "using",
        "there",
        "their",
        "into",
        "not",
        "no",
    ]
)
_PREFIX_MIN = 4  # shorter query words must match whole words, or "a" would match everything
_PREFIX_FACTOR = 0.6
_RELATIVE_CUTOFF = 0.2  # drop weak partial matches scoring under a fifth of the best one


@dataclass(frozen=True)
class Field:
    name: str
    weight: float = 1.0


def tokenize(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in _STOP]


def _matches(word: str, tokens: frozenset[str]) -> float:
    if word in tokens:
        return 1.0
    if len(word) >= _PREFIX_MIN and any(t.startswith(word) for t in tokens):
        return _PREFIX_FACTOR
    return 0.0


def rank(
    query: str,
    records: Sequence[T],
    fields: Iterable[Field],
    text_of: Callable[[T], Mapping[str, str]],
) -> list[T]:
    """Records matching ``query`` best first; an empty query keeps every record in its order."""
    words = list(dict.fromkeys(tokenize(query)))
    if not words:
        return list(records) if not query.strip() else []
    field_list = list(fields)
    indexed = []
    for record in records:
        texts = text_of(record)
        per_field = [(f.weight, frozenset(tokenize(texts.get(f.name, "") or ""))) for f in field_list]
        lowered = {f.name: (texts.get(f.name, "") or "").lower() for f in field_list}
        indexed.append((record, per_field, lowered))

    n = len(indexed)
    idf = {}
    for word in words:
        df = sum(1 for _, per_field, _ in indexed if any(_matches(word, toks) for _, toks in per_field))
        idf[word] = math.log(1 + (n - df + 0.5) / (df + 0.5))

    phrase = " ".join(query.lower().split())
    scored: list[tuple[float, int, T]] = []
    for position, (record, per_field, lowered) in enumerate(indexed):
        score = 0.0
        matched = 0
        for word in words:
            best = max((weight * _matches(word, toks) for weight, toks in per_field), default=0.0)
            if best:
                matched += 1
                score += best * idf[word]
        if not matched:
            continue
        score *= 0.5 + 0.5 * matched / len(words)  # favour records that cover more of the query
        if len(phrase) >= 6 and any(phrase in text for text in lowered.values()):
            score *= 1.5
        scored.append((score, position, record))
    scored.sort(key=lambda s: (-s[0], s[1]))
    floor = scored[0][0] * _RELATIVE_CUTOFF if scored else 0.0
    return [record for score, _, record in scored if score >= floor]
