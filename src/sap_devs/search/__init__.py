"""The one place every search in sap-devs ranks its results.

Tools and CLI commands hand their records here instead of filtering on their own, so a better
ranking lands everywhere at once. Filters that must stay exact (pack, type, scope ...) are
applied by the caller before ranking.
"""

from sap_devs.search.engine import Field, rank, tokenize

__all__ = ["Field", "rank", "tokenize"]
