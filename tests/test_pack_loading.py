"""Loading and validating pack files: good content loads, malformed content fails loudly and precisely."""

from __future__ import annotations

from pathlib import Path

import pytest

from sap_devs.core import paths
from sap_devs.core.errors import ContentError
from sap_devs.knowledge.packs import load_pack
from sap_devs.knowledge.tips import parse_tips
from sap_devs.knowledge.verbosity import parse_sections

BUNDLED = sorted(p for p in (paths.bundled_root() / "packs").iterdir() if p.is_dir())


def test_bundled_packs_include_the_foundation_four() -> None:
    assert {"base", "cap", "abap", "btp"} <= {p.name for p in BUNDLED}


@pytest.mark.parametrize("folder", BUNDLED, ids=lambda p: p.name)
def test_every_bundled_pack_loads_and_has_real_content(folder: Path) -> None:
    pack = load_pack(folder)
    assert pack.meta.id == folder.name
    assert pack.context.core, "core context gives the minimal orientation"
    assert pack.context.at("standard") != pack.context.at("minimal"), "standard adds detail"
    assert pack.tips and pack.resources and pack.known_errors
    for item in [*pack.resources, *pack.known_errors, *pack.samples]:
        assert item.id.startswith(f"{pack.id}/")


def test_minimal_valid_pack(make_pack) -> None:
    root = make_pack("demo")
    pack = load_pack(root / "packs" / "demo")
    assert pack.meta.name == "DEMO pack"
    assert pack.resources == [] and pack.context.is_empty()


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({"resources.yaml": "- id: demo/x\n  title: [unclosed\n"}, "resources.yaml: line"),
        (
            {"known_errors.yaml": "- id: demo/e1\n  pattern: Boom happened\n  cause: because\n  tags: [x]\n"},
            "item 1 (id 'demo/e1'): field 'fix': Field required",
        ),
        (
            {"resources.yaml": "- id: demo/r\n  title: T\n  url: https://x.example\n  type: blogpost\n"},
            "field 'type'",
        ),
        (
            {
                "samples.yaml": "- id: demo/s\n  label: S\n  url: http://insecure.example\n  description: d\n  tags: [a]\n"
            },
            "field 'url'",
        ),
        (
            {"resources.yaml": "- id: demo/r\n  title: T\n  url: https://x.example\n  type: tool\n  tittle: typo\n"},
            "field 'tittle': unknown field",
        ),
        ({"resources.yaml": "id: demo/r\n"}, "expected a list of items"),
        (
            {"tools.yaml": "- id: t\n  name: T\n  required: '>=1.0.0'\n  detect: {command: t -v, pattern: 'v\\d+'}\n"},
            "needs one capture group",
        ),
        ({"context.md": "core\n<!-- verbosity:verbose -->\nmore\n"}, "line 2: unknown verbosity level 'verbose'"),
        ({"tips.md": "## A tip\nTags: x\nBody\n\n## Empty\n"}, "tip 'Empty' has no text"),
    ],
)
def test_malformed_files_name_file_and_field(make_pack, files: dict[str, str], expected: str) -> None:
    root = make_pack("demo", files)
    with pytest.raises(ContentError) as info:
        load_pack(root / "packs" / "demo")
    message = str(info.value)
    assert expected in message
    assert str(root / "packs" / "demo") in message


def test_duplicate_item_ids_are_rejected(make_pack) -> None:
    entry = "- id: demo/r\n  title: T\n  url: https://x.example\n  type: tool\n"
    root = make_pack("demo", {"resources.yaml": entry + entry})
    with pytest.raises(ContentError, match=r"item 2 .*duplicate id 'demo/r'"):
        load_pack(root / "packs" / "demo")


def test_pack_id_must_match_folder(make_pack, tmp_path: Path) -> None:
    root = make_pack("demo")
    (root / "packs" / "demo").rename(root / "packs" / "other")
    with pytest.raises(ContentError, match=r"must match the folder name 'other'"):
        load_pack(root / "packs" / "other")


def test_missing_pack_yaml(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(ContentError, match=r"needs a pack.yaml"):
        load_pack(tmp_path / "empty")


def test_verbosity_levels_keep_order_and_may_return_to_core() -> None:
    text = "A core\n<!-- verbosity:detail -->\nB detail\n<!-- verbosity:extended -->\nC ext\n<!-- verbosity:core -->\nD core"
    sections = parse_sections(text, source="x.md")
    assert sections.at("minimal") == "A core\n\nD core"
    assert sections.at("standard") == "A core\n\nD core\n\nB detail"
    assert "C ext" in sections.at("full") and "C ext" not in sections.at("standard")


def test_verbosity_marker_inside_code_fence_is_text() -> None:
    text = "```md\n<!-- verbosity:detail -->\n```\nafter"
    assert "<!-- verbosity:detail -->" in parse_sections(text, source="x.md").at("minimal")


def test_tips_parse_title_tags_and_body() -> None:
    tips = parse_tips(
        "Preamble ignored\n## First tip\nTags: CAP, nodejs\nUse cds watch.\n\n## Second\nNo tags here.\n",
        pack_id="cap",
        source="tips.md",
    )
    assert [(t.title, t.tags, t.content, t.pack) for t in tips] == [
        ("First tip", ["cap", "nodejs"], "Use cds watch.", "cap"),
        ("Second", [], "No tags here.", "cap"),
    ]


def test_parsed_snapshot_of_the_bundled_packs_is_current() -> None:
    from sap_devs.knowledge.parsed_yaml import SNAPSHOT_PATH, render_snapshot

    assert SNAPSHOT_PATH.read_text(encoding="utf-8") == render_snapshot(), "run `sap-devs content snapshot`"


def test_snapshot_is_used_only_for_unchanged_bundled_files(tmp_path) -> None:
    import yaml

    from sap_devs.core import paths
    from sap_devs.knowledge.parsed_yaml import lookup

    bundled = paths.bundled_root() / "packs" / "cap" / "known_errors.yaml"
    raw = bundled.read_bytes()
    found, data = lookup(bundled, raw)
    assert found and data == yaml.safe_load(raw)
    assert lookup(bundled, raw + b"\n# edited\n") == (False, None), "changed bytes are parsed, not looked up"
    copy = tmp_path / "known_errors.yaml"
    copy.write_bytes(raw)
    assert lookup(copy, raw) == (False, None), "a user's pack is never answered from the snapshot"
