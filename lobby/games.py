"""The portal's view of the games (issue 17, item 6: "the lobby is a portal").

Everything the lobby, the home page, the leaderboard, "Maçlarım" and the profiles know
about the games comes from here, and everything here comes from the registry
(``game.engine.registry``) and from each game's web side (``game.web``): its card (the
game's name and one-line description), its options in the create-table dialog (posted as
``opt_<name>``) and a table's options as badges, each the game's own template or the
platform's generic one.

A game whose engine is not there yet, or whose web side names no table
(``game.web.playable``), is shown as coming soon (*yakında*) and cannot be chosen.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Q
from django.urls import reverse

from game import portal
from game import web as game_web
from game.engine import registry
from game.models import Match, MatchSeat
from lobby.models import LEVEL_CHOICES, Ranking, Table, TableSeat


@dataclass
class GameCard:
    """One game as the portal shows it."""

    key: str
    playable: bool
    name: str  # GAME.name when the package is there (the card template has it too)
    card_template: str
    options_template: str = ""
    summary_template: str = ""
    seat_counts: tuple[int, ...] = ()
    partners: bool = False
    fixed_move_seconds: bool = True
    default_move_seconds: int | None = None
    practice_tables: bool = True  # P-3 (protocol hint; Kelimeki: none, W-X5)
    ranked_by_level: bool = True  # P-7 (protocol hint; Kelimeki's k-lig: one table, W-L1)
    own_clock: bool = False  # a game's own move clock (Kelimeki's W-X3)
    links: list = field(default_factory=list)  # the game's own pages (label, url)
    guide_url: str = ""  # its rules guide (*Nasıl Oynanır*), when it has one
    online: int = 0
    open_tables: int = 0
    extra: dict = field(default_factory=dict)

    @property
    def move_time_choice(self) -> bool:
        """P-6: the host chooses the move time of a rated table (not KÜT's fixed 45 s)."""
        return self.playable and not self.fixed_move_seconds and not self.own_clock

    @property
    def seats_choice(self) -> bool:
        """W-M1: Kelimeki is played by 2 or 4; most games have one seat count."""
        return self.playable and len(self.seat_counts) > 1


def game_card(key: str) -> GameCard | None:
    """The card of a registered game (None for a key the registry does not know)."""
    if key not in registry.GAMES:
        return None
    playable = game_web.playable(key)
    card = GameCard(key=key, playable=playable, name=key, card_template="game/_card.html")
    if not playable:
        return card
    spec, parts = registry.get(key), game_web.web(key)
    card.name = spec.name
    card.card_template = parts.part("card")
    card.options_template = parts.part("options")
    card.summary_template = parts.part("summary")
    card.seat_counts = tuple(spec.seat_counts)
    card.partners = bool(spec.partners)
    card.fixed_move_seconds = bool(spec.fixed_move_seconds)
    card.default_move_seconds = spec.default_move_seconds
    card.practice_tables = spec.practice_tables
    card.ranked_by_level = spec.ranked_by_level
    card.own_clock = spec.move_seconds_for is not None
    card.links = parts.links()
    card.guide_url = reverse("guide", args=[key]) if parts.guide_templates else ""
    return card


def playable_cards() -> list[GameCard]:
    return [c for c in (game_card(k) for k in registry.GAMES) if c and c.playable]


def _online_by_game() -> dict[str, int]:
    """Players online per game: humans connected to a running match of the game, or
    sitting at one of its open tables (each player counted once per game)."""
    seen: dict[str, set[int]] = {}
    playing = MatchSeat.objects.filter(
        match__status__in=(Match.Status.PLAYING, Match.Status.BETWEEN),
        user__isnull=False,
        connected=True,
        left=False,
    ).values_list("match__game", "user_id")
    seated = TableSeat.objects.filter(
        active=True, user__isnull=False, table__status=Table.Status.OPEN
    ).values_list("table__game", "user_id")
    for rows in (playing, seated):
        for game, user_id in rows.distinct():
            seen.setdefault(game, set()).add(user_id)
    return {game: len(users) for game, users in seen.items()}


def _open_tables_by_game() -> dict[str, int]:
    rows = (
        Table.objects.filter(status=Table.Status.OPEN, private=False)
        .values("game")
        .annotate(n=Count("pk"))
    )
    return {r["game"]: r["n"] for r in rows}


def game_cards() -> list[GameCard]:
    """Every registered game, in the registry's order, with its live counts."""
    online, tables = _online_by_game(), _open_tables_by_game()
    cards = []
    for key in registry.GAMES:
        card = game_card(key)
        if card.playable:
            card.online = online.get(key, 0)
            card.open_tables = tables.get(key, 0)
        cards.append(card)
    return cards


# --- records per game and level (the profile and the public player page) -------------------

LEVEL_NAMES = dict(LEVEL_CHOICES)


@dataclass
class LevelRecord:
    level: str
    label: str
    points: int
    matches: int
    wins: int
    shared_wins: int
    losses: int
    leaves: int
    position: int | None


@dataclass
class GameRecord:
    key: str
    name: str
    levels: list[LevelRecord]

    @property
    def matches(self) -> int:
        return sum(r.matches for r in self.levels)

    @property
    def points(self) -> int:
        return sum(r.points for r in self.levels)


def _position(row: Ranking) -> int:
    """1 + the players ahead on the same board (game and level), as the leaderboard
    orders it: points, wins, fewer matches, name."""
    ahead = (
        Ranking.objects.filter(game=row.game, level=row.level, matches__gt=0)
        .filter(
            Q(points__gt=row.points)
            | Q(points=row.points, wins__gt=row.wins)
            | Q(points=row.points, wins=row.wins, matches__lt=row.matches)
            | Q(points=row.points, wins=row.wins, matches=row.matches,
                user__username__lt=row.user.username)
        )
        .count()
    )  # fmt: skip
    return ahead + 1


def records_by_game(user) -> list[GameRecord]:
    """The player's ranking records, one block per game (registry order), one line per
    level played (P-7: rankings per game and level).  Rated matches only."""
    rows = Ranking.objects.filter(user=user, matches__gt=0).select_related("user").order_by("game")
    by_game: dict[str, list[Ranking]] = {}
    for row in rows:
        by_game.setdefault(row.game, []).append(row)
    order = {level: i for i, level in enumerate(portal.LEVELS)}
    out = []
    for key in [*registry.GAMES, *sorted(set(by_game) - set(registry.GAMES))]:
        if key not in by_game:
            continue
        card = game_card(key)
        board_name = game_web.web(key).board_name() if key in registry.GAMES else ""
        levels = [
            LevelRecord(
                level=r.level, points=r.points,
                label=str(LEVEL_NAMES.get(r.level, r.level)) if r.level else board_name,
                matches=r.matches, wins=r.wins, shared_wins=r.shared_wins, losses=r.losses,
                leaves=r.leaves, position=_position(r),
            )
            for r in sorted(by_game[key], key=lambda r: order.get(r.level, 99))
        ]  # fmt: skip
        out.append(GameRecord(key=key, name=card.name if card else key, levels=levels))
    return out


def game_names() -> dict[str, str]:
    """Key → the game's own name, for labels (the key itself for a game not there yet)."""
    return {key: game_card(key).name for key in registry.GAMES}
