"""Only a redirect is followed: an answer that merely carries a Location header (201 Created, a
200 that names its canonical address) is the answer (a mutant scripts/mutation.py found surviving
in core/http.py)."""

from __future__ import annotations

import httpx
import pytest

from sap_devs.core.http import Http, Policy

pytestmark = pytest.mark.anyio

ALLOWED = frozenset({"community.sap.com"})


@pytest.mark.parametrize("status", [200, 201])
async def test_a_location_header_without_a_redirect_status_is_not_followed(status: int) -> None:
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        return httpx.Response(status, headers={"location": "https://community.sap.com/elsewhere"}, content=b"here")

    async with Http(Policy(allowed_hosts=ALLOWED), transport=httpx.MockTransport(handler)) as http:
        response = await http.get("https://community.sap.com/item", ok=(status,))
    assert (response.status, response.content) == (status, b"here")
    assert seen == ["https://community.sap.com/item"]
