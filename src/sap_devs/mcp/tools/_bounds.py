"""Upper bounds on the tools' free-text parameters, in one place.

Every string an agent can send is bounded so that no argument makes the server tokenise, rank or
echo megabytes: the limits sit well above what a real call needs and far below what hurts.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import StringConstraints

QUERY_MAX = 500
"""Search words: a sentence or two. Longer text only dilutes the ranking."""
PASTED_LOG_MAX = 65536
"""A whole stack trace or build log as developers paste it (get_known_errors picks its error lines)."""
ID_MAX = 64
"""Pack, tool, event type and video source ids, tool names and categories."""
TOPIC_MAX = 100
"""A tag or a few words."""
URL_MAX = 2000
"""The de-facto upper bound browsers and proxies accept for a URL."""
ARGUMENTS_MAX = 50
"""Keys in call_tool's arguments: no operation has more than a dozen parameters."""

Id = Annotated[str, StringConstraints(max_length=ID_MAX)]
"""An id-like string; combine with a ``Field`` for the description and ``min_length``."""
