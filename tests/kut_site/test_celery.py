from django.conf import settings

from kut_site.celery import app, heartbeat


def test_celery_app_reads_django_settings():
    assert app.main == "kut_site"
    assert app.conf.broker_url == settings.CELERY_BROKER_URL
    assert app.conf.task_ignore_result is True
    assert "kut-heartbeat" in app.conf.beat_schedule
    assert app.conf.beat_schedule["kut-heartbeat"]["task"] == heartbeat.name


def test_heartbeat_task_runs(isolated_cache):
    result = heartbeat.apply()
    assert result.successful()
    assert isolated_cache.get("kut.celery.heartbeat") == result.result
