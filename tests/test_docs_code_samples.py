"""Every code sample of the bundled documentation sources reaches read_doc as written: an agent copies
them. Markup cleaning, table flattening and blank-line folding apply to prose only (SAP-docs keep most
samples in blockquotes, the ABAP cheat sheets theirs in HTML tables)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from sap_devs.docs.build import tarball_name
from sap_devs.docs.ingest import Fences, mkdocs_blocks, parse_page, read_tarball
from sap_devs.docs.sources import SOURCES

DATA = Path(__file__).resolve().parent.parent / "data" / "docs"


def samples(raw: str) -> list[tuple[str, str]]:
    """The fenced blocks of two lines or more in a page, each line without trailing spaces: as written, and
    without the indentation of the list item or table cell they are nested in (a flattened table dedents)."""
    found: list[tuple[str, str]] = []
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
                found.append((body, textwrap.dedent("\n".join(block)).strip("\n")))
            block = []
    return found


def occurs(sample: str, lines: list[str]) -> bool:
    """Whether the (dedented) sample's lines follow one another in the text with the same relative
    indentation: a sample nested in a list keeps its shape wherever the list item is indented."""
    want = sample.split("\n")
    for start, line in enumerate(lines):
        if line.strip() == want[0].strip():
            got = textwrap.dedent("\n".join(lines[start : start + len(want)])).split("\n")
            if [g.rstrip() for g in got] == [w.rstrip() for w in textwrap.dedent(sample).split("\n")]:
                return True
    return False


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
        # MkDocs pages keep samples indented under tabs and admonitions: the samples are what the site shows
        for sample, dedented in samples(mkdocs_blocks(raw) if source.site_style == "mkdocs" else raw):
            checked += 1
            if sample not in text and dedented not in text and not occurs(dedented, text.split("\n")):
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
