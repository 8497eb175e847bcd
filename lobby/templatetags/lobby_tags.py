"""Template tags of the lobby: the games as the portal shows them, a player's records."""

from django import template

register = template.Library()


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
