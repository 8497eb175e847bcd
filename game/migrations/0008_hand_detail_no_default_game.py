"""Issue 28: a hand's game-specific columns (KÜT's ``task_no``, ``finisher`` and
``lines``) become the game's own stored detail (``HandResult.detail``), and a match's
game has no default any more (the platform names no game)."""

from django.db import migrations, models


def to_detail(apps, schema_editor):
    HandResult = apps.get_model("game", "HandResult")
    for r in HandResult.objects.all().iterator():
        detail = {"task_no": r.task_no or None, "finisher": r.finisher, "lines": r.lines}
        r.detail = {k: v for k, v in detail.items() if v not in (None, [], [{}] * len(r.scores))}
        r.save(update_fields=["detail"])


def from_detail(apps, schema_editor):
    HandResult = apps.get_model("game", "HandResult")
    for r in HandResult.objects.all().iterator():
        d = r.detail or {}
        r.task_no = d.get("task_no") or 0
        r.finisher = d.get("finisher")
        r.lines = d.get("lines") or [{} for _ in r.scores]
        r.save(update_fields=["task_no", "finisher", "lines"])


class Migration(migrations.Migration):
    dependencies = [("game", "0007_move_notices")]

    operations = [
        migrations.AddField(
            model_name="handresult",
            name="detail",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(to_detail, from_detail),
        migrations.RemoveField(model_name="handresult", name="task_no"),
        migrations.RemoveField(model_name="handresult", name="finisher"),
        migrations.RemoveField(model_name="handresult", name="lines"),
        migrations.AlterField(
            model_name="match", name="game", field=models.CharField(max_length=20)
        ),
    ]
