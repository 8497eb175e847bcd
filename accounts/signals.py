"""Signals of the accounts app.

``user_banned`` is sent (after commit) when a ban starts, so that apps which depend on
accounts (the lobby frees the player's open table seat) can react without accounts
importing them.
"""

from django.dispatch import Signal

user_banned = Signal()  # sender=User class, user=<User>
