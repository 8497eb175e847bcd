import pytest
from channels.routing import ProtocolTypeRouter
from channels.testing import HttpCommunicator, WebsocketCommunicator

from kut_site.asgi import application


def test_protocol_router_serves_http_and_websocket():
    assert isinstance(application, ProtocolTypeRouter)
    assert set(application.application_mapping) == {"http", "websocket"}


@pytest.mark.django_db(transaction=True)
async def test_home_page_through_asgi():
    communicator = HttpCommunicator(application, "GET", "/", headers=[(b"host", b"testserver")])
    response = await communicator.get_response()
    assert response["status"] == 200
    assert "KÜT".encode() in response["body"]


@pytest.mark.django_db
async def test_websocket_from_a_foreign_origin_is_refused():
    communicator = WebsocketCommunicator(
        application, "/ws/anything/", headers=[(b"origin", b"http://evil.example")]
    )
    connected, _ = await communicator.connect()
    assert not connected
    await communicator.disconnect()
