"""One site, five games: a match's game-specific options (KÜT's tasks move into
``options``), its level (P-7), move time (P-6) and partners (P-8).  Existing matches
keep their number of tasks as ``options["tasks"]``."""

from django.db import migrations, models


def tasks_to_options(apps, schema_editor):
    Match = apps.get_model("game", "Match")
    for m in Match.objects.only("id", "tasks", "options").iterator():
        Match.objects.filter(pk=m.pk).update(options={**(m.options or {}), "tasks": m.tasks})


def options_to_tasks(apps, schema_editor):
    Match = apps.get_model("game", "Match")
    for m in Match.objects.only("id", "options").iterator():
        Match.objects.filter(pk=m.pk).update(tasks=(m.options or {}).get("tasks") or 8)


class Migration(migrations.Migration):
    dependencies = [("game", "0003_layout_version")]

    operations = [
        migrations.AddField("match", "options", models.JSONField(blank=True, default=dict)),
        migrations.AddField("match", "level", models.CharField(default="orta", max_length=8)),
        migrations.AddField(
            "match", "move_seconds", models.PositiveSmallIntegerField(blank=True, null=True)
        ),
        migrations.AddField("match", "partners", models.BooleanField(default=False)),
        migrations.RunPython(tasks_to_options, options_to_tasks),
        migrations.RemoveField("match", "tasks"),
    ]
