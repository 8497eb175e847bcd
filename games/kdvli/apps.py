from django.apps import AppConfig


class KdvliConfig(AppConfig):
    """KDVli Okey's home as a Django app: its templates (``templates/kdvli/``), static files
    (``static/kdvli/``) and pages."""

    name = "games.kdvli"
    label = "kdvli"
