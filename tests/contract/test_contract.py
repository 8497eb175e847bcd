"""The contract every game meets on the platform (issue 28), parametrised over the
registry: the five games of the site and the test suite's toy (``tests/toygame``, one
registration line), each from its own home and nothing else:

* its spec's rule ids are each cited by a test (and the spec is the shared copy);
* its lobby page, and rated and test tables made there (test tables only where the game
  has them, ``practice_tables``);
* its table page renders for a seat, with none of another seat's hidden facts;
* the frame the broadcast sends each seat equals that seat's snapshot (the frame a
  ``sync`` gets, ``match_frame``), whose view is the game's ``view_for`` for that seat,
  and holds none of another seat's hidden facts;
* a finished match is in the player's history (the list, the record, the replay page),
  and every hand downloads as a scenario that the replay command replays to the same
  end as stored (``HandResult``).

A seat's *hidden facts* are the strings in its own view that neither the watchers' view
nor the looking seat's own view holds (as a value or a key) (its tiles, cards or letters, by the views
themselves; single characters are too common in a page to be told apart).
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys

import pytest
from django.urls import reverse

from accounts.models import User
from game import changes, services
from game.engine import registry
from game.engine.replay import main as replay_main
from game.frames import frame_parts, frame_text, match_frame
from game.models import HandResult, Match
from game.web import web
from lobby.forms import TableForm
from lobby.games import game_card
from lobby.models import Table
from tests.clients import client_for
from tests.conftest import ROOT
from tests.contract.kit import home_dir, move, new_match, plain, play_out

pytestmark = pytest.mark.django_db

# the shared specs beside the main checkout (/work/shared) or above a worktree's
SHARED = next((p / "shared" / "rules" for p in (ROOT.parent, ROOT.parent.parent)
               if (p / "shared" / "rules").is_dir()), None)  # fmt: skip
RULE_ID = r"[A-Z]-[A-Z]?\d+"
# rules whose whole substance is the platform's, each proven by the platform test named
PLATFORM_RULES = {
    "S-P9": "tests/lobby/test_leavers.py: the lobby's one leaver bar, the same for every game"
}


# the five games of the site and the toy (registered by its one line in tests/settings.py),
# as the registry lists them when the suite is collected
GAMES = list(registry.GAMES)


def pytest_generate_tests(metafunc):
    if "key" in metafunc.fixturenames:
        metafunc.parametrize("key", GAMES)


@pytest.fixture(autouse=True)
def _contract_settings(settings):
    settings.KUT_BOTS_INLINE = True
    settings.KUT_BOT_DELAY_SECONDS = 0
    settings.KUT_TURN_SECONDS = 3600
    settings.ALLOWED_HOSTS = ["localhost", "127.0.0.1", "testserver"]


@pytest.fixture
def players(db):
    return [
        User.objects.create_user(
            username=f"sozlesme{i}", email=f"s{i}@example.com", password="kirmizi-yedi-okey-42"
        )  # fmt: skip
        for i in range(4)
    ]


# --- rule-id coverage ------------------------------------------------------------------


def spec_file(key: str):
    """The game's rules with their ids: its home's ``rules.md``, else ``docs/rules``."""
    own = home_dir(key) / "rules.md"
    return own if own.exists() else ROOT / "docs" / "rules" / f"{key}.md"


def cited(text: str, rule: str) -> bool:
    """Written out (``V-N6``) or in a test's name (``test_v_n6_…``)."""
    prefix, rest = rule.split("-")
    return bool(
        re.search(rf"(?<![A-Za-z0-9]){re.escape(rule)}(?!\d)", text)
        or re.search(rf"(?<![a-z]){prefix.lower()}_{rest.lower()}(?!\d)", text)
    )


def test_every_rule_id_of_the_games_spec_is_cited_by_a_test(key):
    spec = spec_file(key)
    ids = sorted(set(re.findall(rf"\*\*(?:Decision )?({RULE_ID})", spec.read_text("utf-8"))))
    assert len(ids) >= 7, ids
    tests = "\n".join(
        p.read_text(encoding="utf-8")
        for p in (ROOT / "tests").rglob("*")
        if p.suffix in (".py", ".json") and "contract" not in p.parts
    )
    missing = [i for i in ids if not cited(tests, i) and i not in PLATFORM_RULES]
    assert missing == [], f"rules of {spec.name} with no test citing them"


def test_the_games_spec_is_the_shared_copy(key):
    spec = spec_file(key)
    if spec.parent != ROOT / "docs" / "rules":
        assert spec.is_relative_to(ROOT / "tests")  # the toy's own, in its home
        return
    if SHARED is None:
        pytest.skip("the shared rules folder is not beside this checkout")
    for name in (f"{key}.md", f"{key}-scenario.md"):
        assert (spec.parent / name).read_text() == (SHARED / name).read_text(), name


# --- the lobby, rated and test tables ------------------------------------------------------


def test_the_lobby_page_and_its_rated_and_test_tables(key, players):
    spec = registry.get(key)
    page = client_for(players[0]).get(reverse("lobby:game", args=[key]))
    assert page.status_code == 200
    assert spec.name.encode() in page.content
    # the dialog as the page offers it: every field at its initial value
    fields = TableForm(game_card(key)).fields.items()
    initial = {n: "on" if f.initial is True else f.initial for n, f in fields if f.initial}
    form = {**initial, "game": key, "private": "0", "level": "orta"}
    for host, rated in ((players[0], "1"), (players[1], "0")):
        response = client_for(host).post(reverse("lobby:create"), {**form, "rated": rated})
        assert response.status_code == 302, response.content.decode()[:2000]
        table = Table.objects.get(host=host)
        assert table.game == key
        # P-3: a test table where the game has them; every table rated where not
        assert table.rated == (rated == "1" or not spec.practice_tables)
        assert table.options == spec.clean_options(table.options)
    lobby = client_for(players[2]).get(reverse("lobby:game", args=[key])).content.decode()
    for table in Table.objects.all():
        assert reverse("lobby:table", args=[table.pk]) in lobby


# --- the table page, frames and secrecy ---------------------------------------------------


def strings_of(data, keys: bool = False) -> set[str]:
    """The string values in ``data`` (and its dicts' keys too, with ``keys``)."""
    if isinstance(data, dict):
        found = set(data) if keys else set()
        return found.union(*(strings_of(v, keys) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(strings_of(v, keys) for v in data))
    return {data} if isinstance(data, str) else set()


def hidden_from(spec, st, seat: int, seats: int, shortest: int = 2) -> dict[int, set[str]]:
    """Per other seat: the facts of its own view that ``seat`` may not see (strings of
    ``shortest`` characters or more)."""
    known = strings_of(plain(spec.views_for(st, [None, seat])), keys=True)
    return {
        other: {
            s for s in strings_of(plain(spec.view_for(st, other))) - known if len(s) >= shortest
        }  # fmt: skip
        for other in range(seats)
        if other != seat
    }


def assert_keeps_secrets(text: str, spec, st, seat: int, seats: int, match, where: str,
                         shortest: int = 2):  # fmt: skip
    for other, facts in hidden_from(spec, st, seat, seats, shortest).items():
        shown = sorted(f for f in facts if json.dumps(f, ensure_ascii=False) in text)
        assert shown == [], f"{where}: seat {other}'s hidden facts seen by seat {seat}"
    assert match.seed not in text, f"{where}: the seed"


def test_the_table_page_renders_for_a_seat_and_keeps_the_others_secrets(key, players):
    match = new_match(key, players)
    spec = registry.get(key)
    st = spec.from_dict(match.state)
    seats = match.seats.count()
    rng = random.Random(3)
    for _ in range(6):  # a few moves in: something on the table, racks changed
        move(match, rng)
    match.refresh_from_db()
    st = spec.from_dict(match.state)
    for seat in range(seats):
        user = match.seats.get(seat=seat).user
        response = client_for(user).get(reverse("game:match", args=[match.pk]))
        assert response.status_code == 200
        assert web(key).table_template in [t.name for t in response.templates]
        html = response.content.decode()
        assert_keeps_secrets(html, spec, st, seat, seats, match, f"{key} table page")


def _without_clock(text: str) -> dict:
    frame = json.loads(text)
    frame["match"].pop("server_time", None)
    return frame


def test_each_seats_frame_is_its_snapshot_and_keeps_the_others_secrets(key, players):
    match = new_match(key, players)
    spec = registry.get(key)
    rng = random.Random(5)
    checked = leaks = 0
    for step in range(40):
        if step % 4 == 0:
            match.refresh_from_db()
            seats = services._seats(match)
            st = spec.from_dict(match.state)
            parts = frame_parts(match, seats, watchers=True)
            for seat in [*range(len(seats)), None]:
                sent = changes.part_text(parts[len(seats) if seat is None else seat])
                snapshot = match_frame(match, seat)
                assert _without_clock(sent) == _without_clock(frame_text(snapshot))
                assert snapshot["me"] == seat and snapshot["version"] == match.version
                assert snapshot["hand"] == plain(spec.view_for(st, seat))
                if seat is None:
                    continue
                # a frame is the match's public part and the seat's view: even a single
                # letter of another's rack would stand out (shortest=1)
                assert_keeps_secrets(sent, spec, st, seat, len(seats), match, f"{key} frame", 1)
                other = (seat + 1) % len(seats)
                if hidden_from(spec, st, seat, len(seats), 1)[other]:  # the check is live
                    with pytest.raises(AssertionError):
                        leak = changes.part_text(parts[other])
                        assert_keeps_secrets(leak, spec, st, seat, len(seats), match, "", 1)
                    leaks += 1
            checked += 1
        if not move(match, rng):
            break
    assert checked >= 3
    print(f"[contract] {key}: {checked} positions, {leaks} leaks caught on purpose")


# --- a finished match: history, replay page, scenario download and replay ------------------

# ``python -m game.engine.replay`` in a fresh interpreter that registers the games as the
# suite does (tests/settings.py: the site's list and the toy's one line)
COMMAND = "import sys, tests.settings; from game.engine.cli import main; sys.exit(main('replay'))"


def replay(path, capsys, alone: bool) -> dict:
    """The replay command's answer for the scenario at ``path``: in its own interpreter
    (``alone``), else through the same ``main`` in this one."""
    if alone:
        done = subprocess.run([sys.executable, "-c", COMMAND, str(path)], cwd=ROOT,
                              capture_output=True, text=True, timeout=300)  # fmt: skip
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)
    capsys.readouterr()
    assert replay_main("replay", [str(path)]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_finished_match_shows_in_history_and_every_hand_replays_from_its_download(
    key, players, tmp_path, capsys
):
    match = play_out(new_match(key, players, rated=True, seed="contract-history"))
    assert match.status == Match.Status.FINISHED
    client = client_for(players[0])
    listing = client.get(reverse("lobby:history"))
    record_url = reverse("lobby:history_match", args=[match.pk])
    assert listing.status_code == 200 and record_url in listing.content.decode()
    record = client.get(record_url)
    assert record.status_code == 200
    spec = registry.get(key)
    if spec.replay_snapshot is not None:
        assert client.get(reverse("lobby:replay", args=[match.pk])).status_code == 200
    results = list(HandResult.objects.filter(match=match).order_by("hand_no"))
    assert results
    for result in results:
        url = reverse("lobby:scenario", args=[match.pk, result.hand_no])
        download = client.get(url)
        assert download.status_code == 200 and "attachment" in download["Content-Disposition"]
        assert match.seed not in download.content.decode()
        path = tmp_path / f"hand-{result.hand_no}.json"
        path.write_bytes(download.content)
        out = replay(path, capsys, alone=result is results[-1] or spec.export_log is not None)
        assert all(r["ok"] for r in out["results"]), out["results"]
        assert out["over"], out
        assert out["scores"] == result.scores
        if spec.export_log is not None:  # the whole game in one scenario
            break
