"""Warming up the packs and indexes after the fast front hands over never competes with a request:
it stops while one is in flight, and never waits on one for long (it may hold what the request needs)."""

from __future__ import annotations

import threading

import pytest

from sap_devs.mcp import front_handoff
from sap_devs.mcp.front_handoff import Activity, run_while_idle


def busy_work(progress: list[int], done: threading.Event) -> None:
    total = 0
    for i in range(200_000):  # a loop over C calls: no Python calls to pause at, only lines
        total += abs(i)
        if i % 1000 == 0:
            progress.append(i)
    done.set()


def test_warm_up_waits_while_a_request_is_in_flight_and_then_finishes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(front_handoff, "LONGEST_PAUSE", 60.0)
    idle = threading.Event()  # a request is in flight from the start
    progress: list[int] = []
    done = threading.Event()
    worker = threading.Thread(target=run_while_idle, args=(lambda: busy_work(progress, done), idle), daemon=True)
    worker.start()
    assert not done.wait(0.5), "the warm-up ran while a request was in flight"
    assert progress == []
    idle.set()  # the request is answered
    assert done.wait(30)
    worker.join(30)
    assert len(progress) == 200


def test_a_request_that_takes_long_does_not_hold_the_warm_up_forever(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(front_handoff, "LONGEST_PAUSE", 0.05)
    idle = threading.Event()  # never idle: the warm-up may hold a lock the request waits for
    progress: list[int] = []
    done = threading.Event()
    run_while_idle(lambda: busy_work(progress, done), idle)
    assert done.is_set() and len(progress) == 200


@pytest.mark.anyio
async def test_the_session_is_idle_only_with_no_request_in_flight() -> None:
    activity = Activity()
    assert activity.idle.is_set()
    activity.started()
    activity.started()
    activity.finished()
    assert not activity.idle.is_set(), "one request is still in flight"
    activity.finished()
    assert activity.idle.is_set()


@pytest.mark.parametrize("on_list", [True, False])
def test_the_first_tools_list_starts_the_warm_up_unless_the_caller_schedules_it(
    monkeypatch: pytest.MonkeyPatch, on_list: bool
) -> None:
    import anyio

    from sap_devs.mcp import front_data, server
    from sap_devs.mcp.framework import ToolContext
    from sap_devs.mcp.registry import Registry

    started = threading.Event()
    monkeypatch.setattr(server, "warm_up", lambda ctx: started.set())
    built = server.build_server(Registry.default(), ToolContext(), warm_up_on_list=on_list)
    opening = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]
    replies = anyio.run(front_data.exchange, built, opening)
    assert "result" in replies[1]
    assert started.wait(5 if on_list else 0.3) is on_list
