import time

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

THROTTLED = "Çok fazla deneme yapıldı. Biraz bekleyip yeniden dene."


def login(client, username, password, **extra):
    return client.post(
        reverse("accounts:login"), {"username": username, "password": password}, **extra
    )


def test_login_and_logout(client, player, password):
    response = login(client, "ayse", password)
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(player.pk)
    page = client.get(reverse("home")).content.decode()
    assert "Çıkış yap" in page

    response = client.post(reverse("accounts:logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session
    assert "Giriş yap" in client.get(reverse("home")).content.decode()


def test_logout_needs_post(client, player, password):
    login(client, "ayse", password)
    assert client.get(reverse("accounts:logout")).status_code == 405
    assert "_auth_user_id" in client.session


def test_wrong_password_is_refused_in_turkish(client, player):
    response = login(client, "ayse", "yanlis-parola")
    assert response.status_code == 200
    assert "Kullanıcı adı ya da parola yanlış." in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_login_is_throttled_per_username(client, player, password, settings):
    settings.KUT_LOGIN_FAILURES_PER_USERNAME = 3
    for _ in range(3):
        assert login(client, "ayse", "yanlis-parola").status_code == 200
    # Even the right password is refused while throttled, and from another address.
    response = login(client, "ayse", password, REMOTE_ADDR="10.0.0.9")
    assert response.status_code == 429
    assert THROTTLED in response.content.decode()
    assert "_auth_user_id" not in client.session
    # Another username from another address is unaffected.
    assert login(client, "baskasi", "x", REMOTE_ADDR="10.0.0.10").status_code == 200


def test_login_is_throttled_per_address(client, player, password, settings):
    settings.KUT_LOGIN_FAILURES_PER_IP = 4
    for number in range(4):
        login(client, f"kimse{number}", "yanlis", REMOTE_ADDR="10.1.1.1")
    response = login(client, "ayse", password, REMOTE_ADDR="10.1.1.1")
    assert response.status_code == 429
    assert THROTTLED in response.content.decode()
    # The same user from a clean address still gets in.
    assert login(client, "ayse", password, REMOTE_ADDR="10.1.1.2").status_code == 302


def test_throttle_window_expires(client, player, password, settings):
    settings.KUT_LOGIN_FAILURES_PER_USERNAME = 2
    settings.KUT_LOGIN_WINDOW_SECONDS = 1
    for _ in range(2):
        login(client, "ayse", "yanlis")
    assert login(client, "ayse", password).status_code == 429
    time.sleep(1.2)
    assert login(client, "ayse", password).status_code == 302


def test_successful_login_forgives_username_failures(client, player, password, settings):
    settings.KUT_LOGIN_FAILURES_PER_USERNAME = 3
    login(client, "ayse", "yanlis")
    login(client, "ayse", "yanlis")
    assert login(client, "ayse", password).status_code == 302
    client.post(reverse("accounts:logout"))
    login(client, "ayse", "yanlis")
    login(client, "ayse", "yanlis")
    assert login(client, "ayse", password).status_code == 302
