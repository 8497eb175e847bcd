import time

import pytest
from django.test import Client as client_class
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
    # Even the right password is refused while throttled from the guessing address.
    response = login(client, "ayse", password)
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


def test_guessing_from_elsewhere_does_not_lock_the_owner_out(client, player, password, settings):
    """Issue 16: five wrong passwords a minute from anywhere must not lock the owner out:
    an address with no recent failure still gets in with the right password; a guess
    from that address ends its grace at once."""
    settings.KUT_LOGIN_FAILURES_PER_USERNAME = 3
    for i in range(6):  # spread over addresses: the username is throttled
        login(client, "ayse", "yanlis-parola", REMOTE_ADDR=f"10.9.0.{i % 2}")
    assert login(client, "ayse", password, REMOTE_ADDR="10.9.0.1").status_code == 429
    # a fresh address guessing wrong gets one evaluated try, then the lock holds for it
    assert login(client_class(), "ayse", "yanlis", REMOTE_ADDR="10.0.0.77").status_code == 200
    assert login(client_class(), "ayse", password, REMOTE_ADDR="10.0.0.77").status_code == 429
    owner = client_class()
    assert login(owner, "ayse", password, REMOTE_ADDR="10.0.0.9").status_code == 302
    assert "_auth_user_id" in owner.session


@pytest.mark.parametrize("forwarded", [
    lambda i: f"203.0.113.{i}",  # rotating, as a client may send it
    lambda i: f"203.0.113.{i}, 10.0.0.5",  # "…, proxy-seen address" (an appending proxy)
])  # fmt: skip
def test_the_address_is_the_one_the_trusted_proxy_appended(client, player, password, settings,
                                                            forwarded):  # fmt: skip
    """Issue 16: behind one proxy (KUT_TRUSTED_PROXIES=1) the throttle counts the address
    the proxy appended (the rightmost), never the client's own entries."""
    settings.KUT_TRUSTED_PROXIES = 1
    settings.KUT_LOGIN_FAILURES_PER_IP = 4
    appended = "10.0.0.5"
    for i in range(4):
        value = forwarded(i)
        if not value.endswith(appended):
            value = f"{value}, {appended}"
        login(client, f"kimse{i}", "yanlis", HTTP_X_FORWARDED_FOR=value)
    for i in range(10, 20):  # rotating the client-chosen part changes nothing
        response = login(client, f"kimse{i}", "yanlis",
                         HTTP_X_FORWARDED_FOR=f"198.51.100.{i}, {appended}")  # fmt: skip
        assert response.status_code == 429
    # another real address (as the proxy saw it) is not throttled
    assert login(client, "ayse", password,
                 HTTP_X_FORWARDED_FOR=f"{appended}, 10.0.0.6").status_code == 302  # fmt: skip
