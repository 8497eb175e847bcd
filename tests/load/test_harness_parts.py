"""The load harness's parts that need no running stack (issue 30): the simulated humans
choose legal moves from their own view in every game, ``load_setup`` seats humans and
bots of every game, the mix splits tables in its shares, the check tells bot moves at a
bot table from bot moves where none may be, and the bots' CPU lines are read by window."""

from __future__ import annotations

import io
import json
import random

import pytest
from django.core.management import call_command

from game.engine import registry
from game.models import Match, MatchSeat
from tools.load import humans, report


@pytest.mark.parametrize("game", humans.GAMES)
def test_the_simulated_humans_play_legal_moves_from_their_own_view(game):
    spec = registry.get(game)
    rng = random.Random(7)
    choose = humans.chooser(game)
    for seats in spec.seat_counts:
        st = spec.new_match(spec.clean_options({}), seats, rng)
        played = 0
        while played < 60 and not spec.match_over(st):
            if spec.hand_over(st):
                spec.start_next_hand(st, rng)
                continue
            views = [spec.view_for(st, s) for s in range(seats)]
            mine = [s for s in range(seats) if humans.my_turn(views[s], s)]
            assert mine == list(spec.to_act(st))[:1], (views, spec.to_act(st))
            seat = mine[0]
            action = choose(views[seat], humans.level_for(game, None), rng)
            assert action is not None
            spec.apply(st, seat, action, 1000.0 + played)  # raises on an illegal move
            played += 1
        assert played >= 20


def test_the_mix_gives_every_game_its_share():
    assert humans.mix_counts(12) == {"kut": 4, "kdvli": 2, "king": 2, "kastet": 2, "kelimeki": 2}
    counts = humans.mix_counts(250)
    assert sum(counts.values()) == 250 and counts["kut"] == 88
    assert min(humans.mix_counts(5).values()) == 1


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "seats", "bots"), [("kelimeki", 2, 1), ("king", 4, 2)])
def test_load_setup_seats_humans_and_bots_of_the_game(game, seats, bots):
    out = io.StringIO()
    call_command("load_setup", "--tables", "3", "--game", game, "--seats", str(seats),
                 "--bots", str(bots), "--bot-levels", "hard,easy", stdout=out)  # fmt: skip
    data = json.loads(out.getvalue())
    assert len(data["matches"]) == 3
    for t, m in enumerate(data["matches"]):
        assert m["game"] == game and len(m["seats"]) == seats - bots
        level = ("hard", "easy")[t % 2]
        assert m["bots"] == {str(s): level for s in range(seats - bots, seats)}
        match = Match.objects.get(pk=m["id"])
        assert match.game == game and match.status == Match.Status.PLAYING
        rows = MatchSeat.objects.filter(match=match).order_by("seat")
        assert [r.user_id is None for r in rows] == [s >= seats - bots for s in range(seats)]
        assert [r.bot_level for r in rows if r.user_id is None] == [level] * bots


@pytest.mark.django_db
def test_load_setup_refuses_a_table_without_humans_or_a_wrong_seat_count():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        call_command("load_setup", "--tables", "1", "--game", "king", "--bots", "4")
    with pytest.raises(CommandError):
        call_command("load_setup", "--tables", "1", "--game", "king", "--seats", "2")
    assert not Match.objects.exists()


def _db(log):
    return {"matches": [{"id": 5, "status": "playing", "version": len(log), "log": log}]}


def test_the_check_counts_bot_moves_only_at_tables_with_bots():
    log = [[1, 0, "draw", "human"], [2, 1, "draw", "bot"]]
    sends = {"5": [[1, 0, "draw", "acked"]]}
    with_bots = report.verify(sends, _db(log), {"5"})
    assert (with_bots["bot_actions"], with_bots["non_human_actions"], with_bots["lost"]) == (
        1,
        0,
        0,
    )
    without = report.verify(sends, _db(log))
    assert without["non_human_actions"] == 1 and report.error_count(
        {"errors": {}, "disconnects": 0, "connect_failures": 0, "ack_timeouts": 0,
         "unacked_at_end": 0}, without) == 1  # fmt: skip
    after = report.verify(sends, _db(log), set(), {"5": 1})  # the clients saw v1 last
    assert after["non_human_actions"] == 0 and after["bot_actions_after_the_run"] == 1
    gap = report.verify(sends, _db([[1, 0, "draw", "human"], [3, 1, "draw", "bot"]]), {"5"})
    assert gap["version_gaps"] >= 1


def test_bot_cpu_lines_are_read_inside_the_window_only(tmp_path):
    path = tmp_path / "bots.txt"
    path.write_text("99.0 king hard 50.0\n100.5 king hard 2.0\n101.0 king easy 4.0\n"
                    "102.0 kastet hard 9.0\nbroken line\n200.0 king hard 999.0\n")  # fmt: skip
    cpu = report.bot_cpu(path, (100.0, 150.0))
    assert cpu["king"]["all"]["n"] == 2 and cpu["king"]["all"]["max"] == 4.0
    assert cpu["king"]["hard"]["p50"] == 2.0 and cpu["kastet"]["hard"]["max"] == 9.0
