"""What a client receives: one seat's view of the hand plus the public match facts.

No frame ever holds another seat's tiles, the deck order or the seed (P-1; the views
come from the game's ``view_for``, which decides what a seat may see).
"""

from __future__ import annotations

import orjson
from django.utils import timezone

from game import changes, portal, rematch
from game.engine import registry


def _name(user) -> str:
    return getattr(user, "display_name", "") or user.get_username()


def seat_label(seat) -> dict:
    user = seat.user
    if user is not None:
        name = getattr(user, "display_name", "") or user.get_username()
    elif seat.guest_key:
        name = ""  # a guest has no name (issue 27); their table calls the seat "you"
    else:
        name = f"Bot ({seat.bot_level})"
    return {
        "name": name,
        "user_id": seat.user_id,
        "bot": seat.bot_level or None,
        "guest": bool(seat.guest_key),  # never the key itself
        "connected": seat.connected if seat.human else True,
        "away": seat.away,
        "left": seat.left,
        "dropped": seat.dropped,  # P-13: a bot plays while the player is gone
        "replacement": seat.replacement,  # P-12
        "request": _name(seat.request_user) if seat.request_user_id else None,
    }


def _ms(dt) -> int | None:
    return int(dt.timestamp() * 1000) if dt else None


def match_info(match, seats, st=None) -> dict:
    """The public facts of the match, the same for every seat and the watchers.  ``st``
    is the game's state (``GAME.from_dict(match.state)``), read through the protocol."""
    spec = registry.get(match.game)
    n = len(seats)
    if st is not None:
        result = spec.match_result(st)
        hands = spec.hand_results(st)
        over = spec.match_over(st)
        hand_no = len(hands) if spec.hand_over(st) else len(hands) + 1
    info = {
        "id": match.pk,
        "game": match.game,
        "status": match.status,
        "rated": match.rated,
        "options": match.options,
        "level": match.level,
        "partners": match.partners,
        "hand_no": hand_no if st is not None else 0,
        "totals": list(result.totals) if st is not None else [0] * n,
        "results": [{"hand_no": h.hand_no, "scores": h.scores, **h.detail} for h in hands]
        if st is not None else [],
        # the match's winners once it is over (K-M5: the lowest totals, shared)
        "winners": [s for s, p in enumerate(result.places) if p == 1]
        if st is not None and over else [],
        "seats": [seat_label(s) for s in sorted(seats, key=lambda s: s.seat)],
        "deadline": _ms(match.deadline),
        "turn_started": _ms(match.turn_started),
        "server_time": _ms(timezone.now()),
        # the last seconds of a turn are shown as a warning (P-6)
        "warning_seconds": portal.WARN_SECONDS,
        "host_id": match.host_id,
        "kind": match.kind,
        # when the next bot move is due: the countdown of a claim window (K-C1, K-C5)
        "bot_due": _ms(match.bot_due),
        # what the timer did for seats whose turn ran out (K-N7; issue 29: every game)
        "timeouts": spec.timeout_notes(st) if st is not None and spec.timeout_notes else [],
    }  # fmt: skip
    if match.kind == match.Kind.TRIAL and st is not None:
        info["trial"] = spec.tutorial.progress(st)  # K-X1: the guided hand's step and hint
    if match.rematch_offer:
        info["rematch"] = rematch.frame_info(match, seats)  # K-X2
    return info


def _state(match):
    return registry.get(match.game).from_dict(match.state) if match.state else None


def match_frame(match, seat: int | None, seats=None, st=None) -> dict:
    """One seat's frame (``seat`` None: the watchers').  ``st``: the match's state when the
    caller has it already (else it is read from ``match.state``)."""
    seats = seats if seats is not None else list(match.seats.select_related("user"))
    st = st if st is not None else _state(match)
    hand = registry.get(match.game).view_for(st, seat) if st is not None else None
    return {
        "type": "state",
        "version": match.version,
        "layout": _layout_version(seats, seat),
        "match": match_info(match, seats, st),
        "me": seat,
        "hand": hand,
    }


def _layout_version(seats, seat: int | None) -> int:
    """The seat's own count of private rack-layout changes (0 for the watchers): with the
    shared version it orders the seat's frames (a layout change sends a frame of the same
    version with a higher ``layout``)."""
    if seat is None:
        return 0
    for s in seats:
        if s.seat == seat:
            return s.layout_version
    return 0


def frame_parts(match, seats, st=None, watchers: bool = False, skip=(),
                only: int | None = None) -> list:  # fmt: skip
    """The fan-out parts of a change: per seat, then the watchers (None unless
    ``watchers``), ``[version, layout, me, match, hand]``: ``me`` as JSON text, match and
    hand as pieces (``game.changes.part_text`` joins them into the frame's text, exactly as
    ``frame_text(match_frame(...))`` gives it; a process diffs the pieces against the
    part's previous frame for the change frames, issue 22).  The public part is built and
    serialised once for all; the seats in ``skip`` get None (no socket can hold them:
    nothing is built); with ``only`` that seat's part alone is built."""
    st = st if st is not None else _state(match)
    spec = registry.get(match.game)
    info = changes.pieces(match_info(match, seats, st))
    wanted = [seat for seat in range(len(seats))
              if seat not in skip and (only is None or seat == only)]  # fmt: skip
    if watchers and only is None:
        wanted.append(None)
    hands = dict(zip(wanted, _views(spec, st, wanted), strict=True))
    memo: dict = {}  # views that share their public part share its JSON text too

    def part(seat: int | None) -> list:
        me = "null" if seat is None else str(seat)
        hand = changes.pieces(hands[seat], memo)
        return [match.version, _layout_version(seats, seat), me, info, hand]

    parts = [part(seat) if seat in hands else None for seat in range(len(seats))]
    parts.append(part(None) if None in hands else None)
    return parts


def _views(spec, st, seats: list) -> list:
    """The views of ``seats`` (None: the watchers): one call to the game's ``views_for``
    (a game may build the public part once for all, issue 22)."""
    if st is None:
        return [None] * len(seats)
    if len(seats) > 1:
        return spec.views_for(st, seats)
    return [spec.view_for(st, seat) for seat in seats]


def frame_text(frame: dict | None) -> str:
    """A frame as the JSON text a socket sends: compact, Turkish letters as they are.
    The broadcast serialises each frame once, not once per socket (orjson: a tenth of
    the standard library's time, on every move's five frames)."""
    return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()
