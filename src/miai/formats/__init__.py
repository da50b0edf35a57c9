"""File formats and wire protocols spoken by Miai (SGF, GTP)."""
