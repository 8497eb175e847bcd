import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('accounts', '0004_tutorials_done'),
        ('game', '0009_guest_games'),
        ('lobby', '0007_klig_moves_to_kelimeki'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    # The k-lig tables were made by lobby's 0005 (issue 21) and keep their names
    # (db_table): the models move into Kelimeki's home without a row changing.
    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='KligRecord',
                    fields=[
                        ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='klig', serialize=False, to=settings.AUTH_USER_MODEL)),
                        ('total', models.IntegerField(default=0, verbose_name='k-lig total')),
                        ('rewarded', models.JSONField(blank=True, default=list)),
                        ('kozmik', models.BooleanField(default=False)),
                        ('celebrated', models.IntegerField(default=0)),
                        ('unseen', models.JSONField(blank=True, default=list)),
                        ('has_unseen', models.BooleanField(db_index=True, default=False)),
                        ('updated_at', models.DateTimeField(auto_now=True)),
                    ],
                    options={
                        'verbose_name': 'k-lig record',
                        'verbose_name_plural': 'k-lig records',
                        'db_table': 'lobby_kligrecord',
                    },
                ),
                migrations.CreateModel(
                    name='KligEntry',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('points', models.SmallIntegerField()),
                        ('rewards', models.JSONField(blank=True, default=list)),
                        ('total_after', models.IntegerField()),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='game.match')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='klig_entries', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'verbose_name': 'k-lig entry',
                        'verbose_name_plural': 'k-lig entries',
                        'db_table': 'lobby_kligentry',
                        'indexes': [models.Index(fields=['user', '-created_at'], name='kligentry_user')],
                        'constraints': [models.UniqueConstraint(fields=('match', 'user'), name='kligentry_unique')],
                    },
                ),
    ]
        ),
    ]
