import pytest
from django.urls import reverse

from accounts.models import User
from accounts.services import user_display_name

pytestmark = pytest.mark.django_db


def test_profile_needs_login(client):
    response = client.get(reverse("accounts:profile"))
    assert response.status_code == 302


def test_profile_shows_and_edits_display_name(client, player):
    client.force_login(player)
    page = client.get(reverse("accounts:profile")).content.decode()
    assert "ayse@example.com" in page
    assert 'class="display-name">ayse<' in page

    response = client.post(reverse("accounts:profile"), {"display_name": "  Ayşe Teyze "})
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.display_name == "Ayşe Teyze"
    page = client.get(reverse("accounts:profile")).content.decode()
    assert 'class="display-name">Ayşe Teyze<' in page
    assert "Profilin kaydedildi." in page


def test_profile_display_name_too_long(client, player):
    client.force_login(player)
    response = client.post(reverse("accounts:profile"), {"display_name": "x" * 41})
    assert response.status_code == 200
    player.refresh_from_db()
    assert player.display_name == ""


def test_user_display_name(player):
    from django.contrib.auth.models import AnonymousUser

    assert user_display_name(player) == "ayse"
    player.display_name = "Ayşe"
    assert user_display_name(player) == "Ayşe"
    assert user_display_name(AnonymousUser()) == ""
    assert user_display_name(None) == ""


def test_custom_user_model_is_in_first_migration():
    from django.conf import settings
    from django.db.migrations.loader import MigrationLoader

    assert settings.AUTH_USER_MODEL == "accounts.User"
    migration = MigrationLoader(None).get_migration("accounts", "0001_initial")
    created = {op.name: op for op in migration.operations if op.__class__.__name__ == "CreateModel"}
    assert "User" in created
    assert "display_name" in dict(created["User"].fields)
    assert User._meta.get_field("display_name").max_length == 40
