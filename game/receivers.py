"""The platform's answers to its own events (``game.events``), connected in
``GameConfig.ready``: each change's frames go out, then the next bot move is scheduled;
a left seat's sockets close; a finished guided hand is marked done; a match that
ended is queued for its analysis (issue 31)."""

from __future__ import annotations

from game import broadcast, runner, tasks, tutorial


def on_match_changed(sender, match_id: int, match=None, seats=None, state=None, **kwargs):
    """Every seat's new frame, from the thread that committed; then the bot move due.
    ``match``, ``seats`` and ``state`` are as the change committed them (None: read again)."""
    broadcast.match_broadcast(match_id, match, seats, state)
    if match is None or match.bot_due is not None:  # kick() does nothing without a bot due
        runner.kick(match_id)


def on_seat_changed(sender, match_id: int, match, seats, state, seat: int, **kwargs):
    broadcast.seat_broadcast(match_id, match, seats, state, seat)


def on_presence_changed(sender, match_id: int, **kwargs):
    broadcast.match_broadcast(match_id, presence=True)


def on_seat_closed(sender, match_id: int, seat: int, **kwargs):
    broadcast.seat_left(match_id, seat)


def on_tutorial_completed(sender, game: str, user_id: int, **kwargs):
    tutorial.mark_done(user_id, game)


def on_match_finished(sender, match_id: int, **kwargs):
    """Issue 31: the match is over and committed: queue its analysis (``game.analysis``;
    never in the move's transaction, never in the move's way)."""
    tasks.schedule_analysis(match_id)
