"""King's web side (issue 28): its card table's words (the script,
games/king/static/king/table.js, never holds a word of its own), its replay's words, and
its match record — the score table by contract (king.md G-Q3) with each hand's deal
check (G-V2)."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from game.engine import registry
from game.fairness import verify_url
from game.web import GameWeb
from games.king.engine.cards import NAMES
from games.king.engine.match import recorded_check


def king_strings() -> dict:
    return {
        "contracts": {
            "el_almaz": _("No tricks"),
            "kupa_almaz": _("No hearts"),
            "erkek_almaz": _("No kings or jacks"),
            "kiz_almaz": _("No queens"),
            "rifki": _("Rıfkı (king of hearts)"),
            "son_iki": _("Last two"),
            "koz": _("Trump"),
        },
        "suits": {"S": _("spades"), "H": _("hearts"), "C": _("clubs"), "D": _("diamonds")},
        "ranks": {
            "A": _("ace"),
            "K": _("king"),
            "Q": _("queen"),
            "J": _("jack"),
            "T": "10",
            "9": "9",
            "8": "8",
            "7": "7",
            "6": "6",
            "5": "5",
            "4": "4",
            "3": "3",
            "2": "2",
        },  # fmt: skip
        "card": _("{rank} of {suit}"),
        # G-Q2: why a contract cannot be chosen
        "reasons": {
            "no_ceza_left": _("You have no penalty choice left"),
            "no_koz_left": _("You have no trump choice left"),
            "contract_used_up": _("Played twice"),
        },
        "you": _("You"),
        "bot_name": _("Bot {n} ({level})"),
        "levels": {"easy": _("easy"), "normal": _("normal"), "hard": _("hard")},
        "hand_of": _("Hand {n} of {total}"),
        "choosing": _("{name} is choosing the contract…"),
        "choose_title": _("Choose the contract"),
        "quota": _("Penalty {ceza} · Trump {koz}"),
        "trump_title": _("Trump: name the suit"),
        "trump_is": _("Trump: {suit}"),
        "your_turn": _("Your turn: play a card"),
        "their_turn": _("{name} is playing"),
        "seconds": _("{n} s"),
        "tricks": _("Tricks {n}"),
        "cards_left": _("{n} cards"),
        "chooser": _("chooser"),
        "away": _("away"),
        "back": _("I'm back"),  # G-T3: the player takes the seat back from the bot
        "bot": _("bot"),
        "offline": _("offline"),
        "hand_score": _("Hand score {n}"),
        "total": _("Total {n}"),
        "no_last_trick": _("No trick has been completed yet."),
        "last_trick_winner": _("{name} took it."),
        "hand_over": _("Hand {n} is over: {contract}"),
        "ended_early": _("The hand ended early: every penalty card was taken."),
        "next_hand_in": _("The next hand starts in {n} s."),
        "next_hand_soon": _("The next hand starts now."),
        "match_over": _("The match is over"),
        "winner": _("Winner: {names}"),
        "winners": _("Shared first place: {names}"),
        "player": _("Player"),
        "tricks_col": _("Tricks"),
        "score_col": _("Hand"),
        "total_col": _("Total"),
        "place_col": _("Place"),
        "deal": _("The deal"),
        "verify_shuffle": _("Verify this hand's shuffle"),  # P-2, G-V2
        "verify_url": reverse("game:verify"),
        "hand_col": _("Hand"),
        "chooser_col": _("Chooser"),
        "contract_col": _("Contract"),
        "totals_row": _("Totals"),
        "left_row": _("Choices left"),
        "plays_left": _("Penalty contracts left to play"),
        "no_rows": _("No hand has been played yet."),
        "connecting": _("Connecting…"),
        "reconnecting": _("Connection lost; reconnecting…"),
        "cannot_join": _("You cannot join this table."),
        "replaced": _("You opened this table in another tab; this one is closed."),
        "watching": _("You are watching."),
        "closed": _("The table was closed."),
        "errors": {
            "not_your_turn": _("It is not your turn."),
            "must_follow_suit": _("You must follow the suit that was led."),
            "must_play_kh": _("The king of hearts must fall on the ace."),
            "must_trump": _("You have none of the led suit: play a trump."),
            "must_play_penalty_card": _("You have none of the led suit: play a penalty card."),
            "trump_not_broken": _("You cannot lead a trump before trumps are broken."),
            "hearts_not_broken": _("You cannot lead a heart before hearts are broken."),
            "no_ceza_left": _("You have no penalty choice left"),
            "no_koz_left": _("You have no trump choice left"),
            "contract_used_up": _("Played twice"),
            "already_chosen": _("The contract is already chosen."),
            "not_chosen": _("Wait for the contract to be chosen."),
            "not_in_hand": _("You do not hold that card."),
            "hand_over": _("The hand is over."),
            "stale_version": _("The table moved on; look again."),
        },
    }


def king_replay_strings() -> dict:
    """Every text King's replay script shows (issue 19), in the request's language: the
    table's card and contract words and the replay's own (``rp``)."""
    return {
        **king_strings(),
        "rp": {
            "deal": _("The cards are dealt. {name} chooses the contract."),
            "choose": _("{name} chooses {contract}."),
            "play": _("{name} plays {card}."),
            "timeout": _("{name}'s time ran out: the server plays for them."),
            "leave": _("{name} leaves the match; a bot takes the seat."),
            "abandon": _("No human is left: the table is closed."),
            "bot": _("(bot)"),
            "step": _("Step {n} of {total}"),
            "trick": _("Trick"),
            "last_trick": _("Last trick, taken by {name}"),
            "tricks": _("Tricks: {n}"),
            "turn": _("to play"),
            "hand_over": _("The hand is over."),
            "score": _("Score"),
            "total": _("Total"),
            "loading": _("Loading the hand…"),
            "load_failed": _("The hand could not be loaded."),
        },
    }


SUIT_SYMBOL = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}


def king_record(match, names: list[str]) -> dict:
    """One row per recorded hand: number, chooser, contract, trump, the four hand scores,
    the running totals and the link that checks the hand's deal (P-2)."""
    rows = []
    if match.state:
        state = registry.get(match.game).from_dict(match.state)
        running = [0] * len(names)
        for r in state.results:
            running = [t + s for t, s in zip(running, r["scores"])]
            check = recorded_check(r)  # G-V2: the deal kept with P-2's check
            rows.append({
                "hand_no": r["hand_no"],
                "chooser": names[r["chooser"]],
                "contract": r["contract"],
                "trump": SUIT_SYMBOL.get(r["trump"] or "", ""),
                "scores": list(r["scores"]),
                "running": list(running),
                "verify": verify_url(check) if check else "",
            })  # fmt: skip
    return {"names": names, "rows": rows, "length": (match.options or {}).get("length")}


class KingWeb(GameWeb):
    table_template = "king/table.html"
    replay_template = "king/replay.html"
    record_template = "king/record.html"
    from games.king.analysis_words import analysis_move_text  # issue 31: the analysis's words

    def table_strings(self, match, user) -> dict:
        return king_strings()

    def error_messages(self) -> dict:
        return king_strings()["errors"]

    def replay_strings(self) -> dict:
        return king_replay_strings()

    def record_context(self, match, record: dict) -> dict:
        return {"king": king_record(match, record["names"])}

    def deal_description(self, order: list[str]) -> tuple[str, str] | None:
        """G-V2: the 52 cards, each seat's 13 in seat order (G-C2 notation, each once)."""
        if len(order) != len(NAMES) or set(order) != set(NAMES):
            return None
        count = ngettext("%(n)d card", "%(n)d cards", len(order)) % {"n": len(order)}
        return _("Cards"), count + " · " + _("each seat's 13 in seat order")

    def options_text(self, options: dict) -> str:
        length = (options or {}).get("length")
        return ngettext("%(n)d hand", "%(n)d hands", length) % {"n": length} if length else ""


WEB = KingWeb("king")
