"""Contracts and the quota (king.md sections 4 and 8).

The quota state is only the record of choices (G-Q1): ``chosen[seat]`` lists the
contract ids a seat chose, oldest first.  Everything else is derived here.
"""

from __future__ import annotations

from games.king.engine.cards import HEART_CARDS, KH, MEN, QUEENS

# G-H2, in the table's order (also G-T2's order for a timed-out choice)
PENALTIES = ("el_almaz", "kupa_almaz", "erkek_almaz", "kiz_almaz", "rifki", "son_iki")
KOZ = "koz"
CONTRACTS = (*PENALTIES, KOZ)

PENALTY_CARDS: dict[str, frozenset[int]] = {
    "el_almaz": frozenset(),
    "kupa_almaz": HEART_CARDS,
    "erkek_almaz": MEN,
    "kiz_almaz": QUEENS,
    "rifki": frozenset({KH}),
    "son_iki": frozenset(),
    KOZ: frozenset(),
}
# G-P9: these end once their last penalty card is taken
EARLY_END = frozenset({"kupa_almaz", "erkek_almaz", "kiz_almaz", "rifki"})
# G-P7: void seats must play one of the contract's penalty cards (Rıfkı: KH only)
PENALTY_DUTY = EARLY_END
# G-P6: hearts may not be led before broken
HEARTS_RULE = frozenset({"kupa_almaz", "rifki"})

HAND_TOTAL = {  # G-H2, G-S8
    "el_almaz": -650,
    "kupa_almaz": -390,
    "erkek_almaz": -480,
    "kiz_almaz": -400,
    "rifki": -320,
    "son_iki": -360,
    KOZ: 650,
}

LENGTHS = (4, 8, 12, 20)  # G-M2
DEFAULT_LENGTH = 20
# G-H4: length -> (choices per seat, at most ceza, at most koz)
QUOTA = {20: (5, 3, 2), 12: (3, 2, 1), 8: (2, 1, 1), 4: (1, 1, 1)}
PLAYS_PER_PENALTY = 2  # G-H5


def is_penalty(contract: str) -> bool:
    return contract in PENALTIES


def seat_left(length: int, chosen_seat: list[str]) -> tuple[int, int]:
    """G-Q1: (ceza left, koz left) for one seat: the smaller of its allowance left of
    the kind and its choices left in total."""
    per_seat, max_ceza, max_koz = QUOTA[length]
    total_left = per_seat - len(chosen_seat)
    ceza = sum(1 for c in chosen_seat if c != KOZ)
    koz = len(chosen_seat) - ceza
    return (max(0, min(max_ceza - ceza, total_left)), max(0, min(max_koz - koz, total_left)))


def plays_left(chosen: list[list[str]]) -> dict[str, int]:
    """G-H5: each penalty contract's plays left in the match."""
    return {p: PLAYS_PER_PENALTY - sum(c.count(p) for c in chosen) for p in PENALTIES}


def quota(length: int, chosen: list[list[str]]) -> dict:
    """The quota as the scenario output and the score table show it (G-Q1, G-Q3)."""
    left = [seat_left(length, c) for c in chosen]
    return {
        "ceza": [c for c, _ in left],
        "koz": [k for _, k in left],
        "contracts": plays_left(chosen),
    }


def refusal(length: int, chosen: list[list[str]], seat: int, contract: str) -> str | None:
    """Why G-H4/G-H5 forbid ``seat`` this contract now (G-H7, G-Q2), or None."""
    ceza, koz = seat_left(length, chosen[seat])
    if contract == KOZ:
        return "no_koz_left" if koz == 0 else None
    if ceza == 0:
        return "no_ceza_left"
    if plays_left(chosen)[contract] <= 0:
        return "contract_used_up"
    return None


def allowed(length: int, chosen: list[list[str]], seat: int) -> list[str]:
    return [c for c in CONTRACTS if refusal(length, chosen, seat, c) is None]


def history_error(length: int, chosen: list[list[str]], chooser: int) -> str | None:
    """Why ``chosen`` cannot be the history before a hand chosen by ``chooser`` (the
    scenario's rule, king-scenario.md), or None."""
    n = sum(len(c) for c in chosen)
    if n >= length:
        return f"{n} choices already made in a {length}-hand match"
    per_seat, max_ceza, max_koz = QUOTA[length]
    for s in range(4):
        want = n // 4 + (1 if 1 <= (chooser - s) % 4 <= n % 4 else 0)
        if len(chosen[s]) != want:
            return (f"seat {s} has {len(chosen[s])} choices; with {n} in all and chooser "
                    f"{chooser} it must have {want} (G-M3)")  # fmt: skip
        koz = chosen[s].count(KOZ)
        if koz > max_koz:
            return f"seat {s} chose koz {koz} times; at most {max_koz} (G-H4)"
        if len(chosen[s]) - koz > max_ceza:
            return f"seat {s} chose {len(chosen[s]) - koz} ceza; at most {max_ceza} (G-H4)"
    for p, left in plays_left(chosen).items():
        if left < 0:
            return f"{p} chosen {PLAYS_PER_PENALTY - left} times; at most twice (G-H5)"
    return None
