import pytest
from django.urls import reverse

from tests.conftest import ROOT

pytestmark = pytest.mark.django_db


def test_home_welcomes_and_links_to_signup_login_and_lobby(client):
    page = client.get(reverse("home")).content.decode()
    assert "<h1>KÜT" in page
    for name in ("accounts:signup", "accounts:login", "lobby:index"):
        assert f'href="{reverse(name)}"' in page


def test_nav_for_a_logged_in_player(client, django_user_model):
    user = django_user_model.objects.create_user("veli", "veli@example.com", "x")
    client.force_login(user)
    page = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("accounts:profile")}"' in page
    assert f'action="{reverse("accounts:logout")}"' in page
    assert "Lobiye git" in page


def test_lobby_placeholder(client):
    response = client.get(reverse("lobby:index"))
    assert response.status_code == 200
    assert "<h1>Lobi</h1>" in response.content.decode()


def test_base_template_assets_and_blocks(client):
    base = (ROOT / "templates" / "base.html").read_text()
    for block in ("title", "content", "extra_head", "extra_js"):
        assert f"{{% block {block} %}}" in base
    page = client.get(reverse("home")).content.decode()
    for asset in ("css/site.css", "vendor/htmx/htmx.min.js", "vendor/htmx-ext-ws/ws.min.js"):
        assert f"/static/{asset}" in page


def test_vendored_htmx_2_with_licences():
    vendor = ROOT / "static" / "vendor"
    assert (vendor / "htmx" / "LICENSE").is_file()
    assert (vendor / "htmx-ext-ws" / "LICENSE").is_file()
    assert 'version:"2.' in (vendor / "htmx" / "htmx.min.js").read_text().replace(" ", "")


def test_htmx_request_is_recognised(client):
    response = client.get(reverse("home"), headers={"HX-Request": "true"})
    assert response.wsgi_request.htmx
