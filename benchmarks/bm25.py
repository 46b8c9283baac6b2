"""Plain BM25 (Okapi, k1 = 1.2, b = 0.75) as a baseline for the benchmarks: lower-cased
alphanumeric tokens, no stemming, no stop words, no synonyms, no field weights, no fuzzy matching.
Whatever sap-devs' own engine adds on top has to beat this on the same fields."""

from __future__ import annotations

import math
import re
from collections import Counter

_TOKEN = re.compile(r"[a-z0-9]+")


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


class BM25:
    def __init__(self, docs: list[tuple[str, str]], *, k1: float = 1.2, b: float = 0.75) -> None:
        self.ids = [doc_id for doc_id, _ in docs]
        self.tfs = [Counter(tokens(text)) for _, text in docs]
        self.lengths = [sum(tf.values()) for tf in self.tfs]
        self.avg = (sum(self.lengths) / len(self.lengths)) if self.lengths else 0.0
        df: Counter[str] = Counter()
        for tf in self.tfs:
            df.update(tf.keys())
        n = len(docs)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}
        self.k1, self.b = k1, b

    def search(self, query: str) -> list[str]:
        terms = set(tokens(query))
        scored = []
        for i, tf in enumerate(self.tfs):
            score = 0.0
            norm = self.k1 * (1 - self.b + self.b * self.lengths[i] / (self.avg or 1.0))
            for term in terms:
                f = tf.get(term)
                if f:
                    score += self.idf[term] * f * (self.k1 + 1) / (f + norm)
            if score > 0:
                scored.append((score, i))
        scored.sort(key=lambda s: (-s[0], s[1]))
        return [self.ids[i] for _, i in scored]
