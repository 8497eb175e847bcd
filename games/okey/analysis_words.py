"""The okey family's moves in words for the analysis (issue 31): KÜT's, KDVli's and
Kastet's ``analysis_move_text`` (``game.web.GameWeb``) say a decision's ``played`` and
``best`` (each game's ``engine/analysis.py``: scenario actions, tiles by face) with these,
in the request's language."""

from __future__ import annotations

from django.utils.translation import pgettext


def tile_text(face: str) -> str:
    """``R13`` → "red 13", ``F`` → "fake okey" (the replay's words)."""
    if face == "F":
        return pgettext("analysis move", "fake okey")
    colours = {
        "R": pgettext("analysis move", "red"),
        "Y": pgettext("analysis move", "yellow"),
        "B": pgettext("analysis move", "blue"),
        "K": pgettext("analysis move", "black"),
    }
    return f"{colours.get(face[:1], face[:1])} {face[1:]}"


def groups_text(groups) -> str:
    return " · ".join(", ".join(tile_text(f) for f in g) for g in groups or [])


def action_text(a: dict) -> str:
    """One scenario action of the okey family in words."""
    kind = a.get("type")
    tile = tile_text(a["tile"]) if a.get("tile") else ""
    groups = groups_text(a.get("groups"))
    if kind == "discard":
        return pgettext("analysis move", "discard %(tile)s") % {"tile": tile}
    if kind == "finish":
        return pgettext("analysis move", "finish with %(tile)s (%(groups)s)") % {
            "tile": tile, "groups": groups}  # fmt: skip
    if kind == "take_discard":
        text = pgettext("analysis move", "take the thrown tile")
        return f"{text}, {action_text(a['then'])}" if a.get("then") else text
    if kind == "open":
        return pgettext("analysis move", "open with %(groups)s") % {"groups": groups}
    if kind == "new_groups":
        return pgettext("analysis move", "lay %(groups)s") % {"groups": groups}
    if kind == "lay_off":
        return pgettext("analysis move", "lay off %(tile)s") % {"tile": tile}
    if kind == "auto_lay_off":
        return pgettext("analysis move", "lay off every tile that fits")
    if kind == "lay":  # Kastet: the run area the lay leaves
        laid = a.get("table", []) + a.get("pairs", [])
        return pgettext("analysis move", "lay to leave %(groups)s") % {"groups": groups_text(laid)}
    simple = {
        "draw": pgettext("analysis move", "draw from the deck"),
        "pass": pgettext("analysis move", "pass"),
        "undo": pgettext("analysis move", "undo"),
        "claim": pgettext("analysis move", "claim the thrown tile"),
        "timeout": pgettext("analysis move", "the time ran out"),
        "show_indicator": pgettext("analysis move", "show the indicator"),
    }
    return simple.get(kind, str(kind))


def okey_move_text(move: dict | None) -> str:
    """A decision's ``played`` or ``best``: KÜT's whole turn (``{"actions": [...]}``) or
    one action."""
    if not move:
        return ""
    if "actions" in move:
        return "; ".join(action_text(a) for a in move["actions"])
    return action_text(move)
