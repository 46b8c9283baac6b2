"""Trust covers exactly the bytes the loader reads (issue 25, items 1, 7 and 8): a link that leads out of
a trusted ``.sap-devs/`` is never followed and keeps the folder untrusted, a file that changes between
the trust check and the read cannot slip in, and only trusted layers define commands and profiles."""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

import pytest

from sap_devs.core.errors import SapDevsError
from sap_devs.knowledge import trust
from sap_devs.knowledge.base import KnowledgeBase
from sap_devs.knowledge.layer_paths import Layer, default_layers
from sap_devs.knowledge.layers import load_layers
from sap_devs.mcp.dispatch import invoke
from sap_devs.mcp.framework import ToolContext
from sap_devs.mcp.registry import Registry
from tests.conftest import bundled_layer, write_files

pytestmark = pytest.mark.anyio
REGISTRY = Registry.default()
PACK = "id: team\nname: Team\ndescription: Team tools.\n"


def tools_yaml(marker: Path, word: str) -> str:
    command = f"{sys.executable} -c \"open(r'{marker}', 'w').write('{word}'); print('team 1.0.0')\""
    return (
        f'- id: team-tool\n  name: Team tool\n  required: ">=1.0.0"\n  detect:\n    command: {json.dumps(command)}\n'
        "    pattern: 'team (\\d+\\.\\d+\\.\\d+)'\n"
    )


def mcp_yaml(command: str) -> str:
    return f"- id: team-mcp\n  name: Team\n  description: Team server.\n  install: {{command: {command}, args: []}}\n"


def project_layer(root: Path) -> Layer:
    return Layer("project", root / ".sap-devs", needs_trust=True)


def load(root: Path) -> KnowledgeBase:
    return KnowledgeBase.load(layers=[bundled_layer(), project_layer(root)])


def trust_as_before(folder: Path) -> None:
    """What sap-devs trust recorded before this fix: the digest of the folder with links by their text."""
    value, files = trust.digest(folder)
    trust.store_path().parent.mkdir(parents=True, exist_ok=True)
    trust.store_path().write_text(json.dumps({str(folder.resolve()): {"digest": value, "files": files}}))


async def check_tools(root: Path) -> dict:
    ctx = ToolContext(cwd=root, layers=[bundled_layer(), project_layer(root)])
    outcome = await invoke(REGISTRY.get("check_tools"), {"limit": 100}, ctx)  # type: ignore[arg-type]
    assert not outcome.is_error, outcome.text
    return outcome.structured  # type: ignore[return-value]


@pytest.mark.parametrize("linked", ["tools.yaml", "mcp.yaml", "pack folder"])
async def test_a_link_out_of_a_trusted_folder_is_refused_and_never_followed(tmp_path: Path, linked: str) -> None:
    marker = tmp_path / "ran.txt"
    sibling = write_files(tmp_path / "sibling", {"pack.yaml": PACK, "tools.yaml": tools_yaml(marker, "benign")})
    write_files(sibling, {"mcp.yaml": mcp_yaml("/opt/benign")})
    root = tmp_path / "repo"
    packs = root / ".sap-devs" / "packs"
    if linked == "pack folder":
        packs.mkdir(parents=True)
        (packs / "team").symlink_to(sibling)
        link = packs / "team"
    else:
        write_files(packs / "team", {"pack.yaml": PACK})
        (packs / "team" / linked).symlink_to(sibling / linked)
        link = packs / "team" / linked
    folder = root / ".sap-devs"
    with pytest.raises(SapDevsError, match=str(link).replace(".", r"\.")):
        trust.trust(folder)
    trust_as_before(folder)  # a folder trusted by an earlier sap-devs, which recorded the link text only
    # a later `git pull` of the sibling changes what the link reads; the folder itself is unchanged
    (sibling / "tools.yaml").write_text(tools_yaml(marker, "evil"), encoding="utf-8")
    (sibling / "mcp.yaml").write_text(mcp_yaml("/bin/sh"), encoding="utf-8")
    assert not trust.is_trusted(folder)
    assert [state for _, state in trust.entries()] == ["changed"], "trust --list shows it"
    kb = load(root)
    assert [s.id for _, s in kb.items("mcp_servers") if s.id == "team-mcp"] == []
    assert [t.id for _, t in kb.items("tools") if t.id == "team-tool"] == []
    assert any(str(link) in p and "does not follow" in p for p in kb.problems), kb.problems
    result = await check_tools(root)
    assert not marker.exists() and "team-tool" not in [r["id"] for r in result["results"]]


def test_an_untrusted_pack_file_that_links_to_a_private_file_is_not_read(tmp_path: Path) -> None:
    secret = write_files(tmp_path / "home" / ".ssh", {"id_ed25519": "-----BEGIN OPENSSH PRIVATE KEY-----\nFAKE\n"})
    root = tmp_path / "repo"
    write_files(root / ".sap-devs" / "packs" / "team", {"pack.yaml": PACK})
    (root / ".sap-devs" / "packs" / "team" / "context.md").symlink_to(secret / "id_ed25519")
    kb = load(root)
    team = kb.pack("team")
    assert "PRIVATE KEY" not in team.context.core + team.context.detail + team.context.extended
    assert any("context.md" in p and "does not follow" in p for p in kb.problems)


def test_links_inside_the_folder_are_followed_and_covered_by_trust(tmp_path: Path) -> None:
    marker = tmp_path / "ran.txt"
    root = tmp_path / "repo"
    folder = root / ".sap-devs"
    write_files(folder, {"shared/tools.yaml": tools_yaml(marker, "benign"), "packs/team/pack.yaml": PACK})
    (folder / "packs" / "team" / "tools.yaml").symlink_to("../../shared/tools.yaml")
    trust.trust(folder)
    assert [t.id for _, t in load(root).items("tools") if t.id == "team-tool"] == ["team-tool"]
    (folder / "shared" / "tools.yaml").write_text(tools_yaml(marker, "evil"), encoding="utf-8")
    assert not trust.is_trusted(folder), "the link's target is inside, so its bytes are in the digest"
    assert [t.id for _, t in load(root).items("tools") if t.id == "team-tool"] == []


def test_a_project_sap_devs_folder_that_is_a_link_is_not_read(tmp_path: Path) -> None:
    elsewhere = write_files(tmp_path / "elsewhere", {"packs/team/pack.yaml": PACK, "packs/team/context.md": "X"})
    root = tmp_path / "repo"
    root.mkdir()
    (root / ".sap-devs").symlink_to(elsewhere)
    kb = load(root)
    assert "team" not in kb.pack_ids
    assert any("symbolic link" in p and str(root / ".sap-devs") in p for p in kb.problems)
    with pytest.raises(SapDevsError, match="symbolic link"):
        trust.pack_folder(root)


def test_a_tools_yaml_that_changes_after_the_trust_check_is_not_what_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 7: every time the file is opened, it is swapped for the other version right after, the
    fastest flipping a repository (or a second process) could do. What is parsed must be what was hashed."""
    marker = tmp_path / "ran.txt"
    root = tmp_path / "repo"
    folder = root / ".sap-devs"
    benign, evil = tools_yaml(marker, "benign"), tools_yaml(marker, "evil")
    write_files(folder / "packs" / "team", {"pack.yaml": PACK, "tools.yaml": benign})
    tools = folder / "packs" / "team" / "tools.yaml"
    trust.trust(folder)
    real_io_open, real_os_open = io.open, os.open
    spare = tmp_path / "spare.yaml"
    flips = [0]

    def flip() -> None:
        flips[0] += 1
        with real_io_open(spare, "w", encoding="utf-8") as handle:
            handle.write(evil if flips[0] % 2 else benign)
        os.replace(spare, tools)

    def io_open(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        handle = real_io_open(file, *args, **kwargs)
        if isinstance(file, str | os.PathLike) and os.fspath(file) == str(tools):
            flip()
        return handle

    def os_open(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        fd = real_os_open(file, *args, **kwargs)
        if os.fspath(file) == str(tools):
            flip()
        return fd

    monkeypatch.setattr(io, "open", io_open)
    monkeypatch.setattr(os, "open", os_open)
    for _ in range(6):
        kb = load(root)
        commands = [t.detect.command for _, t in kb.items("tools") if t.id == "team-tool"]
        assert all("benign" in c for c in commands), "a command that was never trusted was loaded"
        assert commands, "the trusted version, read once, is loaded"
        tools.write_bytes(benign.encode())  # each round starts from the trusted bytes
    assert flips[0] >= 6


def test_an_untrusted_layer_cannot_replace_a_profile(tmp_path: Path, make_pack) -> None:
    profile = "id: cap-developer\nname: Hijacked\ndescription: x\npacks:\n  - {id: team, weight: 1000}\ntip_tags: []\n"
    own = "id: team-dev\nname: Team\ndescription: The team's own.\npacks:\n  - {id: team, weight: 10}\ntip_tags: []\n"
    root = tmp_path / "repo"
    write_files(root / ".sap-devs", {"packs/team/pack.yaml": PACK, "profiles/cap-developer.yaml": profile})
    write_files(root / ".sap-devs", {"profiles/team-dev.yaml": own})
    kb = KnowledgeBase.load("cap-developer", layers=[bundled_layer(), project_layer(root)])
    assert kb.profile is not None and kb.profile.name != "Hijacked"
    assert "team-dev" in kb.profiles, "a profile of its own is content, and stays"
    assert any("cap-developer" in p and "not replaced" in p for p in kb.problems)
    trust.trust(root / ".sap-devs")
    kb = KnowledgeBase.load("cap-developer", layers=[bundled_layer(), project_layer(root)])
    assert kb.profile is not None and kb.profile.name == "Hijacked", "trusted, it may"


def test_the_official_cache_layer_runs_no_command_without_trust(tmp_path: Path) -> None:
    marker = tmp_path / "ran.txt"
    [official] = [layer for layer in default_layers() if layer.name == "official"]
    write_files(official.root / "packs" / "team", {"pack.yaml": PACK, "tools.yaml": tools_yaml(marker, "evil")})
    content = load_layers([bundled_layer(), official])
    assert content.ignored_files == [str(official.root / "packs" / "team" / "tools.yaml")]
    assert content.packs["team"].tools == []
    trust.trust(official.root)
    assert [t.id for t in load_layers([bundled_layer(), official]).packs["team"].tools] == ["team-tool"]


async def test_a_running_server_checks_trust_again_before_a_command_runs(tmp_path: Path) -> None:
    marker = tmp_path / "ran.txt"
    root = tmp_path / "repo"
    write_files(root / ".sap-devs" / "packs" / "team", {"pack.yaml": PACK, "tools.yaml": tools_yaml(marker, "ok")})
    trust.trust(root / ".sap-devs")
    ctx = ToolContext(cwd=root, layers=[bundled_layer(), project_layer(root)])

    async def run() -> dict:
        outcome = await invoke(REGISTRY.get("check_tools"), {"tool": "team-tool"}, ctx)  # type: ignore[arg-type]
        return outcome.structured  # type: ignore[return-value]

    assert (await run())["results"][0]["status"] == "ok" and marker.read_text() == "ok"
    marker.unlink()
    trust.revoke(root / ".sap-devs")  # the knowledge base of the running server was loaded while trusted
    outcome = await invoke(REGISTRY.get("check_tools"), {"limit": 100}, ctx)  # type: ignore[arg-type]
    assert not marker.exists()
    assert "team-tool" not in [r["id"] for r in outcome.structured["results"]]  # type: ignore[index]
    assert "no longer trusted" in outcome.structured["hint"]  # type: ignore[index]
