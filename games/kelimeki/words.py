"""Kelimeki's own words around its table (issue 29): the match record's game part — its
moves and words, who went out, the tiles left and that the highest score wins (W-E1…W-E6)
— and the guided first game's hints (``engine.tutorial``)."""

from __future__ import annotations

from django.utils.translation import gettext as _


def _end_text(detail: dict, names: list[str]) -> str:
    end, out = detail.get("end"), detail.get("out")
    if end == "out" and out is not None and 0 <= out < len(names):
        return _("{name} used all their tiles and the bag was empty: the game ended.").format(
            name=names[out]
        )
    if end == "passes":
        return _("Everyone passed twice in a row: the game ended.")
    if end == "forfeit":
        return _("The game ended by forfeit: one player was left.")
    return ""


def _moves(match, names: list[str]) -> list[dict]:
    """Every move of the game, replayed from the match's log (public facts only: the
    words laid and their points, how many tiles were exchanged, a pass, a forfeit)."""
    from game import services

    out = []
    for act, st in services.match_replay_iter(match):
        if act.kind not in ("play", "exchange", "pass", "timeout", "leave"):
            continue
        last = dict(st.last or {})
        if act.kind == "leave" and last.get("type") != "forfeit":
            continue
        name = names[act.seat] if act.seat is not None and act.seat < len(names) else ""
        kind = last.get("type", act.kind)
        if kind == "play":
            text = ", ".join(last.get("words") or [])
            what = _("{words}: {n} points").format(words=text, n=last.get("points", 0))
        elif kind == "exchange":
            what = _("exchanged {n} tiles").format(n=last.get("count", 0))
        elif kind == "pass":
            what = _("passed")
        elif act.kind == "timeout":
            what = _("the move time ran out: forfeited")
        else:
            what = _("forfeited")
        out.append({"n": len(out) + 1, "seat": act.seat, "name": name, "kind": kind,
                    "what": what})  # fmt: skip
    return out


def record_context(match, record: dict) -> dict:
    """The record's game part: the end in words, each seat's final score with the value
    of the tiles left taken off (W-E3) and its place (W-E5; none when forfeited, W-E6),
    and the moves.  The record itself is given back without its chart (a copy)."""
    names = record["names"]
    hand = record["hands"][0] if record["hands"] else None
    detail = hand["detail"] if hand else {}
    deducted = detail.get("deducted") or []
    ranks = detail.get("ranks") or []
    forfeited = detail.get("forfeited") or []
    rows = []
    for row in hand["rows"] if hand else []:
        s = row["seat"]
        rows.append({**row, "deducted": deducted[s] if s < len(deducted) else 0,
                     "place": ranks[s] if s < len(ranks) else None,
                     "forfeited": bool(forfeited[s]) if s < len(forfeited) else False,
                     "out": detail.get("out") == s})  # fmt: skip
    # one game, not hands: no chart of running totals "after each hand" (the record's
    # own part shows the final scores)
    return {"record": {**record, "chart": None}, "kk_game": hand, "kk_rows": rows,
            "kk_end": _end_text(detail, names),
            "kk_moves": _moves(match, names) if hand else []}  # fmt: skip


def tutorial_strings() -> dict:
    """The guided first game's hint for each step (``engine.tutorial``'s ``progress``)."""
    return {
        "first": _(
            "Your first word must cover your home square ⌂ in the top-left corner. Put "
            "KALEM there: K on ⌂, then A, L, E, M to its right (tap a tile, then a square, "
            "or drag it). The box beside the board checks the word and counts its points; "
            "then press Play."
        ),
        "wait": _("The AI is thinking. Its word comes in a moment."),
        "bonus": _(
            "Every word after the first must touch a tile on the board. Lay a word down "
            "from one of your letters, or through them: the light blue squares double a "
            "new tile's points, the red ones triple them. Check the box, then press Play."
        ),
        "exchange": _(
            "Not happy with your letters? Press Exchange, choose the tiles to give back to "
            "the bag, and confirm: you get as many new ones, and the turn passes."
        ),
        "done": _(
            "Guided game complete: you opened at your home square, joined the board and "
            "exchanged tiles. Play on to the end against the AI, or go to the lobby."
        ),
        "over": _("The guided game is over. You are ready for a real one!"),
    }
