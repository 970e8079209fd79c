"""Tables, statistics and figures computed from result records alone (no solver needed)."""
