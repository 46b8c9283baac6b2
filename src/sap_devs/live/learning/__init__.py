"""learning.sap.com learning journeys: the synced catalogue and its search (journeys), sync."""
