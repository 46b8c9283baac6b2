"""SAP's lists of released ABAP APIs and their successors (the "Cloudification Repository").

SAP publishes, in the GitHub repository SAP/abap-atc-cr-cv-s4hc, the content of the ATC check
"Usage of Released APIs": for every SAP object that matters to custom code, its release state for
ABAP Cloud and, for objects not to be used, the objects that replace it. There is one list per
product (SAP Cloud ERP public cloud, SAP Cloud ERP Private / on-premise, SAP BTP ABAP environment)
and one list of classic APIs with their clean-core classification for private cloud / on-premise.

This module parses those upstream files into one compact dataset (the bundled snapshot and the
synced cache share its shape), loads it lazily on the first lookup and answers "may I use this
object, and if not, what instead?" without an ABAP system.

Dataset shape: ``{"format": 1, "source": str, "as_of": {section: date}, "sections": {section:
[row, ...]}}`` where a row is one tab-separated string per object. Rows are strings rather than
JSON objects because the four lists hold about 75,000 objects: as strings they cost a tenth of
the memory and load several times faster, and only the rows a lookup hits are ever split.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import gzip
import io
import json
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from sap_devs.core import cache
from sap_devs.live.snapshot import DATA_DIR

Target = Literal["cloud", "private", "btp"]
TARGETS: tuple[Target, ...] = ("cloud", "private", "btp")
CLASSIFICATIONS = "classifications"
SECTIONS = (*TARGETS, CLASSIFICATIONS)
TARGET_TITLES: dict[str, str] = {
    "cloud": "SAP Cloud ERP (public cloud)",
    "private": "SAP Cloud ERP Private / on-premise",
    "btp": "SAP BTP ABAP environment",
}
UPSTREAM_REPO = "SAP/abap-atc-cr-cv-s4hc"
UPSTREAM_BRANCH = "main"
# The files the ATC check itself reads (see the repository's README); CSV where SAP offers one
# because it is a third of the size of the matching JSON.
UPSTREAM_FILES: dict[str, str] = {
    "cloud": "src/objectReleaseInfoLatest.csv",
    "private": "src/objectReleaseInfo_PCELatest.csv",
    "btp": "src/objectReleaseInfo_BTPLatest.json",
    CLASSIFICATIONS: "src/objectClassifications_SAP.json",
}
CACHE_NAME = "released-apis/index"
TTL = dt.timedelta(days=7)
BUNDLED_FILE = "released-apis-baseline.json.gz"
FORMAT = 1
NAME_MAX = 120  # objectKey's maxLength in SAP's schema

STATE_MEANINGS: dict[str, str] = {
    "released": "Released for ABAP Cloud (release contract C1): ABAP for Cloud Development code may use it, "
    "and it stays compatible across upgrades.",
    "deprecated": "Was released, now deprecated: existing code still works, but the ATC check reports it; "
    "new code should use the successor.",
    "notToBeReleased": "Not released for ABAP Cloud and SAP does not plan to release it: ABAP Cloud code "
    "cannot use it; use a successor.",
    "notToBeReleasedStable": "Not released for ABAP Cloud and not planned to be, but SAP marks it as stable: "
    "classic ABAP may rely on it, ABAP Cloud code cannot use it.",
    "classicAPI": "A classic API: not released for ABAP Cloud, but SAP recommends it for classic ABAP "
    "(clean core level B) in SAP Cloud ERP Private / on-premise.",
    "internalAPI": "An SAP-internal object: not an API; classic ABAP that uses it is at clean core level C.",
    "noAPI": "Not an API: SAP advises against using it at all (clean core level D); use a successor.",
}
CLEAN_CORE_LEVELS: dict[str, str] = {
    "released": "A (released API: ABAP Cloud)",
    "classicAPI": "B (classic API)",
    "internalAPI": "C (SAP-internal object)",
    "noAPI": "D (no API: not to be used)",
}
LABEL_MEANINGS: dict[str, str] = {
    "remote-enabled": "remote-enabled (RFC)",
    "transactional-consistent": "transactional-consistent (commit/rollback respected)",
}
TYPE_NAMES: dict[str, str] = {
    "TABL": "database table or structure",
    "CDS_STOB": "CDS entity",
    "DDLS": "CDS entity",
    "BDEF": "behavior definition (RAP business object)",
    "CLAS": "class",
    "INTF": "interface",
    "FUNC": "function module",
    "DTEL": "data element",
    "DOMA": "domain",
    "TTYP": "table type",
    "BADI_DEF": "BAdI definition",
    "SUSO": "authorization object",
    "CHKO": "ATC check",
    "CHKC": "ATC check category",
    "CHKV": "ATC check variant",
    "IWSV": "OData service (Gateway)",
    "G4S": "OData V4 service group",
    "XSLT": "transformation",
    "MSAG": "message class",
    "SMTG": "email template",
    "DSFD": "scalar function definition",
    "DSFI": "scalar function implementation",
}


class ReleasedApiDataError(ValueError):
    """An upstream file or a dataset that is not in the expected shape."""


# --- rows -------------------------------------------------------------------------------------

# Row fields, in order; successors follow as (object_type, name, tadir_object) triples.
_OBJECT_TYPE, _NAME, _TADIR_OBJECT, _TADIR_NAME, _STATE, _SOFTWARE, _APPLICATION, _CONCEPT, _EXTRA = range(9)
_FIXED = 9


@dataclass(frozen=True)
class Successor:
    object_type: str
    name: str
    tadir_object: str


@dataclass(frozen=True)
class Entry:
    """One object of one list, decoded from its row."""

    object_type: str
    name: str
    tadir_object: str
    tadir_name: str
    state: str
    software_component: str
    application_component: str
    successor_concept: str
    extra: tuple[str, ...]
    """The API tier (private list) or the labels (classifications), as SAP gives them."""
    successors: tuple[Successor, ...]

    def matches_type(self, wanted: str | None) -> bool:
        return wanted is None or wanted in (self.object_type, self.tadir_object)


def normalise_name(name: str) -> str:
    """Names compare upper-case with whitespace runs collapsed (service keys are padded with spaces)."""
    return " ".join(name.split()).upper()


def _clean(value: Any) -> str:
    return " ".join(str(value or "").split())


def _camel_state(value: str) -> str:
    """SAP's CSVs say NOT_TO_BE_RELEASED_STABLE where its JSON says notToBeReleasedStable."""
    value = value.strip()
    if "_" not in value and not value.isupper():
        return value
    first, *rest = value.lower().split("_")
    return first + "".join(part.capitalize() for part in rest)


def _encode(
    *,
    object_type: str,
    name: str,
    tadir_object: str,
    tadir_name: str,
    state: str,
    software: str,
    application: str,
    concept: str,
    extra: Iterable[str],
    successors: Iterable[tuple[str, str, str]],
) -> str:
    object_type, name = _clean(object_type).upper(), normalise_name(name)
    tadir_object, tadir_name = _clean(tadir_object).upper(), normalise_name(tadir_name)
    fields = [
        object_type,
        name,
        "" if tadir_object == object_type else tadir_object,  # most rows repeat it: kept only when it differs
        "" if tadir_name == name else tadir_name,
        _camel_state(_clean(state)),
        _clean(software),
        _clean(application),
        _clean(concept),
        ",".join(_clean(x) for x in extra if _clean(x)),
    ]
    for s_type, s_name, s_tadir in successors:
        s_type, s_tadir = _clean(s_type).upper(), _clean(s_tadir).upper()
        fields += [s_type, normalise_name(s_name), "" if s_tadir == s_type else s_tadir]
    return "\t".join(fields)


def decode(row: str) -> Entry:
    parts = row.split("\t")
    if len(parts) < _FIXED or (len(parts) - _FIXED) % 3:
        raise ReleasedApiDataError(f"malformed row {row[:80]!r}")
    successors = tuple(
        Successor(parts[i], parts[i + 1], parts[i + 2] or parts[i]) for i in range(_FIXED, len(parts), 3)
    )
    return Entry(
        object_type=parts[_OBJECT_TYPE],
        name=parts[_NAME],
        tadir_object=parts[_TADIR_OBJECT] or parts[_OBJECT_TYPE],
        tadir_name=parts[_TADIR_NAME] or parts[_NAME],
        state=parts[_STATE],
        software_component=parts[_SOFTWARE],
        application_component=parts[_APPLICATION],
        successor_concept=parts[_CONCEPT],
        extra=tuple(x for x in parts[_EXTRA].split(",") if x),
        successors=successors,
    )


def _row_key(row: str) -> str:
    return row.split("\t", 2)[_NAME]


# --- parsing SAP's files ---------------------------------------------------------------------


def parse_release_csv(text: str) -> list[str]:
    """Rows from a release-info CSV: the public-cloud file (``;``, successor columns repeat the
    object column names) or the private-cloud file (``,``, ``successor_*`` columns and an API tier).
    SAP writes one line per successor; they are merged into one row per object."""
    text = text.lstrip("\ufeff")
    header_line = text.split("\n", 1)[0]
    delimiter = ";" if header_line.count(";") > header_line.count(",") else ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    try:
        header = [h.strip().lower() for h in next(reader)]
    except StopIteration:
        raise ReleasedApiDataError("the release-info CSV is empty") from None

    def column(name: str, nth: int = 0, *, required: bool = True) -> int | None:
        hits = [i for i, h in enumerate(header) if h == name]
        if len(hits) > nth:
            return hits[nth]
        if required:
            raise ReleasedApiDataError(f"the release-info CSV has no column {name!r} (header: {header_line[:200]!r})")
        return None

    obj = [column(n) for n in ("tadir_object", "tadir_obj_name", "object_type", "object_key")]
    succ = [
        column(f"successor_{n}", required=False)
        for n in ("tadir_object", "tadir_obj_name", "object_type", "object_name")
    ]
    if None in succ:  # the public-cloud layout: the second occurrence of each object column
        succ = [column(n, 1, required=False) for n in ("tadir_object", "tadir_obj_name", "object_type", "object_key")]
    state, software, application = column("state"), column("software_component"), column("application_component")
    concept = column("successor_concept_name", required=False)
    tier = column("api typ", required=False)

    merged: dict[tuple[str, str], dict[str, Any]] = {}
    for raw in reader:
        if not any(cell.strip() for cell in raw):
            continue
        cells = raw + [""] * (len(header) - len(raw))

        def cell(i: int | None, cells: list[str] = cells) -> str:
            return cells[i].strip() if i is not None and i < len(cells) else ""

        object_type, name = cell(obj[2]).upper(), normalise_name(cell(obj[3]))
        if not object_type or not name:
            continue
        record = merged.setdefault(
            (object_type, name),
            {
                "object_type": object_type,
                "name": name,
                "tadir_object": cell(obj[0]),
                "tadir_name": cell(obj[1]),
                "state": cell(state),
                "software": cell(software),
                "application": cell(application),
                "concept": cell(concept),
                "extra": [cell(tier)] if cell(tier) else [],
                "successors": [],
            },
        )
        s_type, s_name = cell(succ[2]), cell(succ[3])
        if s_type and s_name and (s_type, s_name, cell(succ[0])) not in record["successors"]:
            record["successors"].append((s_type, s_name, cell(succ[0])))
    if not merged:
        raise ReleasedApiDataError("the release-info CSV has a header but no objects")
    return sorted(_encode(**r) for r in merged.values())


def _json_objects(text: str, key: str) -> list[dict[str, Any]]:
    try:
        payload = json.loads(text)
    except ValueError as exc:
        raise ReleasedApiDataError(f"not valid JSON ({exc})") from None
    items = payload.get(key) if isinstance(payload, dict) else None
    if not isinstance(items, list):
        raise ReleasedApiDataError(f"the JSON file has no {key!r} list")
    return [item for item in items if isinstance(item, dict)]


def _json_rows(items: list[dict[str, Any]], *, labels: bool) -> list[str]:
    rows = []
    for item in items:
        if not item.get("objectType") or not item.get("objectKey"):
            continue
        successors = [
            (s.get("objectType", ""), s.get("objectKey", ""), s.get("tadirObject", ""))
            for s in item.get("successors") or []
            if isinstance(s, dict) and s.get("objectType") and s.get("objectKey")
        ]
        rows.append(
            _encode(
                object_type=item["objectType"],
                name=item["objectKey"],
                tadir_object=item.get("tadirObject", ""),
                tadir_name=item.get("tadirObjName", ""),
                state=item.get("state", ""),
                software=item.get("softwareComponent", ""),
                application=item.get("applicationComponent", ""),
                concept=item.get("successorConceptName", ""),
                extra=[str(x) for x in item.get("labels") or []] if labels else [],
                successors=successors,
            )
        )
    if not rows:
        raise ReleasedApiDataError("the JSON file lists no objects")
    return sorted(set(rows))


def parse_release_json(text: str) -> list[str]:
    """Rows from a release-info JSON file (``objectReleaseInfo``, format version 1)."""
    return _json_rows(_json_objects(text, "objectReleaseInfo"), labels=False)


def parse_classifications_json(text: str) -> list[str]:
    """Rows from a classic-API file (``objectClassifications``, format version 2)."""
    return _json_rows(_json_objects(text, "objectClassifications"), labels=True)


def parse_upstream(section: str, text: str) -> list[str]:
    """Rows of one section from the text of its upstream file (CSV or JSON, by the file name)."""
    if section == CLASSIFICATIONS:
        return parse_classifications_json(text)
    if UPSTREAM_FILES[section].endswith(".csv"):
        return parse_release_csv(text)
    return parse_release_json(text)


def build_dataset(sections: dict[str, list[str]], *, as_of: dict[str, str], source: str) -> dict[str, Any]:
    return {"format": FORMAT, "source": source, "as_of": as_of, "sections": sections}


def validate_dataset(data: Any) -> dict[str, Any]:
    """The dataset itself, or ReleasedApiDataError when it is not one this version can read."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ReleasedApiDataError("not a released-API dataset of this version")
    sections = data.get("sections")
    if not isinstance(sections, dict) or any(
        not isinstance(sections.get(s), list) or not sections[s] for s in SECTIONS
    ):
        raise ReleasedApiDataError("the released-API dataset lacks one of its lists")
    for rows in sections.values():
        if not all(isinstance(r, str) for r in rows):
            raise ReleasedApiDataError("the released-API dataset holds a row that is not text")
    if not isinstance(data.get("as_of"), dict):
        raise ReleasedApiDataError("the released-API dataset has no dates")
    return data


# --- loading ---------------------------------------------------------------------------------


@dataclass
class Dataset:
    """The loaded lists, indexed by normalised name on first use of each list."""

    data: dict[str, Any]
    origin: Literal["cache", "baseline"]
    age: str | None = None
    """How long ago the cache was synced ("3 h"); None for the bundled snapshot."""
    stale: bool = False
    _index: dict[str, dict[str, list[str]]] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def source(self) -> str:
        return str(self.data.get("source") or UPSTREAM_REPO)

    def as_of(self, section: str) -> str:
        return str(self.data["as_of"].get(section) or "unknown date")

    def count(self, section: str) -> int:
        return len(self.data["sections"][section])

    def lookup(self, section: str, name: str) -> list[Entry]:
        index = self._index.get(section)
        if index is None:
            with self._lock:
                index = self._index.get(section)
                if index is None:
                    index = {}
                    for row in self.data["sections"][section]:
                        index.setdefault(_row_key(row), []).append(row)
                    self._index[section] = index
        out = []
        for row in index.get(normalise_name(name), ()):
            try:
                out.append(decode(row))
            except ReleasedApiDataError:
                continue  # one damaged row must not hide the others
        return out

    def describe(self) -> str:
        """Where the answer comes from and how old it is, in one phrase."""
        if self.origin == "baseline":
            return f"snapshot bundled with sap-devs ({self.source}, data as of {self.as_of('cloud')})"
        return f"cache synced {self.age} ago from {self.source}"


_baseline_lock = threading.Lock()
_baseline: Dataset | None = None
_cached: tuple[cache.Cached, Dataset | None] | None = None


def load_baseline() -> Dataset:
    global _baseline
    if _baseline is None:
        with _baseline_lock:
            if _baseline is None:
                raw = gzip.decompress((DATA_DIR / BUNDLED_FILE).read_bytes())
                _baseline = Dataset(validate_dataset(json.loads(raw)), "baseline")
    return _baseline


def bundled() -> tuple[int, str]:
    """Objects and date of the lists bundled with sap-devs (what is served before the first sync)."""
    data = load_baseline().data
    dates = data.get("as_of") or {}
    sections = data.get("sections") or {}
    objects = sum(len(rows) for name, rows in sections.items() if name != "classifications")
    return objects, max(dates.values()) if isinstance(dates, dict) and dates else "unknown"


def load() -> Dataset:
    """The synced cache when it holds a usable dataset, else the bundled snapshot.

    The cache is checked on every call (a stat, memoised by the cache module) so that a sync run in
    another process is picked up; each version is indexed once.
    """
    global _cached
    synced = cache.read(CACHE_NAME, expect=dict)
    if synced is not None:
        if _cached is not None and _cached[0] is synced:
            dataset = _cached[1]
        else:
            try:
                dataset = Dataset(validate_dataset(synced.data), "cache")
            except ReleasedApiDataError:
                dataset = None  # remembered, so an unusable file is checked once per version, not per call
            _cached = (synced, dataset)
        if dataset is None:
            return load_baseline()
        dataset.age = synced.age_text()
        dataset.stale = not synced.fresh(TTL)
        return dataset
    return load_baseline()


# --- answering -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """What the lists say about one object (or one name that none of them knows)."""

    asked: str
    target: Target
    found: bool
    entry: Entry | None = None
    classification: Entry | None = None
    also_listed: tuple[str, ...] = ()
    listed_as: tuple[str, ...] = ()
    """Object types the name is listed under when the object_type filter excluded them all."""
    successor_states: tuple[str | None, ...] = ()
    """Each successor's own state in the target's list (None when the list does not know it)."""

    @property
    def state(self) -> str | None:
        if self.entry is not None:
            return self.entry.state
        return self.classification.state if self.classification is not None else None

    @property
    def meaning(self) -> str | None:
        state = self.state
        return STATE_MEANINGS.get(state, f"State '{state}' as given by SAP.") if state else None

    @property
    def successors(self) -> tuple[Successor, ...]:
        for source in (self.entry, self.classification):
            if source is not None and source.successors:
                return source.successors
        return ()

    @property
    def successor_concept(self) -> str | None:
        for source in (self.entry, self.classification):
            if source is not None and source.successor_concept:
                return source.successor_concept
        return None

    @property
    def clean_core_level(self) -> str | None:
        if self.target != "private" or not self.found:
            return None
        if self.entry is not None and self.entry.state == "released":
            return CLEAN_CORE_LEVELS["released"]
        if self.classification is not None:
            return CLEAN_CORE_LEVELS.get(self.classification.state)
        return None

    @property
    def labels(self) -> list[str]:
        if self.classification is None:
            return []
        return [LABEL_MEANINGS.get(label, label) for label in self.classification.extra]

    @property
    def usable_in_abap_cloud(self) -> bool:
        return self.entry is not None and self.entry.state == "released"

    def sentence(self) -> str:
        """The verdict as one plain sentence an agent can pass on."""
        where = TARGET_TITLES[self.target]
        if not self.found:
            if self.listed_as:
                return (
                    f"{self.asked} is not listed with that object type for {where}; it is listed as "
                    f"{', '.join(self.listed_as)}: drop the object_type filter or correct it."
                )
            text = (
                f"{self.asked} is not in SAP's list for {where}: not released for ABAP Cloud; check the spelling "
                "or use a released successor."
            )
            if self.also_listed:
                text += f" It is listed for {'; '.join(self.also_listed)}."
            if self.asked[:1] in ("Z", "Y"):
                # the customer namespace: SAP's lists never cover these, so "not released" would mislead
                text += " Names starting with Z or Y are customer objects, which SAP's lists do not cover."
            return text
        head = f"{self.asked} ({self._type_text()})"
        state = self.state or ""
        if state == "released":
            return f"{head} is released for ABAP Cloud in {where}: use it."
        successors = ", ".join(
            f"{s.name} ({s.object_type}{', ' + state if state else ''})"
            for s, state in zip(self.successors[:8], self._padded_states(), strict=False)
        )
        if len(self.successors) > 8:
            successors += f" and {len(self.successors) - 8} more"
        if state == "deprecated":
            text = f"{head} is deprecated in {where}"
        elif state in ("classicAPI", "internalAPI", "noAPI"):
            text = f"{head} is not released for ABAP Cloud in {where}; SAP classifies it as {state}"
        elif state == "notToBeReleased":
            text = f"{head} is not released for ABAP Cloud in {where} and SAP will not release it"
        elif state == "notToBeReleasedStable":
            text = f"{head} is not released for ABAP Cloud in {where} and SAP will not release it (kept stable)"
        else:
            text = f"{head} is not released for ABAP Cloud in {where} (state '{state}')"
        if successors:
            text += f": use {successors} instead."
        elif self.successor_concept:
            text += f": SAP's successor is the concept '{self.successor_concept}'."
        else:
            text += ": SAP names no successor; look for a released API of the same application component" + (
                f" ({self.entry.application_component})." if self.entry and self.entry.application_component else "."
            )
        if self.target == "private" and self.classification is not None and self.classification.state == "classicAPI":
            text += " Classic ABAP (not ABAP Cloud) may call it as a classic API (clean core level B)."
        return text

    def _padded_states(self) -> list[str | None]:
        states = list(self.successor_states)
        return states + [None] * (len(self.successors) - len(states))

    def _type_text(self) -> str:
        source = self.entry or self.classification
        assert source is not None
        name = TYPE_NAMES.get(source.object_type) or TYPE_NAMES.get(source.tadir_object)
        return f"{source.object_type}, {name}" if name else source.object_type


def _state_of(dataset: Dataset, target: Target, successor: Successor) -> str | None:
    for section in (target, CLASSIFICATIONS) if target == "private" else (target,):
        for entry in dataset.lookup(section, successor.name):
            if successor.object_type in (entry.object_type, entry.tadir_object):
                return entry.state
    return None


def _with_successor_states(dataset: Dataset, verdict: Verdict) -> Verdict:
    if not verdict.successors:
        return verdict
    states = tuple(_state_of(dataset, verdict.target, s) for s in verdict.successors)
    return dataclasses.replace(verdict, successor_states=states)


def check(dataset: Dataset, names: Iterable[str], target: Target, object_type: str | None = None) -> list[Verdict]:
    """One verdict per object each name matches (a name can be, say, both a data element and a
    domain), or one ``found=False`` verdict for a name no list of ``target`` knows. Each successor
    carries its own state, so an agent sees at once whether the replacement is itself released."""
    return [_with_successor_states(dataset, v) for v in _check(dataset, names, target, object_type)]


def _check(dataset: Dataset, names: Iterable[str], target: Target, object_type: str | None) -> list[Verdict]:
    wanted = object_type.strip().upper() if object_type else None
    verdicts: list[Verdict] = []
    seen: set[str] = set()
    for raw in names:
        name = normalise_name(raw)
        if not name or name in seen:
            continue
        seen.add(name)
        listed = dataset.lookup(target, name)
        classified = dataset.lookup(CLASSIFICATIONS, name) if target == "private" else []
        entries = [e for e in listed if e.matches_type(wanted)]
        classes = [c for c in classified if c.matches_type(wanted)]
        if entries or classes:
            used: set[Entry] = set()
            for entry in entries:
                partner = next((c for c in classes if c.object_type == entry.object_type), None)
                if partner is not None:
                    used.add(partner)
                verdicts.append(Verdict(name, target, True, entry=entry, classification=partner))
            for extra in classes:
                if extra not in used:
                    verdicts.append(Verdict(name, target, True, classification=extra))
            continue
        if listed or classified:
            types = tuple(dict.fromkeys(e.object_type for e in (*listed, *classified)))
            verdicts.append(Verdict(name, target, False, listed_as=types))
            continue
        elsewhere = []
        for other in TARGETS:
            if other == target:
                continue
            hits = [e for e in dataset.lookup(other, name) if e.matches_type(wanted)]
            if hits:
                states = ", ".join(dict.fromkeys(e.state for e in hits))
                elsewhere.append(f"{TARGET_TITLES[other]} ({states})")
        verdicts.append(Verdict(name, target, False, also_listed=tuple(elsewhere)))
    return verdicts
