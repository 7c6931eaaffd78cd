"""The attribution room of normxlogit."""
