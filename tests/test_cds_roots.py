"""Which files make up a CAP project's model, found without running anything of the project."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sap_devs.toolchain.cds_roots import model_roots, required_models

FIXTURES = Path(__file__).parent / "fixtures" / "cap"


def _write(path: Path, text: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _names(root: Path, files: list[Path]) -> list[str]:
    return [f.relative_to(root.resolve()).as_posix() if f.is_relative_to(root.resolve()) else f.name for f in files]


def test_sflight_roots_are_db_srv_app_and_every_app_subfolder_then_the_outbox(tmp_path: Path) -> None:
    home = _write(tmp_path / "cds" / "srv" / "outbox.cds").parent.parent
    root = FIXTURES / "cap-sflight"
    found = model_roots(root.resolve(), cds_home=home)
    assert _names(root, found.files) == [
        "db/common.cds",
        "db/master-data.cds",
        "db/schema.cds",
        "srv/analytics-service.cds",
        "srv/travel-service.cds",
        "app/common.cds",
        "app/labels.cds",
        "app/services.cds",
        "app/value-helps.cds",
        "app/travel_analytics/annotations.cds",
        "app/travel_processor/capabilities.cds",
        "app/travel_processor/field-control.cds",
        "app/travel_processor/layouts.cds",
        "outbox.cds",  # cds.requires.queue is on by default and brings @sap/cds/srv/outbox
    ]
    assert found.notes == []


def test_index_file_stands_for_its_folder_and_csn_wins_over_cds(tmp_path: Path) -> None:
    _write(tmp_path / "db" / "index.cds")
    _write(tmp_path / "db" / "other.cds")  # not a root: db/index.cds stands for the folder
    _write(tmp_path / "srv" / "a.cds")
    _write(tmp_path / "srv" / "a.csn", "{}")
    _write(tmp_path / "srv" / "b.cds")
    _write(tmp_path / "srv" / "handler.js")
    found = model_roots(tmp_path, cds_home=None)
    assert _names(tmp_path, found.files) == ["db/index.cds", "srv/a.csn", "srv/b.cds"]


def test_configured_folders_profiles_and_required_models(tmp_path: Path) -> None:
    _write(tmp_path / "model" / "schema.cds")
    _write(tmp_path / "db" / "ignored.cds")
    _write(tmp_path / "srv" / "external" / "API_BP.cds")
    _write(tmp_path / "srv" / "dev-only.cds")
    _write(
        tmp_path / "package.json",
        json.dumps(
            {
                "cds": {
                    "folders": {"db": "model/"},
                    "requires": {
                        "queue": False,
                        "API_BP": {"kind": "odata-v2", "model": "srv/external/API_BP"},
                        "[development]": {"mock": {"model": "srv/dev-only"}},
                        "[production]": {"prod": {"model": "srv/prod-only"}},
                    },
                }
            }
        ),
    )
    found = model_roots(tmp_path, cds_home=None)
    # srv/ lists only srv/dev-only.cds (external/ is a sub-folder, not read recursively)
    assert _names(tmp_path, found.files) == ["model/schema.cds", "srv/dev-only.cds", "srv/external/API_BP.cds"]


def test_cdsrc_json_is_read_before_package_json_which_wins(tmp_path: Path) -> None:
    _write(tmp_path / "a" / "x.cds")
    _write(tmp_path / "b" / "y.cds")
    _write(tmp_path / ".cdsrc.json", json.dumps({"folders": {"db": "a/", "srv": "a/"}}))
    _write(tmp_path / "package.json", json.dumps({"cds": {"folders": {"srv": "b/"}}}))
    found = model_roots(tmp_path, cds_home=None)
    assert _names(tmp_path, found.files) == ["a/x.cds", "b/y.cds"]


def test_queue_preset_chain_gives_the_outbox_model() -> None:
    assert required_models({}) == ["@sap/cds/srv/outbox"]
    assert required_models({"requires": {"queue": "in-memory-queue"}}) == []
    assert required_models({"requires": {"queue": False}}) == []
    assert required_models({"requires": {"queue": {"kind": "persistent-outbox"}}}) == ["@sap/cds/srv/outbox"]


def test_a_broken_package_json_is_a_note_not_a_failure(tmp_path: Path) -> None:
    _write(tmp_path / "srv" / "a.cds")
    _write(tmp_path / "package.json", '{"cds": {')
    found = model_roots(tmp_path, cds_home=None)
    assert _names(tmp_path, found.files) == ["srv/a.cds"]
    assert found.notes == ["package.json could not be read (JSONDecodeError); its cds settings were ignored"]


@pytest.mark.skipif(os.name == "nt", reason="symlinks")
def test_symlink_loops_and_fifos_are_no_model_files(tmp_path: Path) -> None:
    srv = tmp_path / "srv"
    _write(srv / "real.cds")
    (srv / "loop.cds").symlink_to(srv / "loop.cds")
    (srv / "a.cds").symlink_to(srv / "b.cds")
    (srv / "b.cds").symlink_to(srv / "a.cds")
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "sub").symlink_to(tmp_path / "app")  # app/* walks one level only
    os.mkfifo(srv / "pipe.csn")
    found = model_roots(tmp_path, cds_home=None)
    assert _names(tmp_path, found.files) == ["srv/real.cds"]


@pytest.fixture
def user_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's home as cds.env finds it (CDS_USER_HOME), away from the real one."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("CDS_USER_HOME", str(home))
    return home


def _layers(root: Path, home: Path) -> None:
    """Every cds.env source sets db/ and one more folder of its own; each later one wins db/."""
    for folder in ("h", "y", "j", "p", "v"):
        _write(root / folder / f"{folder}.cds")
    _write(home / ".cdsrc.json", json.dumps({"folders": {"db": "h/", "home": "h/"}}))
    _write(root / ".cdsrc.yaml", "cds:\n  folders:\n    db: y/\n    yaml: y/\n")
    _write(root / ".cdsrc.json", json.dumps({"folders": {"db": "j/", "json": "j/"}}))
    _write(root / "package.json", json.dumps({"cds": {"folders": {"db": "p/"}}}))
    _write(root / ".cdsrc-private.json", json.dumps({"cds": {"folders": {"private": "v/"}}}))


def test_every_cds_env_source_is_read_in_caps_order(tmp_path: Path, user_home: Path) -> None:
    root = tmp_path / "project"
    _layers(root, user_home)
    found = model_roots(root, cds_home=None)
    # db/ from package.json (the last to set it); the others from each file's own key, in cds.env's order
    assert _names(root, found.files) == ["p/p.cds", "h/h.cds", "y/y.cds", "j/j.cds", "v/v.cds"]
    assert str(user_home / ".cdsrc.json") in found.config, "the user's file is part of the cache key"


def test_cdsrc_yaml_without_a_cds_key_and_a_yaml_bomb(tmp_path: Path, user_home: Path) -> None:
    _write(tmp_path / "model" / "m.cds")
    _write(tmp_path / ".cdsrc.yaml", "requires:\n  ext:\n    model: model/m\n")
    assert _names(tmp_path, model_roots(tmp_path, cds_home=None).files) == ["model/m.cds"]
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [{', '.join(['*' + p] * 10)}]\n" for p, c in zip("abcdefgh", "bcdefghi", strict=True)
    )
    _write(tmp_path / ".cdsrc.yaml", bomb)
    found = model_roots(tmp_path, cds_home=None)
    assert found.files == [] and found.notes == [
        ".cdsrc.yaml could not be read (YamlBombError); its cds settings were ignored"
    ]


def test_cdsrc_js_is_never_run_and_said_so(tmp_path: Path, user_home: Path) -> None:
    marker = tmp_path / "ran"
    _write(tmp_path / "srv" / "a.cds")
    _write(tmp_path / ".cdsrc.js", f"require('fs').writeFileSync({json.dumps(str(marker))}, 'x')\n")
    found = model_roots(tmp_path, cds_home=None)
    assert _names(tmp_path, found.files) == ["srv/a.cds"] and not marker.exists()
    assert found.notes == [".cdsrc.js is JavaScript and was not run; settings only it makes are not applied"]


CDS_ENV = r"""
const cds = require(process.argv[1]);
const env = cds.env.for('cds', process.argv[2]);
const models = {};
for (const [k, v] of Object.entries(env.requires || {})) if (v && v.model) models[k] = v.model;
process.stdout.write(JSON.stringify({ folders: env.folders, models }));
"""


def test_the_merged_settings_agree_with_cds_env_itself(tmp_path: Path, user_home: Path) -> None:
    import subprocess

    from sap_devs.toolchain.cds_roots import project_config
    from tests.sap_tools import ensure_installed

    tools = ensure_installed(("node", "@sap/cds"))
    root = tmp_path / "project"
    _layers(root, user_home)
    _write(root / ".cdsrc.json", json.dumps({"cds": {"folders": {"json": "j/"}, "requires": {"x": {"model": "j/j"}}}}))
    _write(root / ".cdsrc.yaml", "folders:\n  db: y/\n  yaml: y/\nrequires:\n  x: {model: y/y}\n  z: {model: y/y}\n")
    proc = subprocess.run(
        [
            str(tools / "node_modules" / ".bin" / "node"),
            "-e",
            CDS_ENV,
            str(tools / "node_modules" / "@sap" / "cds"),
            str(root),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={"CDS_USER_HOME": str(user_home), "PATH": os.environ.get("PATH", "")},
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    cap = json.loads(proc.stdout)
    ours = project_config(root, [])
    for key in ("db", "home", "yaml", "json", "private"):
        assert ours["folders"][key] == cap["folders"][key], key
    for name in ("x", "z"):
        assert ours["requires"][name]["model"] == cap["models"][name], name
