"""Live sources: what ``sap-devs sync`` fetches (tutorials, learning journeys, news, videos, events,
Discovery Center, released ABAP APIs), the bundled baselines that answer before the first sync, and
the queries over both. The sync framework (sync.py, snapshot.py, sources.py) is shared by every
source, the SAP documentation in ``sap_devs.docs`` included. Knows nothing about MCP."""
