"""kut_site.fanout: one delivery per process, only to the topic's members, resync after a
broken subscription.  On Redis when ``REDIS_URL`` is set (CI), else in process."""

from __future__ import annotations

import asyncio
import threading

import pytest
from django.conf import settings

from kut_site import fanout

redis_only = pytest.mark.skipif(not settings.REDIS_URL, reason="needs REDIS_URL")


class Member:
    def __init__(self, name: str):
        self.name = name
        self.got: list[list] = []
        self.resyncs = 0
        self.arrived = asyncio.Event()

    async def fanout_deliver(self, parts):
        self.got.append(parts)
        self.arrived.set()

    async def fanout_resync(self):
        self.resyncs += 1
        self.arrived.set()


async def _until(check, seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("timed out")


def _publish_from_a_thread(topic: str, parts) -> None:
    """As a worker thread or Celery does: sync code, no event loop of its own."""
    t = threading.Thread(target=fanout.publish, args=(topic, parts))
    t.start()
    t.join()


@pytest.mark.asyncio
async def test_a_publish_reaches_each_member_of_its_topic_once_and_no_one_else():
    a, b, other = Member("a"), Member("b"), Member("other")
    await fanout.join("match.1", a)
    await fanout.join("match.1", b)
    await fanout.join("match.2", other)
    _publish_from_a_thread("match.1", ["s0", "s1", "s2", "s3", None])
    await _until(lambda: a.got and b.got)
    await asyncio.sleep(0.2)  # nothing more comes
    assert a.got == b.got == [["s0", "s1", "s2", "s3", None]]
    assert other.got == []
    await fanout.leave("match.1", b)
    await fanout.apublish("match.1", ["x"])
    await _until(lambda: len(a.got) == 2)
    await asyncio.sleep(0.2)
    assert a.got[1] == ["x"] and len(b.got) == 1  # b left: nothing after that
    for topic, member in (("match.1", a), ("match.2", other)):
        await fanout.leave(topic, member)
    assert fanout.hub().topics == {}


@redis_only
@pytest.mark.asyncio
async def test_two_processes_each_get_the_message_once_over_redis():
    """Two hubs stand for two daphne processes: each has its own subscription, and a
    topic with no member in a process is not subscribed there."""
    loop = asyncio.get_running_loop()
    first, second = fanout.Hub(loop), fanout.Hub(loop)
    m1, m2, m3, elsewhere = Member("1"), Member("2"), Member("3"), Member("elsewhere")
    try:
        await first.join("match.7", m1)
        await first.join("match.7", m2)
        await second.join("match.7", m3)
        await second.join("match.8", elsewhere)
        assert "match.8" not in first.topics
        _publish_from_a_thread("match.7", ["frame"])
        await _until(lambda: m1.got and m2.got and m3.got)
        await asyncio.sleep(0.2)
        assert m1.got == m2.got == m3.got == [["frame"]]
        await second.leave("match.7", m3)
        _publish_from_a_thread("match.7", ["again"])
        await _until(lambda: len(m1.got) == 2)
        await asyncio.sleep(0.2)
        assert m3.got == [["frame"]]
    finally:
        await first.close()
        await second.close()


@redis_only
@pytest.mark.asyncio
async def test_a_broken_subscription_comes_back_and_every_member_resyncs():
    """What was published while the connection was down is lost: the hub subscribes
    again and asks each member for a fresh snapshot; later messages arrive again."""
    import redis

    member = Member("m")
    await fanout.join("match.9", member)
    admin = redis.Redis.from_url(settings.REDIS_URL)
    name = fanout.hub().client_name
    ids = [c["id"] for c in admin.client_list() if c.get("name") == name]
    assert ids, "the hub's subscription connection is named"
    for client_id in ids:
        admin.client_kill_filter(_id=client_id)
    await _until(lambda: member.resyncs == 1)
    _publish_from_a_thread("match.9", ["after"])
    await _until(lambda: member.got == [["after"]])
    await fanout.leave("match.9", member)
    admin.close()


@pytest.mark.asyncio
async def test_many_sockets_publishing_at_once_all_get_through():
    """Past the Redis pool's size, publishers wait for a connection instead of failing
    ("Too many connections" broke the load test's echo at 1,000 sockets)."""
    member = Member("all")
    await fanout.join("match.5", member)
    await asyncio.gather(*(fanout.apublish("match.5", [str(i)]) for i in range(300)))
    await _until(lambda: len(member.got) == 300)
    assert sorted(int(p[0]) for p in member.got) == list(range(300))
    await fanout.leave("match.5", member)


def test_threads_publishing_at_once_all_get_through():
    """The sync client (worker threads, Celery) shares one bounded pool the same way."""
    errors = []

    def publish(i):
        try:
            fanout.publish("match.6", [str(i)])
        except Exception as exc:  # pragma: no cover - the failure this test guards
            errors.append(exc)

    threads = [threading.Thread(target=publish, args=(i,)) for i in range(150)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


@pytest.mark.asyncio
async def test_a_member_that_fails_does_not_stop_the_others():
    class Broken(Member):
        async def fanout_deliver(self, parts):
            raise RuntimeError("socket closed")

    broken, fine = Broken("broken"), Member("fine")
    await fanout.join("match.3", broken)
    await fanout.join("match.3", fine)
    _publish_from_a_thread("match.3", ["p"])
    await _until(lambda: fine.got == [["p"]])
    await fanout.leave("match.3", broken)
    await fanout.leave("match.3", fine)
