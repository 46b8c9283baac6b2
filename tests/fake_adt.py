"""A fake ABAP system speaking ADT on 127.0.0.1, answering from recorded responses.

It enforces what real systems enforce and what ADT clients get wrong: basic auth and sap-client,
CSRF tokens on changes (with expiry on demand), lock handles bound to the stateful session (a
stateless request between lock and write retires them: 423), lock conflicts, and 406 for an
Accept header that names none of the media types an object offers. It is as tolerant as real
systems are: ``Accept: */*`` and ``application/*`` match anything, ``Content-Type: application/*``
is taken for the object's own type, and a session cookie logs on without ``sap-client``.
"""

from __future__ import annotations

import base64
import fnmatch
import itertools
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit
from xml.sax.saxutils import escape

from tests.loopback import serve

DATA = Path(__file__).parent / "data" / "adt"
EXC = (
    '<?xml version="1.0" encoding="utf-8"?><exc:exception xmlns:exc="http://www.sap.com/abapxml/types/'
    'communicationframework"><namespace id="com.sap.adt"/><type id="{type}"/><message lang="EN">{msg}</message>'
    '<localizedMessage lang="EN">{msg}</localizedMessage><properties/></exc:exception>'
)


VERSIONS_REL = "http://www.sap.com/adt/relations/versions"
TRANSPORT_TYPE = "application/vnd.sap.adt.transportrequests.v1+xml"


def acceptable(accept: str, offered: tuple[str, ...]) -> bool:
    """Whether an Accept header takes one of ``offered``: by name, or by a wildcard as real systems do."""
    kinds = [part.split(";")[0].strip().lower() for part in accept.split(",")]
    if not accept.strip() or "*/*" in kinds or "application/*" in kinds:
        return True
    return any(t.lower() in kinds for t in offered)


def content_type_ok(ctype: str, wanted: tuple[str, ...]) -> bool:
    """A Content-Type names the expected type, or application/* (abap-adt-api's choice for XML bodies)."""
    base = ctype.split(";")[0].strip().lower()
    return base == "application/*" or base in (t.lower() for t in wanted)


LOCK_RESULT = "application/vnd.sap.as+xml; charset=utf-8; dataname=com.sap.adt.lock.Result"
TRANSPORT_ORGANIZER = "application/vnd.sap.adt.transportorganizer.v1+xml"  # what CTS answers (recorded)


def lock_accepted(accept: str, action: str) -> bool:
    """A lock answers asx:abap documents told apart by dataname: the Accept must name the lock result
    (a message's lock also the status message sapcli asks for) or a wildcard; a bare type is not enough."""
    if acceptable(accept, ()):
        return True
    names = ("com.sap.adt.lock.result",) + (("com.sap.adt.statusmessage",) if action == "LOCK_MSG" else ())
    return any(f"dataname={n}" in accept.lower().replace(" ", "") for n in names)


def generated_metadata(root: str, ns: str, name: str, adt_type: str, package: str, description: str) -> bytes:
    """Object metadata in the ADT shape, for objects the recordings do not cover; like real metadata it
    links the version history (a class through its main include, everything else through its source)."""
    link = '<atom:link xmlns:atom="http://www.w3.org/2005/Atom" href="{href}" rel="' + VERSIONS_REL + '"/>'
    versions = (
        f'<class:include class:includeType="main" abapsource:sourceUri="source/main" '
        f'xmlns:abapsource="http://www.sap.com/adt/abapsource">{link.format(href="includes/main/versions")}'
        "</class:include>"
        if adt_type == "CLAS/OC"
        else link.format(href="source/main/versions")
    )
    return (
        f'<?xml version="1.0" encoding="utf-8"?><{root} xmlns:{root.split(":")[0]}="{ns}" '
        'xmlns:adtcore="http://www.sap.com/adt/core" '
        f'adtcore:name="{name}" adtcore:type="{adt_type}" adtcore:description="{escape(description)}" '
        'adtcore:responsible="DEVELOPER" adtcore:masterLanguage="EN" adtcore:version="active" '
        f'adtcore:changedBy="DEVELOPER" adtcore:changedAt="2026-11-01T10:00:00Z">{versions}<adtcore:packageRef '
        f'adtcore:name="{package}" adtcore:type="DEVC/K"/></{root}>'
    ).encode()


@dataclass
class Obj:
    uri: str
    name: str
    type: str
    package: str
    accepts: tuple[str, ...]
    metadata: bytes
    source: str
    includes: dict[str, str] = field(default_factory=dict)
    inactive: str | None = None  # the source saved since the last activation, as real systems keep it

    def header(self) -> bytes:
        """The metadata, naming the inactive version while one exists (what ADT shows its owner)."""
        if self.inactive is None:
            return self.metadata
        import re

        return re.sub(rb'adtcore:version="[^"]*"', b'adtcore:version="inactive"', self.metadata, count=1)

    def text(self, version: str | None) -> str:
        """active: the active source; inactive or unspecified: the inactive one when there is one."""
        return self.source if version == "active" or self.inactive is None else self.inactive

    def versions_paths(self) -> list[str]:
        """The version feeds the metadata links, relative to the object (real systems serve those only)."""
        import re

        found = []
        for tag in re.findall(rb"<atom:link\b[^>]*>", self.metadata):
            if VERSIONS_REL.encode() in tag:
                href = re.search(rb'href="([^"]+)"', tag)
                if href:
                    value = href.group(1).decode()
                    found.append(value[len(self.uri) + 1 :] if value.startswith(self.uri + "/") else value)
        return found

    def move_to(self, package: str) -> None:
        """What another user's package change looks like: the metadata names the new package."""
        import re

        self.package = package
        self.metadata = re.sub(
            rb'(<adtcore:packageRef\b[^>]*?adtcore:name=")[^"]*(")',
            rb"\g<1>" + package.encode() + rb"\2",
            self.metadata,
        )


def default_objects() -> dict[str, Obj]:
    class_accepts = ("application/vnd.sap.adt.oo.classes.v4+xml", "application/vnd.sap.adt.oo.classes.v3+xml")
    table_xml = (DATA / "table.xml").read_bytes().replace(b"{TABLE_NAME}", b"ZSALES_ORDER")
    objects = [
        Obj(
            "/sap/bc/adt/oo/classes/zcl_sample_class",
            "ZCL_SAMPLE_CLASS",
            "CLAS/OC",
            "$TMP",
            class_accepts,
            (DATA / "class.xml").read_bytes(),
            (DATA / "class.abap").read_text(),
            {"testclasses": (DATA / "testclasses.abap").read_text(), "definitions": "* local types\n"},
        ),
        Obj(
            "/sap/bc/adt/oo/interfaces/zif_sample_interface",
            "ZIF_SAMPLE_INTERFACE",
            "INTF/OI",
            "$TMP",
            ("application/vnd.sap.adt.oo.interfaces.v5+xml",),
            (DATA / "interface.xml").read_bytes(),
            "INTERFACE zif_sample_interface PUBLIC.\n  METHODS run.\nENDINTERFACE.\n",
        ),
        Obj(
            "/sap/bc/adt/programs/programs/ztest_program",
            "ZTEST_PROGRAM",
            "PROG/P",
            "$TMP",
            ("application/vnd.sap.adt.programs.programs.v2+xml",),
            (DATA / "program.xml").read_bytes(),
            "REPORT ztest_program.\nWRITE 'Hello'.\n",
        ),
        Obj(
            "/sap/bc/adt/ddic/ddl/sources/zddl_sample",
            "ZDDL_SAMPLE",
            "DDLS/DF",
            "$TMP",
            ("application/vnd.sap.adt.ddlSource.v2+xml", "application/vnd.sap.adt.ddlSource+xml"),
            (DATA / "ddl.xml").read_bytes(),
            "define view entity ZDDL_SAMPLE as select from zsales_order\n{\n  key order_id\n}\n",
        ),
        Obj(
            "/sap/bc/adt/bo/behaviordefinitions/zmock_bdef",
            "ZMOCK_BDEF",
            "BDEF/BDO",
            "$TMP",
            ("application/vnd.sap.adt.blues.v1+xml",),
            (DATA / "bdef.xml").read_bytes(),
            (DATA / "bdef.abdl").read_text(),
        ),
        Obj(
            "/sap/bc/adt/ddic/tables/zsales_order",
            "ZSALES_ORDER",
            "TABL/DT",
            "ZSALES",
            ("application/vnd.sap.adt.tables.v2+xml", "application/vnd.sap.adt.blues.v1+xml"),
            table_xml,
            (DATA / "table.txt").read_text(),
        ),
        Obj(
            "/sap/bc/adt/functions/groups/zfg_hello_world/fmodules/z_fn_hello_world",
            "Z_FN_HELLO_WORLD",
            "FUGR/FF",
            "$TMP",
            ("application/vnd.sap.adt.functions.fmodules.v3+xml", "application/xml"),
            (DATA / "fmodule.xml").read_bytes(),
            (DATA / "fmodule.abap").read_text(),
        ),
        Obj(
            "/sap/bc/adt/ddic/dataelements/zsales_order_id",
            "ZSALES_ORDER_ID",
            "DTEL/DE",
            "$TMP",
            ("application/vnd.sap.adt.dataelements.v2+xml",),
            (DATA / "dataelement.xml")
            .read_bytes()
            .replace(b"{DATA_ELEMENT_NAME.lower()}", b"zsales_order_id")
            .replace(b"{DATA_ELEMENT_NAME}", b"ZSALES_ORDER_ID"),
            "",
        ),
        Obj(
            "/sap/bc/adt/businessservices/bindings/zsapcli_test_bnd",
            "ZSAPCLI_TEST_BND",
            "SRVB/SVB",
            "$TMP",
            ("application/xml",),
            (DATA / "srvb.xml").read_bytes(),
            "",
        ),
        Obj(
            "/sap/bc/adt/functions/groups/zfg_hello_world",
            "ZFG_HELLO_WORLD",
            "FUGR/F",
            "$TMP",
            ("application/vnd.sap.adt.functions.groups.v3+xml",),
            (DATA / "fugr.xml").read_bytes(),
            "FUNCTION-POOL zfg_hello_world.\nINCLUDE lzfg_hello_worldtop.\nINCLUDE lzfg_hello_worlduxx.\n",
        ),
        Obj(
            "/sap/bc/adt/ddic/domains/begrm",
            "BEGRM",
            "DOMA/DD",
            "MGA",
            ("application/vnd.sap.adt.domains.v2+xml",),
            (DATA / "domain.xml").read_bytes(),
            "",
        ),
        Obj(
            "/sap/bc/adt/programs/programs/zprod_report",
            "ZPROD_REPORT",
            "PROG/P",
            "ZPROD",
            ("application/vnd.sap.adt.programs.programs.v2+xml",),
            generated_metadata(
                "program:abapProgram",
                "http://www.sap.com/adt/programs/programs",
                "ZPROD_REPORT",
                "PROG/P",
                "ZPROD",
                "Productive report",
            ),
            "REPORT zprod_report.\n",
        ),
        Obj(
            "/sap/bc/adt/programs/programs/rsparam",
            "RSPARAM",
            "PROG/P",
            "SAP_BASIS_CORE",
            ("application/vnd.sap.adt.programs.programs.v2+xml",),
            generated_metadata(
                "program:abapProgram",
                "http://www.sap.com/adt/programs/programs",
                "RSPARAM",
                "PROG/P",
                "SAP_BASIS_CORE",
                "SAP standard report",
            ),
            "REPORT rsparam.\n",
        ),
    ]
    return {o.uri: o for o in objects}


@dataclass
class Recorded:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    status: int = 0  # what the fake answered, and with which Content-Type
    answered: str = ""


MARK = "/__crosscheck__/"  # a client under test announces its next operation here (no logon needed)


class FakeAdt:
    def __init__(self, *, user: str = "DEVELOPER", password: str = "S3cret-Passw0rd!", client: str = "100") -> None:
        self.user, self.password, self.client = user, password, client
        self.objects = default_objects()
        self.requests: list[Recorded] = []
        self.sessions: dict[str, str] = {}  # session id -> csrf token
        self.locks: dict[str, tuple[str, str]] = {}  # uri -> (handle, session id)
        self.locked_by_other: set[str] = set()
        self.moves_at_lock: dict[str, str] = {}  # uri -> package another user moves it to just before our lock
        self.checked: list[str] = []
        self.created: list[str] = []
        self.create_bodies: list[str] = []
        self.activated: list[str] = []
        self.transport_bodies: list[str] = []
        self.released: list[str] = []
        self.queries: list[tuple[str, str, dict[str, list[str]]]] = []  # (endpoint, SQL, query string)
        self.atc_worklists: dict[str, str] = {}  # worklist id -> check variant
        self.atc_runs: list[tuple[str, str]] = []  # (check variant, run request body)
        self.atc_system_variant: str | None = "STANDARD"
        self.unit_runs: list[tuple[str, str]] = []  # (content type, run configuration)
        self.coverage_queries: list[str] = []
        self.dump_queries: list[dict[str, list[str]]] = []  # also the system-message and gateway feeds
        self.gateway = True  # the system has the SAP Gateway error log
        self.source_search = True  # the system has ADT's source code search
        self.table_sources = True  # the system creates tables from source (SAP_BASIS 7.52 and later)
        self.message_locks: dict[tuple[str, str], tuple[str, str]] = {}  # (class uri, number) -> (handle, session)
        self.navigations: list[tuple[str, str]] = []  # (uri with the cursor, sent source)
        self.publish_jobs: list[tuple[str, dict[str, list[str]], str]] = []
        self.publish_fails = False
        self.delay = 0.0
        self.core_discovery = True  # False: an older system without /sap/bc/adt/core/discovery (404)
        self.csrf_failure_body = "CSRF token validation failed"  # what a 403 for a bad token says
        # objects the system insists on activating together: an activation that leaves any of them
        # out is answered with the inactive-objects list instead of messages; (uri, type, name)
        self.inactive_together: list[tuple[str, str, str]] = []
        self.activation_keeps_inactive = False  # answer with the list even when all of them were sent
        self.on_mark: Callable[[str], None] | None = None  # told each operation a cross-checked client announces
        self.bearer_tokens: set[str] = set()  # OAuth access tokens accepted instead of the password
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def expire_csrf(self) -> None:
        with self._lock:
            for sid in self.sessions:
                self.sessions[sid] = f"expired-{sid}"

    def changes(self) -> list[Recorded]:
        """Requests that lock or change something."""
        return [
            r
            for r in self.requests
            if r.method in ("PUT", "DELETE")
            or any(a.startswith("LOCK") for a in r.query.get("_action", []))
            or r.path == "/sap/bc/adt/activation"
        ]

    # -- the HTTP side ---------------------------------------------------------------------------

    def handle(self, h: BaseHTTPRequestHandler) -> None:
        parts = urlsplit(h.path)
        path, query = unquote(parts.path), parse_qs(parts.query, keep_blank_values=True)
        length = int(h.headers.get("content-length") or 0)
        body = h.rfile.read(length) if length else b""
        headers = {k.lower(): v for k, v in h.headers.items()}
        record = Recorded(h.command, path, query, headers)
        with self._lock:
            self.requests.append(record)
        if self.delay:
            time.sleep(self.delay)

        def send(
            status: int, payload: bytes | str = b"", ctype: str = "application/xml", extra: dict[str, str] | None = None
        ) -> None:
            data = payload.encode() if isinstance(payload, str) else payload
            record.status, record.answered = status, ctype
            h.send_response(status)
            h.send_header("Content-Type", ctype)
            h.send_header("Content-Length", str(len(data)))
            for k, v in (extra or {}).items():
                h.send_header(k, v)
            h.end_headers()
            if h.command != "HEAD":
                with suppress(BrokenPipeError, ConnectionResetError):  # the client gave up (timeout tests)
                    h.wfile.write(data)

        def fail(status: int, type_id: str, message: str) -> None:
            send(status, EXC.format(type=type_id, msg=escape(message)))

        if path.startswith(MARK):
            if self.on_mark is not None:
                self.on_mark(path[len(MARK) :])
            return send(204, b"", "text/plain")

        expected = "Basic " + base64.b64encode(f"{self.user}:{self.password}".encode()).decode()
        authorized = headers.get("authorization") in {expected, *(f"Bearer {t}" for t in self.bearer_tokens)}
        cookie = headers.get("cookie", "")
        sid = next((c.split("=", 1)[1] for c in cookie.split("; ") if c.startswith("SAP_SESSIONID_FAK_100=")), None)
        # a logged-on session names its client in the cookie; only a new logon must say sap-client
        client_ok = query.get("sap-client", [None])[0] == self.client or (
            "sap-client" not in query and sid is not None and sid in self.sessions
        )
        if not authorized or not client_ok:
            send(
                401,
                "Logon failed",
                "text/plain",
                {"WWW-Authenticate": 'Basic realm="SAP NetWeaver Application Server"'},
            )
            return
        extra: dict[str, str] = {}
        with self._lock:
            if sid is None or sid not in self.sessions:
                sid = f"s{next(self._ids)}"
                self.sessions[sid] = f"tok-{sid}-{next(self._ids)}"
                extra["Set-Cookie"] = f"SAP_SESSIONID_FAK_100={sid}; Path=/"
            stateful = headers.get("x-sap-adt-sessiontype", "").lower() == "stateful"
            if not stateful:  # a stateless request retires the stateful context and its locks
                for uri, (_, owner) in list(self.locks.items()):
                    if owner == sid:
                        del self.locks[uri]
                for key, (_, owner) in list(self.message_locks.items()):
                    if owner == sid:
                        del self.message_locks[key]
            if headers.get("x-csrf-token", "").lower() == "fetch":
                extra["x-csrf-token"] = self.sessions[sid]
            elif h.command in ("POST", "PUT", "DELETE") and headers.get("x-csrf-token") != self.sessions[sid]:
                send(403, self.csrf_failure_body, "text/plain", {**extra, "x-csrf-token": "Required"})
                return

        def ok(payload: bytes | str, ctype: str = "application/xml") -> None:
            send(200, payload, ctype, extra)

        from tests.fake_adt_more import handle_more  # issue 26's operations, kept in their own module

        if handle_more(self, h.command, path, query, headers, body, ok, fail, sid=sid, stateful=stateful):
            return

        if path == "/sap/bc/adt/core/discovery" and not self.core_discovery:
            return fail(404, "ExceptionResourceNotFound", f"Resource {path} does not exist")
        if path in ("/sap/bc/adt/core/discovery", "/sap/bc/adt/discovery"):
            return ok((DATA / "discovery.xml").read_bytes(), "application/atomsvc+xml")
        if path == "/sap/bc/adt/compatibility/graph":  # abap-adt-api logs on here
            return ok(
                '<?xml version="1.0" encoding="utf-8"?><compatibility:graph '
                'xmlns:compatibility="http://www.sap.com/adt/compatibility"/>'
            )
        if path == "/sap/bc/adt/feeds" and h.command == "GET":
            return ok((DATA / "feeds.xml").read_bytes(), "application/atom+xml;type=feed")
        if path == "/sap/bc/adt/system/information":
            return ok((DATA / "system-information.xml").read_bytes(), "application/atom+xml")
        if path.startswith("/sap/bc/adt/businessservices/odatav") and h.command == "POST":
            with self._lock:
                self.publish_jobs.append((path, query, body.decode()))
            name = "srvb-publish-fail.xml" if self.publish_fails else "srvb-publish-ok.xml"
            return ok(
                (DATA / name).read_bytes(),
                "application/vnd.sap.as+xml; charset=utf-8; dataname=com.sap.adt.StatusMessage",
            )
        if path == "/sap/bc/adt/navigation/target" and h.command == "POST":
            # a cursor on the word "run" in the sent source leads to ZIF_SAMPLE_INTERFACE's method RUN
            with self._lock:
                self.navigations.append((query.get("uri", [""])[0], body.decode()))
            import re as regex

            where = regex.search(r"#start=(\d+),(\d+)", query.get("uri", [""])[0])
            lines = body.decode().splitlines()
            if where and int(where.group(1)) <= len(lines):
                word = regex.match(r"\w*", lines[int(where.group(1)) - 1][int(where.group(2)) :]).group(0)
                if word.lower() == "run":
                    return ok((DATA / "navigation-target.xml").read_bytes())
            return fail(400, "NavigationFailure", "Incorrect cursor position or object is not included in navigation")
        if path == "/sap/bc/adt/repository/informationsystem/textsearch" and h.command == "GET":
            with self._lock:
                self.dump_queries.append(query)
            if not self.source_search:  # what systems without the HANA source search index answer
                return fail(500, "ExceptionResourceFailure", "Source Search is not supported")
            return ok((DATA / "textsearch.xml").read_bytes())
        if path == "/sap/bc/adt/repository/informationsystem/search":
            pattern = query.get("query", ["*"])[0].upper()
            wanted = query.get("objectType", [None])[0]
            refs = [
                o
                for o in self.objects.values()
                if fnmatch.fnmatchcase(o.name, pattern) and (wanted is None or o.type.startswith(wanted))
            ][: int(query.get("maxResults", ["100"])[0])]
            items = "".join(
                f'<adtcore:objectReference adtcore:uri="{o.uri}" adtcore:type="{o.type}" adtcore:name="{o.name}" '
                f'adtcore:packageName="{o.package}" adtcore:description="{o.name.lower()}"/>'
                for o in refs
            )
            return ok(
                f'<?xml version="1.0" encoding="utf-8"?><adtcore:objectReferences xmlns:adtcore="http://www.sap.com/adt/core">{items}</adtcore:objectReferences>'
            )
        if path == "/sap/bc/adt/checkruns" and h.command == "POST":
            # unsaved source arrives base64-encoded; "SYNTAX_ERROR" in it makes the recorded error answer
            import base64 as b64
            import re as regex

            encoded = regex.search(rb"<chkrun:content>([^<]*)</chkrun:content>", body)
            text = b64.b64decode(encoded.group(1)).decode() if encoded else ""
            if not encoded:  # the saved object is checked, in the version asked for
                uri = regex.search(rb'adtcore:uri="([^"#?]+)', body)
                version = regex.search(rb'chkrun:version="([^"]+)"', body)
                checked = self.objects.get(unquote(uri.group(1).decode()).lower()) if uri else None
                if checked is not None:
                    text = checked.text(version.group(1).decode() if version else "active")
            with self._lock:
                self.checked.append(text)
            name = "check-errors.xml" if "SYNTAX_ERROR" in text else "check-clean.xml"
            return ok((DATA / name).read_bytes(), "application/vnd.sap.adt.checkmessages+xml")
        if path == "/sap/bc/adt/activation" and h.command == "POST":
            with self._lock:
                self.activated.append(body.decode())
            if b"zfail" in body.lower():
                return ok((DATA / "activation-error.xml").read_bytes())
            if self.inactive_together:
                sent = body.decode().lower()
                if self.activation_keeps_inactive or any(u.lower() not in sent for u, _, _ in self.inactive_together):
                    return ok(self._inactive_list(), "application/vnd.sap.adt.inactivectsobjects.v1+xml")
                self.inactive_together = []
            with self._lock:  # what was saved becomes the active version
                for uri, o in self.objects.items():
                    if o.inactive is not None and f'"{uri}'.encode() in body.lower():
                        o.source, o.inactive = o.inactive, None
            return ok(b"")
        if path == "/sap/bc/adt/repository/informationsystem/usageReferences" and h.command == "POST":
            return ok(
                (DATA / "whereused.xml").read_bytes(),
                "application/vnd.sap.adt.repository.usagereferences.result.v1+xml",
            )
        if path == "/sap/bc/adt/cts/transports" and h.command == "POST":
            # the correction request abap-adt-api (and ADT) create: the answer is the new request's URI
            with self._lock:
                self.transport_bodies.append(body.decode())
            return ok("/sap/bc/adt/cts/transportrequests/DEVK900125", "text/plain")
        if path == "/sap/bc/adt/cts/transportrequests" and h.command == "POST":
            with self._lock:
                self.transport_bodies.append(body.decode())
            answer = (DATA / "transport-create.xml").read_text().replace("{TRANSPORT_NUMBER}", "DEVK900125")
            return send(201, answer, "application/vnd.sap.adt.transportorganizer.v1+xml", extra)
        if path.startswith("/sap/bc/adt/cts/transportrequests/") and path.endswith("/newreleasejobs"):
            number = path.split("/")[-2]
            if number not in ("DEVK900123", "DEVK900124"):
                return fail(404, "ExceptionResourceNotFound", f"Request {number} does not exist")
            with self._lock:
                self.released.append(number)
            if number == "DEVK900123":  # its task is still open in the recorded tree
                answer = (DATA / "transport-release-error.xml").read_text().replace("{TASK_NUMBER}", number)
            else:
                answer = (DATA / "transport-release.xml").read_text().replace("{TRANSPORT_NUMBER}", number)
            return ok(answer, TRANSPORT_ORGANIZER)
        if path == "/sap/bc/adt/cts/transportrequests":
            tree = (DATA / "transports-tree.xml").read_text()
            return ok(
                tree.replace("{TRANSPORT_NUMBER}", "DEVK900123").replace("{TASK_NUMBER}", "DEVK900124"),
                "application/vnd.sap.adt.transportorganizertree.v1+xml",  # the first type sapcli asks for
            )
        if path.startswith("/sap/bc/adt/cts/transportrequests/"):
            number = path.rsplit("/", 1)[-1]
            if number != "DEVK900123":
                return fail(404, "ExceptionResourceNotFound", f"Request {number} does not exist")
            one = (DATA / "transport.xml").read_text()
            return ok(
                one.replace("{TRANSPORT_NUMBER}", number).replace("{TASK_NUMBER}", "DEVK900124"), TRANSPORT_ORGANIZER
            )
        if path in ("/sap/bc/adt/datapreview/ddic", "/sap/bc/adt/datapreview/freestyle") and h.command == "POST":
            sql = body.decode()
            with self._lock:
                self.queries.append((path.rsplit("/", 1)[-1], sql, query))
            upper = (
                sql.upper() + " " + query.get("ddicEntityName", [""])[0].upper()
            )  # the table may come as a parameter
            if "COUNT(" in upper:
                return ok((DATA / "datapreview-count.xml").read_bytes())
            if "T000" not in upper:
                return fail(400, "ExceptionDataPreview", "Table or view is unknown or not active")
            one = query.get("rowNumber", ["100"])[0] == "1"
            return ok((DATA / ("datapreview-t000-one-row.xml" if one else "datapreview-t000.xml")).read_bytes())
        if path.startswith("/sap/bc/adt/apireleases/") and h.command == "GET":
            # sapcli's recorded state of I_STATISTICALKEYFIGURECAT; other objects are not releasable here
            if path.endswith("/sap/bc/adt/ddic/ddl/sources/i_statisticalkeyfigurecat"):
                return ok((DATA / "apirelease.xml").read_bytes(), "application/vnd.sap.adt.apirelease.v11+xml")
            return fail(404, "ExceptionResourceNotFound", f"No API release information for {path[24:]}")
        if path in ("/sap/bc/adt/runtime/systemmessages", "/sap/bc/adt/gw/errorlog") and h.command == "GET":
            with self._lock:
                self.dump_queries.append(query)
            if path == "/sap/bc/adt/gw/errorlog" and not self.gateway:
                return fail(404, "ExceptionResourceNotFound", f"Resource {path} does not exist")
            name = "system-messages.xml" if path.endswith("systemmessages") else "gateway-errors.xml"
            return ok((DATA / name).read_bytes(), "application/atom+xml;type=feed")
        if path == "/sap/bc/adt/runtime/dumps" or path.startswith("/sap/bc/adt/runtime/dump/"):
            return self._dumps(h.command, path, query, ok, fail)
        if path == "/sap/bc/adt/abapunit/testruns" or path.startswith("/sap/bc/adt/runtime/traces/coverage/"):
            return self._aunit(h.command, path, headers, body, ok, fail)
        if path.startswith("/sap/bc/adt/atc/") or path.startswith("/sap/bc/adt/documentation/atc/"):
            return self._atc(h.command, path, query, body, ok, send, fail, extra)
        if path == "/sap/bc/adt/activation/inactiveobjects":
            return ok((DATA / "inactive-objects.xml").read_bytes())
        if path == "/sap/bc/adt/repository/nodestructure" and h.command == "POST":
            tree_type = "application/vnd.sap.as+xml;charset=UTF-8;dataname=com.sap.adt.RepositoryObjectTreeContent"
            accept = headers.get("accept", "")
            named = [p for p in accept.split(",") if p.split(";")[0].strip() == "application/vnd.sap.as+xml"]
            if not (
                acceptable(accept, ()) or any("com.sap.adt.repositoryobjecttreecontent" in p.lower() for p in named)
            ):
                return fail(406, "ExceptionResourceNotAcceptable", f"Accepted types: {tree_type}")
            package = query.get("parent_name", [""])[0]
            members = [o for o in self.objects.values() if o.package == package]
            if not members:
                return fail(404, "ExceptionResourceNotFound", f"Package {package} does not exist")
            nodes = "".join(
                f"<SEU_ADT_REPOSITORY_OBJ_NODE><OBJECT_TYPE>{o.type}</OBJECT_TYPE><OBJECT_NAME>{o.name}</OBJECT_NAME>"
                f"<OBJECT_URI>{o.uri}</OBJECT_URI><DESCRIPTION>{o.name.lower()}</DESCRIPTION></SEU_ADT_REPOSITORY_OBJ_NODE>"
                for o in members
            )
            return ok(
                f'<?xml version="1.0" encoding="UTF-8"?><asx:abap xmlns:asx="http://www.sap.com/abapxml" version="1.0"><asx:values><DATA><TREE_CONTENT>{nodes}</TREE_CONTENT></DATA></asx:values></asx:abap>',
                "application/vnd.sap.as+xml; charset=utf-8; dataname=com.sap.adt.RepositoryObjectTreeContent",
            )

        collections = {
            "/sap/bc/adt/programs/programs": (
                "PROG/P",
                "program:abapProgram",
                "http://www.sap.com/adt/programs/programs",
                "application/vnd.sap.adt.programs.programs.v2+xml",
            ),
            "/sap/bc/adt/oo/classes": (
                "CLAS/OC",
                "class:abapClass",
                "http://www.sap.com/adt/oo/classes",
                "application/vnd.sap.adt.oo.classes.v4+xml",
            ),
            "/sap/bc/adt/oo/interfaces": (
                "INTF/OI",
                "intf:abapInterface",
                "http://www.sap.com/adt/oo/interfaces",
                "application/vnd.sap.adt.oo.interfaces.v5+xml",
            ),
            "/sap/bc/adt/ddic/ddl/sources": (
                "DDLS/DF",
                "ddl:ddlSource",
                "http://www.sap.com/adt/ddic/ddlsources",
                "application/vnd.sap.adt.ddlSource+xml",
            ),
            "/sap/bc/adt/acm/dcl/sources": (
                "DCLS/DL",
                "dcl:dclSource",
                "http://www.sap.com/adt/acm/dclsources",
                "application/vnd.sap.adt.dclSource+xml",
            ),
            "/sap/bc/adt/bo/behaviordefinitions": (
                "BDEF/BDO",
                "blue:blueSource",
                "http://www.sap.com/wbobj/blue",
                "application/vnd.sap.adt.blues.v1+xml",
            ),
            "/sap/bc/adt/ddic/ddlx/sources": (
                "DDLX/EX",
                "ddlx:ddlxSource",
                "http://www.sap.com/adt/ddic/ddlxsources",
                "application/vnd.sap.adt.ddic.ddlx.v1+xml",
            ),
            "/sap/bc/adt/ddic/srvd/sources": (
                "SRVD/SRV",
                "srvd:srvdSource",
                "http://www.sap.com/adt/ddic/srvdsources",
                "application/vnd.sap.adt.ddic.srvd.v1+xml",
            ),
            "/sap/bc/adt/ddic/dataelements": (
                "DTEL/DE",
                "blue:wbobj",
                "http://www.sap.com/wbobj/dictionary/dtel",
                "application/vnd.sap.adt.dataelements.v2+xml",
            ),
            "/sap/bc/adt/ddic/domains": (
                "DOMA/DD",
                "doma:domain",
                "http://www.sap.com/dictionary/domain",
                "application/vnd.sap.adt.domains.v2+xml",
            ),
            "/sap/bc/adt/ddic/tables": (
                "TABL/DT",
                "blue:blueSource",
                "http://www.sap.com/wbobj/blue",
                "application/vnd.sap.adt.tables.v2+xml",
            ),
            "/sap/bc/adt/messageclass": (
                "MSAG/N",
                "mc:messageClass",
                "http://www.sap.com/adt/MessageClass",
                "application/vnd.sap.adt.mc.messageclass+xml",
            ),
            "/sap/bc/adt/businessservices/bindings": (
                "SRVB/SVB",
                "srvb:serviceBinding",
                "http://www.sap.com/adt/ddic/ServiceBindings",
                "application/vnd.sap.adt.businessservices.servicebinding.v2+xml",
            ),
        }
        if h.command == "POST" and path == "/sap/bc/adt/ddic/tables" and not self.table_sources:
            return fail(404, "ExceptionResourceNotFound", f"Resource {path} does not exist")
        if h.command == "POST" and path in collections:
            import re as regex

            adt_type, root, ns, accept = collections[path]
            name = regex.search(rb'adtcore:name="([^"]+)"', body).group(1).decode()
            package = regex.search(rb'<adtcore:packageRef adtcore:name="([^"]+)"', body).group(1).decode()
            uri = f"{path}/{name.lower()}"
            if uri in self.objects:
                return fail(400, "ExceptionResourceAlreadyExists", f"{name} already exists")
            if not package.startswith("$") and not query.get("corrNr"):
                return fail(400, "ExceptionInvalidData", "A transport request is required")
            if not content_type_ok(h.headers.get("content-type", ""), (accept,)):
                return fail(415, "ExceptionResourceNotAcceptable", f"Content type {accept} expected")
            skeleton = {
                "PROG/P": f"REPORT {name.lower()}.\n",
                "CLAS/OC": f"CLASS {name.lower()} DEFINITION.\nENDCLASS.\n",
                "INTF/OI": f"INTERFACE {name.lower()} PUBLIC.\nENDINTERFACE.\n",
            }.get(adt_type, "")
            with self._lock:
                self.objects[uri] = Obj(
                    uri,
                    name,
                    adt_type,
                    package,
                    (accept,),
                    body
                    if adt_type == "SRVB/SVB"
                    else generated_metadata(root, ns, name, adt_type, package, "created"),
                    skeleton,
                )
                self.created.append(uri)
                self.create_bodies.append(body.decode())
            return ok(self.objects[uri].metadata, accept)

        obj_uri, _, rest = next(
            (
                (u, True, path[len(u) :])
                for u in sorted(self.objects, key=len, reverse=True)
                if path == u or path.startswith(u + "/")
            ),
            (None, False, ""),
        )
        if obj_uri is None:
            return fail(404, "ExceptionResourceNotFound", f"Resource {path} does not exist")
        obj = self.objects[obj_uri]
        action = query.get("_action", [None])[0]
        if (
            h.command == "POST"
            and action in ("LOCK", "LOCK_MSG")
            and not lock_accepted(headers.get("accept", ""), action)
        ):
            return fail(406, "ExceptionResourceNotAcceptable", f"Accepted types: {LOCK_RESULT}")
        if h.command == "POST" and action == "LOCK":
            if not stateful:
                return fail(400, "ExceptionInvalidData", "Lock requires a stateful session")
            if obj_uri in self.moves_at_lock:
                obj.move_to(self.moves_at_lock.pop(obj_uri))
            if obj_uri in self.locked_by_other or obj_uri in self.locks:
                return fail(403, "ExceptionResourceLockConflict", f"{obj.name} is currently being edited by OTHERUSER")
            handle = f"LH{next(self._ids):06d}"
            with self._lock:
                self.locks[obj_uri] = (handle, sid)
            lock = (DATA / "lock.xml").read_bytes().replace(b"MOCK_LOCK_HANDLE_001", handle.encode())
            if obj.package.startswith("$"):
                lock = lock.replace(b"<CORRNR>DEVK900001</CORRNR>", b"<CORRNR></CORRNR>")
            return ok(lock, LOCK_RESULT)
        if h.command == "POST" and action in ("LOCK_MSG", "UNLOCK_ALL") and rest.startswith("/messages/"):
            return self._message_lock(action, obj_uri, rest, body, sid, stateful, ok, fail)
        if h.command == "POST" and action == "UNLOCK":
            with self._lock:
                if self.locks.get(obj_uri, ("", ""))[0] == query.get("lockHandle", [""])[0]:
                    del self.locks[obj_uri]
            return ok(b"", "text/plain")
        if h.command == "DELETE" and rest == "":
            held = self.locks.get(obj_uri)
            if not held or held != (query.get("lockHandle", [""])[0], sid):
                return fail(423, "ExceptionResourceInvalidLockHandle", "Resource is not locked (invalid lock handle)")
            with self._lock:
                del self.objects[obj_uri]
                del self.locks[obj_uri]
            return send(204, b"", "text/plain", extra)
        if h.command == "PUT" and rest == "":  # a DDIC definition written under the lock
            held = self.locks.get(obj_uri)
            if not held or held != (query.get("lockHandle", [""])[0], sid):
                return fail(423, "ExceptionResourceInvalidLockHandle", "Resource is not locked (invalid lock handle)")
            if not content_type_ok(headers.get("content-type", ""), obj.accepts):
                return fail(415, "ExceptionResourceNotAcceptable", f"Content type {obj.accepts[0]} expected")
            if obj.type == "MSAG/N" and not self._messages_locked(obj_uri, body, sid):
                return fail(423, "ExceptionResourceInvalidLockHandle", "Message is not locked (invalid lock handle)")
            obj.metadata = body
            return ok(b"", "text/plain")
        if h.command == "PUT" and rest == "/source/main":
            held = self.locks.get(obj_uri)
            if not held or held != (query.get("lockHandle", [""])[0], sid):
                return fail(423, "ExceptionResourceInvalidLockHandle", "Resource is not locked (invalid lock handle)")
            if not obj.package.startswith("$") and not query.get("corrNr"):
                return fail(400, "ExceptionInvalidData", "A transport request is required")
            obj.inactive = body.decode("utf-8")
            return ok(b"", "text/plain")
        versions = next((v for v in obj.versions_paths() if rest in ("/" + v, f"/{v}/00042")), None)
        if h.command == "GET" and versions is not None:
            # abapify's recorded feed (one version, 00042, in transport MOCK900236), served where this
            # object's metadata links its versions, as real systems do
            if rest.endswith("/00042"):
                return ok(obj.source.replace("Hello", "Hi") + "* first version\n", "text/plain")
            feed = (DATA / "versions.xml").read_text()
            feed = feed.replace(
                "/sap/bc/adt/programs/programs/ztest_gcts_program/source/main/versions", f"{obj_uri}/{versions}"
            )
            return ok(feed, "application/atom+xml;type=feed")
        if h.command == "GET" and rest == "/source/main":
            return ok(obj.text(query.get("version", [None])[0]), "text/plain")
        if h.command == "GET" and rest.startswith("/includes/"):
            name = rest.rsplit("/", 1)[-1]
            if name not in obj.includes:
                return fail(404, "ExceptionResourceNotFound", f"Include {name} does not exist")
            return ok(obj.includes[name], "text/plain")
        if h.command == "GET" and rest == "":
            accept = headers.get("accept", "")
            if not acceptable(accept, obj.accepts):
                return fail(406, "ExceptionResourceNotAcceptable", f"Accepted types: {', '.join(obj.accepts)}")
            return ok(obj.header(), obj.accepts[0])
        if h.command == "GET":
            return fail(404, "ExceptionResourceNotFound", f"Resource {path} does not exist")
        return fail(405, "ExceptionMethodNotSupported", f"{h.command} {path} is not supported")

    def _inactive_list(self) -> str:
        """The activation answer that names the objects to activate together (sapcli's recorded shape)."""
        entries = "".join(
            '<ioc:entry><ioc:object ioc:user="" ioc:deleted="false"><ioc:ref '
            f'adtcore:uri="{escape(uri)}" adtcore:type="{escape(kind)}" adtcore:name="{escape(name)}"/></ioc:object>'
            "<ioc:transport/></ioc:entry>"
            for uri, kind, name in self.inactive_together
        )
        return (
            '<?xml version="1.0" encoding="UTF-8"?><ioc:inactiveObjects xmlns:ioc="http://www.sap.com/abapxml/'
            f'inactiveCtsObjects" xmlns:adtcore="http://www.sap.com/adt/core">{entries}</ioc:inactiveObjects>'
        )

    def _message_lock(self, action, obj_uri, rest, body, sid, stateful, ok, fail) -> None:  # type: ignore[no-untyped-def]
        """Messages of a message class are locked one by one and given back all at once (sapcli's shapes)."""
        number = rest.rsplit("/", 1)[-1]
        if action == "LOCK_MSG":
            if not stateful:
                return fail(400, "ExceptionInvalidData", "Lock requires a stateful session")
            handle = f"MH{next(self._ids):06d}"
            with self._lock:
                self.message_locks[(obj_uri, number)] = (handle, sid)
            lock = (DATA / "lock.xml").read_bytes().replace(b"MOCK_LOCK_HANDLE_001", handle.encode())
            return ok(lock, LOCK_RESULT)
        numbers = [n.strip() for n in body.decode().strip("[]").split(",") if n.strip()]
        with self._lock:
            for n in numbers:
                if self.message_locks.get((obj_uri, n), ("", ""))[1] == sid:
                    del self.message_locks[(obj_uri, n)]
        return ok(b"", "text/plain")

    def _messages_locked(self, obj_uri: str, body: bytes, sid: str) -> bool:
        """Every message in a message class PUT carries the handle of its own lock, held by this session."""
        import re as regex

        for entry in regex.findall(rb"<mc:messages\b[^>]*>", body):
            number = regex.search(rb'mc:msgno="([^"]*)"', entry)
            handle = regex.search(rb'mc:lockhandle="([^"]*)"', entry)
            if not number or not handle:
                return False
            if self.message_locks.get((obj_uri, number.group(1).decode())) != (handle.group(1).decode(), sid):
                return False
        return True

    def _dumps(self, method, path, query, ok, fail) -> None:  # type: ignore[no-untyped-def]
        """Runtime errors: the dumps feed (filtered by $query user) and one dump's formatted text.

        Both answers are hand-made in the formats public ADT clients document (see data/adt/README.md).
        """
        if method != "GET":
            return fail(405, "ExceptionMethodNotSupported", f"{method} is not supported")
        if path == "/sap/bc/adt/runtime/dumps":
            with self._lock:
                self.dump_queries.append(query)
            import re as regex

            feed = (DATA / "dumps-feed.xml").read_text()
            user = regex.search(r"equals\(\s*user\s*,\s*([^\s)]+)\s*\)", query.get("$query", [""])[0])
            if user:  # the user filter keeps that user's entries only
                feed = regex.sub(
                    r"<atom:entry\b.*?</atom:entry>",
                    lambda m: m.group(0) if f"<atom:name>{user.group(1).upper()}</atom:name>" in m.group(0) else "",
                    feed,
                    flags=regex.S,
                )
            return ok(feed, "application/atom+xml;type=feed")
        if path == "/sap/bc/adt/runtime/dump/20261128140211fakhost_FAK_00 DEVELOPER 100/formatted":
            return ok((DATA / "dump-formatted.txt").read_text(), "text/plain; charset=utf-8")
        return fail(404, "ExceptionResourceNotFound", f"Runtime error {path.rsplit('/', 2)[-2]} does not exist")

    def _aunit(self, method, path, headers, body, ok, fail) -> None:  # type: ignore[no-untyped-def]
        """ABAP Unit runs and coverage from sapcli's recorded results, chosen by the object that was run.

        Like real systems, a configuration without its options block runs nothing (an empty runResult),
        and the coverage measurement answers POST only (GET is 405).
        """
        if path == "/sap/bc/adt/abapunit/testruns" and method == "POST":
            config = body.decode()
            with self._lock:
                self.unit_runs.append((headers.get("content-type", ""), config))
            if "<options>" not in config:
                return ok(
                    '<?xml version="1.0" encoding="utf-8"?><aunit:runResult xmlns:aunit="http://www.sap.com/adt/aunit"/>'
                )
            if "zcl_sample_class" in config:
                name = "aunit-result.xml"
            elif "zcl_skipping" in config:
                name = "aunit-skipped.xml"
            elif "zfail" in config:
                name = "aunit-syntax-error.xml"
            elif "zcl_test_class" in config:
                name = "aunit-class-alert.xml"
            else:
                name = "aunit-no-tests.xml"
            answer = (DATA / name).read_text()
            if '<coverage active="true"/>' not in config:  # the external block comes only with coverage on
                import re as regex

                answer = regex.sub(r"\s*<external>.*?</external>", "", answer, flags=regex.S)
            return ok(answer, "application/vnd.sap.adt.abapunit.testruns.result.v2+xml")
        if path == "/sap/bc/adt/runtime/traces/coverage/measurements/FOOBAR":
            if method != "POST":
                return fail(405, "ExceptionMethodNotSupported", f"{method} is not supported")
            with self._lock:
                self.coverage_queries.append(body.decode())
            return ok((DATA / "coverage-measurements.xml").read_bytes(), "application/xml+scov")
        children = "/sap/bc/adt/runtime/traces/coverage/results/FOOBAR/children/ADT_ROOT_NODE/TEST_EXAMPLE_PACKAGE/"
        if path.startswith(children) and method == "GET":  # the rel=next links of the recorded measurement
            with self._lock:
                self.coverage_queries.append(path)
            tail = path[len(children) :]
            name = {
                "CL_EXAMPLE_CLASS%3dCP/CL_EXAMPLE_CLASS/": "class",
                "CL_EXAMPLE_CLASS%3dCP/LCL_STUB_DECORATOR/": "local",
            }
            if tail in name:
                return ok((DATA / f"coverage-children-{name[tail]}.xml").read_bytes(), "application/xml+scov")
        return fail(404, "ExceptionResourceNotFound", f"Resource {path} does not exist")

    def _atc(self, method, path, query, body, ok, send, fail, extra) -> None:  # type: ignore[no-untyped-def]
        """ATC: customizing, worklists bound to a variant, runs and the worklist read back (recorded formats).

        The worklist answer depends on what was run: ZCL_SAMPLE_CLASS gets abapify's recorded worklist,
        a package sapcli's, anything else the empty one; check variant BROKEN gets sapcli's aborted run.
        """
        if path == "/sap/bc/adt/atc/customizing" and method == "GET":
            xml = (DATA / "atc-customizing.xml").read_text()
            if self.atc_system_variant is None:
                xml = xml.replace('value="STANDARD"', 'value=""')
            return ok(xml.replace('value="STANDARD"', f'value="{self.atc_system_variant}"'))
        if path == "/sap/bc/adt/atc/worklists" and method == "POST":
            variant = query.get("checkVariant", ["DEFAULT"])[0]  # what real systems do without one
            worklist_id = f"0A7425B8447B1FE0B7828{next(self._ids):011d}"
            with self._lock:
                self.atc_worklists[worklist_id] = variant
            return send(200, worklist_id, "text/plain; charset=utf-8", extra)
        if path == "/sap/bc/adt/atc/runs" and method == "POST":
            worklist_id = query.get("worklistId", [""])[0]
            if worklist_id not in self.atc_worklists:
                return fail(404, "ExceptionResourceNotFound", f"Worklist {worklist_id} does not exist")
            variant = self.atc_worklists[worklist_id]
            with self._lock:
                self.atc_runs.append((variant, body.decode()))
            name = "atc-run-failures.xml" if variant == "BROKEN" else "atc-run.xml"
            # the run names the worklist it filled: the one asked for (the recording's id is another's)
            return ok((DATA / name).read_text().replace("0A7425B8447B1FE0B782885C456468EE", worklist_id))
        if path.startswith("/sap/bc/adt/atc/worklists/") and method == "GET":
            worklist_id = path.rsplit("/", 1)[-1]
            if worklist_id not in self.atc_worklists or not self.atc_runs:
                return fail(404, "ExceptionResourceNotFound", f"Worklist {worklist_id} does not exist")
            ran = self.atc_runs[-1][1]
            if "zcl_sample_class" in ran:
                name = "atc-worklist.xml"
            elif "/sap/bc/adt/packages/" in ran:
                name = "atc-worklist-package.xml"
            else:
                name = "atc-worklist-empty.xml"
            return ok((DATA / name).read_bytes(), "application/atc.worklist.v1+xml")
        if path.startswith("/sap/bc/adt/documentation/atc/documents/") and method == "GET":
            return ok((DATA / "atc-docs.html").read_bytes(), "text/html; charset=utf-8")
        return fail(404, "ExceptionResourceNotFound", f"Resource {path} does not exist")

    @contextmanager
    def running(self) -> Iterator[FakeAdt]:
        with serve(self.handle) as server:
            self._server = server
            yield self
