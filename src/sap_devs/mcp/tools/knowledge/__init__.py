"""Tools answering from the content packs: no network, no SAP system."""
