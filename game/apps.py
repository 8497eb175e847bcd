from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GameConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "game"
    verbose_name = _("Game")

    def ready(self):
        from game import events, receivers

        for signal, receiver in (
            (events.match_changed, receivers.on_match_changed),
            (events.seat_changed, receivers.on_seat_changed),
            (events.presence_changed, receivers.on_presence_changed),
            (events.seat_closed, receivers.on_seat_closed),
            (events.tutorial_completed, receivers.on_tutorial_completed),
            (events.match_finished, receivers.on_match_finished),
        ):
            signal.connect(receiver, dispatch_uid=f"game.{receiver.__name__}")
