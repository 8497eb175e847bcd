from django.apps import AppConfig


class OkeyConfig(AppConfig):
    """the okey family's home as a Django app: its templates (``templates/okey/``), static files
    (``static/okey/``) and pages."""

    name = "games.okey"
    label = "okey"
