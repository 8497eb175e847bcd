import secrets

from tests.conftest import ROOT
from tests.kut_site.helpers import run_python, settings_snapshot


def test_embedded_defaults(tmp_path):
    snap = settings_snapshot(KUT_VAR_DIR=str(tmp_path))
    assert snap["DEBUG"] is True
    assert snap["database"] == "django.db.backends.sqlite3"
    assert snap["layer"]["BACKEND"] == "channels.layers.InMemoryChannelLayer"
    assert snap["cache"] == "django.core.cache.backends.locmem.LocMemCache"
    assert snap["broker"] == "filesystem://"
    options = snap["transport_options"]
    assert options["data_folder_in"] == options["data_folder_out"] == str(tmp_path / "celery")
    assert options["polling_interval"] == 0.2
    assert "kut-heartbeat" in snap["beat_schedule"]
    assert snap["email"] == "django.core.mail.backends.console.EmailBackend"
    assert snap["static"] == "django.contrib.staticfiles.storage.StaticFilesStorage"
    assert snap["turn_seconds"] == 45


def test_services_from_the_environment():
    snap = settings_snapshot(
        DATABASE_URL="postgres://kut:pw@db.example:5432/kut",
        REDIS_URL="redis://redis.example:6379/2",
        SECRET_KEY=secrets.token_urlsafe(50),
        EMAIL_HOST="smtp.example",
        KUT_TURN_SECONDS="30",
    )
    assert snap["DEBUG"] is False  # services configured: DEBUG defaults to off
    assert snap["database"] == "django.db.backends.postgresql"
    assert snap["database_options"]["prepare_threshold"] == 10**9  # game.rows prepares
    assert snap["layer"]["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    assert snap["layer"]["CONFIG"]["hosts"] == [
        {"address": "redis://redis.example:6379/2", "socket_timeout": None, "max_connections": 2000}
    ]
    assert snap["cache"] == "django.core.cache.backends.redis.RedisCache"
    assert snap["cache_location"] == "redis://redis.example:6379/2"
    assert snap["broker"] == "redis://redis.example:6379/2"
    assert snap["email"] == "django.core.mail.backends.smtp.EmailBackend"
    assert snap["static"] == "whitenoise.storage.CompressedManifestStaticFilesStorage"
    assert snap["session_cookie_secure"] is True
    assert snap["turn_seconds"] == 30


def test_e_mails_to_files_and_the_move_mail_interval(tmp_path):
    """EMAIL_FILE_PATH: a process's e-mails as files (a worker's, read by the fault
    tests); EMAIL_HOST wins.  KUT_MOVE_MAIL_SECONDS: beat's move-mail interval."""
    code = (
        "from django.conf import settings; from kut_site.celery import app; "
        "m = app.conf.beat_schedule['kut-move-mail']; "
        "print(settings.EMAIL_BACKEND, getattr(settings, 'EMAIL_FILE_PATH', '-'), "
        "m['schedule'], m['options']['expires'])"
    )
    out = run_python(code, KUT_VAR_DIR=str(tmp_path), EMAIL_FILE_PATH=str(tmp_path / "mail"),
                     KUT_MOVE_MAIL_SECONDS="2")  # fmt: skip
    assert out.returncode == 0, out.stderr
    backend, folder, every, expires = out.stdout.split()[-4:]
    assert backend == "django.core.mail.backends.filebased.EmailBackend"
    assert (folder, float(every), float(expires)) == (str(tmp_path / "mail"), 2.0, 2 * 5 / 6)
    smtp = run_python(code, KUT_VAR_DIR=str(tmp_path), EMAIL_FILE_PATH=str(tmp_path),
                      EMAIL_HOST="smtp.example")  # fmt: skip
    assert smtp.stdout.split()[-4:][0] == "django.core.mail.backends.smtp.EmailBackend"
    assert [float(x) for x in smtp.stdout.split()[-2:]] == [60.0, 50.0]  # the default


def test_prepared_statements_only_on_postgresql_and_can_be_turned_off():
    """DB_PREPARED_STATEMENTS: a sqlite:/// DATABASE_URL (the browser tests' live site)
    gets no psycopg option; 0 turns it off for a pooler that cannot keep them."""
    sqlite = settings_snapshot(DATABASE_URL="sqlite:////tmp/kut-settings.sqlite3", DEBUG="1")
    assert sqlite["database"] == "django.db.backends.sqlite3"
    assert "prepare_threshold" not in sqlite["database_options"]
    off = settings_snapshot(
        DATABASE_URL="postgres://kut:pw@db.example:5432/kut", DEBUG="1", DB_PREPARED_STATEMENTS="0"
    )
    assert "prepare_threshold" not in off["database_options"]


def test_postgresql_connections_come_from_a_pool_never_persistent_ones():
    """Issue 16: Django's persistent connections (CONN_MAX_AGE) leaked one PostgreSQL
    connection per request under daphne; the pool bounds them per process.  A nonzero
    DB_CONN_MAX_AGE with the pool is refused, not silently half-applied."""
    pg = "postgres://kut:pw@db.example:5432/kut"
    snap = settings_snapshot(DATABASE_URL=pg, DEBUG="1", DB_POOL_MAX_SIZE="7")
    assert snap["conn_max_age"] == 0
    pool = snap["database_options"]["pool"]
    assert (pool["min_size"], pool["max_size"]) == (2, 7)
    assert snap["database_options"]["prepare_threshold"] == 10**9  # kept per connection
    sqlite = settings_snapshot(DATABASE_URL="sqlite:////tmp/kut-settings.sqlite3", DEBUG="1")
    assert "pool" not in sqlite["database_options"]
    result = run_python("import django; django.setup()", DATABASE_URL=pg, DEBUG="1",
                        DB_CONN_MAX_AGE="60")  # fmt: skip
    assert result.returncode != 0
    assert "DB_CONN_MAX_AGE must be 0" in result.stderr
    off = settings_snapshot(DATABASE_URL=pg, DEBUG="1", DB_POOL="0")
    assert "pool" not in off["database_options"]
    assert off["conn_max_age"] == 0


def test_persistent_connections_are_refused_without_the_pool_too():
    """Issue 27 item 10: ``DB_POOL=0`` with ``DB_CONN_MAX_AGE=60`` was accepted and leaked
    (34 PostgreSQL connections after 50 pages under daphne): any nonzero age is refused
    at start-up, pool or not."""
    pg = "postgres://kut:pw@db.example:5432/kut"
    for pool in ("0", "1"):
        result = run_python("import django; django.setup()", DATABASE_URL=pg, DEBUG="1",
                            DB_POOL=pool, DB_CONN_MAX_AGE="60")  # fmt: skip
        assert result.returncode != 0, pool
        assert "DB_CONN_MAX_AGE must be 0" in result.stderr, result.stderr
        assert "Traceback" not in result.stderr.splitlines()[-1]


def test_secret_key_is_required_without_debug():
    result = run_python("import django; django.setup()", DEBUG="0")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_bad_boolean_is_a_clear_error():
    result = run_python("import django; django.setup()", DEBUG="maybe")
    assert result.returncode != 0
    assert "DEBUG must be a boolean" in result.stderr


def test_check_deploy_is_clean_in_production_settings(tmp_path):
    import subprocess
    import sys

    from tests.kut_site.helpers import site_env

    env = site_env(
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="kut.example.com",
        CSRF_TRUSTED_ORIGINS="https://kut.example.com",
        SECURE_SSL_REDIRECT="1",
        SECURE_HSTS_SECONDS="31536000",
        SECURE_HSTS_INCLUDE_SUBDOMAINS="1",
        SECURE_HSTS_PRELOAD="1",
        SECURE_PROXY_SSL_HEADER="1",
        KUT_VAR_DIR=str(tmp_path),
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "System check identified no issues" in output
    assert "WARNINGS" not in output
