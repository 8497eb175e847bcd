"""King's analysis (issue 31, *Analiz*): the contract choice and the cards of one hand
against a double-dummy search (``python -m game.engine.analyse``, king-scenario.md).

**Double dummy.**  Once a hand is over its whole deal is public (G-V2), so the search
knows all four hands.  King has no partners (G-M1): a seat's "side" is the seat alone,
and the value of a position for seat ``s`` is what ``s`` can *guarantee* from there to
the end of the hand with every card known, the three others playing together against
it (the *paranoid* double dummy: it is exact and the same whatever the others want).
The unit is the contract's own points (section 6 of ``king.md``): in a penalty contract
the (negative) points the seat takes from here on, in *Koz* +50 per trick it takes
(G-S7), so one trick more or less is 50 points.  The cost of a card is the best card's
value minus the played card's value.

The search is alpha-beta with a transposition table over trick starts (keyed on each
suit's cards still out, by relative rank, holder and penalty status, so that positions
that differ only in which small cards fell meet), equivalent-card pruning (two cards of
one suit and one penalty status with no card still in play between them play alike)
and MTD(f) null-window probes; a penalty contract with no penalty card left is over (G-P9, and worth 0).

**What is exact and what is bounded.**
* The cards: every card of the last six tricks (the positions with six or fewer cards
  in each hand) is searched exactly, then, as the budget allows, the cards before them,
  latest first (each card whole or not at all). Everything reported there is exact.
* The choice: a full 13-trick double dummy for each of up to ten options is far beyond
  the budget in pure Python (each trick multiplies the search about fivefold).  Each
  allowed option (penalty contract or *Koz* with each trump suit) is therefore
  *estimated*: the first tricks are played by the search's own move ordering for all
  four seats (the chooser playing for itself, the others against it), the last
  ``CHOICE_EXACT_TRICKS`` tricks by the exact search; ``exact`` is false and
  ``bound`` says so.  Options of different kinds (*ceza* or *koz*) are compared with
  the worth of the choices the seat keeps for later (G-H4: a *koz* now is one *koz*
  fewer later), valued at ``BASELINE`` (the mean best estimate of each kind over random
  deals, ``python -m games.king.engine.analysis_bench --baseline``); in a 4-hand match
  nothing is kept for later and the options compare as they are.
* The budget counts search nodes (and play-out steps), never seconds.  Spent in this
  order: the last six tricks, the choice, then the earlier tricks backwards; what does
  not fit is left out and ``complete`` is false.

A decision's ``value`` is the points its seat takes from that card on (from the first
lead for the choice); the whole hand is public, so the analysis uses the whole deal —
show it only once the hand is over (G-V2).  A timeout (G-T2) is analysed as the card or
contract it played (note ``timeout``); a card that was the only one (up to equivalent
cards) is noted ``forced``.
"""

from __future__ import annotations

from game.engine import analysis as shared
from game.engine.analysis import Budget, OutOfBudget
from game.engine.errors import EngineError
from games.king.engine.cards import AH, HEARTS, KH, card, name, suit_letter
from games.king.engine.contracts import KOZ, PENALTY_CARDS, QUOTA, allowed
from games.king.engine.hand import HandState, apply
from games.king.engine.replay import load_scenario
from games.king.engine.rules import TRICKS

GAME = "king"
UNIT = "points"
# one heart (G-S2) is a loss; a queen (G-S4), two men or two koz tricks a big loss
THRESHOLDS = {"loss": 30, "big_loss": 100}
DEFAULT_BUDGET = 90_000  # search nodes per hand: CPU p99 under 1 s (analysis_bench)
EXACT_TRICKS = 6  # the last six tricks come first (and fit the default budget)
CHOICE_EXACT_TRICKS = 5
# the mean best estimated score of each kind for a random hand (analysis_bench --baseline)
BASELINE = {"koz": 213.7, "ceza": -2.8}

FULL = (1 << 52) - 1
SUIT_MASK = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
HEART_MASK = SUIT_MASK[HEARTS]
KH_BIT, AH_BIT = 1 << KH, 1 << AH
INF = 1 << 30
PENALTY_POINTS = {"kupa_almaz": -30, "erkek_almaz": -60, "kiz_almaz": -100, "rifki": -320}


def mask_of(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


class Position:
    """A position of the play: each seat's cards (bit masks), the trick so far, its
    leader and the tricks already completed."""

    __slots__ = ("hands", "trick", "leader", "done")

    def __init__(self, hands, trick, leader: int, done: int):
        self.hands = tuple(hands)
        self.trick = tuple(trick)
        self.leader = leader
        self.done = done

    @classmethod
    def of(cls, hand: HandState) -> Position:
        return cls([mask_of(h) for h in hand.hands], hand.trick, hand.leader, len(hand.tricks))

    @property
    def seat(self) -> int:
        return (self.leader + len(self.trick)) % 4


class Solver:
    """The paranoid double dummy of one contract for one seat ``me`` (module docstring).
    Its transposition table lives as long as the solver; every node is paid from
    ``budget``."""

    def __init__(self, contract: str, trump: int | None, me: int, budget: Budget):
        self.contract, self.trump, self.me, self.budget = contract, trump, me, budget
        pen = PENALTY_CARDS[contract]
        self.pen_mask = mask_of(pen)
        unit = PENALTY_POINTS.get(contract, 0)
        self.pv = [unit if c in pen else 0 for c in range(52)]
        # equivalence classes: touching cards of one class play alike (in Rıfkı the
        # class of KH alone; AH is never next to another heart of its class while KH is
        # in play, so G-P8 needs nothing more)
        self.cls = [1 if c in pen else 0 for c in range(52)]
        self._build()

    # -- the search -------------------------------------------------------------------
    def _build(self) -> None:  # noqa: C901 - one closure keeps the hot loop's names local
        contract, trump, me, pv, cls = self.contract, self.trump, self.me, self.pv, self.cls
        pen_mask = self.pen_mask
        early = pen_mask != 0  # G-P9: over once no penalty card is left
        koz = contract == KOZ
        trump_mask = SUIT_MASK[trump] if koz else 0
        hearts_rule = contract in ("kupa_almaz", "rifki")
        duty = early
        rifki = contract == "rifki"
        el = contract == "el_almaz"
        son = contract == "son_iki"
        tt: dict = {}
        squeeze: dict = {}
        hands = [0, 0, 0, 0]
        trick: list[int] = []
        state = [0, 0]  # leader, tricks done

        def trick_value(cards, no):
            if koz:
                return 50  # G-S7
            if el:
                return -50  # G-S1
            if son:
                return -180 if no >= 12 else 0  # G-S6
            return pv[cards[0]] + pv[cards[1]] + pv[cards[2]] + pv[cards[3]]

        def bounds(done, inplay):
            """What ``me`` can take at most and at least from a trick start."""
            left = TRICKS - done
            if koz:
                return 0, 50 * left
            if el:
                return -50 * left, 0
            if son:
                return -180 * min(left, 2), 0
            lo = 0
            m = inplay & pen_mask
            while m:
                low = m & -m
                lo += pv[low.bit_length() - 1]
                m ^= low
            return lo, 0

        def legal(h, inplay):
            """G-P10 on bit masks (``inplay``: the cards in hands and on the table)."""
            if not trick:
                if koz and not (FULL & ~inplay & trump_mask):  # G-P5
                    return (h & ~trump_mask) or h
                if hearts_rule and not (FULL & ~inplay & HEART_MASK):  # G-P6
                    return (h & ~HEART_MASK) or h
                return h
            led = trick[0] // 13
            follow = h & SUIT_MASK[led]
            if follow:  # G-P2, G-P8
                if rifki and led == HEARTS and follow & KH_BIT and AH in trick:
                    return KH_BIT
                return follow
            if koz:  # G-P4
                return (h & trump_mask) or h
            if duty:  # G-P7
                return (h & pen_mask) or h
            return h

        def reps(m, inplay):
            """The highest card of each equivalence class of the legal cards ``m``."""
            out = []
            prev = -1
            while m:
                low = m & -m
                c = low.bit_length() - 1
                m ^= low
                if (prev < 0 or prev // 13 != c // 13 or cls[prev] != cls[c]
                        or inplay & ((1 << c) - (1 << (prev + 1)))):  # fmt: skip
                    out.append(c)
                prev = c
            return out

        def classes(m, inplay):
            """The legal cards in ``m`` by equivalence class: [(representative, class
            mask)], the representative the highest card of its class (each class is a
            run of ``m``'s cards in card order)."""
            starts = reps(m, inplay)
            ends = [*starts[1:], 52]
            return [(r, m & ((1 << e) - (1 << r))) for r, e in zip(starts, ends)]

        def winner(cards):
            """G-P3: the index of the winning card of the cards so far."""
            best = 0
            b = cards[0]
            led = b // 13
            for i in range(1, len(cards)):
                c = cards[i]
                cs, bs = c // 13, b // 13
                if cs == bs:
                    if c < b:
                        best, b = i, c
                elif cs == trump or (bs != trump and cs == led):
                    best, b = i, c
            return best

        def order(cand, seat, leader, first):
            """Move ordering: the TT's move first; then, for ``me``, ducking in a penalty
            contract and winning cheaply in Koz; for the others, the reverse (low keys
            first; ``r`` is 0 for an ace, 12 for a two)."""
            n = len(trick)
            maxing = seat == me
            if n:
                wi = winner(trick)
                w = trick[wi]
                ws = w // 13
                w_me = (leader + wi) % 4 == me
                me_played = (me - leader) % 4 < n
            keyed = []
            for c in cand:
                r = c % 13
                if c == first:
                    k = -(1 << 30)
                elif n == 0:
                    k = r if koz or not maxing else -r + 100 * (pen_mask >> c & 1)
                else:
                    cs = c // 13
                    beats = c < w if cs == ws else koz and cs == trump
                    if koz:
                        k = (1000 - 1000 * beats - r) if maxing or w_me or not me_played else -r
                    elif maxing:
                        k = 1000 * beats + r if cs == ws else 100 * pv[c] + r
                    elif w_me:
                        k = 100000 - r if beats else 100 * pv[c] + r
                    else:
                        k = -r
                keyed.append(k * 64 + c)
            keyed.sort()
            return [x & 63 for x in keyed]

        shapes: dict = {}

        def compress(s, rem, a, b, c):
            """One suit's cards still in play by relative rank — their count, which of
            them seats 0, 1, 2 hold, their classes — as a small number (one per shape)."""
            k = (s, rem, a, b, c)
            r = squeeze.get(k)
            if r is None:
                ca = cb = cc = cl = j = 0
                base = 13 * s
                for i in range(13):
                    bit = 1 << i
                    if rem & bit:
                        if a & bit:
                            ca |= 1 << j
                        elif b & bit:
                            cb |= 1 << j
                        elif c & bit:
                            cc |= 1 << j
                        cl = cl * 4 + cls[base + i]
                        j += 1
                shape = (j, ca, cb, cc, cl)
                r = squeeze[k] = shapes.setdefault(shape, len(shapes))
            return r

        def key_of(leader, inplay):
            h0, h1, h2 = hands[0], hands[1], hands[2]
            return (
                leader,
                compress(0, inplay & 8191, h0 & 8191, h1 & 8191, h2 & 8191),
                compress(1, (inplay >> 13) & 8191, (h0 >> 13) & 8191, (h1 >> 13) & 8191,
                         (h2 >> 13) & 8191),
                compress(2, (inplay >> 26) & 8191, (h0 >> 26) & 8191, (h1 >> 26) & 8191,
                         (h2 >> 26) & 8191),
                compress(3, inplay >> 39, h0 >> 39, h1 >> 39, h2 >> 39),
            )  # fmt: skip

        def relative(c, inplay):
            """A card as (suit, cards still in play above it): the same card in every
            position with this key."""
            if c < 0:
                return -1
            s = c // 13
            return s * 16 + (inplay & ((1 << c) - (1 << (13 * s)))).bit_count()

        def absolute(rel, inplay):
            if rel < 0:
                return -1
            s, k = divmod(rel, 16)
            m = inplay & SUIT_MASK[s]
            for _ in range(k):
                m &= m - 1
            return (m & -m).bit_length() - 1

        count = [0, 0]  # nodes searched, the most allowed

        def search(alpha, beta):
            """The value for ``me`` of the position in ``hands``/``trick``/``state``,
            fail-soft alpha-beta."""
            count[0] += 1
            if count[0] > count[1]:
                raise OutOfBudget
            leader, done = state
            inplay = hands[0] | hands[1] | hands[2] | hands[3]
            n = len(trick)
            first = -1
            if n == 0:
                if done == TRICKS or (early and not inplay & pen_mask):
                    return 0
                key = key_of(leader, inplay)
                ent = tt.get(key)
                if ent is None:
                    lo, hi = bounds(done, inplay)
                else:
                    lo, hi, rel = ent
                    first = absolute(rel, inplay)
                if lo >= beta or lo == hi:
                    return lo
                if hi <= alpha:
                    return hi
                alpha, beta = max(alpha, lo), min(beta, hi)
                a0, b0 = alpha, beta
            else:
                for c in trick:
                    inplay |= 1 << c
            seat = (leader + n) % 4
            h = hands[seat]
            cand = reps(legal(h, inplay), inplay)
            if len(cand) > 1:
                cand = order(cand, seat, leader, first)
            maxing = seat == me
            best = -INF if maxing else INF
            best_card = -1
            for c in cand:
                hands[seat] = h ^ (1 << c)
                trick.append(c)
                if n == 3:
                    w = (leader + winner(trick)) % 4
                    gain = trick_value(trick, done + 1) if w == me else 0
                    cards = trick[:]
                    trick.clear()
                    state[0], state[1] = w, done + 1
                    v = gain + search(alpha - gain, beta - gain)
                    state[0], state[1] = leader, done
                    trick[:] = cards
                else:
                    v = search(alpha, beta)
                trick.pop()
                hands[seat] = h
                if maxing:
                    if v > best:
                        best, best_card = v, c
                        if v > alpha:
                            alpha = v
                            if alpha >= beta:
                                break
                elif v < best:
                    best, best_card = v, c
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
            if n == 0:
                if best <= a0:
                    hi = min(hi, best)
                elif best >= b0:
                    lo = max(lo, best)
                else:
                    lo = hi = best
                tt[key] = (lo, hi, relative(best_card, inplay))
            return best

        def load(pos: Position) -> int:
            hands[:] = pos.hands
            trick[:] = pos.trick
            state[0], state[1] = pos.leader, pos.done
            return pos.hands[0] | pos.hands[1] | pos.hands[2] | pos.hands[3] | mask_of(pos.trick)

        def candidates(pos: Position) -> list[tuple[int, int]]:
            inplay = load(pos)
            return classes(legal(pos.hands[pos.seat], inplay), inplay)

        def heuristic(pos: Position) -> int:
            """The card the move ordering tries first (the choice's play-out)."""
            cand = [rep for rep, _ in candidates(pos)]
            return order(cand, pos.seat, pos.leader, -1)[0] if len(cand) > 1 else cand[0]

        self._search, self._load, self._count = search, load, count
        self.candidates, self.heuristic, self.winner = candidates, heuristic, winner
        self.trick_value = trick_value
        self.over = lambda pos: pos.done == TRICKS or (
            early and not pos.trick and not (mask_of_hands(pos) & pen_mask))  # fmt: skip

    # -- positions and values -----------------------------------------------------------
    def after(self, pos: Position, c: int) -> tuple[int, Position]:
        """Play ``c`` for the seat to play: what ``me`` gains at once (a completed trick)
        and the position after it."""
        seat = pos.seat
        hands = list(pos.hands)
        hands[seat] ^= 1 << c
        trick = [*pos.trick, c]
        if len(trick) < 4:
            return 0, Position(hands, trick, pos.leader, pos.done)
        w = (pos.leader + self.winner(trick)) % 4
        gain = self.trick_value(trick, pos.done + 1) if w == self.me else 0
        return gain, Position(hands, (), w, pos.done + 1)

    def probe(self, pos: Position, alpha: int, beta: int) -> int:
        """One alpha-beta search of ``pos``, its nodes paid from the budget."""
        self._load(pos)
        count = self._count
        count[0], count[1] = 0, self.budget.left
        try:
            return self._search(alpha, beta)
        finally:
            self.budget.charge(count[0])

    def exact(self, pos: Position, guess: int = 0) -> int:
        """The exact value by MTD(f): null-window probes until the bounds meet."""
        if self.over(pos):
            return 0
        lower, upper, g = -INF, INF, guess
        while lower < upper:
            beta = g + 1 if g == lower else g
            g = self.probe(pos, beta - 1, beta)
            if g < beta:
                upper = g
            else:
                lower = g
        return g

    def judge(self, pos: Position, played: int) -> tuple[int, int, int | None, int]:
        """A decision of ``me`` at ``pos``: (the played card's value, the best value, a
        best card when better than the played one, the number of classes)."""
        groups = self.candidates(pos)
        mine = next(rep for rep, members in groups if members >> played & 1)
        gain, child = self.after(pos, played)
        value = gain + self.exact(child)
        best, best_card = value, None
        for rep, _ in groups:
            if rep == mine:
                continue
            gain, child = self.after(pos, rep)
            if self.over(child):
                v = gain
            else:
                t = self.probe(child, best - gain, best - gain + 1)
                if t <= best - gain:
                    continue
                v = gain + self.exact(child, t)
            if v > best:
                best, best_card = v, rep
        return value, best, best_card, len(groups)

    def playout_value(self, pos: Position, exact_tricks: int) -> int:
        """The choice's estimate: every seat plays the move ordering's card until
        ``exact_tricks`` tricks are left, then the exact value (module docstring)."""
        total = 0
        while not self.over(pos) and (pos.trick or TRICKS - pos.done > exact_tricks):
            self.budget.charge()
            gain, pos = self.after(pos, self.heuristic(pos))
            total += gain
        return total + self.exact(pos)


def mask_of_hands(pos: Position) -> int:
    return pos.hands[0] | pos.hands[1] | pos.hands[2] | pos.hands[3]


# --- the hand's decisions ---------------------------------------------------------------


class _Decision:
    __slots__ = ("step", "seat", "kind", "played", "pos", "timeout")

    def __init__(self, step, seat, kind, played, pos, timeout):
        self.step, self.seat, self.kind, self.played = step, seat, kind, played
        self.pos, self.timeout = pos, timeout


def _replay(data) -> tuple[HandState, list[_Decision]]:
    """Play the scenario (king-scenario.md); each accepted action is a decision, with
    the position before it.  Rejected actions changed nothing and are no decision."""
    hand, actions = load_scenario(data)
    out = []
    for step, a in enumerate(actions):
        pos, choosing = Position.of(hand), hand.contract is None
        try:
            apply(hand, a["seat"], {k: v for k, v in a.items() if k != "seat"})
        except EngineError:
            continue  # rejected: nothing changed
        kind = "choose" if choosing else "card"
        if choosing:
            played = {"type": "choose", "contract": hand.contract}
            if hand.contract == KOZ:
                played["trump"] = suit_letter(hand.trump)
        else:
            last = hand.tricks[-1][1][-1] if not hand.trick else hand.trick[-1]
            played = {"type": "play", "card": name(last)}
        out.append(_Decision(step, a["seat"], kind, played, pos,
                             hand.log[-1]["type"] == "timeout"))  # fmt: skip
    return hand, out


def _card_decision(hand: HandState, d: _Decision, solvers: dict, budget: Budget) -> dict:
    key = d.seat
    if key not in solvers:
        solvers[key] = Solver(hand.contract, hand.trump, d.seat, budget)
    played = card(d.played["card"])
    value, best, best_card, classes = solvers[key].judge(d.pos, played)
    notes = (["timeout"] if d.timeout else []) + (["forced"] if classes == 1 else [])
    return shared.decision(
        THRESHOLDS, step=d.step, seat=d.seat, kind="card", played=d.played,
        best=None if best_card is None else {"type": "play", "card": name(best_card)},
        value=value, best_value=best, notes=notes,
    )  # fmt: skip


def _later_worth(length: int, chosen_seat: list[str], kind: str) -> float:
    """What the choices a seat keeps for later are worth if it now picks ``kind``
    (G-H4; ``BASELINE`` per choice)."""
    per_seat, max_ceza, max_koz = QUOTA[length]
    later = per_seat - len(chosen_seat) - 1
    ceza = min(max_ceza - sum(1 for c in chosen_seat if c != KOZ) - (kind == "ceza"), later)
    koz = min(max_koz - chosen_seat.count(KOZ) - (kind == "koz"), later)
    return max(0, ceza) * BASELINE["ceza"] + max(0, koz) * BASELINE["koz"]


def options_of(length: int, chosen: list[list[str]], seat: int) -> list[tuple[str, int | None]]:
    """Every allowed choice (G-H4, G-H5): the penalty contracts, *Koz* with each suit."""
    out: list[tuple[str, int | None]] = []
    for c in allowed(length, chosen, seat):
        out += [(KOZ, t) for t in range(4)] if c == KOZ else [(c, None)]
    return out


def choice_scores(hand: HandState, chosen: list[list[str]], budget: Budget) -> list[dict]:
    """Each allowed option's estimated double-dummy score for the chooser, from the
    first lead (G-P1), and its value with the worth of the choices kept for later."""
    seat = hand.chooser
    start = Position([mask_of(h) for h in hand.deal], (), seat, 0)
    out = []
    for contract, trump in options_of(hand.length, chosen, seat):
        score = Solver(contract, trump, seat, budget).playout_value(start, CHOICE_EXACT_TRICKS)
        kind = "koz" if contract == KOZ else "ceza"
        worth = _later_worth(hand.length, chosen[seat], kind)
        out.append({"contract": contract, "trump": suit_letter(trump), "score": score,
                    "value": round(score + worth, 1)})  # fmt: skip
    return out


def _choice_decision(hand: HandState, d: _Decision, budget: Budget) -> dict:
    options = choice_scores(hand, hand.chosen, budget)
    want = (d.played["contract"], d.played.get("trump"))
    mine = next(o for o in options if (o["contract"], o["trump"]) == want)
    best = max(options, key=lambda o: o["value"])  # the first of equal values
    later = QUOTA[hand.length][0] - len(hand.chosen[d.seat]) - 1
    notes = (["timeout"] if d.timeout else []) + (["forced"] if len(options) == 1 else [])
    action = {"type": "choose", "contract": best["contract"]}
    if best["trump"] is not None:
        action["trump"] = best["trump"]
    kinds = "" if later == 0 else "; kinds compared by the mean worth of later choices"
    return shared.decision(
        THRESHOLDS, step=d.step, seat=d.seat, kind="choose", played=d.played, best=action,
        value=mine["value"], best_value=best["value"], exact=False, notes=notes,
        options=options,
        bound=(f"first {TRICKS - CHOICE_EXACT_TRICKS} tricks by heuristic play, last "
               f"{CHOICE_EXACT_TRICKS} exact{kinds}"),
    )  # fmt: skip


def analyse(data, budget: int | None = None) -> dict:
    """The analysis of one King hand (module docstring); ``budget`` in search nodes
    (default ``DEFAULT_BUDGET``).  Malformed input raises ``ScenarioError``."""
    hand, decisions = _replay(data)
    limit = DEFAULT_BUDGET if budget is None else budget
    spend = Budget(limit)
    late = [d for d in decisions if d.kind == "card" and d.pos.done >= TRICKS - EXACT_TRICKS]
    early = [d for d in decisions if d.kind == "card" and d.pos.done < TRICKS - EXACT_TRICKS]
    choice = [d for d in decisions if d.kind == "choose"]
    order = [*reversed(late), *choice, *reversed(early)]
    solvers: dict = {}
    out = []
    try:
        for d in order:
            if d.kind == "choose":
                out.append(_choice_decision(hand, d, spend))
            else:
                out.append(_card_decision(hand, d, solvers, spend))
    except OutOfBudget:
        pass
    return shared.report(GAME, UNIT, THRESHOLDS, spend, out, complete=len(out) == len(order))


def run_scenario(data) -> dict:
    """The registry's ``analyse`` command for ``"game": "king"``."""
    return analyse(data)
