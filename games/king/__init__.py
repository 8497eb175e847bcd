"""King's home: its rules engine (``engine/``, pure Python, docs/rules/king.md) and its
web side (templates, static files, strings and pages) as one Django app."""
