"""Models of the lobby app (none yet)."""
