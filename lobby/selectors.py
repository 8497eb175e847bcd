"""Read-only queries of the lobby (``<entity>_<verb>``/``<entity>s_<filter>``)."""

from __future__ import annotations

from django.db.models import Count, Prefetch, Q

from lobby.models import Ranking, Table, TableSeat

LOBBY_LIMIT = 100


def _with_seats(qs):
    return qs.select_related("host").prefetch_related(
        Prefetch("seats", queryset=TableSeat.objects.select_related("user").order_by("seat"))
    )


def tables_open_public(game: str, limit: int = LOBBY_LIMIT) -> list[Table]:
    """Open public tables, fullest first (private tables are never listed)."""
    qs = (
        Table.objects.filter(status=Table.Status.OPEN, private=False, game=game)
        .annotate(
            taken=Count("seats", filter=Q(seats__user__isnull=False) | ~Q(seats__bot_level=""))
        )
        .order_by("-taken", "-created_at", "-pk")
    )
    return list(_with_seats(qs)[:limit])


def table_get(table_id) -> Table | None:
    try:
        return _with_seats(Table.objects.all()).filter(pk=table_id).first()
    except (ValueError, TypeError):
        return None


def table_seat_of(user) -> TableSeat | None:
    """The user's seat at an open table, if any."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return TableSeat.objects.filter(user=user, active=True).select_related("table").first()


def table_may_view(table: Table, user) -> bool:
    """Public tables are visible to every player; private ones only to those seated (the
    invite link seats a player straight away) and to the players of its match."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if not table.private:
        return True
    if table.host_id == user.pk or any(s.user_id == user.pk for s in table.seats.all()):
        return True
    return bool(table.match_id) and table.match.seats.filter(user=user).exists()


def ranking_for(user, game: str) -> Ranking | None:
    if user is None or not getattr(user, "pk", None):
        return None
    # P-7: one ranking per level; the one the player has played most
    return Ranking.objects.filter(user=user, game=game).order_by("-matches", "level").first()


def rankings_board(game: str, level: str | None = None):
    """The leaderboard of ``game`` (and ``level``, P-7): players with at least one ranked
    match, best first."""
    qs = Ranking.objects.filter(game=game, matches__gt=0)
    if level is not None:
        qs = qs.filter(level=level)
    return qs.select_related("user").order_by("-points", "-wins", "matches", "user__username")
