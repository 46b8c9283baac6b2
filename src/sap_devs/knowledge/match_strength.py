"""How well a known-error entry fits a message: ``exact``, ``likely`` or ``weak``.

The ranking orders entries by text similarity, and some entry always comes first, fitting or
not. The strength says whether the message is that error, from what the entry itself says the
error looks like: its pattern (the message as the tool prints it), the error codes in its pattern
and tags, and the names its pattern quotes. Nothing is tuned per message or per entry.

The rule:

1. **Wording**: the share of the pattern's own words the message contains in the pattern's order
   (the heaviest common subsequence), each word weighted by how rare it is among all entries
   (BM25's idf), so that "error", "failed" or "SAP DBTech JDBC" count little and "insufficient
   privilege" much, and the same words in another order ("duplicate definition of element" against
   "adding element with duplicate id") count as the one sentence they are not. Variable parts
   (``...`` placeholders, paths, numbers, user identifiers) are left out on both sides.
2. **Identity**: an entry that has error codes (``[258]``, ``E404``, ``ERESOLVE``,
   ``ITAB_LINE_NOT_FOUND``, ``ASSERT_*`` ...) or quotes a name (``'@sap/cds'``, ``'cf login'``) is
   identified by them as much as by its wording: for such an entry the coverage is the mean of the
   wording share and 1 or 0 for whether the message carries one of its codes or quotes one of its
   names; a code the entry lists only in its tags confirms when present and is no evidence
   against when absent (a code in a message written another way, ``;259 invalid table name`` or
   ``"code":"260"``, is the same code). For an entry without either, the coverage is the wording share alone.
3. **Contradiction**: a message that carries its own code of a kind the entry is identified by
   (a numeric database/deployer code, an npm/Node ``E...`` code, an HTTP status) but none of the
   entry's, or that quotes names where the entry quotes different ones, is a different error of
   the same family (``[321]`` is not ``[259]``; ``module '@sap/xssec'`` is not ``module '@sap/cds'``,
   a name quoted after the same word as the entry's): ``weak`` whatever the wording. Upper-case names are left out of this check: logs are full of
   ``NODE_ENV`` and ``VCAP_SERVICES`` that say nothing about the error.
4. ``exact`` from a coverage of EXACT (the message contains nearly all of the entry's wording and,
   where it has them, its code or name), ``likely`` above LIKELY (more than half of it: the whole
   wording without the code or name the entry is identified by is not enough), ``weak``
   below.

The thresholds were set on messages that no entry answers (tests/data/no_entry/tuning.yaml and
benchmarks' tuning set) and checked on a held-out set written before (tests/data/no_entry/heldout.yaml).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from sap_devs.knowledge.error_text import coded, strip_variable_parts
from sap_devs.search import analyze

Strength = Literal["exact", "likely", "weak"]
STRENGTHS: tuple[Strength, ...] = ("exact", "likely", "weak")

EXACT = 0.8
LIKELY = 0.5
CONTRADICTING_KINDS = frozenset({"number", "node", "http"})

# a quote opens after a non-word character, so "doesn't ... 'x'" quotes x, not "t ... "
_QUOTED = re.compile(
    r"(?<!\w)'([^'\n]{2,80})'(?!\w)|\"([^\"\n]{2,80})\"|“([^”\n]{2,80})”|‘([^’\n]{2,80})’|`([^`\n]{2,80})`"
)
_SLOT = re.compile(r"(\w+)\W*$")
_PLACEHOLDER = re.compile(r"\.\.\.|…|<[^>]*>|\{[^}]*\}")


def quoted_names(text: str) -> frozenset[tuple[str, str]]:
    """Quoted strings of ``text`` with the word before each (its slot: "module" in
    ``Cannot find module '@sap/cds'``), lower-cased, without the placeholders patterns use."""
    names = set()
    for match in _QUOTED.finditer(text):
        name = next(g for g in match.groups() if g is not None).strip().lower()
        if name and not _PLACEHOLDER.search(name) and any(c.isalnum() for c in name):
            slot = _SLOT.search(text[max(0, match.start() - 40) : match.start()])
            names.add((slot.group(1).lower() if slot else "", name))
    return frozenset(names)


@dataclass(frozen=True)
class EntryFacts:
    """What an entry says its error looks like, worked out once per entry."""

    wording: tuple[str, ...]  # the pattern's terms in order, each once, codes left out
    codes: dict[str, frozenset[str]]  # by kind, from the pattern and the tags
    names: frozenset[tuple[str, str]]  # (slot, name)
    shown: bool  # whether the pattern itself shows a code or name (tags only confirm)

    @classmethod
    def of(cls, pattern: str, tags: list[str]) -> EntryFacts:
        codes = coded(f"{pattern} {' '.join(tags)}")
        every_code = frozenset().union(*codes.values()) if codes else frozenset()
        # JSON bodies quote their keys ("error", "fault"): those are structure, not names
        names = frozenset() if '":' in pattern else quoted_names(pattern)
        # a code's parts (CX_SY_REF_IS_INITIAL: cx, sy, ref, initial) belong to the code, counted once as identity
        code_terms = set(every_code) | set(analyze(" ".join(every_code)))
        terms = [t for t in dict.fromkeys(analyze(strip_variable_parts(pattern))) if t not in code_terms]
        return cls(tuple(terms), codes, names, bool(coded(pattern)) or bool(names))

    @property
    def all_codes(self) -> frozenset[str]:
        return frozenset().union(*self.codes.values()) if self.codes else frozenset()


@dataclass(frozen=True)
class MessageFacts:
    sequence: tuple[str, ...]
    terms: frozenset[str]
    codes: dict[str, frozenset[str]]
    names: frozenset[tuple[str, str]]

    @classmethod
    def of(cls, text: str) -> MessageFacts:
        sequence = tuple(analyze(strip_variable_parts(text)))
        return cls(sequence, frozenset(sequence), coded(text), quoted_names(text))


MAX_SEQUENCE = 400
"""Message terms the order check looks at (after keeping only the entry's words): a bound on the
work for one long paste."""


def _in_order(pattern: tuple[str, ...], message: tuple[str, ...], idf: Callable[[str], float]) -> float:
    """The idf weight of the heaviest subsequence of ``pattern`` that ``message`` has in the same order."""
    wanted = set(pattern)
    seq: list[str] = []
    for term in message:
        if term in wanted and (not seq or seq[-1] != term):
            seq.append(term)
            if len(seq) >= MAX_SEQUENCE:
                break
    if not seq:
        return 0.0
    weights = [idf(t) for t in pattern]
    best = [0.0] * (len(seq) + 1)  # best[j]: heaviest common subsequence of pattern[:i] and seq[:j]
    for i, term in enumerate(pattern):
        previous_diagonal = 0.0
        for j, other in enumerate(seq, start=1):
            above = best[j]
            if term == other:
                best[j] = max(above, best[j - 1], previous_diagonal + weights[i])
            else:
                best[j] = max(above, best[j - 1])
            previous_diagonal = above
    return best[-1]


@dataclass(frozen=True)
class Fit:
    strength: Strength
    coverage: float
    wording: float
    identified: bool | None  # None: the entry has no codes or names to be identified by
    contradicted: bool


def fit(entry: EntryFacts, message: MessageFacts, idf: Callable[[str], float]) -> Fit:
    whole = sum(idf(t) for t in entry.wording)
    wording = _in_order(entry.wording, message.sequence, idf) / whole if whole else 0.0
    identifiers = entry.shown
    message_codes = frozenset().union(*message.codes.values()) if message.codes else frozenset()
    entry_names = {name for _, name in entry.names}
    identified = bool(entry.all_codes & message_codes) or bool(entry_names & {name for _, name in message.names})
    slots = {slot for slot, _ in entry.names}
    contradicted = not identified and (
        any(kind in CONTRADICTING_KINDS and message.codes.get(kind) for kind in entry.codes)
        or any(slot in slots for slot, _ in message.names)  # another name where the entry has its own
    )
    # a code in the tags only: its presence confirms, its absence is no evidence (the pattern does not show one)
    coverage = (wording + float(identified)) / 2 if identifiers or identified else wording
    coverage = max(coverage, wording) if not identifiers else coverage
    if contradicted:
        strength: Strength = "weak"
    elif coverage >= EXACT:
        strength = "exact"
    elif coverage > LIKELY:
        strength = "likely"
    else:
        strength = "weak"
    known = identifiers or bool(entry.codes)
    return Fit(strength, round(coverage, 2), round(wording, 2), identified if known else None, contradicted)
