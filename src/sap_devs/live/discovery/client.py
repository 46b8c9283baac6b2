"""SAP Discovery Center: OData function calls through its $batch endpoint, and the service catalogue.

The platform API wants a CSRF token (fetched with a HEAD request) and one GET request wrapped in
a multipart $batch POST; the answer is a multipart body whose JSON part holds
``{"d": {"<Function>": <value>}}``, where the value is sometimes itself a JSON string.
"""

from __future__ import annotations

import json
import uuid
from typing import Any
from urllib.parse import quote

from sap_devs.core.http import FetchError, Http

BASES = {"discovery": "https://discovery-center.cloud.sap"}
HOSTS = frozenset({"discovery-center.cloud.sap"})


def odata_string(value: str) -> str:
    """An OData V2 string literal: single quotes doubled, then percent-encoded for the URL."""
    return quote("'" + value.replace("'", "''") + "'", safe="'")


def function_path(name: str, params: dict[str, str]) -> str:
    query = "&".join(f"{key}={odata_string(value)}" for key, value in params.items())
    return f"{name}?{query}" if query else name


def first_json_object(text: str) -> Any:
    """The first balanced ``{...}`` in a multipart body, decoded (strings and escapes respected)."""
    start = text.find("{")
    while start >= 0:
        depth, in_string, escaped = 0, False, False
        for index in range(start, len(text)):
            char = text[index]
            if in_string:
                if escaped:
                    escaped = False
                elif char == "\\":
                    escaped = True
                elif char == '"':
                    in_string = False
            elif char == '"':
                in_string = True
            elif char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
                if depth == 0:
                    try:
                        return json.loads(text[start : index + 1])
                    except ValueError:
                        break
        start = text.find("{", start + 1)
    raise FetchError("the Discovery Center answer holds no JSON object", retryable=False)


async def call_function(http: Http, base: str, name: str, params: dict[str, str]) -> Any:
    root = base.rstrip("/") + "/platformx/"
    head = await http.request(
        "HEAD", root, headers={"x-csrf-token": "Fetch", "x-requested-with": "XMLHttpRequest"}, ok=(200, 204)
    )
    token = head.headers.get("x-csrf-token")
    if not token:
        raise FetchError("Discovery Center did not issue a CSRF token", retryable=True)
    boundary = f"batch_{uuid.uuid4().hex}"
    body = (
        f"--{boundary}\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"
        f"GET {function_path(name, params)} HTTP/1.1\r\nAccept: application/json\r\nDataServiceVersion: 2.0\r\n"
        f"x-csrf-token: {token}\r\n\r\n\r\n--{boundary}--\r\n"
    )
    response = await http.request(
        "POST",
        root + "$batch",
        headers={
            "Content-Type": f"multipart/mixed;boundary={boundary}",
            "x-csrf-token": token,
            "Accept": "multipart/mixed",
        },
        content=body.encode("utf-8"),
        ok=(200, 202),
    )
    payload = first_json_object(response.text())
    if "error" in payload:
        message = (payload.get("error") or {}).get("message") or payload["error"]
        raise FetchError(f"Discovery Center error in {name}: {message}", retryable=False)
    value = (payload.get("d") or {}).get(name)
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError as exc:
            raise FetchError(f"Discovery Center returned malformed {name} data ({exc})", retryable=False) from None
    if value is None:
        raise FetchError(f"Discovery Center answer has no {name} result", retryable=False)
    return value


def _pick(record: dict[str, Any], *names: str) -> Any:
    return next((record[n] for n in names if record.get(n) not in (None, "")), None)


def normalise_mission(record: Any) -> dict[str, Any] | None:
    if not isinstance(record, dict):
        return None
    mission_id = _pick(record, "Id", "ID", "id", "MissionId")
    name = _pick(record, "Name", "name", "Title", "title")
    if mission_id is None or not name:
        return None
    description = _pick(
        record, "UCLongDescription", "LongDescription", "ShortDescription", "Description", "description"
    )
    return {
        "id": str(mission_id),
        "name": " ".join(str(name).split()),
        "description": " ".join(str(description or "").split())[:800],
        "effort": _pick(record, "Effort", "effort"),
        "category": _pick(record, "Category", "category"),
        "url": f"https://discovery-center.cloud.sap/missiondetail/{mission_id}/",
    }


def flatten_catalogue(value: Any) -> list[dict[str, Any]]:
    """``[{name, desc, missions: [...]}]`` groups into unique normalised missions."""
    seen: dict[str, dict[str, Any]] = {}
    groups = value if isinstance(value, list) else []
    for group in groups:
        missions = group.get("missions") if isinstance(group, dict) else None
        for record in missions or []:
            mission = normalise_mission(record)
            if mission:
                seen.setdefault(mission["id"], mission)
    return list(seen.values())
