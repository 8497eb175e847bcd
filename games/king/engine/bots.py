"""Bots at three levels (P-1, G-X3: they see a seat's **view** only, never the state).

    choose(view, level, rng) -> action | None

* ``easy``   a random allowed contract (and trump suit), a random playable card.
* ``normal`` plays by rules of thumb: in a penalty hand it ducks under the card winning
  the trick, dumps penalty and high cards when void, and wins only when it must; in a
  trump hand it takes tricks as cheaply as it can; in *Son iki* it sheds high cards
  before trick 12.  It chooses the contract by playing a few random deals of the
  unseen cards out with these rules for each allowed contract (and trump suit).

Choosing the contract (normal and hard; issue 29).  From its own 13 cards only (P-1),
the bot estimates each allowed contract's worth to it: its mean score over the deals
played out, *relative to the others* — its score less the mean of the three others',
``(4v − H) / 3`` for the contract's hand total ``H`` (G-S8).  A penalty hand that
suits it (it takes little of a large total) is then worth more than a middling trump
hand, which gives the others tricks too.  To that it adds the worth of the choices it
keeps for later (G-H4's quota left, at the mean worth of a random hand's best *ceza*
and best *koz*, ``BASELINE``): *koz* is taken now when this hand's trump is better
than a later one is likely to be, else a *ceza* that suits the hand; the limit of two
plays per penalty contract (G-H5) spreads the choices further.
* ``hard``   reasons about the hidden cards: it samples deals of the unseen cards that
  agree with everything its seat saw (the cards played, the suits a seat showed it
  lacks, the penalty cards a seat showed it does not hold: ``views.deductions``), plays
  each of its candidate cards out on every sampled deal with the normal rules for all
  four seats, and plays the card with the best mean score.  Its contract choice uses
  the same method with more deals.
"""

from __future__ import annotations

import random

from games.king.engine.cards import HEARTS, card, name, suit_index
from games.king.engine.contracts import EARLY_END, HAND_TOTAL, KOZ, PENALTIES, PENALTY_CARDS
from games.king.engine.rules import legal_cards, trick_winner_index

LEVELS = ("easy", "normal", "hard")

# Mean worth (``relative``: own hand score less the others' mean, by this module's
# play-outs) of the best koz and the best penalty option for a random 13-card hand: the
# worth of a choice kept for later.  Measured with
# ``python -m games.king.engine.simulate --baseline 2000``.
BASELINE = {"koz": 90.5, "ceza": 76.5}
CHOICE_DEALS = {"normal": 3, "hard": 20}
PLAY_ROLLOUTS = 160  # the hard bot's play-outs per card decision (all candidates)
MIN_DEALS, MAX_DEALS = 6, 40


# --- the rules of thumb (normal; also every seat in a play-out) -------------------------


def _beats(c: int, w: int, trump: int | None) -> bool:
    if c // 13 == w // 13:
        return c < w
    return c // 13 == trump


def pick(legal: list[int], trick: list[int], contract: str, trump: int | None,
         tricks_done: int) -> int:  # fmt: skip
    """The normal bot's card among ``legal`` (at least two)."""
    if contract == KOZ:
        return _pick_win(legal, trick, trump)
    if contract == "son_iki" and tricks_done < 11:
        return min(legal, key=lambda c: (c % 13, -c))  # shed high cards before trick 12
    return _pick_avoid(legal, trick, PENALTY_CARDS[contract])


def _pick_avoid(legal: list[int], trick: list[int], pen) -> int:
    if not trick:  # lead the lowest card that is not a penalty card
        safe = [c for c in legal if c not in pen] or legal
        return max(safe, key=lambda c: (c % 13, c))
    led = trick[0] // 13
    if legal[0] // 13 == led:
        w = trick[trick_winner_index(trick, None)]
        under = [c for c in legal if c > w]
        if under:
            return min(under)  # the highest card that still ducks
        safe = [c for c in legal if c not in pen] or legal
        if len(trick) == 3:
            return min(safe)  # the trick is ours anyway: shed the highest
        return max(safe)
    # void: a penalty card if any (the highest), else the highest card
    bad = [c for c in legal if c in pen]
    if bad:
        return min(bad)
    return min(legal, key=lambda c: (c % 13, -c))


def _pick_win(legal: list[int], trick: list[int], trump: int | None) -> int:
    if not trick:
        aces = [c for c in legal if c % 13 == 0]
        if aces:
            return aces[0]  # an ace first
        return max(legal, key=lambda c: (c % 13, c))  # else the lowest card
    w = trick[trick_winner_index(trick, trump)]
    winning = [c for c in legal if _beats(c, w, trump)]
    if winning:
        if len(trick) == 3 or winning[0] // 13 != trick[0] // 13:
            return max(winning)  # the cheapest card that wins
        return min(winning)
    return max(legal, key=lambda c: (c % 13, c // 13 == trump, c))


def policy(cards: list[int], trick: list[int], contract: str, trump: int | None,
           hb: bool, tb: bool, tricks_done: int) -> int:  # fmt: skip
    legal = legal_cards(cards, trick, contract, trump, hb, tb)
    if len(legal) == 1:
        return legal[0]
    return pick(legal, trick, contract, trump, tricks_done)


def trick_points(contract: str, cards: list[int], no: int) -> int:
    """The points the winner of trick ``no`` (1-based) gets (section 6)."""
    if contract == "koz":
        return 50
    if contract == "el_almaz":
        return -50
    if contract == "son_iki":
        return -180 if no >= 12 else 0
    if contract == "kupa_almaz":
        return -30 * sum(1 for c in cards if c // 13 == HEARTS)
    if contract == "erkek_almaz":
        return -60 * sum(1 for c in cards if c % 13 in (1, 3))
    if contract == "kiz_almaz":
        return -100 * sum(1 for c in cards if c % 13 == 2)
    return -320 if 14 in cards else 0  # rifki: KH


def playout(hands: list[list[int]], contract: str, trump: int | None, leader: int,
            trick: list[int], done: int, hb: bool, tb: bool, pen_left: int,
            me: int) -> int:  # fmt: skip
    """Play the hand to its end with the rules of thumb for every seat; ``me``'s points
    from here on.  ``hands`` and ``trick`` are consumed."""
    gain = 0
    pen = PENALTY_CARDS[contract]
    early = contract in EARLY_END
    seat = (leader + len(trick)) % 4
    while True:
        if len(trick) == 4:
            w = (leader + trick_winner_index(trick, trump)) % 4
            done += 1
            if w == me:
                gain += trick_points(contract, trick, done)
            if done == 13:
                return gain
            if early:
                pen_left -= sum(1 for c in trick if c in pen)
                if pen_left <= 0:
                    return gain  # G-P9
            if not hb and any(c // 13 == HEARTS for c in trick):
                hb = True
            if not tb and trump is not None and any(c // 13 == trump for c in trick):
                tb = True
            leader = seat = w
            trick = []
        h = hands[seat]
        c = policy(h, trick, contract, trump, hb, tb, done)
        h.remove(c)
        trick.append(c)
        seat = (seat + 1) % 4


# --- reading a view ---------------------------------------------------------------------


class Seen:
    """What a bot reads from its view, in engine terms."""

    def __init__(self, view: dict):
        self.view = view
        self.me = view["seat"]
        self.hand = [card(c) for c in view["hand"]]
        self.contract = view["contract"]
        self.trump = None if view["trump"] is None else suit_index(view["trump"])
        t = view["trick"] or {"leader": self.me, "cards": []}
        self.leader = t["leader"]
        self.trick = [card(x["card"]) for x in t["cards"]]
        self.played = {card(c) for c in view["played"]}
        self.counts = list(view["counts"])
        self.voids = [{suit_index(s) for s in v} for v in view["voids"]]
        self.lacks = [{card(c) for c in x} for x in view["lacks"]]
        self.done = view["tricks_played"]
        self.hb = view["hearts_broken"]
        self.tb = view["trumps_broken"]
        self.legal = [card(c) for c in view["playable"]]

    def unseen(self) -> list[int]:
        mine = set(self.hand)
        return [c for c in range(52) if c not in mine and c not in self.played]

    def sample(self, rng: random.Random) -> list[list[int]] | None:
        """Other seats' hands drawn from the unseen cards, agreeing with the counts,
        the voids and the lacks (None when no such deal was found quickly)."""
        others = [s for s in range(4) if s != self.me]
        cards = self.unseen()
        ok = {s: [c // 13 not in self.voids[s] and c not in self.lacks[s] for c in range(52)]
              for s in others}  # fmt: skip
        for _ in range(30):
            rng.shuffle(cards)
            cards.sort(key=lambda c: sum(ok[s][c] for s in others))
            cap = {s: self.counts[s] for s in others}
            hands: list[list[int]] = [[], [], [], []]
            for c in cards:
                elig = [s for s in others if cap[s] and ok[s][c]]
                if not elig:
                    break
                r = rng.random() * sum(cap[s] for s in elig)
                for s in elig:
                    r -= cap[s]
                    if r < 0:
                        break
                hands[s].append(c)
                cap[s] -= 1
            else:
                hands[self.me] = list(self.hand)
                return hands
        return None


# --- choosing a contract ----------------------------------------------------------------


def _future(view: dict, kind: str) -> float:
    """The worth of the choices this seat keeps for later if it now picks ``kind``."""
    choice = view["choice"]
    later = choice["choices_left"] - 1
    ceza = min(choice["ceza_left"] - (kind == "ceza"), later)
    koz = min(choice["koz_left"] - (kind == "koz"), later)
    return max(0, ceza) * BASELINE["ceza"] + max(0, koz) * BASELINE["koz"]


def options(view: dict) -> list[tuple[str, int | None]]:
    out = []
    for o in view["choice"]["options"]:
        if o["allowed"]:
            if o["contract"] == KOZ:
                out += [(KOZ, t) for t in range(4)]
            else:
                out.append((o["contract"], None))
    return out


def relative(contract: str, own: float) -> float:
    """A seat's score less the mean of the three others' when it scores ``own`` in
    ``contract`` (the four add up to the hand total, G-S8)."""
    return (4 * own - HAND_TOTAL[contract]) / 3


def contract_values(hand: list[int], opts, me: int, deals: int, rng: random.Random):
    """Mean own score of each option over ``deals`` random deals of the unseen cards,
    played out from the first lead (the chooser leads, G-P1)."""
    mine = set(hand)
    rest = [c for c in range(52) if c not in mine]
    totals = [0.0] * len(opts)
    for _ in range(deals):
        rng.shuffle(rest)
        hands = [[], [], [], []]
        others = [s for s in range(4) if s != me]
        for i, s in enumerate(others):
            hands[s] = sorted(rest[13 * i : 13 * i + 13])
        hands[me] = sorted(hand)
        for k, (contract, trump) in enumerate(opts):
            pen_left = len(PENALTY_CARDS[contract])
            totals[k] += playout([list(h) for h in hands], contract, trump, me, [], 0,
                                 False, False, pen_left, me)  # fmt: skip
    return [t / deals for t in totals]


def choose_contract(view: dict, level: str, rng: random.Random) -> dict:
    opts = options(view)
    if level == "easy":
        contract, trump = rng.choice(opts)
    else:
        hand = [card(c) for c in view["hand"]]
        values = contract_values(hand, opts, view["seat"], CHOICE_DEALS[level], rng)
        scored = [relative(c, v) + _future(view, "koz" if c == KOZ else "ceza")
                  for v, (c, _) in zip(values, opts)]  # fmt: skip
        contract, trump = opts[max(range(len(opts)), key=scored.__getitem__)]
    action = {"type": "choose", "contract": contract}
    if contract == KOZ:
        action["trump"] = "SHCD"[trump]
    return action


# --- playing a card ---------------------------------------------------------------------


def candidates(seen: Seen) -> list[int]:
    """The legal cards less the equivalent ones: two cards of a suit with nothing
    unseen between them, and the same penalty status, play alike."""
    pen = PENALTY_CARDS[seen.contract]
    known = set(seen.hand) | seen.played | set(seen.trick)
    out: list[int] = []
    for c in sorted(seen.legal):
        if out:
            p = out[-1]
            if (p // 13 == c // 13 and (p in pen) == (c in pen)
                    and all(x in known for x in range(p + 1, c))):  # fmt: skip
                continue
        out.append(c)
    return out


def hard_card(seen: Seen, rng: random.Random) -> int:
    cands = candidates(seen)
    if len(cands) == 1:
        return cands[0]
    deals = max(MIN_DEALS, min(MAX_DEALS, PLAY_ROLLOUTS // len(cands)))
    totals = [0.0] * len(cands)
    pen = PENALTY_CARDS[seen.contract]
    pen_left = len(pen) - sum(1 for c in seen.played - set(seen.trick) if c in pen)
    n = 0
    for _ in range(deals):
        hands = seen.sample(rng)
        if hands is None:
            continue
        n += 1
        for k, c in enumerate(cands):
            hs = [list(h) for h in hands]
            hs[seen.me].remove(c)
            totals[k] += playout(hs, seen.contract, seen.trump, seen.leader, [*seen.trick, c],
                                 seen.done, seen.hb, seen.tb, pen_left, seen.me)  # fmt: skip
    if n == 0:
        return pick(seen.legal, seen.trick, seen.contract, seen.trump, seen.done)
    favourite = pick(seen.legal, seen.trick, seen.contract, seen.trump, seen.done)
    best = max(range(len(cands)), key=lambda k: (totals[k], cands[k] == favourite))
    return cands[best]


def choose(view: dict, level: str, rng: random.Random) -> dict | None:
    """The bot's action for its seat's view, or None when it has nothing to do."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    if view.get("choice"):
        return choose_contract(view, level, rng)
    if not view.get("playable"):
        return None
    if len(view["playable"]) == 1:
        return {"type": "play", "card": view["playable"][0]}
    if level == "easy":
        return {"type": "play", "card": rng.choice(view["playable"])}
    seen = Seen(view)
    if level == "normal":
        c = pick(seen.legal, seen.trick, seen.contract, seen.trump, seen.done)
    else:
        c = hard_card(seen, rng)
    return {"type": "play", "card": name(c)}


__all__ = ["LEVELS", "choose"]


def measure_baseline(hands: int, seed: int = 1, deals: int = 8) -> dict:
    """The mean relative worth of the best koz and the best penalty option over random
    hands (``BASELINE``), by the same play-outs the bots use."""
    rng = random.Random(seed)
    opts = [(p, None) for p in PENALTIES] + [(KOZ, t) for t in range(4)]
    koz = ceza = 0.0
    for _ in range(hands):
        hand = sorted(rng.sample(range(52), 13))
        v = [relative(c, x) for x, (c, _) in zip(contract_values(hand, opts, 0, deals, rng), opts)]
        ceza += max(v[:6])
        koz += max(v[6:])
    return {"koz": round(koz / hands, 1), "ceza": round(ceza / hands, 1)}
