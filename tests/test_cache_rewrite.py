"""A cache file rewritten within one tick of the file system's clock (Linux stamps files with a
coarse clock, a few milliseconds) has the same size and modification time as before: a read after
the write must still see the new data (a mutant scripts/mutation.py found surviving in core/cache.py)."""

from __future__ import annotations

import datetime as dt
import os

from sap_devs.core import cache

FETCHED = dt.datetime(2026, 11, 30, 8, 0, 0, 123456, tzinfo=dt.UTC)


def test_a_rewrite_in_the_same_clock_tick_is_read_fresh(tmp_path) -> None:
    path = cache.write("events/codejam", ["old"], root=tmp_path, fetched_at=FETCHED)
    before = path.stat()
    assert cache.read("events/codejam", root=tmp_path).data == ["old"]  # now remembered
    cache.write("events/codejam", ["new"], root=tmp_path, fetched_at=FETCHED)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # what a coarse clock gives
    assert path.stat().st_size == before.st_size
    assert cache.read("events/codejam", root=tmp_path).data == ["new"]
