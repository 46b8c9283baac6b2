"""A client config whose YAML aliases expand to a billion nodes (Continue) is malformed: reported with
the file, left byte for byte, never walked."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sap_devs.core.errors import SapDevsError
from sap_devs.integrations import clients, state, yaml_edit
from sap_devs.integrations.mcp_install import ServerSpec, Target, install, status, target, uninstall

BOMB = "x:\n" + "".join(
    f"  {name}: &{name} [{', '.join([f'*{prev}' if prev else 'lol'] * 9)}]\n"
    for prev, name in zip(["", *"abcdefgh"], "abcdefghi", strict=True)
)
CONFIG = BOMB + "mcpServers:\n  - name: other\n    command: other-cmd\n    args: *i\n"


def continue_user(home: Path, project: Path) -> Target:
    client = clients.by_id("continue")
    config = client.mcp_config("user")
    assert config is not None
    return target(client, config, home, project, "sap-devs")


def test_bomb_continue_config_is_malformed_and_untouched(home: Path, project: Path) -> None:
    t = continue_user(home, project)
    t.path.parent.mkdir(parents=True)
    t.path.write_text(CONFIG, encoding="utf-8")
    with pytest.raises(SapDevsError) as err:
        install(t, ServerSpec("sap-devs", "/opt/sap-devs", ("mcp", "serve")))
    message = str(err.value)
    assert f"{t.path}" in message and "malformed file" in message and "aliases expand" in message
    assert t.path.read_text(encoding="utf-8") == CONFIG
    assert not state.state_dir().exists()
    with pytest.raises(SapDevsError, match="malformed file"):
        uninstall(t, "other")
    assert t.path.read_text(encoding="utf-8") == CONFIG
    assert status(t, "sap-devs").state == "malformed"


def test_cli_install_reports_the_bomb_without_a_traceback(env: dict[str, str], home: Path, project: Path) -> None:
    config = home / ".continue" / "config.yaml"
    config.parent.mkdir(parents=True)
    config.write_text(CONFIG, encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "sap_devs", "mcp", "install", "-c", "continue"],
        cwd=project,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1
    assert f"{config}" in proc.stderr and "malformed file" in proc.stderr and "Traceback" not in proc.stderr
    assert config.read_text(encoding="utf-8") == CONFIG


def test_span_edits_still_work_on_deeply_nested_items() -> None:
    # block nesting close to libyaml's limit: the end of an item is found without recursion
    deep = "- " * 900 + "x"
    text = f"mcpServers:\n  - name: sap-devs\n    args:\n      {deep}\n  - name: other\n    command: x\n"
    new, rewritten = yaml_edit.remove_entry(text, "mcpServers", "sap-devs")
    assert not rewritten and new == "mcpServers:\n  - name: other\n    command: x\n"
