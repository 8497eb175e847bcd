"""Bad input over HTTP (issue 11): hostile form values get clear errors, never a 500;
every URL pattern of the site, filled with plausible and hostile values (ids of other
users' matches and tables among them), answers anonymous visitors, a player and staff
with an expected status and no page leaks another user's private data."""

from __future__ import annotations

import re
from collections import Counter
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from game.models import Match
from lobby.models import Table, TableSeat
from tests.security.conftest import GAME_SETTINGS, PASSWORD, private_layers
from tests.security.urlscan import paths, routes
from tests.security.world import World, build_world, secrets_for, world_delete

pytestmark = pytest.mark.django_db

EXPECTED = {200, 204, 301, 302, 303, 304, 400, 403, 404, 405, 409, 410, 429}
HUGE = [0, 2**31, 2**63, 10**25]
HOSTILE = ["ş", "\x00", "'\"<script>alert(1)</script>", "A" * 3000, "../../etc/passwd",
           "%00", "${7*7}", " "]  # fmt: skip
# Sent with every POST of the scan: each form field any view reads, with a bad value.
HOSTILE_POST = {
    "seat": "ş", "level": "<script>", "tasks": "99999999999999999999",
    "next": "//evil.example/", "fill_with_bots": "1", "display_name": "x" * 500,
    "reason": "' OR 1=1 --", "language": "xx", "answer": "maybe", "hand": "-1",
    "action": "delete_selected", "_selected_action": ["abc", "-1"], "page": "-1",
    "username": "ş" * 300, "password": "x", "email": "not-an-email", "rated": "2",
    "private": "x", "bot_level": "godlike", "watchers_allowed": "[]", "seed": "s" * 100,
    "password1": "a", "password2": "b", "old_password": "x", "new_password1": "x",
    "new_password2": "y", "until": "yesterday", "q": "<script>alert(1)</script>",
}  # fmt: skip
HOSTILE_QUERY = "?next=//evil.example/&page=-1&hand=x&q=%F0%9F%80%84'&o=abc"
_ID_TOKEN = re.compile(r"(?<![0-9A-Za-z])[0-9a-f]{10}(?![0-9A-Za-z])")


@pytest.fixture(scope="module")
def shared_world(django_db_setup, django_db_blocker):
    """Built and committed once for the module (a finished match takes seconds to
    play); each test runs in a transaction that is rolled back."""
    from django.conf import settings
    from django.test import override_settings

    overrides = {**GAME_SETTINGS, "KUT_TURN_SECONDS": 3600,
                 "CHANNEL_LAYERS": private_layers(settings.CHANNEL_LAYERS)}  # fmt: skip
    with django_db_blocker.unblock(), override_settings(**overrides):
        world = build_world()
        try:
            yield world
        finally:
            world_delete(world)


@pytest.fixture
def world(shared_world, db, settings) -> World:
    settings.KUT_TURN_SECONDS = 3600
    return shared_world


def _values(world: World, role: str):
    m, t = world, world.tables
    matches = [x.pk for x in m.matches]

    def values(name: str, conv: str) -> list:
        admin_object = conv == "path" or name == "id"
        if name == "match_id":
            return [m.other_match.pk, *matches, *HUGE]
        if name == "table_id":
            return [m.private_table.pk, *[x.pk for x in t], *HUGE]
        if name == "hand_no":
            return [1, 0, 99, 2**63]
        if name == "token":
            return [m.tokens[m.private_table.pk], "x", *HOSTILE]
        if name == "username":
            return [m.bob.username, m.staff.username, *HOSTILE]
        if name == "uidb64":
            return ["MQ", "\x00", "A" * 3000]
        if name == "content_type_id":
            return ["1", "\x00", "99999999999999999999"]
        if conv.startswith("regex:auth"):
            return ["accounts", "auth", "game", "lobby"]
        if conv == "regex:.*":
            return ["x/", "\x00/", "nope/deeper/"]
        if admin_object:
            plausible = str(m.bob.pk)
            if role != "staff":  # a redirect to the admin log-in whatever the id
                return [plausible]
            return [plausible, str(m.other_match.pk), "\x00", "9" * 30]
        if conv == "int":
            return [1, *HUGE]
        return ["x", *HOSTILE]

    return values


def _client(world: World, role: str) -> Client:
    client = Client(raise_request_exception=False)
    user = {"player": world.alice, "staff": world.staff}.get(role)
    if user is not None:
        client.force_login(user)
    return client


def _check(response, role: str, viewer: User | None, secrets: dict, ids: dict, where: str,
           problems: list) -> None:  # fmt: skip
    status = response.status_code
    if status not in EXPECTED:
        problems.append(f"{where}: status {status}")
        return
    location = response.get("Location", "")
    if location and urlsplit(location).netloc not in ("", "testserver", "localhost"):
        problems.append(f"{where}: redirects off the site to {location!r}")
    if getattr(response, "streaming", False):
        return
    body = response.content.decode("utf-8", "replace")
    for token in set(_ID_TOKEN.findall(body)) & ids.keys():
        problems.append(f"{where}: shows {ids[token]} ({token})")
    for secret, what in secrets.items():
        if secret in body:
            problems.append(f"{where}: shows {what}")
    if "<script>alert(1)" in body:
        problems.append(f"{where}: echoes a script tag unescaped")


def _secrets(world: World, viewer) -> tuple[dict, dict]:
    found = secrets_for(world, viewer)
    ids = {k: v for k, v in found.items() if re.fullmatch(r"[0-9a-f]{10}", k)}
    return {k: v for k, v in found.items() if k not in ids}, ids


@pytest.mark.parametrize("role", ["anonymous", "player", "staff"])
def test_every_url_pattern_answers_hostile_values_without_errors_or_leaks(world, role):
    """GET every pattern (plain, then with a hostile query string) and POST hostile form
    values to it; expected statuses only, never a page with another user's private
    data, the seed, a hidden tile or the deck order, and never a redirect off the
    site."""
    viewer = {"player": world.alice, "staff": world.staff}.get(role)
    values = _values(world, role)
    problems: list[str] = []
    statuses: Counter = Counter()
    requests = 0
    client = _client(world, role)
    secrets, ids = _secrets(world, viewer)
    version = _versions()
    for route in routes():
        for n, path in enumerate(paths(route, values)):
            # the hostile query string on the plausible path only
            variants = (("get", None), ("post", HOSTILE_POST))
            if n == 0:
                variants = (("get", None), ("get", "q"), ("post", HOSTILE_POST))
            for method, data in variants:
                if method == "post" and route.name.endswith("_delete"):
                    continue  # the admin deletes on any POST: a staff privilege, not input
                url = path + HOSTILE_QUERY if data == "q" else path
                if method == "post":
                    response = client.post(url, data)
                    client = _client(world, role)  # a POST may have logged it out
                else:
                    response = client.get(url)
                requests += 1
                statuses[response.status_code] += 1
                now = _versions()
                if now != version:  # the matches moved on (a POST): what is hidden changed
                    secrets, ids = _secrets(world, viewer)
                    version = now
                where = f"{role} {method.upper()} {url[:120]!r} ({route})"
                _check(response, role, viewer, secrets, ids, where, problems)
                if (role != "staff" and path.startswith("/admin/")
                        and route.name != "admin:login" and response.status_code == 200):  # fmt: skip
                    problems.append(f"{where}: an admin page for a non-staff visitor")
    print(f"\n[scan] {role}: {requests} requests, statuses {dict(sorted(statuses.items()))}")
    assert not problems, "\n".join(problems[:40]) + f"\n({len(problems)} problems)"
    assert requests > 500


def _versions() -> tuple:
    return tuple(Match.objects.order_by("pk").values_list("version", flat=True))


def test_pages_of_running_matches_are_for_their_players_only(world):
    """The table page: its players (and watchers where allowed); the record, replay and
    scenario export of a running match: nobody, staff included."""
    player, staff = _client(world, "player"), _client(world, "staff")
    assert player.get(reverse("game:match", args=[world.alice_match.pk])).status_code == 200
    assert player.get(reverse("game:match", args=[world.other_match.pk])).status_code == 404
    assert player.get(reverse("game:match", args=[world.watch_match.pk])).status_code == 200
    anon = Client().get(reverse("game:match", args=[world.alice_match.pk]))
    assert anon.status_code == 302 and reverse("accounts:login") in anon["Location"]
    for name, args in (("lobby:history_match", []), ("lobby:replay", []),
                       ("lobby:replay_hand", [1]), ("lobby:scenario", [1]),
                       ("lobby:analysis_hand", [1])):  # fmt: skip
        for m in (world.alice_match, world.other_match):
            for client in (player, staff):
                assert client.get(reverse(name, args=[m.pk, *args])).status_code == 404
    # a finished match's record: its players and staff, not others
    done = reverse("lobby:replay_hand", args=[world.done_match.pk, 1])
    assert player.get(done).status_code == 404
    assert _client_for(world.bob).get(done).status_code == 200


def _nul(data) -> bool:
    """A NUL anywhere: refused with 400 before any view (kut_site.middleware)."""
    if isinstance(data, dict):
        return any(_nul(k) or _nul(v) for k, v in data.items())
    if isinstance(data, list | tuple):
        return any(_nul(v) for v in data)
    return "\x00" in str(data)


def _refused_for_nul(response) -> bool:
    """400 with a sentence saying why (text/plain)."""
    return response.status_code == 400 and len(response.content.decode().strip()) > 10


def _client_for(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


# --- forms ------------------------------------------------------------------------------------


SIGNUP_CASES = [
    {},
    {"username": "", "email": "", "password1": "", "password2": ""},
    {"username": "a\x00b", "email": "a@example.com", "password1": PASSWORD, "password2": PASSWORD},
    {"username": "x" * 5000, "email": "x@example.com", "password1": PASSWORD,
     "password2": PASSWORD},
    {"username": "<script>alert(1)</script>", "email": "s@example.com", "password1": PASSWORD,
     "password2": PASSWORD},
    {"username": "' OR 1=1 --", "email": "q@example.com", "password1": PASSWORD,
     "password2": PASSWORD},
    {"username": "yeni", "email": "not-an-email", "password1": PASSWORD, "password2": PASSWORD},
    {"username": "yeni", "email": "yeni@example.com", "password1": PASSWORD, "password2": "x"},
    {"username": "yeni", "email": "yeni@example.com", "password1": "123", "password2": "123"},
    {"username": "BOB", "email": "new@example.com", "password1": PASSWORD, "password2": PASSWORD},
    {"username": "yeni", "email": "BOB@example.com", "password1": PASSWORD, "password2": PASSWORD},
    {"username": "yeni", "email": "y@" + "e" * 300 + ".com", "password1": PASSWORD,
     "password2": PASSWORD},
    {"username": "yeni", "email": "yeni@example.com", "password1": "\x00" * 20,
     "password2": "\x00" * 20},
]  # fmt: skip


def test_sign_up_refuses_hostile_values_with_clear_errors(world):
    url = reverse("accounts:signup")
    before = User.objects.count()
    for data in SIGNUP_CASES:
        response = Client(raise_request_exception=False).post(url, data)
        if _nul(data):
            assert _refused_for_nul(response), (data, response.status_code)
            continue
        assert response.status_code == 200, (data, response.status_code)
        assert response.context["form"].errors, data  # said why, in the form
        assert "<script>alert(1)" not in response.content.decode()
    assert User.objects.count() == before


LOGIN_CASES = [
    {}, {"username": "\x00", "password": "x"}, {"username": "alice", "password": "\x00"},
    {"username": "x" * 10000, "password": "y" * 10000}, {"username": ["alice", "bob"]},
    {"username": "alice' --", "password": "' OR '1'='1"},
]  # fmt: skip


def test_log_in_refuses_hostile_values_with_clear_errors(world):
    url = reverse("accounts:login")
    for data in LOGIN_CASES:
        client = Client(raise_request_exception=False)
        response = client.post(url, data)
        if _nul(data):
            assert _refused_for_nul(response), (data, response.status_code)
            continue
        assert response.status_code in (200, 429), (data, response.status_code)
        assert response.context["form"].errors, data
        assert "_auth_user_id" not in client.session
    bad_next = Client().post(url + "?next=//evil.example/",
                             {"username": "alice", "password": PASSWORD})  # fmt: skip
    assert bad_next.status_code == 302 and urlsplit(bad_next["Location"]).netloc == ""


TABLE_CASES = [
    {}, {"game": "kut", "opt_tasks": "7"},
    {"game": "kut", "opt_tasks": "abc", "rated": "1", "private": "0", "level": "orta"},
    {"game": "kut", "opt_tasks": "99999999999999999999999", "rated": "1", "private": "0",
     "level": "orta"},
    {"game": "kut", "opt_tasks": "8", "rated": "maybe", "private": "0", "level": "orta"},
    {"game": "kut", "opt_tasks": "8", "rated": "1", "private": "\x00", "level": "orta"},
    {"game": "kut", "opt_tasks": "8", "rated": "1", "private": "0",
     "level": "<script>alert(1)</script>"},
    {"game": "kut", "opt_tasks": "8", "opt_x": "<script>alert(1)</script>", "rated": "1",
     "private": "0", "level": "orta"},
    {"game": "<script>alert(1)</script>", "opt_tasks": "8", "rated": "1", "private": "0",
     "level": "orta"},
    # S-M2: an even number of hands, and a move time off P-6's 15-s steps
    {"game": "kastet", "opt_hands": "4", "rated": "1", "private": "0", "level": "orta"},
    {"game": "kastet", "opt_hands": "3", "rated": "1", "private": "0", "level": "orta",
     "move_seconds": "61"},
]  # fmt: skip


def test_creating_a_table_refuses_hostile_values(world):
    client = _client_for(world.carol)  # seated nowhere
    before = Table.objects.count()
    for data in TABLE_CASES:
        response = client.post(reverse("lobby:create"), data)
        assert response.status_code == 400, (data, response.status_code)
        if _nul(data):
            assert _refused_for_nul(response)
            continue
        assert response.context["form"].errors
        assert "<script>alert(1)" not in response.content.decode()
    assert Table.objects.count() == before


def test_table_actions_refuse_hostile_seats_and_levels(world):
    """Joining, adding and removing bots with seats and levels that are no such thing:
    a message and a redirect, and the seats are as they were."""
    host, guest = _client_for(world.bob), _client_for(world.carol)
    table = world.public_table
    seats = list(TableSeat.objects.filter(table=table).values_list("user", "bot_level"))
    for seat in ("ş", "\x00", "-1", "4", "99999999999999999999", "1.5", "", "[1]"):
        for client, name, data in ((guest, "lobby:join", {"seat": seat}),
                                   (host, "lobby:add_bot", {"seat": seat, "level": "hard"}),
                                   (host, "lobby:remove_bot", {"seat": seat})):  # fmt: skip
            if seat == "" and name != "lobby:remove_bot":
                continue  # the first free seat: a valid request
            response = client.post(reverse(name, args=[table.pk]), data)
            if _nul(data):
                assert _refused_for_nul(response)
            else:
                assert response.status_code == 302, (name, seat, response.status_code)
            current = list(TableSeat.objects.filter(table=table).values_list("user", "bot_level"))
            assert current == seats, (name, seat)
    for level in ("godlike", "\x00", "<b>", "x" * 1000):
        response = host.post(reverse("lobby:add_bot", args=[table.pk]), {"seat": "1",
                                                                          "level": level})  # fmt: skip
        assert response.status_code == (400 if _nul(level) else 302)
    assert list(TableSeat.objects.filter(table=table).values_list("user", "bot_level")) == seats


def test_invite_links_refuse_hostile_tokens_clearly(world):
    client = _client_for(world.carol)
    for token in ("x", "ş", "\x00", "A" * 3000, "../..", "%2e%2e", world.tokens[world.private_table.pk] + "x"):  # fmt: skip
        response = client.get(f"/lobby/invite/{token}/")
        expected = (400,) if _nul(token) else (404, 410)
        assert response.status_code in expected, (token, response.status_code)
        assert response.content  # a page that says why
    assert not TableSeat.objects.filter(user=world.carol).exists()


def test_practice_and_profile_refuse_hostile_values(world):
    client = _client_for(world.dave)
    before = Match.objects.count()
    for data in ({}, {"tasks": "7", "level": "easy"}, {"tasks": "5", "level": "\x00"},
                 {"tasks": "x" * 1000, "level": "hard"}):  # fmt: skip
        response = client.post(reverse("kut:practice"), data)
        assert response.status_code == (400 if _nul(data) else 302), data
    assert Match.objects.count() == before
    for name in ("x" * 5000, "a\x00b"):
        response = client.post(reverse("accounts:profile"), {"display_name": name})
        if _nul(name):
            assert _refused_for_nul(response)
        else:
            assert response.status_code == 200 and response.context["form"].errors
    response = client.post(
        reverse("accounts:profile"), {"display_name": "<script>alert(1)</script>"}
    )
    assert response.status_code in (200, 302)
    for page in (reverse("accounts:profile"), reverse("lobby:index"), f"/u/{world.dave.username}/"):
        body = client.get(page).content.decode()
        assert "<script>alert(1)" not in body, page


ADMIN_QUERIES = [
    "q=%00", "q=' OR 1=1 --", "q=" + "x" * 3000, "q=%F0%9F%80%84", "o=abc", "o=999", "o=-1.2",
    "p=-5", "p=abc", "p=99999999999999999999", "status__exact=<script>", "rated__exact=2",
    "created_at__gte=notadate", "created_at__year=99999", "id__gt=abc", "e=1", "all=",
    "password__startswith=md5", "seats__user__email__startswith=a", "_to_field=password",
    "_popup=1&_to_field=password", "kind__exact=%00", "actor__exact=x", "is_staff__exact=maybe",
    "date_joined__gte=2024-13-45", "is_banned__exact=%00", "match__id__exact=abc",
]  # fmt: skip


def test_admin_changelists_survive_hostile_filters_and_searches(world):
    """Search boxes and list filters of every changelist with hostile values: the
    changelist, an "invalid filter" redirect or a refusal — never a 500, and never a
    lookup on a field the admin does not offer (e.g. password hashes)."""
    staff = _client(world, "staff")
    problems = []
    changelists = [r for r in routes() if r.name.endswith("_changelist")]
    assert len(changelists) >= 5
    for route in changelists:
        url = reverse(route.name)
        for query in ADMIN_QUERIES:
            response = staff.get(f"{url}?{query}")
            if response.status_code not in (200, 302, 400, 403):
                problems.append(f"{url}?{query[:60]}: {response.status_code}")
            elif "password__startswith" in query and response.status_code == 200:
                rows = response.context["cl"].result_count
                total = response.context["cl"].full_result_count
                if rows != total:
                    problems.append(f"{url}: filtered by the password hash")
    assert not problems, "\n".join(problems)
