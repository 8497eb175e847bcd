"""Invite links: through sign-up or log-in to the table, which asks to sit down (a POST,
issue 16); bad links change nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from lobby import services
from lobby.models import Table, TableInvite
from tests.lobby.conftest import PASSWORD, client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def private_table(players):
    return services.table_create(game="kut", host=players[0], private=True, rated=False)


def link(table: Table) -> str:
    return reverse("lobby:invite", args=[services.invite_current(table).token])


def seated(table: Table) -> list:
    return [s.user_id for s in table.seats.order_by("seat")]


def test_logged_out_through_sign_up_straight_to_the_seat(private_table):
    url = link(private_table)
    client = Client()
    page = client.get(url)
    assert page.status_code == 200
    body = page.content.decode()
    assert "davet ediyor" in body
    signup = f"{reverse('accounts:signup')}?next={url}"
    assert signup in body.replace("%2F", "/")
    response = client.post(
        signup,
        {
            "username": "yeni",
            "email": "yeni@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302 and response.url == url
    page = client.get(url)  # the table, and a question: nobody is seated by a GET
    assert page.status_code == 200 and "Masaya otur" in page.content.decode()
    assert seated(private_table)[1] is None
    response = client.post(url)
    assert response.status_code == 302
    assert response.url == reverse("lobby:table", args=[private_table.pk])
    user = Table.objects.get(pk=private_table.pk).seats.get(seat=1).user
    assert user.username == "yeni"
    page = client.get(response.url).content.decode()
    assert "Yerine oturdun" in page


def test_logged_out_through_log_in(private_table, players):
    url = link(private_table)
    client = Client()
    response = client.post(
        f"{reverse('accounts:login')}?next={url}",
        {"username": "ayse", "password": PASSWORD, "next": url},
    )
    assert response.status_code == 302 and response.url == url
    client.get(url)
    assert seated(private_table) == [players[0].pk, None, None, None]
    client.post(url)
    assert seated(private_table) == [players[0].pk, players[1].pk, None, None]


def test_logged_in_sits_down_with_a_post(private_table, players):
    client = client_for(players[2])
    page = client.get(link(private_table))
    assert page.status_code == 200 and "Masaya otur" in page.content.decode()
    assert seated(private_table)[1] is None
    response = client.post(link(private_table))
    assert response.url == reverse("lobby:table", args=[private_table.pk])
    assert seated(private_table)[1] == players[2].pk
    assert client.get(response.url).status_code == 200  # the private table's page
    # seated already: the link leads to the table
    assert client.get(link(private_table)).url == response.url


def test_a_cross_site_get_or_post_seats_nobody(private_table, players):
    """Issue 16: a link or an image on another site (a GET) made the victim sit at a
    rated table the host then started with bots.  A GET only asks; a POST without the
    page's CSRF token is refused."""
    victim = Client(enforce_csrf_checks=True)
    victim.force_login(players[3])
    url = link(private_table)
    assert victim.get(url).status_code == 200
    assert victim.get(url, HTTP_SEC_FETCH_SITE="cross-site").status_code == 200
    assert victim.post(url).status_code == 403  # forged: no token
    assert victim.head(url).status_code in (200, 405)
    assert players[3].pk not in seated(private_table)
    page = victim.get(url).content.decode()
    token = page.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    assert victim.post(url, {"csrfmiddlewaretoken": token}).status_code == 302
    assert players[3].pk in seated(private_table)


def test_unsafe_next_is_ignored_after_sign_up(client):
    response = client.post(
        f"{reverse('accounts:signup')}?next=https://evil.example/",
        {
            "username": "yeni",
            "email": "y@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302 and response.url == reverse("home")


@pytest.mark.parametrize(
    ("spoil", "status", "message"),
    [
        ("expire", 410, "süresi dolmuş"),
        ("revoke", 410, "geri çekti"),
        ("renew", 410, "geri çekti"),
        ("garble", 404, "geçersiz"),
        ("short", 404, "geçersiz"),
    ],
)
def test_bad_links_give_a_clear_message_and_change_nothing(private_table, players, spoil, status, message):  # fmt: skip
    host = players[0]
    invite = services.invite_current(private_table)
    token = invite.token
    if spoil == "expire":
        TableInvite.objects.filter(pk=invite.pk).update(
            created_at=timezone.now() - timedelta(days=7, seconds=1)
        )
    elif spoil == "revoke":
        services.invite_revoke(private_table.pk, host)
    elif spoil == "renew":
        services.invite_renew(private_table.pk, host)
    elif spoil == "garble":
        token = token[:-3] + ("aaa" if not token.endswith("aaa") else "bbb")
    else:
        token = "x"
    before = seated(private_table)
    for client in (client_for(players[1]), Client()):  # logged in and logged out
        for method in (client.get, client.post):
            response = method(reverse("lobby:invite", args=[token]))
            assert response.status_code == status
            assert message in response.content.decode()
    assert seated(private_table) == before
    assert not private_table.seats.filter(user=players[1]).exists()


@pytest.mark.parametrize("state", ["full", "started", "closed"])
def test_a_full_started_or_closed_table_gives_a_clear_message(private_table, players, state):
    host = players[0]
    url = link(private_table)
    if state in ("full", "started"):
        for _bot in range(3):
            services.table_add_bot(private_table.pk, host)
    if state == "started":
        services.table_start(private_table.pk, host)
    if state == "closed":
        services.table_close(private_table.pk, host)
    before = seated(private_table)
    client = client_for(players[4])
    response = client.get(url) if state != "full" else client.post(url)
    assert response.status_code == 409
    expected = {"full": "Bu masa dolu.", "started": "başladı", "closed": "kapatıldı"}[state]
    assert expected in response.content.decode()
    assert seated(private_table) == before


def test_the_host_withdraws_and_renews_links_on_the_page(private_table, players):
    host = client_for(players[0])
    old = services.invite_current(private_table).token
    host.post(reverse("lobby:invite_renew", args=[private_table.pk]))
    new = services.invite_current(private_table).token
    assert new != old and len(new) >= 32
    assert new in host.get(reverse("lobby:table", args=[private_table.pk])).content.decode()
    other = client_for(players[1])
    other.post(reverse("lobby:invite_revoke", args=[private_table.pk]))  # not the host
    assert services.invite_current(private_table).token == new
    host.post(reverse("lobby:invite_revoke", args=[private_table.pk]))
    assert services.invite_current(private_table) is None
    page = host.get(reverse("lobby:table", args=[private_table.pk])).content.decode()
    assert "Geçerli bir davet bağlantısı yok." in page
