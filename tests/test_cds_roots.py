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
