"""Run Django in a subprocess with a chosen environment."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import ROOT

# Variables that select backends or security settings; cleared so each case is exact.
SITE_VARS = (
    "DATABASE_URL",
    "REDIS_URL",
    "SECRET_KEY",
    "DEBUG",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "DB_CONN_MAX_AGE",
    "DB_POOL",
    "DB_POOL_MIN_SIZE",
    "DB_POOL_MAX_SIZE",
    "KUT_TRUSTED_PROXIES",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "SECURE_PROXY_SSL_HEADER",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "EMAIL_HOST",
    "EMAIL_FILE_PATH",
    "KUT_VAR_DIR",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
)


def site_env(**values: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SITE_VARS}
    env["DJANGO_SETTINGS_MODULE"] = "kut_site.settings"
    env.update(values)
    return env


def run_python(code: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=site_env(**env),
        capture_output=True,
        text=True,
        timeout=60,
    )


SETTINGS_SNAPSHOT = """
import json
from django.conf import settings
from kut_site.celery import app
print(json.dumps({
    "DEBUG": settings.DEBUG,
    "database": settings.DATABASES["default"]["ENGINE"],
    "database_options": settings.DATABASES["default"].get("OPTIONS", {}),
    "conn_max_age": settings.DATABASES["default"].get("CONN_MAX_AGE"),
    "layer": settings.CHANNEL_LAYERS["default"],
    "cache": settings.CACHES["default"]["BACKEND"],
    "cache_location": settings.CACHES["default"].get("LOCATION"),
    "broker": app.conf.broker_url,
    "transport_options": app.conf.broker_transport_options,
    "beat_schedule": sorted(app.conf.beat_schedule),
    "email": settings.EMAIL_BACKEND,
    "static": settings.STORAGES["staticfiles"]["BACKEND"],
    "session_cookie_secure": settings.SESSION_COOKIE_SECURE,
    "turn_seconds": settings.KUT_TURN_SECONDS,
}, default=str))
"""


def settings_snapshot(**env: str) -> dict:
    result = run_python(SETTINGS_SNAPSHOT, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])
