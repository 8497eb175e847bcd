from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LobbyConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "lobby"
    verbose_name = _("Lobby")

    def ready(self):
        from accounts.signals import user_banned
        from lobby.receivers import on_user_banned

        user_banned.connect(on_user_banned, dispatch_uid="lobby.on_user_banned")
