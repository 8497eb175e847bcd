from django.apps import AppConfig


class KutConfig(AppConfig):
    """KÜT's home as a Django app: its templates (``templates/kut/``), static files
    (``static/kut/``) and pages."""

    name = "games.kut"
    label = "kut"
