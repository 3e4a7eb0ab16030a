"""pulyacalc — the score sheet of Russian Preferans, exactly, under a named convention."""

__version__ = "0.1.0"
