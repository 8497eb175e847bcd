"""Template tags of the lobby: a player's ranking (used on the profile page)."""

from django import template

from lobby.selectors import ranking_for

register = template.Library()


@register.simple_tag
def ranking_of(user, game: str = "kut"):
    """``{% ranking_of user as ranking %}``: the user's Ranking row for ``game`` or None."""
    return ranking_for(user, game)


@register.simple_tag
def game_cards():
    """``{% game_cards as cards %}``: every game as the portal shows it (the home page)."""
    from lobby.games import game_cards as cards

    return cards()


@register.simple_tag
def game_records(user):
    """``{% game_records user as records %}``: the player's records per game and level."""
    from lobby.games import records_by_game

    return records_by_game(user)
