"""A registered game whose home has an engine but no web side yet (``web.py``): the
platform lists it as coming soon (*yakında*) and lets nobody choose it."""
