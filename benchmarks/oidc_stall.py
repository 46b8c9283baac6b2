"""Valid callers' latency while the identity provider hangs past the JWKS cache lifetime (issue 25, item 6).

A loopback identity provider serves its keys once, then hangs on every JWKS request (each answer
takes HANG seconds). The verifier's clock is moved two hours on, past the keys' cache lifetime, and
CALLERS requests with valid tokens arrive at once; then TOKENS tokens naming made-up key ids.
Prints each caller's latency (p50, max) and how many JWKS requests the provider saw.

    .venv/bin/python benchmarks/oidc_stall.py [--callers 4] [--hang 30] [--tokens 10]
    PYTHONPATH=/path/to/other/checkout/src .venv/bin/python benchmarks/oidc_stall.py   # compare a build
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa

from sap_devs.http.oidc import OidcSettings, OidcVerifier


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--callers", type=int, default=4)
    parser.add_argument("--hang", type=float, default=30.0)
    parser.add_argument("--tokens", type=int, default=10, help="tokens with made-up key ids, after the callers")
    args = parser.parse_args()
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(key.public_key()))
    jwks = json.dumps({"keys": [{**jwk, "kid": "k1", "use": "sig", "alg": "RS256"}]}).encode()
    state = {"hang": False, "jwks_requests": 0}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path == "/jwks":
                state["jwks_requests"] += 1
                if state["hang"]:
                    time.sleep(args.hang)
            self.send_response(200)
            self.send_header("content-length", str(len(jwks)))
            self.end_headers()
            with contextlib.suppress(OSError):  # the verifier gave up waiting
                self.wfile.write(jwks)

        def log_message(self, *_: object) -> None:
            pass

    idp = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    idp.daemon_threads = True
    threading.Thread(target=idp.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{idp.server_address[1]}"

    def token(kid: str = "k1") -> str:
        now = int(time.time())
        claims = {"iss": base, "aud": "bench", "sub": "alice", "iat": now, "exp": now + 600}
        return jwt.encode(claims, key, algorithm="RS256", headers={"kid": kid})

    async def run() -> tuple[list[float], list[float], int]:
        verifier = OidcVerifier(OidcSettings(issuer=base, audience=["bench"], jwks_url=base + "/jwks"))
        await verifier.start()
        state["hang"], before = True, state["jwks_requests"]
        # two hours later: the keys are past their cache lifetime (and the interval between fetches)
        verifier._fetched -= 7200
        if hasattr(verifier, "_attempted"):
            verifier._attempted -= 7200

        async def timed(value: str) -> float:
            started = time.perf_counter()
            await verifier.verify_token(value)
            return time.perf_counter() - started

        valid = await asyncio.gather(*(timed(token()) for _ in range(args.callers)))
        unknown = [await timed(token(f"made-up-{n}")) for n in range(args.tokens)]
        requests = state["jwks_requests"] - before
        close = getattr(verifier, "aclose", None)
        if close is not None:
            await close()
        return list(valid), unknown, requests

    valid, unknown, requests = asyncio.run(run())
    idp.shutdown()
    print(f"identity provider hangs {args.hang:g} s on every JWKS request; keys past their cache lifetime")
    print(
        f"{args.callers} valid callers at once: p50 {statistics.median(valid) * 1000:.0f} ms, "
        f"max {max(valid) * 1000:.0f} ms ({', '.join(f'{v:.2f}' for v in sorted(valid))} s)"
    )
    print(
        f"{args.tokens} tokens with made-up key ids, one after another: total {sum(unknown):.1f} s, "
        f"max {max(unknown) * 1000:.0f} ms"
    )
    print(f"JWKS requests during all this: {requests}")


if __name__ == "__main__":
    main()
