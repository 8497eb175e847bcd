"""What a client receives: one seat's view of the hand plus the public match facts.

No frame ever holds another seat's tiles, the deck order or the seed (P-1; the views
come from ``game.engine.views``, which decides what a seat may see).
"""

from __future__ import annotations

import json

from django.utils import timezone

from game import rematch, trial
from game.engine.match import MatchState
from game.engine.timing import WARNING_SECONDS
from game.engine.views import view_for


def seat_label(seat) -> dict:
    user = seat.user
    if user is not None:
        name = getattr(user, "display_name", "") or user.get_username()
    else:
        name = f"Bot ({seat.bot_level})"
    return {
        "name": name,
        "user_id": seat.user_id,
        "bot": seat.bot_level or None,
        "connected": seat.connected if seat.user_id else True,
        "away": seat.away,
        "left": seat.left,
    }


def _ms(dt) -> int | None:
    return int(dt.timestamp() * 1000) if dt else None


def match_frame(match, seat: int | None, seats=None) -> dict:
    seats = seats if seats is not None else list(match.seats.select_related("user"))
    ms = MatchState.from_dict(match.state) if match.state else None
    hand = view_for(ms.hand, seat) if ms and ms.hand else None
    frame = {
        "type": "state",
        "version": match.version,
        "match": {
            "id": match.pk,
            "game": match.game,
            "status": match.status,
            "rated": match.rated,
            "tasks": match.tasks,
            "hand_no": ms.hand_no if ms else 0,
            "totals": list(ms.totals) if ms else [0, 0, 0, 0],
            "results": [
                {
                    "hand_no": r["hand_no"],
                    "task_no": r["task_no"],
                    "scores": r["scores"],
                    "lines": r["lines"],
                    "finisher": r["finisher"],
                }
                for r in (ms.results if ms else [])
            ],  # fmt: skip
            "winners": ms.winners if ms else [],
            "seats": [seat_label(s) for s in sorted(seats, key=lambda s: s.seat)],
            "deadline": _ms(match.deadline),
            "turn_started": _ms(match.turn_started),
            "server_time": _ms(timezone.now()),
            # the last seconds of a turn are shown as a warning (K-N6)
            "warning_seconds": WARNING_SECONDS,
            "host_id": match.host_id,
            "kind": match.kind,
        },
        "me": seat,
        "hand": hand,
    }
    if match.kind == match.Kind.TRIAL and ms and ms.hand:
        frame["match"]["trial"] = trial.progress(ms.hand)  # K-X1: step and hint
    if match.rematch_offer:
        frame["match"]["rematch"] = rematch.frame_info(match, seats)  # K-X2
    return frame


def frame_text(frame: dict) -> str:
    """A frame as the JSON text a socket sends: compact, Turkish letters as they are.
    The broadcast serialises each frame once, not once per socket."""
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"))
