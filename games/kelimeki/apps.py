from django.apps import AppConfig


class KelimekiConfig(AppConfig):
    """Kelimeki's home as a Django app: its templates (``templates/kelimeki/``), static files
    (``static/kelimeki/``) and pages."""

    name = "games.kelimeki"
    label = "kelimeki"
