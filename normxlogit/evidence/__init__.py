"""The evidence room of normxlogit."""
