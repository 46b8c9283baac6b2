"""How layers stack, as a user of company and project packs sees it (mutants scripts/mutation.py
found surviving in knowledge/layers.py): which folders are packs, what an untrusted layer is told,
additive packs on their own, and profiles that do not fit."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from sap_devs.core.errors import ContentError
from sap_devs.knowledge.layer_paths import Layer
from sap_devs.knowledge.layers import load_layers, resolve_profile
from tests.conftest import write_files

PROFILE = "id: {id}\nname: {id}\ndescription: A test profile\npacks:\n  - {{id: demo, weight: 10}}\ntip_tags: [demo]\n"


def test_hidden_and_underscore_folders_and_loose_files_are_not_packs(make_pack) -> None:
    root = make_pack("demo")
    write_files(root / "packs", {".git/config": "x", "_drafts/pack.yaml": "id: drafts\n", "README.md": "notes"})
    content = load_layers([Layer("company", root)])
    assert list(content.packs) == ["demo"] and content.problems == []


def test_an_untrusted_layer_is_told_which_command_files_were_ignored(make_pack, caplog) -> None:
    root = make_pack("demo", {"tools.yaml": "- id: demo-tool\n  name: Demo\n  command: [echo, hi]\n"}, layer="proj")
    make_pack("plain", layer="proj")
    with caplog.at_level(logging.WARNING):
        content = load_layers([Layer("project", root, needs_trust=True)])
    tools = root / "packs" / "demo" / "tools.yaml"
    assert content.ignored_files == [str(tools)], "a pack without tools.yaml has nothing ignored"
    [problem] = content.problems
    assert problem.startswith(f"{tools}: ignored, because the project folder {root} is not trusted")
    assert problem.endswith(f"sap-devs trust {root.parent}")
    assert problem in caplog.text, "problems are logged too"


def test_an_additive_pack_without_a_pack_below_it_loads_as_a_plain_pack(make_pack) -> None:
    root = make_pack("solo", {"context.md": "Own context"}, meta="additive: true\n")
    pack = load_layers([Layer("company", root)]).packs["solo"]
    assert pack.meta.additive is False and pack.context.core.endswith("Own context")


def test_a_profile_whose_id_is_not_its_file_name_is_skipped_or_fails_a_strict_layer(make_pack) -> None:
    root = make_pack("demo")
    write_files(root / "profiles", {"mine.yaml": PROFILE.format(id="other"), "good.yaml": PROFILE.format(id="good")})
    content = load_layers([Layer("user", root)])
    assert list(content.profiles) == ["good"]
    [problem] = content.problems
    assert "'other' must match the file name" in problem and problem.endswith("(profile skipped)")
    with pytest.raises(ContentError, match="must match the file name"):
        load_layers([Layer("bundled", root, strict=True)])


def test_a_broken_profile_fails_a_strict_layer(make_pack) -> None:
    root = make_pack("demo")
    write_files(root / "profiles", {"bad.yaml": "id: bad\n"})
    assert "bad" not in load_layers([Layer("user", root)]).profiles
    with pytest.raises(ContentError):
        load_layers([Layer("bundled", root, strict=True)])


def test_the_reserved_profile_name_is_ignored_with_a_note(make_pack) -> None:
    root = make_pack("demo")
    write_files(root / "profiles", {"all.yaml": PROFILE.format(id="all"), "good.yaml": PROFILE.format(id="good")})
    content = load_layers([Layer("user", root)])
    assert sorted(content.profiles) == ["good"]
    assert content.problems == [f"{root / 'profiles' / 'all.yaml'}: profile id 'all' is reserved and was ignored"]


@pytest.mark.parametrize("chosen", [None, "", "all"])
def test_no_profile_all_and_empty_mean_every_pack(make_pack, chosen: str | None) -> None:
    root = make_pack("demo")
    write_files(root / "profiles", {"all-ish.yaml": PROFILE.format(id="all-ish")})
    assert resolve_profile(load_layers([Layer("user", root)]), chosen) is None


def test_a_named_profile_is_resolved(make_pack, tmp_path: Path) -> None:
    root = make_pack("demo")
    write_files(root / "profiles", {"good.yaml": PROFILE.format(id="good")})
    profile = resolve_profile(load_layers([Layer("user", root)]), "good")
    assert profile is not None and profile.id == "good"
