"""What a client receives: one seat's view of the hand plus the public match facts.

No frame ever holds another seat's tiles, the deck order or the seed (P-1; the views
come from ``game.engine.views``, which decides what a seat may see).
"""

from __future__ import annotations

import orjson
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


def match_info(match, seats, ms: MatchState | None) -> dict:
    """The public facts of the match, the same for every seat and the watchers."""
    info = {
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
        # when the next bot move is due: the countdown of a claim window (K-C1, K-C5)
        "bot_due": _ms(match.bot_due),
        "timeouts": timeout_notes(ms),
    }
    if match.kind == match.Kind.TRIAL and ms and ms.hand:
        info["trial"] = trial.progress(ms.hand)  # K-X1: step and hint
    if match.rematch_offer:
        info["rematch"] = rematch.frame_info(match, seats)  # K-X2
    return info


DREW_SELF = ("draw", "take_discard", "open", "new_groups", "lay_off", "auto_lay_off", "undo")


def timeout_notes(ms: MatchState | None) -> list[dict]:
    """What the timer did for each seat whose last turn ran out (K-N7), so that a
    timeout is never silent: ``{"seat", "at", "drew", "tile"}`` — ``at`` the entry's
    place in the hand's log (the client shows each note once), ``drew`` whether the
    server drew from the centre for the player, ``tile`` the discarded face.  Public
    facts only (which tile was drawn is never said)."""
    hand = ms.hand if ms else None
    if hand is None or not any(hand.timeouts):
        return []
    notes = []
    log = hand.log
    for seat in range(4):
        if not hand.timeouts[seat]:
            continue
        for at in range(len(log) - 1, -1, -1):
            entry = log[at]
            if entry.get("seat") == seat and entry.get("type") == "timeout":
                before = at - 1
                while before >= 0 and log[before].get("type") == "claim":
                    before -= 1
                # the hand's first turn starts with 15 tiles: nothing to draw
                prior = log[before] if before >= 0 else {"seat": seat, "type": "draw"}
                drew = not (prior.get("seat") == seat and prior.get("type") in DREW_SELF)
                notes.append({"seat": seat, "hand_no": ms.hand_no, "at": at, "drew": drew,
                              "tile": entry.get("tile")})  # fmt: skip
                break
    return notes


def _state(match) -> MatchState | None:
    return MatchState.from_dict(match.state) if match.state else None


def match_frame(match, seat: int | None, seats=None, ms: MatchState | None = None) -> dict:
    """One seat's frame (``seat`` None: the watchers').  ``ms``: the match's state when the
    caller has it already (else it is read from ``match.state``)."""
    seats = seats if seats is not None else list(match.seats.select_related("user"))
    ms = ms if ms is not None else _state(match)
    hand = view_for(ms.hand, seat) if ms and ms.hand else None
    return {
        "type": "state",
        "version": match.version,
        "match": match_info(match, seats, ms),
        "me": seat,
        "hand": hand,
    }


def frame_texts(match, seats, ms: MatchState | None = None, watchers: bool = False):
    """The frame text of each of the four seats, and the watchers' (None unless
    ``watchers``), exactly as ``frame_text(match_frame(...))`` would give them, but with
    the public part built and serialised once for all five (the broadcast's hot path)."""
    ms = ms if ms is not None else _state(match)
    info = frame_text(match_info(match, seats, ms))
    head = f'{{"type":"state","version":{match.version},"match":{info},"me":'

    def text(seat: int | None) -> str:
        hand = view_for(ms.hand, seat) if ms and ms.hand else None
        me = "null" if seat is None else str(seat)
        return f'{head}{me},"hand":{frame_text(hand)}}}'

    return [text(seat) for seat in range(4)], (text(None) if watchers else None)


def frame_text(frame: dict | None) -> str:
    """A frame as the JSON text a socket sends: compact, Turkish letters as they are.
    The broadcast serialises each frame once, not once per socket (orjson: a tenth of
    the standard library's time, on every move's five frames)."""
    return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()
