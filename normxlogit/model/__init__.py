"""The model room of normxlogit."""
