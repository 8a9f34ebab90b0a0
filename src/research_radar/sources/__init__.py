"""Source adapters: each splits into `fetch_*` (network or disk) and pure `parse_*`."""
