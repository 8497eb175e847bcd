import asyncio, pytest
from django.db import connection
from tests.game.conftest import session_cookie
from tests.security.fuzzkit import Harness, close_loop, realize, unlimited_rates
pytestmark = [pytest.mark.django_db(transaction=True)]
def sessions(tag):
    with connection.cursor() as c:
        c.execute("select pid, state, left(query,60) from pg_stat_activity where datname=current_database() and pid<>pg_backend_pid()")
        print(tag, c.fetchall())
def test_x(players, monkeypatch, settings):
    unlimited_rates(monkeypatch.setattr)
    cookies = [session_cookie(u) for u in players]
    loop = asyncio.new_event_loop()
    h = Harness(players, cookies, loop)
    h.start()
    for i in range(3):
        h.step(*realize({"seed": i, "seat": 0, "kind": "legal", "good_version": True}, h.context()))
        sessions(f"after step {i}")
    h.step(0, '{"type":"sync"}', "control"); sessions("after sync")
    h.finish_match()
    sessions("after finish")
    close_loop(loop)
    sessions("after close")
