"""KÜT's home: its rules engine (``engine/``, pure Python, docs/rules/kut.md) and its
web side (templates, static files, strings and pages) as one Django app."""
