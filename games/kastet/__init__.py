"""Kastet's home: its rules engine (``engine/``, pure Python, docs/rules/kastet.md) and its
web side (templates, static files, strings and pages) as one Django app."""
