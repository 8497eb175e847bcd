"""Old data (issue 28, "Done when"): a database with the schema from before issue 28 and
rows that site wrote — finished and running matches of all five games
(``old_data/before28.json.gz``, made by ``old_data/make.py`` with the code of d3783cc)
— migrated forward still shows, replays and verifies them.

Before issue 28 the schema had KÜT's ``HandResult.task_no``/``finisher``/``lines``
(moved into ``HandResult.detail`` by ``game.0008``), ``User.trial_done`` (moved into
``User.tutorials_done`` by ``accounts.0004``), ``default="kut"`` on ``Match.game``,
``Table.game`` and ``Ranking.game`` (``game.0008``, ``lobby.0006``) and the k-lig models
in ``lobby`` (``lobby.0007`` and ``kelimeki.0001`` hand them to Kelimeki's home).
``Match.tasks`` and ``Table.tasks`` had already become ``options["tasks"]`` before issue
28 (``game.0004``, ``lobby.0002``): the old rows carry them so.

The test migrates back to the migrations of that time with Django's
``MigrationExecutor``, writes the old rows through the historical models, migrates
forward and then, with today's code: every finished match's record page, its replay
from the log (equal to the stored state), every hand's scenario download run through
the replay command to the stored scores, the verify page for every hand's deal; every
running match's table page, its frame, and a next move.
"""

from __future__ import annotations

import gzip
import json
import random
from datetime import timedelta

import pytest
from django.core.management.color import no_style
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from game import services
from game.engine import registry
from game.engine.fair import commitment
from game.engine.replay import main as replay_main
from game.fairness import verify_url
from game.frames import match_frame
from game.models import HandResult, Match
from lobby.history import hand_final_state
from tests.clients import client_for
from tests.conftest import ROOT

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE_28 = [("accounts", "0003_user_trial_done"), ("game", "0007_move_notices"),
             ("lobby", "0005_klig_records"), ("kelimeki", None)]  # fmt: skip
ROWS = ROOT / "tests" / "platform" / "old_data" / "before28.json.gz"
FIVE = {"kut", "kdvli", "king", "kastet", "kelimeki"}


def migrate(targets) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return MigrationExecutor(connection)


def write_old_rows(apps, rows: list[dict]) -> None:
    """The dumped rows through the models of the old schema (foreign keys by id)."""
    for row in rows:
        model = apps.get_model(row["model"])
        values = {}
        for name, value in row["fields"].items():
            field = model._meta.get_field(name)
            if field.many_to_many:
                continue
            values[field.attname] = value if field.is_relation else field.to_python(value)
        model.objects.create(pk=row["pk"], **values)
    # explicit ids leave PostgreSQL's sequences behind: the next rows must not collide
    models = {apps.get_model(row["model"]) for row in rows}
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), list(models)):
            cursor.execute(sql)


@pytest.fixture
def old_database():
    rows = json.loads(gzip.decompress(ROWS.read_bytes()))
    executor = migrate(BEFORE_28)
    try:
        old_apps = executor.loader.project_state(BEFORE_28[:3]).apps
        assert {f.name for f in old_apps.get_model("game", "HandResult")._meta.fields} >= {
            "task_no", "finisher", "lines"}  # fmt: skip
        assert "trial_done" in {f.name for f in old_apps.get_model("accounts", "User")._meta.fields}
        write_old_rows(old_apps, rows)
    finally:
        executor = MigrationExecutor(connection)
        migrate(executor.loader.graph.leaf_nodes())  # today's schema, whatever happened
    return rows


def all_dicts(data):
    if isinstance(data, dict):
        yield data
        data = list(data.values())
    if isinstance(data, list):
        for item in data:
            yield from all_dicts(item)


def hand_checks(match: Match, hand_no: int) -> list[dict]:
    """The deal checks (P-2: commitment, salt, order) a finished hand shows its seats."""
    spec = registry.get(match.game)
    st = hand_final_state(match, hand_no)
    view = json.loads(json.dumps(spec.view_for(st, 0)))
    return [d for d in all_dicts(view) if d.get("salt") and d.get("order") and d.get("commitment")]


def test_old_matches_of_all_five_games_still_show_replay_and_verify(old_database, tmp_path, capsys):
    from accounts.models import User

    eski = User.objects.get(username="eski0")
    assert eski.tutorials_done == ["kut"]  # the trial hand stays done (accounts.0004)
    client = client_for(eski)
    matches = list(Match.objects.order_by("pk"))
    assert {m.game for m in matches} == FIVE
    done = [m for m in matches if m.status == Match.Status.FINISHED]
    running = [m for m in matches if m.status == Match.Status.PLAYING]
    assert {m.game for m in done} == {m.game for m in running} == FIVE
    kut_hands = HandResult.objects.filter(match__game="kut")
    assert kut_hands and all(r.detail["task_no"] == r.hand_no and len(r.detail["lines"]) == 4
                             for r in kut_hands)  # fmt: skip
    from django.apps import apps

    klig = [m for m in apps.get_app_config("kelimeki").get_models() if m.__name__ == "KligRecord"]
    assert klig and klig[0].objects.count() == 2  # the k-lig rows, in Kelimeki's home now
    listing = client.get(reverse("lobby:history")).content.decode()
    verified = 0
    for match in done:
        spec = registry.get(match.game)
        # shows: Maçlarım and the record page
        url = reverse("lobby:history_match", args=[match.pk])
        assert url in listing, match.game
        assert client.get(url).status_code == 200, match.game
        # replays: the log through today's engine gives the stored state
        assert spec.to_dict(services.match_replay(match)) == match.state, match.game
        for result in HandResult.objects.filter(match=match).order_by("hand_no"):
            download = client.get(reverse("lobby:scenario", args=[match.pk, result.hand_no]))
            assert download.status_code == 200, match.game
            path = tmp_path / f"{match.game}-{result.hand_no}.json"
            path.write_bytes(download.content)
            capsys.readouterr()
            assert replay_main("replay", [str(path)]) == 0, match.game
            out = json.loads(capsys.readouterr().out)
            assert out["over"] and out["scores"] == result.scores, (match.game, result.hand_no)
            # verifies: the hand's deal check on the verify page
            for check in hand_checks(match, result.hand_no):
                page = client.get(verify_url(check))
                assert page.status_code == 200 and page.context["check"]["about"], match.game
                assert commitment(check["order"], check["salt"]) == check["commitment"]
                verified += 1
        if spec.replay_snapshot is not None:
            assert client.get(reverse("lobby:replay", args=[match.pk])).status_code == 200
    assert verified >= len(done)
    for match in running:
        spec = registry.get(match.game)
        page = client_for(match.seats.get(seat=0).user).get(reverse("game:match", args=[match.pk]))
        assert page.status_code == 200, match.game
        match.refresh_from_db()  # its old deadline is past: the page may have timed it out
        st = spec.from_dict(match.state)
        assert match_frame(match, 0)["hand"] == json.loads(json.dumps(spec.view_for(st, 0)))
        seat = spec.to_act(st)[0]
        action = spec.bot_choose(json.loads(json.dumps(spec.view_for(st, seat))), "easy",
                                 random.Random(1))  # fmt: skip
        version = match.version
        # at a moment of its turn (the rows were made some time ago: its clock has run out)
        moment = match.turn_started + timedelta(seconds=1)
        services.match_apply_action(match.pk, seat, action, version, now=moment)
        match.refresh_from_db()
        assert match.version == version + 1, match.game  # the old match plays on
