"""Issue 31: analyse, now and in this process, the recorded matches that are over and
lack (some of) their analysis — those that ended while the broker was down, or before
the analysis existed::

    python manage.py analyse_matches [--days 7] [--limit 100] [MATCH_ID ...]

Idempotent like the task (``game.analysis``): a hand already stored is left as it is.
"""

from __future__ import annotations

from datetime import timedelta

from django.core.management.base import BaseCommand
from django.db.models import Count, F
from django.utils import timezone

from game import analysis
from game.engine import registry
from game.models import Match


class Command(BaseCommand):
    help = "Analyse the finished matches whose analysis is missing (issue 31)."

    def add_arguments(self, parser):
        parser.add_argument("match_ids", nargs="*", type=int)
        parser.add_argument("--days", type=int, default=7, help="matches ended in the last N days")
        parser.add_argument("--limit", type=int, default=100, help="at most this many matches")

    def handle(self, *args, match_ids, days, limit, **options):
        games = [key for key in registry.GAMES if analysis.has_analysis(key)]
        over = Match.objects.filter(
            kind=Match.Kind.NORMAL, status__in=analysis.OVER, game__in=games
        )
        if match_ids:
            over = over.filter(pk__in=match_ids)
        else:
            since = timezone.now() - timedelta(days=days)
            over = over.filter(finished_at__gte=since)
        rows = over.annotate(
            stored=Count("analyses", distinct=True), results=Count("hand_results", distinct=True)
        )
        todo = rows.filter(stored__lt=F("results")).order_by("pk").values_list("pk", flat=True)
        total = 0
        for pk in list(todo[:limit]):
            hands = analysis.analyse_match(pk)
            total += hands
            self.stdout.write(f"match {pk}: {hands} hands analysed")
        self.stdout.write(f"{total} hands analysed")
