"""What one seat may see (king.md section 7, G-Q2, G-Q3).

``view_for(match, seat)`` holds the seat's own cards (G-V1), and only public facts
about the others (G-V2, G-V3): card counts, the trick on the table, the last completed
trick (G-V4), tricks and penalty cards taken, scores, the quota.  The seat to play
alone gets its playable cards (G-V5); the chooser alone gets the choice panel (G-Q2).

A bot gets exactly this view (P-1).  A player at a real table remembers the cards that
fell; so the view carries that memory as public deductions, not as the earlier tricks
(G-V4): ``played`` (every card played this hand), ``voids`` (suits a seat has shown it
does not hold) and ``lacks`` (penalty cards a seat has shown it does not hold: G-P7's
and G-P8's duties it did not meet).  Once the hand is over its deal and all its tricks
are shown (G-V2, G-V4).  Never: another seat's unplayed cards while the hand is in
play, the deck order, the log or a seed.
"""

from __future__ import annotations

from games.king.engine.cards import AH, HEARTS, KH, SUITS, name, names, suit_letter
from games.king.engine.contracts import (
    CONTRACTS,
    HEARTS_RULE,
    KOZ,
    PENALTY_CARDS,
    PENALTY_DUTY,
    QUOTA,
    plays_left,
    refusal,
    seat_left,
)
from games.king.engine.hand import HandState
from games.king.engine.match import MatchState, deal_order


def _trick(leader: int, cards: list[int], winner: int | None = None) -> dict:
    return {
        "leader": leader,
        "cards": [{"seat": (leader + i) % 4, "card": name(c)} for i, c in enumerate(cards)],
        "winner": winner,
    }


def deductions(hand: HandState) -> tuple[list[set[int]], list[set[int]]]:
    """Public deductions from the play so far: (void suits, cards not held) per seat."""
    voids: list[set[int]] = [set(), set(), set(), set()]
    lacks: list[set[int]] = [set(), set(), set(), set()]
    if hand.contract is None:
        return voids, lacks
    contract, trump = hand.contract, hand.trump
    duty = PENALTY_CARDS[contract] if contract in PENALTY_DUTY else frozenset()
    hearts_broken = trumps_broken = False
    tricks = [(ld, cs) for ld, cs, _ in hand.tricks]
    if hand.trick:
        tricks.append((hand.leader, hand.trick))
    for leader, cards in tricks:
        lead = cards[0]
        led = lead // 13
        if contract == KOZ and not trumps_broken and led == trump:
            voids[leader] |= {s for s in range(4) if s != trump}  # G-P5: only trumps
        if contract in HEARTS_RULE and not hearts_broken and led == HEARTS:
            voids[leader] |= {s for s in range(4) if s != HEARTS}  # G-P6: only hearts
        for i in range(1, len(cards)):
            seat, c = (leader + i) % 4, cards[i]
            if c // 13 != led:
                voids[seat].add(led)  # G-P2
                if contract == KOZ and c // 13 != trump:
                    voids[seat].add(trump)  # G-P4
                if duty and c not in duty:
                    lacks[seat] |= duty  # G-P7
            elif contract == "rifki" and led == HEARTS and AH in cards[:i] and c != KH:
                lacks[seat].add(KH)  # G-P8
        if len(cards) == 4:
            hearts_broken |= any(c // 13 == HEARTS for c in cards)
            trumps_broken |= trump is not None and any(c // 13 == trump for c in cards)
    return voids, lacks


def choice_panel(match: MatchState, seat: int) -> dict:
    """G-Q2: every contract with its plays left, whether allowed and why not."""
    hand = match.hand
    left = plays_left(hand.chosen)
    ceza, koz = seat_left(match.length, hand.chosen[seat])
    options = []
    for c in CONTRACTS:
        why = refusal(match.length, hand.chosen, seat, c)
        options.append({
            "contract": c,
            "kind": "koz" if c == KOZ else "ceza",
            "plays_left": None if c == KOZ else left[c],
            "allowed": why is None,
            "reason": why,
        })  # fmt: skip
    return {
        "options": options,
        "trumps": list(SUITS),
        "ceza_left": ceza,
        "koz_left": koz,
        "choices_left": QUOTA[match.length][0] - len(hand.chosen[seat]),
    }


def score_table(match: MatchState) -> dict:
    """G-Q3: a row per hand played, the totals, each seat's choices left, each penalty
    contract's plays left."""
    q = match.quota()
    return {
        "rows": [
            {
                "hand_no": r["hand_no"],
                "chooser": r["chooser"],
                "contract": r["contract"],
                "trump": r["trump"],
                "scores": list(r["scores"]),
            }
            for r in match.results
        ],  # fmt: skip
        "totals": list(match.totals),
        "left": [{"ceza": q["ceza"][s], "koz": q["koz"][s]} for s in range(4)],
        "contracts": q["contracts"],
    }


def view_for(match: MatchState, seat: int | None) -> dict:
    hand = match.hand
    over = hand.over
    playing = not over and hand.contract is not None
    voids, lacks = deductions(hand)
    last = None
    if hand.tricks and not over:
        ld, cs, w = hand.tricks[-1]
        last = _trick(ld, cs, w)  # G-V4: only the last completed trick
    penalty_cards = PENALTY_CARDS.get(hand.contract or "", frozenset())
    taken = hand.taken()
    view = {
        "game": "king",
        "seat": seat,
        "length": match.length,
        "hand_no": match.hand_no,
        "chooser": hand.chooser,
        "phase": hand.phase,
        "turn": None if over else hand.turn,
        "contract": hand.contract,
        "trump": suit_letter(hand.trump),
        "hand": [] if seat is None else names(hand.hands[seat]),  # G-V1
        "playable": names(hand.legal(seat)) if playing and seat == hand.turn else [],  # G-V5
        "counts": [len(h) for h in hand.hands],  # G-V2
        "trick": _trick(hand.leader, hand.trick) if playing else None,
        "last_trick": last,
        "tricks_played": len(hand.tricks),
        "tricks_taken": [sum(1 for *_, w in hand.tricks if w == s) for s in range(4)],
        "penalty_taken": [names(c for c in taken[s] if c in penalty_cards) for s in range(4)],
        "hearts_broken": hand.hearts_broken,
        "trumps_broken": hand.trumps_broken,
        "played": names(c for _, cs, _ in hand.tricks for c in cs) if not over else [],
        "voids": [[SUITS[x] for x in sorted(v)] for v in voids] if not over else [[]] * 4,
        "lacks": [names(x) for x in lacks] if not over else [[]] * 4,
        "hand_scores": hand.running_scores(),
        "totals": list(match.totals),  # G-S9: the hands recorded so far
        "choice": choice_panel(match, seat)
        if hand.phase == "choose" and seat == hand.chooser
        else None,  # G-Q2: the chooser only
        "score_table": score_table(match),  # G-Q3
        "away": match.away(),
        "match_over": match.over,
        "summary": None,
    }
    if hand.trick and playing:
        view["played"] = names([*(c for _, cs, _ in hand.tricks for c in cs), *hand.trick])
    dealt = [names(h) for h in hand.deal] if over else None
    if hand.fair:  # P-2: the commitment from the deal on; its salt and order once over
        view["fair"] = {"commitment": hand.fair["commitment"]}
        if over:
            view["fair"].update(salt=hand.fair["salt"], order=deal_order(dealt))
    if over:  # G-V2, G-V4: the deal and every trick, once the hand is over
        view["summary"] = {
            "deal": dealt,
            "tricks": [_trick(ld, cs, w) for ld, cs, w in hand.tricks],
            "scores": list(hand.scores),
            "early": len(hand.tricks) < 13,
        }
    return view
