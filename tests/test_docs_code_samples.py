"""Every code sample of the bundled documentation sources reaches read_doc as written: an agent copies
them. Markup cleaning, table flattening and blank-line folding apply to prose only (SAP-docs keep most
samples in blockquotes, the ABAP cheat sheets theirs in HTML tables)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sap_devs.docs.build import tarball_name
from sap_devs.docs.ingest import Fences, parse_page, read_tarball
from sap_devs.docs.sources import SOURCES

DATA = Path(__file__).resolve().parent.parent / "data" / "docs"


def samples(raw: str) -> list[str]:
    """The fenced blocks of two lines or more in a page, each line without trailing spaces."""
    found: list[str] = []
    block: list[str] = []
    fences = Fences()
    for line in raw.splitlines():  # as ingest reads lines: a U+2028 in a sample (UI theme designer has one) ends one
        was_open = fences.open is not None
        inside = fences.step(line)
        if inside and was_open and fences.open is not None:
            block.append(line.rstrip())
        elif was_open and fences.open is None:
            body = "\n".join(block).strip()
            if body.count("\n") >= 1:
                found.append(body)
            block = []
    return found


@pytest.mark.parametrize("source", SOURCES, ids=[s.repo for s in SOURCES])
def test_code_samples_are_kept_verbatim(source) -> None:
    tarball = DATA / tarball_name(source)
    if not tarball.is_file():
        pytest.skip(f"{tarball} is not in this checkout")
    _, files = read_tarball(source, str(tarball))
    checked, changed = 0, []
    for path, raw in files:
        page = parse_page(source, path, raw, {})
        if page is None:
            continue
        text = "\n".join(section.text for section in page.sections)
        for sample in samples(raw):
            checked += 1
            if sample not in text:
                changed.append(f"{path}: {sample[:80]!r}")
    # guides without multi-line samples, and (last two) guides whose samples all sit in list items ("    > ```"),
    # which the fence reader here does not see
    assert checked > 0 or source.repo.endswith(
        (
            "business-application-studio",
            "developer-guide",
            "cloud-transport-management",
            "runtime-comparison-guide",
            "best-practices-guide",
            "task-center",
        )
    )
    assert not changed, f"{len(changed)} of {checked} samples changed, e.g. " + "; ".join(changed[:3])
