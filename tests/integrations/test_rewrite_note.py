"""The note that a Continue config.yaml lost its comments appears only when it did (issue 13, defect 9):
bracketed lists are edited in place, only layouts the YAML editor cannot follow are dumped again."""

from __future__ import annotations

from pathlib import Path

from sap_devs.integrations import clients
from sap_devs.integrations.mcp_install import REWRITTEN_NOTE, ServerSpec, install, target, uninstall

SPEC = ServerSpec("sap-devs", "/opt/sap-devs/bin/sap-devs", ("mcp", "serve"))
HEADER = "# my setup\nname: Mine\nversion: 1.0.0\nschema: v1\n"


def _install(home: Path, project: Path, text: str) -> tuple[str, str, str]:
    client = clients.by_id("continue")
    config = client.mcp_config("user")
    assert config is not None
    t = target(client, config, home, project, "sap-devs")
    t.path.parent.mkdir(parents=True, exist_ok=True)
    t.path.write_text(text, encoding="utf-8")
    installed = install(t, SPEC)
    after = t.path.read_text(encoding="utf-8")
    return installed.message, after, uninstall(t, "sap-devs").message


def test_a_bracketed_list_keeps_its_comments_and_says_nothing(home: Path, project: Path) -> None:
    message, text, _ = _install(home, project, HEADER + "mcpServers: [  # mine\n  {name: a, command: x},\n]\n")
    assert message == "" and "# my setup" in text and "# mine" in text


def test_a_layout_the_editor_cannot_follow_is_rewritten_and_says_so(home: Path, project: Path) -> None:
    message, text, removed = _install(home, project, HEADER + "mcpServers: [name: a]\n")
    assert message == REWRITTEN_NOTE and "# my setup" not in text
    assert removed == "restored byte for byte"  # uninstall gives the commented original back
