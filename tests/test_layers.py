"""Layering of packs and profiles: replace, additive merge, broken upper layers, profile ordering."""

from __future__ import annotations

import pytest

from sap_devs.core.errors import ContentError, SapDevsError
from sap_devs.knowledge.base import KnowledgeBase
from sap_devs.knowledge.layer_paths import Layer, available_profiles

RESOURCE = "- id: {pid}/{slug}\n  title: {title}\n  url: https://example.com/{slug}\n  type: official-docs\n"


def test_later_layer_replaces_pack_with_same_id(make_pack) -> None:
    low = make_pack("cap", {"context.md": "Old context"}, layer="low")
    high = make_pack("cap", {"context.md": "New context"}, layer="high")
    kb = KnowledgeBase.load(layers=[Layer("bundled", low), Layer("high", high)])
    note = f"> From the high layer ({high / 'packs' / 'cap' / 'context.md'}), not from sap-devs' bundled SAP content."
    assert kb.pack("cap").context.core == f"{note}\n\nNew context"
    assert kb.pack("cap").layer == "high"


def test_additive_pack_merges_context_and_items(make_pack) -> None:
    low = make_pack(
        "cap",
        {
            "context.md": "Base context",
            "resources.yaml": RESOURCE.format(pid="cap", slug="a", title="Old A")
            + RESOURCE.format(pid="cap", slug="b", title="B"),
            "tips.md": "## Base tip\nBody",
        },
        layer="low",
    )
    high = make_pack(
        "cap",
        {
            "context.md": "Company rules",
            "resources.yaml": RESOURCE.format(pid="cap", slug="a", title="New A")
            + RESOURCE.format(pid="cap", slug="c", title="C"),
            "tips.md": "## Company tip\nBody",
        },
        layer="high",
        meta="additive: true\nadditive_position: before\ntags: [company]\n".replace("tags: [company]\n", ""),
    )
    kb = KnowledgeBase.load(layers=[Layer("bundled", low), Layer("high", high)])
    pack = kb.pack("cap")
    assert pack.context.core.startswith("> From the high layer (")
    assert pack.context.core.endswith("content.\n\nCompany rules\n\nBase context")
    assert [(r.id, r.title) for r in pack.resources] == [("cap/a", "New A"), ("cap/b", "B"), ("cap/c", "C")]
    assert [t.title for t in pack.tips] == ["Company tip", "Base tip"]
    assert all(t.pack == "cap" for t in pack.tips)


def test_broken_pack_in_user_layer_is_reported_and_the_earlier_one_kept(make_pack) -> None:
    low = make_pack("cap", {"context.md": "Good"}, layer="low")
    high = make_pack("cap", {"resources.yaml": "- nonsense: [\n"}, layer="high")
    kb = KnowledgeBase.load(layers=[Layer("bundled", low), Layer("high", high)])
    assert kb.pack("cap").context.core == "Good"
    assert len(kb.problems) == 1 and "resources.yaml" in kb.problems[0] and "skipped" in kb.problems[0]


def test_broken_pack_in_strict_layer_fails(make_pack) -> None:
    root = make_pack("cap", {"resources.yaml": "- nonsense: [\n"})
    with pytest.raises(ContentError):
        KnowledgeBase.load(layers=[Layer("bundled", root, strict=True)])


def test_order_base_first_then_weight_then_profile(make_pack, tmp_path) -> None:
    root = make_pack("base", meta="base: true\n")
    make_pack("cap", meta="weight: 100\n")
    make_pack("abap", meta="weight: 90\n")
    make_pack("btp", meta="weight: 80\n")
    layers = [Layer("l", root)]
    assert KnowledgeBase.load(layers=layers).pack_ids == ["base", "cap", "abap", "btp"]
    (root / "profiles").mkdir()
    (root / "profiles" / "abap-developer.yaml").write_text(
        "id: abap-developer\nname: ABAP\npacks:\n  - {id: abap, weight: 200}\n  - {id: btp, weight: 150}\n"
        "tip_tags: [abap]\n"
    )
    kb = KnowledgeBase.load("abap-developer", layers=layers)
    assert kb.pack_ids == ["base", "abap", "btp", "cap"]
    assert kb.profile is not None and kb.profile.tip_tags == ["abap"]
    assert available_profiles(layers) == ["abap-developer", "all"]


def test_unknown_profile_lists_the_valid_ones(make_pack) -> None:
    root = make_pack("cap")
    with pytest.raises(SapDevsError, match=r"Unknown profile 'nope'.*Choose one of: all"):
        KnowledgeBase.load("nope", layers=[Layer("l", root)])


def test_unknown_pack_lists_valid_ids(make_pack) -> None:
    root = make_pack("cap")
    kb = KnowledgeBase.load(layers=[Layer("l", root)])
    with pytest.raises(SapDevsError, match=r"Pack 'cpa' not found.*Valid pack ids: cap"):
        kb.pack("cpa")


def test_project_layer_comes_last(make_pack, tmp_path) -> None:
    from sap_devs.knowledge.layer_paths import default_layers

    project = tmp_path / "proj"
    (project / ".sap-devs" / "packs").mkdir(parents=True)
    layers = default_layers(project)
    assert [layer.name for layer in layers] == ["bundled", "official", "company", "user", "project"]
    assert layers[-1].root == project / ".sap-devs"
    assert layers[0].strict and not any(layer.strict for layer in layers[1:])
