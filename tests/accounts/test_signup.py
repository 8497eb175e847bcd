import pytest
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db


def signup(client, **overrides):
    data = {
        "username": "mehmet",
        "email": "mehmet@example.com",
        "password1": "sari-on-uc-sahte-okey",
        "password2": "sari-on-uc-sahte-okey",
        **overrides,
    }
    return client.post(reverse("accounts:signup"), data)


def test_signup_page_is_turkish(client):
    response = client.get(reverse("accounts:signup"))
    assert response.status_code == 200
    assert "Hesabını oluştur" in response.content.decode()


def test_signup_creates_user_and_logs_in(client):
    response = signup(client)
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    user = User.objects.get(username="mehmet")
    assert user.email == "mehmet@example.com"
    assert user.check_password("sari-on-uc-sahte-okey")
    assert client.session["_auth_user_id"] == str(user.pk)
    home = client.get(reverse("home")).content.decode()
    assert "KÜT&#x27;e hoş geldin, mehmet!" in home or "KÜT'e hoş geldin, mehmet!" in home


def test_duplicate_username_is_refused_in_turkish(client, player):
    response = signup(client, username="AYSE", email="baska@example.com")
    assert response.status_code == 200
    assert "Bu kullanıcı adı zaten alınmış." in response.content.decode()
    assert User.objects.count() == 1


def test_duplicate_email_is_refused_in_turkish(client, player):
    response = signup(client, email="Ayse@Example.com")
    assert "Bu e-posta adresiyle açılmış bir hesap zaten var." in response.content.decode()
    assert User.objects.count() == 1


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("kisa1", "Bu parola çok kısa."),
        ("12345678901", "Bu parola tamamıyla sayısaldır."),
        ("password123", "Bu parola çok geneldir."),
    ],
)
def test_weak_password_is_refused_in_turkish(client, password, message):
    response = signup(client, password1=password, password2=password)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not User.objects.exists()


def test_mismatched_passwords_are_refused(client):
    response = signup(client, password2="baska-bir-parola-77")
    assert "Girdiğin iki parola birbirini tutmuyor." in response.content.decode()
    assert not User.objects.exists()


@pytest.mark.parametrize("email", ["not-an-email", "ali@", ""])
def test_bad_email_is_refused_in_turkish(client, email):
    response = signup(client, email=email)
    content = response.content.decode()
    assert response.status_code == 200
    assert "Geçerli bir e-posta adresi gir" in content or "E-posta adresini gir." in content
    assert not User.objects.exists()


def test_signup_requires_csrf(password):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    response = signup(client)
    assert response.status_code == 403
    assert not User.objects.exists()
