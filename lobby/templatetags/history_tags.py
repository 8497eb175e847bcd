"""Template tags around the match history and the games' guided first hands."""

from django import template
from django.urls import reverse
from django.utils.translation import gettext as _

from game import rematch, tutorial
from game.engine import registry
from game.web import web

register = template.Library()


@register.simple_tag
def tutorials_due(user) -> list[dict]:
    """``{% tutorials_due user as due %}``: the games whose guided first hand to offer (a
    player who has neither played the game nor done or skipped its guided hand), each
    ``{"key", "name"}``."""
    return [{"key": g, "name": registry.get(g).name} for g in tutorial.tutorials_due(user)]


@register.simple_tag
def table_extras_config(match, csrf_token) -> dict:
    """``{% table_extras_config match csrf_token as cfg %}``: what the table's extras
    script (static/js/table-extras.js) needs — its texts in the request's language, the
    rematch endpoints and choices (each value with its label in the game's own words,
    ``game.web``'s ``options_text``), and the guided first hand's hints (the game's)."""
    config = _config(match, csrf_token)
    option, choices = rematch.choices_for(match.game)
    game_web = web(match.game)
    # a game with nothing to choose gets one "Play again" button; it posts 0, which the
    # service reads as a plain rematch
    config["rematch_choices"] = [
        {"value": value, "label": game_web.options_text({option: value})} for value in choices
    ] or [{"value": 0, "label": ""}]
    config["strings"]["hints"] = game_web.tutorial_strings()
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
            "replace": {
                "title": _("Free seats"),
                "vacant": _("Seat {n} was left; a bot plays it. Share this link to find a player:"),
                "request": _("{name} asks to take seat {n}."),
                "accept": _("Devam"),
                "decline": _("No"),
                "failed": _("That did not work. Please try again."),
            },
            "rematch": {
                "choose": _("Play again with the same players?"),
                "again": _("Play again"),
                "offered_host": _(
                    "Invitation sent ({choice}). The rematch starts when everyone has "
                    "answered, or now: players who have not answered get a bot."
                ),
                "start_now": _("Start now"),
                "invited": _("{name} invites you to a rematch ({choice})."),
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
    """``{% if match.game|has_replay %}``: whether the game has a replay page."""
    try:
        return web(game).replay_template is not None
    except KeyError:
        return False
