"""The metrics room of normxlogit."""
