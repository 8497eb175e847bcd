"""Hidden information over a whole match (issue 11): a human seat (played by the normal
bot on its own frames), three bot seats and a watcher, five hands through the real
socket stack.  Every frame each socket receives is checked against the stored
state of its version (rebuilt from the action log), and every page each player is
served during the match (table, lobby, history, profiles, leaderboard) against the
state of the moment: no other seat's tiles, never the deck order, the salt of a running
hand or the seed; the watcher never sees a rack."""

from __future__ import annotations

import asyncio
import json
import random
import re

import pytest
from django.test import Client
from django.urls import NoReverseMatch, reverse

from accounts.models import User
from game import changes, services
from game.models import Match
from games.kut.engine import bots
from games.kut.engine.match import MatchState, new_match, record_hand, start_next_hand
from games.kut.engine.state import HandState
from games.kut.engine.transitions import apply
from games.okey.engine.deal import deal_order
from tests.game.conftest import session_cookie
from tests.games.kut.engine.test_properties import check_view_secrecy
from tests.security.conftest import make_user
from tests.security.fuzzkit import close_loop, new_loop

pytestmark = [pytest.mark.django_db(transaction=True)]

HUMANS = (0,)
_ID = re.compile(r"(?<![0-9A-Za-z])[0-9a-f]{10}(?![0-9A-Za-z])")


def states_by_version(match: Match) -> dict[int, HandState]:
    """The hand as stored at every version, rebuilt from the seed and the log."""
    out: dict[int, HandState] = {}
    ms = None
    for act in match.actions.order_by("version"):
        if act.kind == "start":
            ms = new_match(match.options["tasks"], services._rng_for_hand(match.seed, 1))
        elif act.kind == "next_hand":
            start_next_hand(ms, services._rng_for_hand(match.seed, ms.hand_no + 1))
        elif act.kind not in ("leave", "abandon"):
            apply(ms.hand, act.seat, act.payload)
            if ms.hand.over and len(ms.results) < ms.hand_no:
                record_hand(ms)
        out[act.version] = HandState.from_dict(ms.hand.to_dict())
    return out


def hidden_texts(hand: HandState, seat: int | None) -> tuple[set[str], list[str]]:
    """What ``seat`` must not see of ``hand``: tile ids, and (during the hand) the salt
    and runs of the dealt order."""
    tiles = list(hand.deck)
    for s in range(4):
        if s != seat:
            tiles += hand.racks[s].tiles()
    texts = []
    if not hand.over:
        order = deal_order(hand.deal)
        texts = [hand.deal["salt"], ",".join(order[-10:]), '","'.join(order[-10:])]
    return {hand.ids[t] for t in tiles}, texts


def _check_text(text: str, hand: HandState, seat, seed: str, where: str) -> None:
    ids, texts = hidden_texts(hand, seat)
    leaked = set(_ID.findall(text)) & ids
    assert not leaked, f"{where}: hidden tile ids {sorted(leaked)[:5]}"
    for t in texts:
        assert t not in text, f"{where}: the salt or the deck order of the running hand"
    assert seed not in text and '"seed"' not in text, f"{where}: the seed"


class Sock:
    """One socket taking change frames (issue 22, ``?frames=change``): every frame it
    receives — snapshot or change — is kept with its raw text and the full frame it
    gives (``game.changes.FrameStream``, the Python twin of static/js/frames.js)."""

    def __init__(self, comm, seat):
        self.comm = comm
        self.seat = seat
        self.frames: list[tuple[dict, str]] = []
        self.latest: dict | None = None
        self.stream = changes.FrameStream()
        self.changes = 0

    async def pump(self, version: int, timeout: float = 30) -> None:
        """Read until a state frame of at least ``version`` (sync when silent)."""

        while self.latest is None or self.latest["version"] < version:
            try:
                text = await self.comm.receive_from(timeout=3)
            except TimeoutError:
                timeout -= 3
                assert timeout > 0, f"seat {self.seat}: no frame for version {version}"
                await self.comm.send_to(text_data='{"type":"sync"}')
                continue
            frame = json.loads(text)
            assert frame["type"] != "error", frame
            if frame["type"] in ("state", "change"):
                self.changes += frame["type"] == "change"
                full = self.stream.take(frame)
                assert full is not None, f"seat {self.seat}: a change that does not fit"
                self.frames.append((full, text))  # the raw text is checked too
                frame = full
                if self.latest is None or frame["version"] >= self.latest["version"]:
                    self.latest = frame


def _bots_done(m: Match, run) -> None:
    """The human's move is broadcast at its commit; the bots then move inline in the
    socket's worker thread: wait until a human is on turn again with no bot move or
    claim due (or the hand is over)."""
    for _ in range(3000):
        m.refresh_from_db()
        if m.status != Match.Status.PLAYING:
            return
        if MatchState.from_dict(m.state).hand.turn in HUMANS and m.bot_due is None:
            return
        run(asyncio.sleep(0.01))
    raise AssertionError("the bots did not finish their moves")


def test_no_frame_or_page_shows_what_its_viewer_may_not_see(settings, monkeypatch):
    settings.KUT_TURN_SECONDS = 3600
    # the scripted player moves as fast as the server answers (three bots move inline):
    # faster than any human, so the flood limits (tested in test_abuse) are lifted here
    from game import consumers

    monkeypatch.setattr(consumers, "RATE_PER_SECOND", 10**6)
    monkeypatch.setattr(consumers, "RATE_BURST", 10**6)
    monkeypatch.setattr(consumers, "USER_RATE_LIMIT", 10**9)
    users = [make_user(n) for n in ("ayla", "baris")]
    watcher_user = make_user("izleyen")
    m = services.match_create(
        game="kut",
        options={"tasks": 5}, users=[users[0], None, None, None], bot_levels=["", "normal", "easy", "normal"],
        rated=False, watchers_allowed=True, seed="hidden-info")  # fmt: skip
    loop = new_loop()
    run = loop.run_until_complete
    from tests.game.conftest import connect

    socks: dict = {}
    for seat, user in ((0, users[0]), (None, watcher_user)):
        comm, ok, code = run(connect(m.pk, session_cookie(user), query="frames=change"))
        assert ok, code
        socks[seat] = Sock(comm, seat)
    clients = {seat: _client(users[seat]) for seat in HUMANS}
    rng = random.Random(11)
    page_checks = 0
    mid_hand: set[int] = set()
    pages_seen: list[tuple[int, int, str, str]] = []  # (version, seat, url, body)
    try:
        for _ in range(5000):
            m.refresh_from_db()
            if m.status == Match.Status.FINISHED:
                break
            run(_pump_all(socks, m.version))
            if m.status == Match.Status.BETWEEN:
                pages_seen += _pages(clients, m)
                services.match_next_hand(m.pk, m.version, force=True)
                continue
            ms = MatchState.from_dict(m.state)
            hand = ms.hand
            if len(hand.log) >= 12 and ms.hand_no not in mid_hand:  # pages during the hand
                mid_hand.add(ms.hand_no)
                pages_seen += _pages(clients, m)
            seat = hand.turn
            assert seat in HUMANS, "the bots move inline: a human is on turn"
            view = socks[seat].latest["hand"]
            action = bots.choose(view, "normal", rng) or {"type": "timeout"}
            run(socks[seat].comm.send_to(text_data=json.dumps(
                {"type": "action", "action": action, "version": m.version})))  # fmt: skip
            run(socks[seat].pump(m.version + 1))
            _bots_done(m, run)
        else:
            raise AssertionError("the match did not end")
        m.refresh_from_db()
        run(_pump_all(socks, m.version))
        pages_seen += _pages(clients, m)
    finally:
        for s in socks.values():
            run(s.comm.disconnect())
        close_loop(loop)

    # every frame, against the state of its version
    states = states_by_version(m)
    counts = {}
    for seat, sock in socks.items():
        for frame, text in sock.frames:
            hand = states[frame["version"]]
            assert frame["me"] == seat
            check_view_secrecy(hand, seat, frame["hand"])
            _check_text(text, hand, seat, m.seed, f"seat {seat} v{frame['version']}")
            full = json.dumps(frame, ensure_ascii=False)  # the frame the change gave
            _check_text(full, hand, seat, m.seed, f"seat {seat} v{frame['version']} (applied)")
            if seat is None:
                assert '"rack"' not in text and '"can"' not in text
        counts[seat] = len(sock.frames)
        assert sock.changes >= len(sock.frames) // 2, "the frames were change frames"
    # every page, against the state of the version it was served at
    for version, seat, url, body in pages_seen:
        _check_text(body, states[version], seat, m.seed, f"page {url} for seat {seat}")
        page_checks += 1
    print(f"\n[hidden] {m.version} versions, frames checked per socket {counts}, "
          f"{page_checks} pages checked")  # fmt: skip
    assert m.status == Match.Status.FINISHED and len(m.state["results"]) == 5
    assert min(counts.values()) >= 100 and page_checks >= 50


async def _pump_all(socks, version):
    for s in socks.values():
        await s.pump(version)


def _client(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def _urls(m: Match, viewer_seat: int) -> list[str]:
    urls = [reverse("game:match", args=[m.pk]), reverse("lobby:index"), reverse("home"),
            reverse("accounts:profile"), reverse("lobby:leaderboard")]  # fmt: skip
    other = User.objects.exclude(pk=m.seats.get(seat=viewer_seat).user_id).first()
    for name, args in (("lobby:history", []), ("lobby:history_match", [m.pk]),
                       ("lobby:replay", [m.pk]), ("lobby:replay_hand", [m.pk, 1]),
                       ("player", [other.username])):  # fmt: skip
        try:
            urls.append(reverse(name, args=args))
        except NoReverseMatch:  # a page this version of the site does not have
            pass
    return urls


def _pages(clients, m: Match) -> list:
    out = []
    for seat, client in clients.items():
        for url in _urls(m, seat):
            response = client.get(url)
            assert response.status_code in (200, 302, 404), (url, response.status_code)
            out.append((m.version, seat, url, response.content.decode("utf-8", "replace")))
    return out
