from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('lobby', '0006_no_default_game'),
    ]

    # Issue 28: the k-lig models moved into Kelimeki's home (games.kelimeki); their
    # tables stay as they are (the new models name them), so only the state changes here.
    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='kligrecord',
                    name='user',
                ),
                migrations.DeleteModel(
                    name='KligEntry',
                ),
                migrations.DeleteModel(
                    name='KligRecord',
                ),
    ]
        ),
    ]
