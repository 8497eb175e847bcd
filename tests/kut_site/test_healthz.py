import pytest
from django.urls import reverse

from kut_site import views


@pytest.mark.django_db
def test_healthz_ok(client):
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "checks": {"database": "ok", "channel_layer": "ok"},
    }
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_healthz_503_when_the_database_fails(client, monkeypatch):
    def broken():
        raise ConnectionError("database down")

    monkeypatch.setattr(views, "_database_check", broken)
    response = client.get(reverse("healthz"))
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert body["checks"]["database"] == "error: ConnectionError"
    assert body["checks"]["channel_layer"] == "ok"


@pytest.mark.django_db
def test_healthz_503_when_the_channel_layer_fails(client, monkeypatch):
    class BrokenLayer:
        async def send(self, channel, message):
            raise ConnectionError("layer down")

    monkeypatch.setattr(views, "get_channel_layer", lambda: BrokenLayer())
    response = client.get(reverse("healthz"))
    assert response.status_code == 503
    assert response.json()["checks"] == {
        "database": "ok",
        "channel_layer": "error: ConnectionError",
    }
