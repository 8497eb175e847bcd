"""Prove which services this run really talked to (set by DATABASE_URL / REDIS_URL)."""

import os
import secrets

import pytest
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection

DATABASE_URL = os.environ.get("DATABASE_URL", "")
REDIS_URL = os.environ.get("REDIS_URL", "")


@pytest.mark.django_db
def test_postgresql_when_database_url_is_set():
    if not DATABASE_URL:
        pytest.skip("DATABASE_URL is not set: this run uses the embedded SQLite database")
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        (version,) = cursor.fetchone()
    assert version.startswith("PostgreSQL")


@pytest.mark.django_db
def test_sqlite_when_database_url_is_unset():
    if DATABASE_URL:
        pytest.skip("DATABASE_URL is set: this run uses PostgreSQL")
    assert connection.vendor == "sqlite"


async def test_redis_channel_layer_when_redis_url_is_set():
    if not REDIS_URL:
        pytest.skip("REDIS_URL is not set: this run uses the in-memory channel layer")
    from channels_redis.core import RedisChannelLayer

    layer = get_channel_layer()
    assert isinstance(layer, RedisChannelLayer)
    channel = f"test.backends.{secrets.token_hex(6)}"
    await layer.send(channel, {"type": "test.ping", "n": 7})
    assert await layer.receive(channel) == {"type": "test.ping", "n": 7}


def test_redis_ping_and_cache_when_redis_url_is_set(isolated_cache):
    if not REDIS_URL:
        pytest.skip("REDIS_URL is not set: this run uses the local-memory cache")
    import redis

    assert redis.Redis.from_url(REDIS_URL).ping() is True
    assert settings.CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    isolated_cache.set("probe", "ok", 10)
    assert isolated_cache.get("probe") == "ok"
    assert settings.CELERY_BROKER_URL == REDIS_URL
