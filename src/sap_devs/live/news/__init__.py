"""SAP Developer News: episodes and their search (episodes), one episode in detail (detail, html_blocks), sync."""
