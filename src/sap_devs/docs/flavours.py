"""Flavours: the variants of one SAP technology whose pages look alike but answer differently.

OData V2 or V4 (and Fiori elements built on them), CAP on Node.js or Java, ABAP Cloud or Standard
ABAP, the Cloud Foundry, Kyma or Neo environment. A question about V4 is badly served by the V2
page even when its words match better, so the search detects which flavour a question is about and
demotes pages of another flavour on the same axis, unless the question names that flavour too.

Both sides are detected by the same kind of evidence: a question by the words it uses; a page by
its path and title (what it says it is about) or, failing that, by its text naming one flavour many
times and the others hardly ever. A page that talks about two flavours of an axis has none on it.
The page side runs once, at index build time, and is stored with the page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Flavour:
    name: str
    axis: str
    query: re.Pattern[str]  # words a question uses when it is about this flavour
    label: re.Pattern[str]  # a page's path or title saying it is about this flavour
    text: re.Pattern[str]  # how a page's text names the flavour


def _re(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.I)


FLAVOURS: tuple[Flavour, ...] = (
    Flavour(
        "odata-v2",
        "odata",
        _re(
            r"\bv2\b|odata ?2\b|odata-v2|\bsap\.suite\.ui\.generic|\bodata\.v2\b|"
            r"\bsmart ?(table|filter ?bar|field|form|chart|controls?)\b|\bannotationhelper\b"
        ),
        _re(r"\bv2\b|odata ?v2|odata-v2|\bsap\.suite\.ui\.generic|\bodata\.v2\b|/v2/"),
        _re(r"\bodata v2\b|\bodata version 2\b|\bsap\.ui\.model\.odata\.v2\b|\bsap\.suite\.ui\.generic\.template\b"),
    ),
    Flavour(
        "odata-v4",
        "odata",
        _re(
            r"\bv4\b|odata ?4\b|odata-v4|\bsap\.fe\b|\bodata\.v4\b|flexible programming model|\bfpm\b|"
            r"\bbuilding blocks?\b|\bmacros?:"
        ),
        _re(r"\bv4\b|odata ?v4|odata-v4|\bsap\.fe\b|\bodata\.v4\b|flexible programming model|building block|/v4/"),
        _re(r"\bodata v4\b|\bodata version 4\b|\bsap\.ui\.model\.odata\.v4\b|\bsap\.fe\.|flexible programming model"),
    ),
    Flavour(
        "cap-node",
        "cap",
        _re(
            r"node\.?js|\bnode\b|javascript|\bjs\b|typescript|\bnpm\b|\bexpress\b|\bcds\.(ql|services|connect|env)\b|"
            r"\bsrv\.on\b"
        ),
        _re(r"^node\.js/|node\.?js|typescript|javascript"),
        _re(r"\bnode\.?js\b"),
    ),
    Flavour(
        "cap-java",
        "cap",
        # a Java exception class by its camel-cased name ("DestinationAccessException"), case-sensitive: ABAP's
        # exception classes (CX_..._EXCEPTION, ZCX_MYEXCEPTION, zcx_myexception) are not written that way
        _re(
            r"\bjava\b|\bspring\b|\bmaven\b|\bpom\.xml\b|cds-services|\bcds4j\b|\bjvm\b|\bcqn ?(select|insert)|"
            r"(?-i:[a-z]Exception)\b"
        ),
        _re(r"^java/|\bjava\b|spring boot"),
        _re(r"\bjava\b|spring boot|\bmaven\b"),
    ),
    Flavour(
        "abap-cloud",
        "abap",
        _re(
            r"abap cloud|steampunk|abap environment|btp abap|abap on btp|released (api|object)s?|\bc1 (contract|release)"
        ),
        _re(r"abap cloud|abap environment|steampunk"),
        _re(r"\babap cloud\b|\babap environment\b|\bsteampunk\b"),
    ),
    Flavour(
        "abap-standard",
        "abap",
        _re(r"standard abap|classic abap|classical abap|\bsap ?gui\b|\bdynpros?\b|\bse(11|24|37|38|80)\b|\becc\b"),
        _re(r"standard abap|classic abap|\bdynpro|sap gui"),
        _re(r"\bstandard abap\b|\bclassic abap\b|\bdynpros?\b|\bsap gui\b"),
    ),
    Flavour(
        "cloud-foundry",
        "environment",
        _re(r"cloud ?foundry|\bcf\b|\bmtar?\b|\bmta\.yaml\b|\bbuildpacks?\b|\bmanifest\.ya?ml\b|\bcf (push|cli)\b"),
        _re(r"cloud foundry|cloud-foundry|\bcf\b"),
        _re(r"\bcloud foundry\b"),
    ),
    Flavour(
        "kyma",
        "environment",
        _re(r"\bkyma\b|kubernetes|\bk8s\b|\bhelm\b|\bpods?\b|\bkubectl\b|\bistio\b|\bapirule\b"),
        _re(r"\bkyma\b|kubernetes"),
        _re(r"\bkyma\b|\bkubernetes\b"),
    ),
    Flavour(
        "neo",
        "environment",
        _re(r"\bneo\b"),
        _re(r"\bneo\b|(^|/)neo/"),
        _re(r"\bneo environment\b|\bneo\b"),
    ),
)
BY_NAME = {f.name: f for f in FLAVOURS}
NAMES = tuple(f.name for f in FLAVOURS)
TEXT_MIN = 3  # mentions of a flavour for the text alone to give a page that flavour
TEXT_RATIO = 5  # ... and this many times the mentions of the axis' other flavours together
TEXT_CHARS = 60_000  # the text read per page (the largest pages are reference dumps)
OPENING_CHARS = 400  # where a page says what it is about
# Kyma's APIRule has versions too ("APIRule v2", "migrate ... v1beta1 to v2"): that v2 is not OData's
_NOT_ODATA = re.compile(r"\bapi ?rules?\b[^\n]{0,40}\bv\d\w*\b|\bv1beta1\b[^\n]{0,30}?\bv2\b", re.I)
# "For information about SAP Fiori elements for OData V4, see [...]": to the end of its line, within a paragraph
_POINTER = re.compile(r"for (?:more )?information (?:about|on) (?:[^\n]|\n(?!\s*\n))*?,? see [^\n]*", re.I)


def of_query(query: str) -> frozenset[str]:
    """The flavours a question names."""
    query = _NOT_ODATA.sub(" ", query)
    return frozenset(f.name for f in FLAVOURS if f.query.search(query))


def of_page(path: str, title: str, text: str, declared: Iterable[str] = ()) -> frozenset[str]:
    """The flavours a page is about: at most one per axis, none where it covers several.

    ``declared`` are flavours its source says the page has (the Cloud SDK's docs-js pages are all about
    Node.js): they stand, and their axes are not looked at.

    Evidence in order: the path and title; the opening (SAP's pages declare it there: "This topic is
    relevant to SAP Fiori elements for OData V2", "... in SAP Fiori elements for OData V4."); the text as
    a whole. Pointers to the other flavour's page ("For information about ... V4, see ...") are not
    evidence of the page's own flavour and are left out."""
    found = {n for n in declared if n in BY_NAME}
    settled = {BY_NAME[n].axis for n in found}
    label = _NOT_ODATA.sub(" ", f"{path}\n{title}")
    body = _NOT_ODATA.sub(" ", _POINTER.sub("", text[:TEXT_CHARS]))
    opening = body[:OPENING_CHARS]
    for axis in dict.fromkeys(f.axis for f in FLAVOURS if f.axis not in settled):
        members = [f for f in FLAVOURS if f.axis == axis]
        labelled = [f for f in members if f.label.search(label)]
        if not labelled:
            labelled = [f for f in members if f.text.search(opening)]
        if len(labelled) == 1:
            found.add(labelled[0].name)
            continue
        if labelled:  # the title or opening names two flavours of the axis ("from V2 to V4"): about both
            continue
        counts = {f.name: len(f.text.findall(body)) for f in members}
        for name, n in counts.items():
            others = sum(counts.values()) - n
            if n >= TEXT_MIN and n >= TEXT_RATIO * others:
                found.add(name)
    return frozenset(found)


def other_flavour(page: Iterable[str], asked: frozenset[str]) -> bool:
    """Whether a page is of a flavour the question did not ask for, on an axis the question is about."""
    asked_axes = {BY_NAME[n].axis for n in asked}
    for name in page:
        flavour = BY_NAME.get(name)
        if flavour is not None and flavour.axis in asked_axes and name not in asked:
            return True
    return False


def encode(names: Iterable[str]) -> str:
    return " ".join(n for n in NAMES if n in set(names))


def decode(stored: str | None) -> tuple[str, ...]:
    return tuple(n for n in (stored or "").split() if n in BY_NAME)
