"""Settings for the KÜT site, read from the environment.

With no environment at all this runs the *embedded* setup: SQLite, the in-memory
channel layer, Celery over kombu's filesystem transport and a local-memory cache, so a
fresh clone needs no services. ``DATABASE_URL`` switches to PostgreSQL (psycopg 3) and
``REDIS_URL`` to Redis for the channel layer, the Celery broker and the cache.

``DEBUG`` defaults to on only in the embedded setup (neither ``DATABASE_URL`` nor
``REDIS_URL`` set); with services configured it defaults to off, and then ``SECRET_KEY``
is required. ``scripts/run`` and ``scripts/test`` are developer tools and export
``DEBUG=1`` unless it is already set.

Game-tunable numbers live under the ``KUT_`` prefix (see the README's table).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from game.engine import registry
from kut_site import queues

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on", "y", "t"}
_FALSE = {"0", "false", "no", "off", "n", "f", ""}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default).strip()


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), not {raw!r}.")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, not {raw!r}.") from None


def env_float(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return float(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a number, not {raw!r}.") from None


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


# --------------------------------------------------------------------------- core

DATABASE_URL = env_str("DATABASE_URL")
REDIS_URL = env_str("REDIS_URL")
EMBEDDED = not DATABASE_URL and not REDIS_URL

DEBUG = env_bool("DEBUG", default=EMBEDDED)

_DEV_SECRET_KEY = "django-insecure-kut-dev-only-never-use-in-production-0123456789"
SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set in the environment when DEBUG is off "
            "(generate one with: python -c 'import secrets; print(secrets.token_urlsafe(50))')."
        )
    SECRET_KEY = _DEV_SECRET_KEY

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

# Writable folder for the SQLite file, the Celery filesystem broker and beat's schedule.
VAR_DIR = Path(env_str("KUT_VAR_DIR") or BASE_DIR / "var")

# "daphne" is deliberately not an installed app (it would import Twisted into every
# manage.py command and the Celery worker); serve with scripts/run or the daphne CLI.
INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "accounts",
    "game",
    "lobby",
    # the games' homes (one Django app each), from the one list of games
    "games.okey",
    *registry.homes(),
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "kut_site.middleware.SecurityHeadersMiddleware",  # CSP, Permissions-Policy (issue 16)
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "kut_site.middleware.BadInputMiddleware",  # NUL characters, bad admin filters: 400
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "kut_site.middleware.PageNoticesMiddleware",  # each game's notices (k-lig's W-L8)
    "accounts.middleware.BannedUserMiddleware",  # logs banned players out
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "kut_site.urls"
ASGI_APPLICATION = "kut_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# ----------------------------------------------------------------------- database

if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_health_checks=True)}
    postgres = DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    # PostgreSQL connections come from a pool in each process (Django's psycopg pool,
    # issue 16): every request and socket call borrows one and gives it back, so a
    # process never holds more than DB_POOL_MAX_SIZE.  Django's own persistent
    # connections (CONN_MAX_AGE) are not safe under ASGI: each request ran in a thread of
    # its own and left its connection open until PostgreSQL refused new clients.
    DB_POOL = postgres and env_bool("DB_POOL", True)
    DB_POOL_MIN_SIZE = env_int("DB_POOL_MIN_SIZE", 2)
    DB_POOL_MAX_SIZE = env_int("DB_POOL_MAX_SIZE", 10)
    # Seconds a call waits for a free connection.  A call holds one for milliseconds, so
    # a longer wait means an outage (or a server far past its capacity): the player then
    # gets an error at once rather than a move applied long after
    # (tests/security/test_faults.py::test_database_unreachable_for_a_few_seconds).
    DB_POOL_TIMEOUT = env_float("DB_POOL_TIMEOUT", 2.0)
    # Persistent connections leak under ASGI with or without the pool (issue 27: with
    # DB_POOL=0 and DB_CONN_MAX_AGE=60, 34 connections after 50 pages): refused.
    if env_int("DB_CONN_MAX_AGE", 0):
        raise ImproperlyConfigured(
            "DB_CONN_MAX_AGE must be 0: Django's persistent connections leak under ASGI "
            "(each request runs in a thread of its own). Use the pool (DB_POOL=1, the "
            "default) to reuse connections."
        )
    if DB_POOL:
        if not 1 <= DB_POOL_MIN_SIZE <= DB_POOL_MAX_SIZE:
            raise ImproperlyConfigured("DB_POOL_MIN_SIZE must be 1..DB_POOL_MAX_SIZE.")
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": DB_POOL_MIN_SIZE,
            "max_size": DB_POOL_MAX_SIZE,
            "timeout": DB_POOL_TIMEOUT,
            # a connection idle this long is closed (down to min_size)
            "max_idle": env_float("DB_POOL_MAX_IDLE", 300.0),
        }
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # game.rows prepares the move's few statements on each connection (PostgreSQL then
    # skips parsing and planning them).  Nothing else is prepared: Django's cursors
    # bind on the client, and the threshold is out of reach.  A pooled connection keeps
    # its prepared statements from one borrower to the next (the pool resets nothing but
    # an open transaction).  Off (DB_PREPARED_STATEMENTS=0) behind an external pooler
    # that cannot keep prepared statements.
    if postgres and env_bool("DB_PREPARED_STATEMENTS", True):  # (a sqlite:/// URL: no)
        DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = 10**9
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)  # SQLite creates the file, not the folder
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "db.sqlite3",
            # Tests use a file, not ":memory:", so that the browser tests' server
            # processes (tests/e2e/livesite.py) share it; one per test process.
            "TEST": {"NAME": str(Path(tempfile.gettempdir()) / f"kut-test-{os.getpid()}.sqlite3")},
            "OPTIONS": {
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
            },
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# ------------------------------------------------------- channels, cache, celery

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # redis-py 8 times out idle reads after 5 s unless told not to
                # (channels_redis#422); the layer's blocking reads need None.  Its pool
                # raises MaxConnectionsError past 100 connections per process: 200 sockets
                # closing at once (each leaving its groups) passed that in the load test
                # (tools/load, issue 10), so a process may open more.
                "hosts": [{"address": REDIS_URL, "socket_timeout": None, "max_connections": 2000}],
                # Group and channel names live under this prefix: give each site (or
                # test run) sharing one Redis its own, or their groups mix.
                "prefix": env_str("KUT_CHANNEL_PREFIX") or "kut",
                # All of a process's sockets share ONE Redis inbox ("specific.*"), and a
                # group send drops messages to a full one without an error.  At the
                # default capacity (100) a busy process lost frames under load when the
                # match frames still went this way (paced, 250 tables on 2 processes: 274
                # frames; tools/load, issue 10; they now take kut_site.fanout).  The
                # messages left (second tab, kick, lobby) are few; 2,000 is a few MB of
                # Redis at most (messages also expire after 60 s).  Drops are logged
                # (LOGGING below).
                "channel_capacity": {"specific.*": 2000},
            },
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            # the shared counters (rate limits, sockets per user) live under it too
            "KEY_PREFIX": env_str("KUT_CACHE_PREFIX") or "kut",
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS: dict = {}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "kut",
        }
    }
    CELERY_DATA_DIR = VAR_DIR / "celery"
    CELERY_BROKER_URL = "filesystem://"
    # In and out the SAME folder, so the worker reads what beat and the site write.
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(CELERY_DATA_DIR),
        "data_folder_out": str(CELERY_DATA_DIR),
        "control_folder": str(VAR_DIR / "celery-control"),  # not ./control
        "polling_interval": 0.2,
    }

CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
CELERY_TIMEZONE = "Europe/Istanbul"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# How often beat runs the move e-mails (Kelimeki's reminders and forfeits).
KUT_MOVE_MAIL_SECONDS = env_float("KUT_MOVE_MAIL_SECONDS", 60.0)
# Never run more than one beat.  The sweep applies overdue timeouts, next hands and
# due bot moves every second (issue 6: deadlines are data; the sweep is the guarantee).
CELERY_BEAT_SCHEDULE = {
    "kut-heartbeat": {"task": "kut_site.heartbeat", "schedule": 60.0},
    "kut-match-sweep": {
        "task": "game.tasks.match_sweep",
        "schedule": 1.0,
        "options": {"expires": 5},
    },
    # Kelimeki's long clock (W-X3): reminder and forfeit e-mails, each sent once.
    "kut-move-mail": {
        "task": "game.tasks.move_mail",
        "schedule": float(KUT_MOVE_MAIL_SECONDS),
        "options": {"expires": max(1.0, KUT_MOVE_MAIL_SECONDS * 5 / 6)},
    },
    # Closes tables with no human left (K-X3) and long-abandoned ones.
    "kut-match-housekeeping": {
        "task": "game.tasks.match_housekeeping",
        "schedule": 60.0,
        "options": {"expires": 50},
    },
    # Issue 27: unrecorded games without a move for 7 days (W-X3) and expired sessions.
    "kut-guest-cleanup": {
        "task": "game.tasks.guest_cleanup",
        "schedule": 3600.0,
        "options": {"expires": 3000},
    },
}
# The queue the site, beat and the worker share.  Give each site (or test run) sharing
# one Redis its own name so that its worker never takes another's tasks.
CELERY_TASK_DEFAULT_QUEUE = queues.default_queue(os.environ)
# Issue 31: the analysis of finished matches runs on a queue of its own, so that it never
# waits behind, nor delays, a move (production: a worker ``-Q`` that queue, README).
# Sharing one Redis, a site with its own ``KUT_CELERY_QUEUE`` gets its own analysis queue.
KUT_ANALYSIS_QUEUE = queues.analysis_queue(os.environ)
CELERY_TASK_ROUTES = {"game.tasks.match_analyse": {"queue": KUT_ANALYSIS_QUEUE}}
# queue (the Celery task), inline (in the thread that ended the match: tests) or off
KUT_ANALYSIS = env_str("KUT_ANALYSIS") or "queue"
# a match with more hands than this is analysed partly (each hand has its game's budget)
KUT_ANALYSIS_MAX_HANDS = env_int("KUT_ANALYSIS_MAX_HANDS", 24)

# -------------------------------------------------------------------------- auth

AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# ------------------------------------------------------------------ i18n and time

LANGUAGE_CODE = "tr"
LANGUAGES = [("tr", _("Turkish")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "Europe/Istanbul"
USE_TZ = True

# ------------------------------------------------------------------- static files

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env_str("STATIC_ROOT") or BASE_DIR / "var" / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
# In DEBUG whitenoise serves straight from the finders: no collectstatic needed.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

# ------------------------------------------------------------------------ e-mail

DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "KÜT <noreply@localhost>")
SERVER_EMAIL = env_str("SERVER_EMAIL", DEFAULT_FROM_EMAIL)
EMAIL_HOST = env_str("EMAIL_HOST")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = env_int("EMAIL_PORT", 587)
    EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
    EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
    EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
    EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10)
elif env_str("EMAIL_FILE_PATH"):
    # Each e-mail a file in this folder (Django's file backend): a staging site, or the
    # fault tests' Celery worker, whose e-mails the test reads (tests/security).
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    EMAIL_FILE_PATH = env_str("EMAIL_FILE_PATH")
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"

# ---------------------------------------------------------------------- security

SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
if env_bool("SECURE_PROXY_SSL_HEADER", False):
    # Only behind a proxy that sets (and strips client-sent) X-Forwarded-Proto.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
SESSION_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# ----------------------------------------------------------------------- logging

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # channels-redis says only at INFO that a group send found a full channel and dropped
    # the message: one a socket never got.  Always show it.
    "loggers": {"channels_redis": {"level": "INFO"}},
}

# ------------------------------------------------------------ KÜT game settings

KUT_TURN_SECONDS = env_int("KUT_TURN_SECONDS", 45)
KUT_NEXT_HAND_SECONDS = env_int("KUT_NEXT_HAND_SECONDS", 10)
# A bot's base think time (issue 15: a human pace; game.services.bot_think_seconds).
# 0 means "fast bots": every bot move at once (tests).
KUT_BOT_DELAY_SECONDS = env_float("KUT_BOT_DELAY_SECONDS", 1.2)
# K-C1/K-C5: a bot that drew from the centre while a human may claim waits this long.
KUT_CLAIM_WINDOW_SECONDS = env_float("KUT_CLAIM_WINDOW_SECONDS", 2.5)
# Run bot moves in the process that committed the change instead of as Celery tasks.
# On by default in the embedded set-up: its in-memory channel layer is per process, so
# only moves made inside the web process reach the browsers at once.  With a think
# time they run on a timer thread of that process (game.runner), else at once.
KUT_BOTS_INLINE = env_bool("KUT_BOTS_INLINE", EMBEDDED)
# Browser tests only: the practice form may fix the deal's seed. Never without DEBUG.
KUT_TEST_SEEDS = DEBUG and env_bool("KUT_TEST_SEEDS", False)
# Housekeeping closes a running match as abandoned when no human is connected and none
# has acted for this long (a table with no human left at all closes at once, K-X3).
KUT_ABANDON_AFTER_SECONDS = env_int("KUT_ABANDON_AFTER_SECONDS", 30 * 60)
# P-11 for the seat gate (game.seat_gate): until when a user may not take a rated seat
# (called with the user, the game and now; the ranking knows the leaves).
KUT_LEAVER_BAR = "lobby.ranking.leaver_barred_until"
# A game's own long move clock (Kelimeki, W-X3): one reminder e-mail when this much time
# is left on a turn of up to 48 hours (live), and this much on a longer one (7 days
# against the AI); then one e-mail at the forfeit (W-L4).  ``game.move_mail``.
KUT_MOVE_REMINDER_SECONDS = env_int("KUT_MOVE_REMINDER_SECONDS", 12 * 3600)
KUT_MOVE_REMINDER_LONG_SECONDS = env_int("KUT_MOVE_REMINDER_LONG_SECONDS", 24 * 3600)
# The site's address in e-mails (links to the game); empty: relative links only.
KUT_SITE_URL = env_str("KUT_SITE_URL", "")
# Lobby: invite links expire after this long (the host can also withdraw them).
KUT_INVITE_MAX_AGE_SECONDS = env_int("KUT_INVITE_MAX_AGE_SECONDS", 7 * 24 * 3600)
# P-5: a seat played by a bot this long in a row (player away) counts as leaving.
KUT_AWAY_LEAVE_SECONDS = env_int("KUT_AWAY_LEAVE_SECONDS", 180)
# P-13: a dropped player's turns are played by a bot after this many seconds without a
# socket (a reload or a short network change never hands the seat over)
KUT_DROP_GRACE_SECONDS = env_int("KUT_DROP_GRACE_SECONDS", 15)
# Habitual leavers: this many rated matches left within the window bar the player from
# rated tables for KUT_LEAVER_BAN_SECONDS after the latest leave (0 turns it off).
KUT_LEAVER_THRESHOLD = env_int("KUT_LEAVER_THRESHOLD", 3)
KUT_LEAVER_WINDOW_DAYS = env_int("KUT_LEAVER_WINDOW_DAYS", 7)
KUT_LEAVER_BAN_SECONDS = env_int("KUT_LEAVER_BAN_SECONDS", 2 * 3600)
# Login throttle: failures allowed per window, per username and per client address.
KUT_LOGIN_FAILURES_PER_USERNAME = env_int("KUT_LOGIN_FAILURES_PER_USERNAME", 5)
KUT_LOGIN_FAILURES_PER_IP = env_int("KUT_LOGIN_FAILURES_PER_IP", 20)
KUT_LOGIN_WINDOW_SECONDS = env_int("KUT_LOGIN_WINDOW_SECONDS", 60)
# Sign-up and password reset (issue 16): per client address, and reset mails per
# e-mail address asked for, in each window.
KUT_SIGNUPS_PER_IP = env_int("KUT_SIGNUPS_PER_IP", 5)
KUT_SIGNUP_WINDOW_SECONDS = env_int("KUT_SIGNUP_WINDOW_SECONDS", 3600)
KUT_PASSWORD_RESETS_PER_IP = env_int("KUT_PASSWORD_RESETS_PER_IP", 10)
KUT_PASSWORD_RESETS_PER_EMAIL = env_int("KUT_PASSWORD_RESETS_PER_EMAIL", 3)
KUT_PASSWORD_RESET_WINDOW_SECONDS = env_int("KUT_PASSWORD_RESET_WINDOW_SECONDS", 3600)
# Proxies in front of the site that append the client's address to X-Forwarded-For
# (accounts.services.client_ip): 0 = none, the socket's peer is the client.
KUT_TRUSTED_PROXIES = env_int("KUT_TRUSTED_PROXIES", 0)
# Sockets one user may hold open at once, over all processes (kut_site.sockets).
KUT_SOCKETS_PER_USER = env_int("KUT_SOCKETS_PER_USER", 8)
# Issue 27 (game.limits): what one visitor may cause.  Unrecorded games against the
# bots (a guest's, a player's practice game) started per visitor and per client address
# in each window; previews of a play (W-M7) likewise; a guest socket's moves and syncs
# per client address (each guest also has the socket's own per-visitor limit); recorded
# games against the bots per player: running at once, and started per window.
KUT_GUEST_GAMES_PER_SESSION = env_int("KUT_GUEST_GAMES_PER_SESSION", 20)
KUT_GUEST_GAMES_PER_IP = env_int("KUT_GUEST_GAMES_PER_IP", 100)
KUT_GUEST_GAME_WINDOW_SECONDS = env_int("KUT_GUEST_GAME_WINDOW_SECONDS", 3600)
KUT_PREVIEWS_PER_SESSION = env_int("KUT_PREVIEWS_PER_SESSION", 120)
KUT_PREVIEWS_PER_IP = env_int("KUT_PREVIEWS_PER_IP", 600)
KUT_PREVIEW_WINDOW_SECONDS = env_int("KUT_PREVIEW_WINDOW_SECONDS", 60)
KUT_GUEST_SOCKET_REQUESTS_PER_IP = env_int("KUT_GUEST_SOCKET_REQUESTS_PER_IP", 200)
KUT_GUEST_SOCKET_WINDOW_SECONDS = env_int("KUT_GUEST_SOCKET_WINDOW_SECONDS", 5)
KUT_AI_GAMES_RUNNING_PER_USER = env_int("KUT_AI_GAMES_RUNNING_PER_USER", 10)
KUT_AI_GAMES_PER_USER = env_int("KUT_AI_GAMES_PER_USER", 20)
KUT_AI_GAME_WINDOW_SECONDS = env_int("KUT_AI_GAME_WINDOW_SECONDS", 3600)
# Under daphne: a whole HTTP request must arrive within this many seconds of the
# connection (or of the previous response), and an idle connection closes after
# KUT_HTTP_IDLE_SECONDS (kut_site.slowclients).
KUT_HTTP_REQUEST_SECONDS = env_float("KUT_HTTP_REQUEST_SECONDS", 10.0)
KUT_HTTP_IDLE_SECONDS = env_float("KUT_HTTP_IDLE_SECONDS", 30.0)
