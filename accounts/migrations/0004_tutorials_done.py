"""Issue 28: KÜT's ``trial_done`` becomes the list of games whose guided first hand is
done (``User.tutorials_done``): a player who had done or skipped KÜT's trial hand keeps
it done."""

from django.db import migrations, models


def forward(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    User.objects.filter(trial_done=True).update(tutorials_done=["kut"])


def backward(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    for user in User.objects.exclude(tutorials_done=[]).iterator():
        if "kut" in (user.tutorials_done or []):
            User.objects.filter(pk=user.pk).update(trial_done=True)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0003_user_trial_done")]

    operations = [
        migrations.AddField(
            model_name="user",
            name="tutorials_done",
            field=models.JSONField(
                blank=True, default=list, verbose_name="guided first hands done"
            ),
        ),
        migrations.RunPython(forward, backward),
        migrations.RemoveField(model_name="user", name="trial_done"),
    ]
