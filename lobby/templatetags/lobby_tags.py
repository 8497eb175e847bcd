"""Template tags of the lobby: a player's ranking (used on the profile page)."""

from django import template

from lobby.selectors import ranking_for

register = template.Library()


@register.simple_tag
def ranking_of(user, game: str = "kut"):
    """``{% ranking_of user as ranking %}``: the user's Ranking row for ``game`` or None."""
    return ranking_for(user, game)
