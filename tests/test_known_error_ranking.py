"""How ``get_known_errors`` weighs an entry whose pattern is nothing but an error code: the code in
the paste is what identifies it, so a paste without the code gives it no credit for wording it does
not have (a mutant scripts/mutation.py found surviving in knowledge/queries.py)."""

from __future__ import annotations

import pytest

from sap_devs.knowledge.base import KnowledgeBase
from sap_devs.knowledge.layer_paths import Layer
from sap_devs.knowledge.queries import find_known_errors

ENTRIES = """
- id: demo/enoent
  pattern: "ENOENT"
  cause: Node.js could not open a file because the path in the message does not exist.
  fix: Check the path.
  tags: [node, file]
- id: demo/no-package-json
  pattern: "npm ERR! Could not read package.json in the current folder"
  cause: The command ran outside the project folder.
  fix: Run it in the project folder.
  tags: [npm]
"""


@pytest.fixture
def kb(make_pack) -> KnowledgeBase:
    return KnowledgeBase.load(layers=[Layer("bundled", make_pack("demo", {"known_errors.yaml": ENTRIES}))])


@pytest.mark.parametrize(
    "message",
    [
        "read package.json: the file path does not exist",
        "could not read package.json, path does not exist: node could not open the file",
    ],
)
def test_a_paste_without_the_code_finds_the_entry_whose_wording_it_holds(kb: KnowledgeBase, message: str) -> None:
    assert [e.id for _, e in find_known_errors(kb, message)][:1] == ["demo/no-package-json"]


def test_the_code_alone_finds_the_code_only_entry(kb: KnowledgeBase) -> None:
    message = "Error: ENOENT: no such file or directory, open '/home/dev/app/.cdsrc.json'"
    assert [e.id for _, e in find_known_errors(kb, message)][:1] == ["demo/enoent"]


def test_each_entrys_facts_are_worked_out_once_per_pack_set(kb: KnowledgeBase, monkeypatch) -> None:
    """Every paste is matched against the same analysed patterns: a second paste does not analyse them again."""
    from sap_devs.knowledge import queries

    calls: list[str] = []
    real = queries.strip_variable_parts

    def counting(text: str) -> str:
        calls.append(text)
        return real(text)

    monkeypatch.setattr(queries, "strip_variable_parts", counting)
    find_known_errors(kb, "npm ERR! Could not read package.json")
    first = len(calls)
    find_known_errors(kb, "Error: ENOENT: no such file or directory")
    assert len(calls) - first == 1, "only the new paste is cleaned; the entries' patterns come from the cache"


# Two entries that differ only in where a word sits: field lengths are equal on purpose, so what
# decides the order is which field holds the word, not how long the entries are. The entry that
# should lose is listed first, so a tie would put it on top.
def _kb_of(make_pack, entries: str) -> KnowledgeBase:
    return KnowledgeBase.load(layers=[Layer("bundled", make_pack("demo", {"known_errors.yaml": entries}))])


TAGGED_VERSUS_EXPLAINED = """
- id: demo/staging-failed
  pattern: "Staging failed for the application"
  cause: The mbt build left out a module.
  fix: Add the module to mta.yaml.
  tags: [approuter]
- id: demo/upload-failed
  pattern: "Upload failed for the archive"
  cause: The approuter module was too large.
  fix: Exclude node_modules from the archive.
  tags: [mbt]
"""


def test_the_entry_tagged_with_the_tool_a_paste_names_outranks_one_whose_cause_mentions_it(make_pack) -> None:
    """Tags are the entry's chosen keywords; a cause is prose that names other tools in passing."""
    kb = _kb_of(make_pack, TAGGED_VERSUS_EXPLAINED)
    hits = [e.id for _, e in find_known_errors(kb, "Error running mbt")]
    assert hits == ["demo/upload-failed", "demo/staging-failed"]


# The losing entry names ENOENT only as a reference (a related code in its tags, and in the second
# case also in its id); the winning entry is the ENOENT error itself. Both carry both codes, so both
# get the exact-code boost: only where the code sits can tell them apart.
REFERS_VERSUS_IS = {
    "a code among the tags": ("demo/locked-file", "[windows, ENOENT]", "[windows, EPERM]"),
    "a code in the id and among the tags": ("demo/enoent-locked", "[windows, ENOENT]", "[ENOENT, EPERM]"),
}


@pytest.mark.parametrize("where", list(REFERS_VERSUS_IS))
def test_the_entry_whose_message_is_the_pasted_code_outranks_one_that_refers_to_it(make_pack, where: str) -> None:
    referring_id, referring_tags, own_tags = REFERS_VERSUS_IS[where]
    entries = f"""
- id: {referring_id}
  pattern: "EPERM"
  cause: Windows held a lock on the file.
  fix: Close the editor that has the file open.
  tags: {referring_tags}
- id: demo/missing-file
  pattern: "ENOENT"
  cause: The path named in the message does not exist.
  fix: Check the path.
  tags: {own_tags}
"""
    kb = _kb_of(make_pack, entries)
    hits = [e.id for _, e in find_known_errors(kb, "Error: ENOENT while starting the server")]
    assert hits[:1] == ["demo/missing-file"], hits
