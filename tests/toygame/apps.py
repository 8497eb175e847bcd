from django.apps import AppConfig


class ToyConfig(AppConfig):
    """The toy game's home as a Django app (its templates, ``templates/toy/``)."""

    name = "tests.toygame"
    label = "toy"
