"""Search over ops (being built)."""
