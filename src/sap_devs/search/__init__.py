"""The one place every search in sap-devs ranks its results.

Tools and CLI commands hand their records here instead of filtering on their own, so a better
ranking lands everywhere at once. Filters that must stay exact (pack, type, scope ...) are
applied by the caller before ranking.
"""

from sap_devs.search.analysis import analyze
from sap_devs.search.engine import Field, Index, index_for, rank

__all__ = ["Field", "Index", "analyze", "index_for", "rank"]
