from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LobbyConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "lobby"
    verbose_name = _("Lobby")

    def ready(self):
        from accounts.signals import user_banned
        from game import events
        from lobby import receivers

        user_banned.connect(receivers.on_user_banned, dispatch_uid="lobby.on_user_banned")
        events.match_finished.connect(receivers.on_match_finished,
                                      dispatch_uid="lobby.on_match_finished")  # fmt: skip
        events.player_left.connect(receivers.on_player_left, dispatch_uid="lobby.on_player_left")
