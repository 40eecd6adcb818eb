"""Tabletop: a desktop table for Magic: The Gathering with a zone-rules engine."""

__version__ = "0.1.0"
