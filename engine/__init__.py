"""GIPF engine: DVONN and TZAAR over a GTP-style text protocol."""

__version__ = "0.1.0"
ENGINE_NAME = "Gipfbot"
