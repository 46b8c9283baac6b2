"""Community events fetched by sync (Khoros boards, RSS feeds): reading them back (community), sync."""
