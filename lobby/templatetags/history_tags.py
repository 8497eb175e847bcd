"""Template tags around the match history and the trial hand (K-X1)."""

from django import template
from django.urls import reverse
from django.utils.translation import gettext as _

from game import rematch
from game.trial import trial_offer_due as _trial_offer_due

register = template.Library()


@register.simple_tag
def trial_offer_due(user) -> bool:
    """``{% trial_offer_due user as due %}``: whether to offer the trial hand (a player
    who has neither played a match nor done or skipped the trial)."""
    return _trial_offer_due(user)


@register.simple_tag
def table_extras_config(match, csrf_token) -> dict:
    """``{% table_extras_config match csrf_token as cfg %}``: what the table's extras
    script (static/js/table-extras.js) needs — its texts in the request's language and
    the rematch endpoints."""
    config = _config(match, csrf_token)
    option, choices = rematch.choices_for(match.game)
    # a game with nothing to choose (Kelimeki, or no rematch_choice at all) gets one
    # "Play again" button; it posts 0, which the service reads as a plain rematch
    config["rematch_choices"] = list(choices) or [0]
    if option is None:  # the same players, the same game, nothing to choose
        config["strings"]["rematch"].update({
            "choose": _("Play again with the same players?"),
            "tasks": _("Play again"),
            "offered_host": _(
                "Invitation sent. The rematch starts when everyone has answered, or now: "
                "players who have not answered get a bot."
            ),
            "invited": _("{name} invites you to a rematch."),
        })  # fmt: skip
    elif option != "tasks":  # King (G-X5), KDVli: the rematch chooses the number of hands
        config["strings"]["rematch"].update({
            "choose": _("Play again with the same players? Choose the number of hands."),
            "tasks": _("{n} hands"),
            "offered_host": _(
                "Invitation sent ({n} hands). The rematch starts when everyone has "
                "answered, or now: players who have not answered get a bot."
            ),
            "invited": _("{name} invites you to a rematch with {n} hands."),
        })  # fmt: skip
    return config


def _config(match, csrf_token) -> dict:
    return {
        "csrf": str(csrf_token),
        "offer": reverse("lobby:rematch_offer", args=[match.pk]),
        "answer": reverse("lobby:rematch_answer", args=[match.pk]),
        "start": reverse("lobby:rematch_start", args=[match.pk]),
        "seat_answer": reverse("game:seat_answer", args=[match.pk]),  # P-12
        "seat_take": reverse("game:seat_take", args=[match.pk]),
        "strings": {
            "step": _("Step {n} of {total}"),
            "done_label": _("Done"),
            "hide": _("Hide"),
            "show": _("Show"),
            "hints": {
                "open": _(
                    "Your task in this hand is a küt of 3: your red, yellow and blue 7. A "
                    "group opens only when a separator sets it apart from the tiles beside "
                    "it: tap the gap right after the blue 7 to put one there (or press "
                    "Arrange, which does it for you), then press Open task."
                ),
                "discard_open": _(
                    "Well done, your task is open! Now end your turn: discard a tile you do "
                    "not need."
                ),
                "wait": _("The bots are playing. Wait for your turn."),
                "draw": _("Your turn. Draw a tile from the centre deck."),
                "lay_off": _(
                    "You drew the black 7: it fits your küt. Drop it on the küt, or press "
                    "Lay off. Then discard a tile."
                ),
                "discard_lay_off": _("Your küt has four 7s now. Discard a tile to end your turn."),
                "wait_claim": _(
                    "Watch the bots' discards: when a player draws from the centre instead of "
                    "taking the tile thrown to them, others may claim it."
                ),
                "claim": _(
                    "The blue 12 was thrown and the next player drew from the centre. Press "
                    "Take the thrown tile: you get it together with a penalty tile from the "
                    "deck."
                ),
                "done": _(
                    "Trial complete: you opened a task, laid off a tile and claimed a thrown "
                    "tile. Play the hand to its end, or go to the lobby."
                ),
                "over": _("The trial hand is over. You are ready for a real table!"),
            },
            "replace": {
                "title": _("Free seats"),
                "vacant": _("Seat {n} was left; a bot plays it. Share this link to find a player:"),
                "request": _("{name} asks to take seat {n}."),
                "accept": _("Devam"),
                "decline": _("No"),
                "failed": _("That did not work. Please try again."),
            },
            "rematch": {
                "choose": _("Play again with the same players? Choose the number of tasks."),
                "tasks": _("{n} tasks"),
                "offered_host": _(
                    "Invitation sent ({n} tasks). The rematch starts when everyone has "
                    "answered, or now: players who have not answered get a bot."
                ),
                "start_now": _("Start now"),
                "invited": _("{name} invites you to a rematch with {n} tasks."),
                "accept": _("Play"),
                "decline": _("Decline"),
                "accepted": _("You accepted. The rematch starts when everyone has answered."),
                "declined": _("You declined the rematch; a bot takes your seat."),
                "starting": _("The rematch is starting…"),
                "started_without": _("The rematch has started without you."),
                "started": _("The rematch of this match has started."),
                "go": _("Go to the new table"),
                "yes": _("plays"),
                "no": _("declined"),
                "waiting": _("not answered yet"),
                "failed": _("That did not work. Please try again."),
            },
        },
    }


@register.filter
def has_replay(game: str) -> bool:
    """``{% if match.game|has_replay %}``: whether the game has a replay page (a GAME
    whose ``replay_template`` is None has none yet: Kelimeki)."""
    from game.engine import registry

    try:
        return getattr(registry.get(game), "replay_template", "history/replay.html") is not None
    except (KeyError, ImportError):
        return False
