from django.apps import AppConfig


class KelimekiConfig(AppConfig):
    """Kelimeki's home as a Django app: its templates (``templates/kelimeki/``), static files
    (``static/kelimeki/``) and pages."""

    name = "games.kelimeki"
    label = "kelimeki"
    verbose_name = "Kelimeki"

    def ready(self):
        from games.kelimeki import klig
        from lobby.signals import ranking_written

        # the k-lig rewards on what the ranking wrote (W-L6…W-L8)
        ranking_written.connect(klig.on_ranking_written, dispatch_uid="kelimeki.klig")
