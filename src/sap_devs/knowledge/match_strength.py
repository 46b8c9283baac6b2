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
   "adding element with duplicate id") count as the one sentence they are not. The words must stay
   a phrase: each next word at most MAX_GAP words further on than in the pattern (a ``...``
   placeholder stands for up to PLACEHOLDER_SPAN words), and one matching word of a longer pattern
   counts as none. Variable parts (``...`` placeholders, paths, numbers, user identifiers, a
   ``file:line:col`` or CDS ``(in entity:“X”)`` location) are left out on both sides. Words that
   are parts of a code count as the code only when the pattern shows it (a code in the tags leaves
   the pattern's words alone).
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
The phrase rule (gap, placeholder span, two words) was added after the 142 entries of the corpus
merge, on tuning.yaml and the corpus's non-held-out messages.
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
    places: tuple[int, ...] = ()  # each wording term's place in the pattern, for the distance between them

    @classmethod
    def of(cls, pattern: str, tags: list[str]) -> EntryFacts:
        codes = coded(f"{pattern} {' '.join(tags)}")
        # JSON bodies quote their keys ("error", "fault"): those are structure, not names
        names = frozenset() if '":' in pattern else quoted_names(pattern)
        # a code's parts (CX_SY_REF_IS_INITIAL: cx, sy, ref, initial) belong to the code, counted once as
        # identity; only a code the pattern shows: a tag's DRAFT_NOT_EXISTING must not take "draft" and
        # "exists" out of "No draft for this entity exists", or "entity" alone would be its wording
        shown_codes = frozenset().union(*coded(pattern).values()) if coded(pattern) else frozenset()
        code_terms = set(shown_codes) | set(analyze(" ".join(shown_codes)))
        # each term with its place in the pattern, a placeholder counting as PLACEHOLDER_SPAN words
        placed: dict[str, int] = {}
        position = 0
        for n, segment in enumerate(_PLACEHOLDER.split(pattern)):
            position += PLACEHOLDER_SPAN if n else 0
            for term in analyze(strip_variable_parts(segment)):
                if term not in code_terms:
                    placed.setdefault(term, position)
                position += 1
        return cls(tuple(placed), codes, names, bool(coded(pattern)) or bool(names), tuple(placed.values()))

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

MAX_GAP = 3
"""Words a message may have between two of the pattern's words beyond those the pattern itself has
there (a quoted name, a path's last segment): a pattern is one phrase, so its words scattered over a
log line ("Expecting" at the start, "entity" in the location suffix) are not that phrase."""

PLACEHOLDER_SPAN = 30
"""Words a placeholder (``...``) of a pattern may stand for in a message."""


def _in_order(
    pattern: tuple[str, ...], places: tuple[int, ...], message: tuple[str, ...], idf: Callable[[str], float]
) -> tuple[float, int]:
    """The idf weight of the heaviest chain of ``pattern``'s words that ``message`` has in the same
    order, each next word at most MAX_GAP words further than in the pattern, and its number of words."""
    place = {term: i for i, term in enumerate(pattern)}
    weights = [idf(t) for t in pattern]
    # (position in message, position in pattern, weight and length of the best chain ending here)
    found: list[tuple[int, int, float, int]] = []
    for j, term in enumerate(message):
        i = place.get(term)
        if i is None:
            continue
        best, length = 0.0, 0
        for k in range(len(found) - 1, -1, -1):
            j2, i2, chain, words = found[k]
            if j - j2 > MAX_GAP + places[-1] - places[0]:
                break
            if i2 < i and j - j2 <= places[i] - places[i2] + MAX_GAP and chain > best:
                best, length = chain, words
        found.append((j, i, best + weights[i], length + 1))
        if len(found) >= MAX_SEQUENCE:
            break
    return max(((chain, words) for _, _, chain, words in found), default=(0.0, 0))


@dataclass(frozen=True)
class Fit:
    strength: Strength
    coverage: float
    wording: float
    identified: bool | None  # None: the entry has no codes or names to be identified by
    contradicted: bool


def fit(entry: EntryFacts, message: MessageFacts, idf: Callable[[str], float]) -> Fit:
    whole = sum(idf(t) for t in entry.wording)
    chain, words = _in_order(entry.wording, entry.places, message.sequence, idf)
    # one rare word of a longer pattern is a coincidence, not the pattern's sentence
    wording = chain / whole if whole and (words >= 2 or len(entry.wording) < 2) else 0.0
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
