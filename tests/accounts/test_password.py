import re

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "mavi-dokuz-gosterge-11"


def test_password_change(client, player, password):
    client.force_login(player)
    url = reverse("accounts:password_change")
    assert client.get(url).status_code == 200
    response = client.post(
        url,
        {
            "old_password": password,
            "new_password1": NEW_PASSWORD,
            "new_password2": NEW_PASSWORD,
        },
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:password_change_done")
    player.refresh_from_db()
    assert player.check_password(NEW_PASSWORD)
    # Still logged in after the change.
    assert client.get(reverse("accounts:profile")).status_code == 200


def test_password_change_wrong_old_password(client, player, password):
    client.force_login(player)
    response = client.post(
        reverse("accounts:password_change"),
        {"old_password": "yanlis", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 200
    player.refresh_from_db()
    assert player.check_password(password)


def test_password_change_needs_login(client):
    response = client.get(reverse("accounts:password_change"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_password_reset_sends_email_and_link_works(client, player):
    response = client.post(reverse("accounts:password_reset"), {"email": "ayse@example.com"})
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:password_reset_done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["ayse@example.com"]
    assert message.subject == "KÜT: yeni parolanı seç"
    assert "Merhaba ayse," in message.body

    link = re.search(r"http://testserver(/accounts/password/reset/\S+/)", message.body).group(1)
    response = client.get(link, follow=True)
    assert response.status_code == 200
    assert response.context["validlink"]
    form_url = response.redirect_chain[-1][0]
    response = client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:password_reset_complete")
    player.refresh_from_db()
    assert player.check_password(NEW_PASSWORD)


def test_password_reset_unknown_email_sends_nothing(client, player):
    response = client.post(reverse("accounts:password_reset"), {"email": "kimse@example.com"})
    assert response.status_code == 302
    assert mail.outbox == []
    assert User.objects.count() == 1
