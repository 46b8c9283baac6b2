"""Turning text into search terms the way SAP developers write: synonyms, compounds, light stemming.

Applied identically to documents and queries, so "Cloud Foundry", "CF" and "cf" meet, "SAPUI5" and
"UI5" meet, "deploying" and "deployment" meet, and ABAP names such as CX_SY_ZERODIVIDE stay whole.
"""

from __future__ import annotations

import re
from functools import lru_cache

STOP_WORDS = frozenset(
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
        "should",
        "would",
        "could",
        "want",
        "need",
        "please",
        "help",
        "about",
        "after",
        "before",
        "than",
        "then",
        "also",
        "just",
        # pronouns: "them" is what "theme" and "theming" stem to, "these" and "those" are no topic
        "them",
        "they",
        "these",
        "those",
    ]
)

# multi-word names replaced by one canonical term (on lower-cased text, word boundaries)
PHRASES: list[tuple[str, str]] = [
    (r"(?:abap )?restful application programming(?: model)?", "rap"),
    (r"cloud application programming(?: model)?", "cap"),
    (r"business application studio", "bas"),
    (r"business technology platform", "btp"),
    (r"cloud platform integration", "cpi"),  # before "sap cloud platform": SAP Cloud Platform Integration is CPI
    (r"sap cloud platform(?! integration)", "btp"),  # the old name of SAP BTP: SCP
    (r"cloud integration(?! automation| for data)", "cpi"),  # SAP Cloud Integration; not CIAS or CPI-DS
    (r"(?<!robotic )(?:sap )?(?:build )?process automation", "spa"),  # SAP Build Process Automation: SBPA, BPA, SPA
    (r"core data services?", "cds"),
    (r"multi-?target applications?", "mta"),
    (r"(?:sap )?cloud identity services?", "ias"),
    (r"identity authentication(?: service)?", "ias"),
    (r"authori[sz]ation and trust management(?: service)?", "xsuaa"),
    (r"xs[ -]uaa", "xsuaa"),
    (r"user account and authentication(?: service)?", "uaa"),
    (r"hana deployment infrastructure", "hdi"),
    (r"entity manipulation language", "eml"),
    (r"(?:abap )?test cockpit", "atc"),
    (r"open data protocol", "odata"),
    (r"web ?ide", "webide"),  # SAP Web IDE, also written WebIDE
    (r"mobile development kit", "mdk"),
    (r"advanced event mesh", "aem"),
    (r"ci ?/ ?cd|continuous integration(?: and|,| &)? (?:continuous )?(?:delivery|deployment)", "cicd"),
    (r"s/4(?: ?hana)?|s4 hana", "s4hana"),  # also "S/4" alone
    (r"cloud foundry", "cf"),
    (r"api management", "apim"),
    (r"integration flows?", "iflow"),
    (r"node\.js|node js", "nodejs"),
    (r"ui5 tooling|ui5 cli", "ui5cli"),
    (r"abap development tools", "adt"),
    # SAP terms built on a stop word: without these "value help" searched for "value" alone
    (r"(?:value|f4)[ -]?help", "valuehelp"),
    (r"mutual[ -]tls", "mtls"),
    # the credentials' keys as bindings write them (clientid, clientsecret) and as prose does
    (r"client[ _-]?id", "clientid"),
    (r"client[ _-]?secret", "clientsecret"),
    (r"service[ _-]?keys?", "servicekey"),
    (r"fall[ -]?backs?", "fallback"),
    (r"where[ -]used(?: list)?", "whereused"),
]
# one alternation, one pass per text: each phrase is its own group, replaced by its canonical term
_PHRASE_RE = re.compile(r"(?<![a-z0-9])(?:" + "|".join(f"({p})" for p, _ in PHRASES) + r")(?![a-z0-9])")
_PHRASE_TERMS = [t for _, t in PHRASES]


def _canonical(match: re.Match[str]) -> str:
    return _PHRASE_TERMS[match.lastindex - 1] if match.lastindex else match.group()


# single words with one meaning under several spellings
ALIASES = {
    "sapui5": "ui5",
    "openui5": "ui5",
    "s4": "s4hana",
    "mtar": "mta",
    "mtars": "mta",
    "node": "nodejs",
    "k8s": "kubernetes",
    "cloudfoundry": "cf",
    "appstudio": "bas",
    "scp": "btp",
    "bpa": "spa",
    "sbpa": "spa",
    "uaa": "xsuaa",
    "capm": "cap",
    "javascript": "js",
    "typescript": "ts",
    "postgresql": "postgres",
    "golang": "go",
    "dockerfile": "docker",
    "docs": "documentation",
    "doc": "documentation",
    # developers' short forms of the words the documentation writes out
    "config": "configuration",
    "configs": "configuration",
    "auth": "authentication",
    "prem": "premise",  # on-prem
    "apis": "api",  # not stemmed: words ending in "is" keep their s (analysis, basis)
    "repo": "repository",
    "repos": "repository",
    "creds": "credentials",
    "devs": "developers",
    "prod": "production",
}

# related terms added to a query with a lower weight (keys and values are analysed below)
_RELATED_WORDS = {
    "kubernetes": ("kyma",),
    "kyma": ("kubernetes",),
    "xsuaa": ("authorization",),
    "ias": ("authentication",),
    "cpi": ("iflow",),  # SAP Cloud Integration (CPI) runs integration flows
    "iflow": ("cpi",),
}

# product names written in mixed case that camelCase splitting would break apart
_PRODUCTS = re.compile(r"(?<![A-Za-z0-9])(?:open|sap)ui5(?![A-Za-z0-9])", re.I)
# ODataModel -> odataModel -> "odata model"; mTLS and IdP stay one word ("mtls", "idp"), not "m tls", "id p"
_MIXED_CASE = re.compile(r"(?<![A-Za-z0-9])(?:OData|iFlow|RESTful|mTLS|IdP)")
# "IS" for SAP Integration Suite: only in capitals, and not inside capitalised code such as ABAP's
# "IS INITIAL" / "IS NOT BOUND" or an all-caps sentence ("WHAT IS"); never "IS-U" (an industry solution)
_INTEGRATION_SUITE = re.compile(r"(?:(?<=SAP )|(?<![A-Z]{2} ))(?<![\w-])IS(?![\w-])(?! *[A-Z]{2})")
# an acronym's plural (APIs, URLs, JWTs) is one word, not "AP" + "Is"
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z0-9])(?=[A-Z][a-z])(?![A-Z]s(?![a-z]))")
# starts only at a word start and never gives back what it took: linear on a 60,000-letter "word"
# (the plain form retried from every letter, quadratic)
_COMPOUND = re.compile(r"(?<![a-z0-9])[a-z][a-z0-9]*+(?:_[a-z0-9]++)+")
_WORD = re.compile(r"[a-z0-9]+")
# contractions as written out: "isn't" is "is not", not the terms "isn" and "t" (which every question in
# the words of a developer would otherwise carry as two more terms to find); "'s" stays, as "it's" and
# the possessive are one spelling (dropping it cost the docs tuning set a hit)
_CANT_WONT = re.compile(r"(?<![a-z0-9])(ca|wo)n['\u2019]t(?![a-z0-9])", re.I)
_NOT = re.compile(r"(?<=[a-z])n['\u2019]t(?![a-z0-9])", re.I)
_SUFFIX = re.compile(r"(?<=[a-z])['\u2019](?:re|ve|ll|d|m)(?![a-z0-9])", re.I)


def stem(word: str) -> str:
    """A light English stemmer: deploy / deploying / deployed / deployment / deploys -> deploy."""
    if len(word) <= 3 or not word.isalpha():
        return word
    original = word
    for suffix, keep in (("ations", 4), ("ation", 4), ("ments", 4), ("ment", 4), ("ings", 4), ("ing", 4), ("ies", 3)):
        if word.endswith(suffix) and len(word) - len(suffix) >= keep:
            word = word[: -len(suffix)] + ("y" if suffix == "ies" else "")
            break
    else:
        if (word.endswith("ed") and len(word) > 5) or (word.endswith("es") and len(word) > 4 and word[-3] in "sxz"):
            word = word[:-2]
        elif word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 4:
            word = word[:-1]
    if word != original and len(word) >= 4 and word[-1] == word[-2] and word[-1] not in "aeioulsz":
        word = word[:-1]  # running -> runn -> run, but xsuaa and webapp stay
    if word.endswith("e") and len(word) > 4:
        word = word[:-1]  # require / required -> requir
    return word


@lru_cache(maxsize=65536)
def _term(word: str) -> str:
    word = ALIASES.get(word, word)
    return word if "_" in word else stem(word)


def analyze(text: str) -> list[str]:
    """Search terms of ``text``, in order, stop words dropped."""
    if not text:
        return []
    if "'" in text or "\u2019" in text:
        text = _CANT_WONT.sub(lambda m: "can not" if m.group(1).lower() == "ca" else "will not", text)
        text = _SUFFIX.sub("", _NOT.sub(" not", text))
    text = _INTEGRATION_SUITE.sub("integration suite", _MIXED_CASE.sub(lambda m: m.group().lower(), text))
    text = _CAMEL.sub(" ", _PRODUCTS.sub("ui5", text)).lower()
    text = _PHRASE_RE.sub(_canonical, text)
    terms = [m.group() for m in _COMPOUND.finditer(text)]  # ABAP and other underscore names, kept whole
    terms += [_term(w) for w in _WORD.findall(text) if w not in STOP_WORDS]
    return terms


RELATED = {_term(k): tuple(_term(v) for v in vs) for k, vs in _RELATED_WORDS.items()}


def normalise_phrase(text: str) -> str:
    """Lower-cased, canonical, single-spaced text for exact phrase checks."""
    return " ".join(analyze(text))
