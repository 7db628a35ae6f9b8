"""Gameweave: a digital table for Conquian.  The rules live in :mod:`gameweave.engine`."""

__version__ = "0.1.0"
