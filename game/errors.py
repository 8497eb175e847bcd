"""The platform's refusal type (``game.services`` re-exports it): its own module so that
the small modules below the services (``game.seat_gate``) can raise it too."""

from __future__ import annotations


class ServiceError(Exception):
    """A refused request that is not a rule of the game (stale version, not seated…)."""

    def __init__(self, code: str, detail: str = ""):
        self.code = code
        self.detail = detail
        super().__init__(f"{code}: {detail}" if detail else code)
