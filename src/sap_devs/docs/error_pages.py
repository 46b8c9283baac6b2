"""Documentation sections for an error message no known-error entry fits.

When get_known_errors has nothing that fits, the agent still needs something grounded: the pages
of SAP's documentation that mention the message. Troubleshooting and error pages come first
among the best-ranked ones (they say what to do), the rest keep their ranking.
"""

from __future__ import annotations

import re

from sap_devs.docs.index import DocsIndex, Hit

CANDIDATES = 10
"""Pages ranked before the troubleshooting ones are moved up: further down they rarely concern the message."""
CLOSE = 0.5
"""A troubleshooting page moves up only past pages it scores at least this share of the best one against:
a troubleshooting page about something else is no better than a good page on the message itself."""
QUERY_CHARS = 400
"""The message's first characters are searched: its first error line names it, the rest adds noise."""
_TROUBLESHOOTING = re.compile(
    r"troubleshoot|\berrors?\b|error[- ]?(?:codes?|messages?|handling)|faq|known issues?|problems?", re.I
)


def _is_troubleshooting(hit: Hit) -> bool:
    return any(_TROUBLESHOOTING.search(text) for text in (hit.title, hit.section, hit.path.rsplit("/", 1)[-1]))


def sections_for_error(index: DocsIndex, message: str, *, limit: int = 3) -> list[Hit]:
    """The ``limit`` documentation sections that best match ``message``, troubleshooting and error
    pages among the CANDIDATES best first."""
    hits, _ = index.search(message[:QUERY_CHARS], limit=CANDIDATES)
    if not hits:
        return []
    floor = hits[0].score * CLOSE
    close = [h for h in hits if h.score >= floor]
    ordered = sorted(close, key=lambda h: not _is_troubleshooting(h))  # stable: ranking order within each group
    return (ordered + [h for h in hits if h.score < floor])[:limit]
