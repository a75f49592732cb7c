"""Placeholder: filled in by the handler work."""

HANDLERS: dict = {}
