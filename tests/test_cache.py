"""The cache as an answer shows it: how old a copy is, when it is fresh, which files count, and
that a stale temp-file sweep runs once per folder (killing the mutants scripts/mutation.py found
surviving in core/cache.py)."""

from __future__ import annotations

import datetime as dt
import json
import logging
import os

import pytest

from sap_devs.core import cache


def _cached(seconds_ago: float) -> cache.Cached:
    # measured from now, not from import time: a long suite run must not age every copy by minutes
    fetched = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=seconds_ago)
    return cache.Cached(name="x", data=None, fetched_at=fetched, path=None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (0, "0 min"),
        (59, "0 min"),
        (61, "1 min"),
        (3599, "59 min"),
        (3600, "1 h"),
        (3601, "1 h"),
        (172_799, "47 h"),
        (172_800, "2 days"),
        (172_801, "2 days"),
        (10 * 86_400 + 5, "10 days"),
        (-30, "0 min"),  # a clock running behind never shows a negative age
    ],
)
def test_age_is_shown_in_minutes_hours_then_days(seconds: int, text: str) -> None:
    assert _cached(seconds).age_text() == text


def test_fresh_means_not_older_than_the_ttl() -> None:
    assert _cached(60).fresh(dt.timedelta(minutes=2))
    assert not _cached(180).fresh(dt.timedelta(minutes=2))


def test_written_data_keeps_its_fetch_time_and_envelope(tmp_path) -> None:
    fetched = dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.UTC)
    path = cache.write("events/codejam", {"ü": [1]}, root=tmp_path, fetched_at=fetched)
    assert path == tmp_path / "events" / "codejam.json"
    payload = json.loads(path.read_text(encoding="utf-8"))
    assert payload == {"format": 1, "name": "events/codejam", "fetched_at": fetched.isoformat(), "data": {"ü": [1]}}
    assert "ü" in path.read_text(encoding="utf-8"), "stored as UTF-8, not escaped"
    got = cache.read("events/codejam", root=tmp_path)
    assert got is not None and got.fetched_at == fetched and got.data == {"ü": [1]} and got.path == path


def test_a_fetch_time_without_a_zone_is_utc(tmp_path) -> None:
    path = cache.cache_file("news/episodes", tmp_path)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"format": 1, "fetched_at": "2026-01-02T03:04:05", "data": []}), encoding="utf-8")
    got = cache.read("news/episodes", root=tmp_path)
    assert got is not None and got.fetched_at == dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.UTC)


@pytest.mark.parametrize(
    "payload",
    [
        {"format": 2, "fetched_at": "2026-01-02T03:04:05+00:00", "data": []},
        {"format": 1, "fetched_at": "2026-01-02T03:04:05+00:00"},
        {"format": 1, "fetched_at": "yesterday", "data": []},
        {"format": 1, "fetched_at": 1767312000, "data": []},
    ],
)
def test_files_of_another_version_without_data_or_with_a_bad_time_count_as_missing(tmp_path, caplog, payload) -> None:
    path = cache.cache_file("news/episodes", tmp_path)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(payload), encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        assert cache.read("news/episodes", root=tmp_path) is None
    assert "is corrupt" in caplog.text
    if isinstance(payload.get("fetched_at"), int):
        assert "no fetched_at time" in caplog.text


def test_a_long_error_is_shortened_in_the_warning(tmp_path, caplog) -> None:
    path = cache.cache_file("news/episodes", tmp_path)
    path.parent.mkdir(parents=True)
    path.write_text('{"format": 1, "fetched_at": "' + "x" * 500 + '", "data": []}', encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        assert cache.read("news/episodes", root=tmp_path) is None
    message = next(r.getMessage() for r in caplog.records if "is corrupt" in r.getMessage())
    reason = message.split("is corrupt (", 1)[1].rsplit("); ignoring", 1)[0]
    assert len(reason) == 203 and reason.endswith("...")


def test_short_keeps_short_texts_and_names_empty_errors() -> None:
    assert cache._short(ValueError("x" * 200)) == "x" * 200
    assert cache._short(ValueError("x" * 201)) == "x" * 200 + "..."
    assert cache._short(ValueError()) == "ValueError"


@pytest.mark.parametrize("name", ["events/codejam", "news-detail/a1.b_c", "x", "a/b/c"])
def test_valid_cache_names(tmp_path, name: str) -> None:
    assert cache.cache_file(name, tmp_path) == tmp_path / f"{name}.json"


@pytest.mark.parametrize("name", ["", "a/", "/a", "a//b", ".hidden", "a/.b", "A", "a b", "a\\b", "-a"])
def test_invalid_cache_names(tmp_path, name: str) -> None:
    with pytest.raises(ValueError, match="invalid cache name"):
        cache.cache_file(name, tmp_path)


def test_the_stale_sweep_runs_once_per_folder_and_only_on_old_files(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(cache, "_swept", set())
    orphan = tmp_path / "events" / ".codejam.json.abc.tmp"
    orphan.parent.mkdir(parents=True)
    orphan.write_text("{")
    old = dt.datetime.now().timestamp() - cache.STALE_TEMP_AGE - 60
    os.utime(orphan, (old, old))
    cache.write("events/codejam", [1], root=tmp_path)
    assert not orphan.exists()
    orphan.write_text("{")
    os.utime(orphan, (old, old))
    cache.write("events/codejam", [2], root=tmp_path)
    assert orphan.exists(), "the folder is swept once per process"
    young = tmp_path / "other"
    young.mkdir()
    recent = young / ".x.json.def.tmp"
    recent.write_text("{")
    almost = dt.datetime.now().timestamp() - cache.STALE_TEMP_AGE + 60
    os.utime(recent, (almost, almost))
    cache.write("x", [1], root=young)
    assert recent.exists(), "younger than STALE_TEMP_AGE: maybe another process still writing"


def test_save_returns_none_when_saved_and_a_note_when_not(tmp_path, monkeypatch) -> None:
    assert cache.save("events/codejam", [1], root=tmp_path) is None
    assert cache.read("events/codejam", root=tmp_path).data == [1]

    def full(*_a, **_k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    note = cache.save("events/codejam", [2], root=tmp_path)
    assert note is not None and "could not be cached" in note and "fetched again next time" in note
    assert cache.read("events/codejam", root=tmp_path).data == [1]


def test_an_unreadable_cache_file_counts_as_missing(tmp_path, caplog) -> None:
    path = cache.cache_file("news/episodes", tmp_path)
    path.parent.mkdir(parents=True)
    path.mkdir()  # a folder where the file should be: reading it fails
    with caplog.at_level(logging.WARNING):
        assert cache.read("news/episodes", root=tmp_path) is None
    assert "is corrupt" in caplog.text
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x", encoding="utf-8")
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        assert cache.read("news/episodes", root=not_a_folder) is None
    assert "cannot be read" in caplog.text and str(not_a_folder) in caplog.text


def test_an_unchanged_file_is_parsed_once_and_a_changed_one_again(tmp_path, monkeypatch) -> None:
    """Every tool call reads the cache: an unchanged file (same mtime and size) is not parsed again."""
    path = cache.write("events/codejam", [1], root=tmp_path)
    loads: list[str] = []
    real = cache._load
    monkeypatch.setattr(cache, "_load", lambda name, p: loads.append(name) or real(name, p))
    assert cache.read("events/codejam", root=tmp_path).data == [1]
    assert cache.read("events/codejam", root=tmp_path).data == [1]
    assert loads == ["events/codejam"]
    stat = path.stat()
    path.write_text(path.read_text(encoding="utf-8").replace("[1]", "[2]"), encoding="utf-8")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert cache.read("events/codejam", root=tmp_path).data == [2]
    assert loads == ["events/codejam", "events/codejam"]
