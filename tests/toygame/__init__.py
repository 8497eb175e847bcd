"""The toy game's home (*Onluk*): a sixth game that lives only in the test suite, shaped
exactly like the five real homes under ``games/`` — its engine (``engine/``, pure Python),
its web side (``web.py``, ``templates/toy/``) — and registered by one line
(``tests/settings.py``).  It proves that the platform hosts a game it has never heard of,
and it runs the contract suite (``tests/contract``) like every real game."""
