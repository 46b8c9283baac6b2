"""Build the bundled released-API snapshot from ../shared/data/abap-released-apis (run by hand when it changes).

Writes src/sap_devs/live/data/released-apis-baseline.json.gz: SAP's lists of released ABAP
APIs for SAP Cloud ERP, SAP Cloud ERP Private / on-premise and the SAP BTP ABAP environment, plus
the classic-API classifications, parsed by the same code ``sap-devs sync`` uses
(sap_devs.live.released_apis.lists), so the snapshot and a synced cache have one shape.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from sap_devs.live.released_apis import lists as released_apis  # noqa: E402

DEFAULT_SHARED = ROOT.parent / "shared" / "data"
OUT = ROOT / "src" / "sap_devs" / "live" / "data" / released_apis.BUNDLED_FILE


def build(folder: Path, *, as_of: str, commit: str) -> dict:
    sections = {}
    for section, upstream in released_apis.UPSTREAM_FILES.items():
        local = folder / (Path(upstream).name + ".gz")
        text = gzip.decompress(local.read_bytes()).decode("utf-8")
        sections[section] = released_apis.parse_upstream(section, text)
        print(f"{section}: {len(sections[section])} objects from {local.name}")
    return released_apis.build_dataset(
        sections,
        as_of=dict.fromkeys(sections, as_of),
        source=f"{released_apis.UPSTREAM_REPO} @ {commit}",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    parser.add_argument("--as-of", default="2026-08-18", help="date of the upstream commit")
    parser.add_argument("--commit", default="dc15c8b9", help="upstream commit the files come from")
    args = parser.parse_args()
    data = build(args.shared / "abap-released-apis", as_of=args.as_of, commit=args.commit)
    released_apis.validate_dataset(data)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"
    # mtime=0 keeps the file byte-identical between runs on the same input
    OUT.write_bytes(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes; {len(text)} bytes uncompressed)")


if __name__ == "__main__":
    main()
