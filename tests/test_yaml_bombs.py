"""YAML from a project (pack files, tutorial front matter) with aliases that expand to a
billion nodes is refused as malformed, and error messages never quote a value at full length."""

from __future__ import annotations

from pathlib import Path

import pytest

from sap_devs.core.errors import ContentError
from sap_devs.knowledge.packs import load_pack
from sap_devs.knowledge.yamlio import read_yaml
from sap_devs.live.tutorials.markdown import parse_tutorial
from tests.conftest import ctx_for, write_files
from tests.tools.test_knowledge_tools import ok

pytestmark = pytest.mark.anyio


def bomb(indent: str = "  ") -> str:
    """Nine levels of nine aliases each: 9**9 (387 million) strings once expanded, ~400 bytes as text."""
    lines = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [{', '.join([f'*{prev}'] * 9)}]")
    return "".join(f"{indent}{line}\n" for line in lines)


def bomb_item() -> str:
    """One list item whose id is the whole expansion: the label of its error used to be its repr."""
    return "- " + bomb()[2:] + "  id: *i\n"


GOOD_TOOL = (
    "- id: node\n  name: Node.js\n  required: '>=18.0.0'\n"
    "  detect: {command: 'node --version', pattern: 'v(\\d+\\.\\d+\\.\\d+)'}\n"
)


@pytest.mark.parametrize("filename", ["tools.yaml", "known_errors.yaml"])
async def test_bomb_in_a_project_pack_skips_that_pack_and_says_why(make_pack, filename: str) -> None:
    make_pack("good", {"tools.yaml": GOOD_TOOL})
    root = make_pack("hostile", {filename: bomb_item()})
    out = await ok("list_packs", {}, ctx_for(root))
    assert [p["id"] for p in out["results"]] == ["good"], "the hostile pack is skipped, the other one loads"
    hint = out["hint"]
    assert "aliases expand to more than" in hint and filename in hint
    assert "pack 'hostile'" in hint and "was skipped" in hint
    assert len(hint) < 2_000


def test_content_validate_reports_the_bomb_as_invalid_yaml(make_pack) -> None:
    root = make_pack("demo", {"known_errors.yaml": bomb_item()})
    problems: list[ContentError] = []
    load_pack(root / "packs" / "demo", layer="check", problems=problems)
    assert [Path(p.path).name for p in problems] == ["known_errors.yaml"]
    assert "invalid YAML (aliases expand to more than" in problems[0].detail


def test_an_alias_cycle_is_refused(tmp_path: Path) -> None:
    path = write_files(tmp_path, {"tools.yaml": "- &x [*x]\n"}) / "tools.yaml"
    with pytest.raises(ContentError, match="refers to the node that contains it"):
        read_yaml(path)


def test_error_labels_quote_values_shortened(make_pack) -> None:
    long_id = "demo/" + "x" * 20_000
    items = "".join(f"- id: {long_id}{n}\n  pattern: p\n" for n in range(30))  # no cause, no fix
    root = make_pack("demo", {"known_errors.yaml": items})
    with pytest.raises(ContentError) as info:
        load_pack(root / "packs" / "demo")
    message = str(info.value)
    assert "item 1 (id 'demo/xxxx" in message and "…" in message
    assert "more problem(s)" in message, "30 items with two problems each are summarised, not listed"
    assert len(message) < 10_000


def test_an_id_that_is_a_structure_is_named_by_type(make_pack) -> None:
    root = make_pack("demo", {"known_errors.yaml": "- id: {nested: [1, 2, 3]}\n  pattern: p\n"})
    with pytest.raises(ContentError, match=r"item 1 \(id <dict>\)"):
        load_pack(root / "packs" / "demo")


def test_validation_messages_that_quote_input_are_cut(make_pack) -> None:
    url = "http://" + "a" * 50_000
    root = make_pack("demo", {"resources.yaml": f"- id: demo/r\n  title: T\n  url: {url}\n  type: tool\n"})
    with pytest.raises(ContentError) as info:
        load_pack(root / "packs" / "demo")
    assert "field 'url'" in str(info.value) and len(str(info.value)) < 2_000


def test_impossible_date_is_a_content_error_not_a_crash(tmp_path: Path) -> None:
    path = write_files(tmp_path, {"pack.yaml": "id: demo\nreleased: 2024-13-45\n"}) / "pack.yaml"
    with pytest.raises(ContentError, match=r"pack.yaml: invalid YAML value \(month must be in 1..12\)"):
        read_yaml(path)


def test_oversized_pack_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "known_errors.yaml"
    path.write_bytes(b"# filler\n" * 600_000)
    with pytest.raises(ContentError, match="larger than 4 MB"):
        read_yaml(path)


def test_tutorial_front_matter_bomb_falls_back_to_the_heading() -> None:
    text = "---\n" + bomb(indent="") + "title: *i\n---\n# Deploy a CAP app\n### Step\n"
    record = parse_tutorial("deploy-cap", text, repo="sap-tutorials/x")
    assert record["title"] == "Deploy a CAP app" and record["tags"] == []
