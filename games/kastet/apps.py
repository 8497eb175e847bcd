from django.apps import AppConfig


class KastetConfig(AppConfig):
    """Kastet's home as a Django app: its templates (``templates/kastet/``), static files
    (``static/kastet/``) and pages."""

    name = "games.kastet"
    label = "kastet"
