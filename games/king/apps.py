from django.apps import AppConfig


class KingConfig(AppConfig):
    """King's home as a Django app: its templates (``templates/king/``), static files
    (``static/king/``) and pages."""

    name = "games.king"
    label = "king"
