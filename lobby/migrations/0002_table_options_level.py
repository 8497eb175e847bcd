"""One site, five games: a table's game options (KÜT's tasks move into ``options``),
seat count, level (P-7, replacing the bot level: bots play at the table's level), move
time (P-6) and partners (P-8)."""

from django.db import migrations, models

LEVEL_OF_BOT = {"easy": "acemi", "normal": "orta", "hard": "usta"}
BOT_OF_LEVEL = {v: k for k, v in LEVEL_OF_BOT.items()}


def forward(apps, schema_editor):
    Table = apps.get_model("lobby", "Table")
    for t in Table.objects.only("id", "tasks", "bot_level").iterator():
        Table.objects.filter(pk=t.pk).update(
            options={"tasks": t.tasks}, level=LEVEL_OF_BOT.get(t.bot_level, "orta")
        )


def backward(apps, schema_editor):
    Table = apps.get_model("lobby", "Table")
    for t in Table.objects.only("id", "options", "level").iterator():
        Table.objects.filter(pk=t.pk).update(
            tasks=(t.options or {}).get("tasks") or 8, bot_level=BOT_OF_LEVEL.get(t.level, "normal")
        )


class Migration(migrations.Migration):
    dependencies = [("lobby", "0001_tables_invites_ranking")]

    operations = [
        migrations.AddField(
            "table", "options", models.JSONField(blank=True, default=dict, verbose_name="options")
        ),
        migrations.AddField(
            "table", "seat_count", models.PositiveSmallIntegerField(default=4, verbose_name="seats")
        ),
        migrations.AddField(
            "table",
            "level",
            models.CharField(
                choices=[("acemi", "Beginner"), ("orta", "Intermediate"), ("usta", "Expert")],
                default="orta",
                max_length=8,
                verbose_name="level",
            ),
        ),
        migrations.AddField(
            "table",
            "move_seconds",
            models.PositiveSmallIntegerField(blank=True, null=True, verbose_name="move time"),
        ),
        migrations.AddField(
            "table", "partners", models.BooleanField(default=False, verbose_name="partners")
        ),
        migrations.RunPython(forward, backward),
        migrations.RemoveConstraint("table", "table_tasks_5_8_12"),
        migrations.RemoveField("table", "tasks"),
        migrations.RemoveField("table", "bot_level"),
    ]
