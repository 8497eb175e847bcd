"""King's web side (issue 28): its card table's words (the script,
games/king/static/king/table.js, never holds a word of its own), its replay's words, and
its match record — the score table by contract (king.md G-Q3) with each hand's deal
check (G-V2)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from game.engine import registry
from game.fairness import verify_url
from game.web import GameWeb
from games.king.engine.cards import NAMES
from games.king.engine.match import recorded_check
from games.king.strings import king_strings


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
    guide_templates = {"tr": "king/guide_tr.html", "en": "king/guide_en.html"}
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

    def hand_label(self, match, detail: dict) -> str:
        """A hand is named by its contract (G-H2) and trump suit, as the score table does."""
        contract = (detail or {}).get("contract")
        name = king_strings()["contracts"].get(contract) if contract else None
        if not name:
            return ""
        trump = SUIT_SYMBOL.get((detail or {}).get("trump") or "", "")
        return f"{name} {trump}".strip()

    def tutorial_about(self) -> str:
        return _(
            "A short guided hand against three bots before your first match: you choose "
            "the contract (No hearts), lead the first trick, follow suit, and see why a "
            "heart must go when you cannot follow. A hint shows the way at each step. "
            "Nothing of it is recorded in your history or the ranking."
        )

    def tutorial_strings(self) -> dict:
        """The guided hand's hint for each step (``games.king.engine.tutorial``)."""
        return {
            "choose": _(
                "You choose this hand's contract. Choose No hearts: every heart in the "
                "tricks you take costs you 30 points."
            ),
            "lead": _(
                "The chooser leads the first trick. Hearts cannot be led until one has "
                "been played: lead your 2 of clubs, too low to take the trick."
            ),
            "follow": _(
                "Diamonds were led: you must follow suit (the other cards are greyed out). "
                "Play your 3 of diamonds, so that a higher diamond takes the trick."
            ),
            "heart": _(
                "Spades were led and you have none. In No hearts you must then play a "
                "heart: give your queen of hearts to the ace of spades."
            ),
            "wait": _("The bots are playing. Wait for your turn."),
            "done": _(
                "Well done! Play the hand out as you like: keep away from tricks with "
                "hearts in them. The highest total wins the match."
            ),
            "over": _("The guided hand is over. Play a real match from the King lobby."),
        }

    def options_text(self, options: dict) -> str:
        length = (options or {}).get("length")
        return ngettext("%(n)d hand", "%(n)d hands", length) % {"n": length} if length else ""


WEB = KingWeb("king")
