"""The okey family's checks of tile input in the scenario and solver commands
(``kut-scenario.md``, ``kdvli-scenario.md``, ``kastet-scenario.md``): tiles in K-T2's
notation, groups, the indicator, racks.  The messages are part of the commands' contract.
The generic checks (integers, actions, the error types) are the platform's
(``game.engine.scenario_input``)."""

from __future__ import annotations

from collections import Counter

from game.engine.scenario_input import QueryError, ScenarioError
from games.okey.engine.tiles import FAKE, NotationError, face_name, parse_face


def faces(value, what: str) -> list[int]:
    """A list of okey tiles in notation (``R7``, ``F``)."""
    if not isinstance(value, list):
        raise ScenarioError(f"{what} must be a list of tiles")
    try:
        return [parse_face(t) for t in value]
    except NotationError as exc:
        raise ScenarioError(f"{what}: {exc}") from None


def tile_groups(groups, where: str) -> None:
    """An action's ``groups``: a list of tile lists."""
    if not isinstance(groups, list) or not all(isinstance(g, list) for g in groups):
        raise ScenarioError(f"{where}: 'groups' must be a list of tile lists")
    for g in groups:
        faces(g, f"{where} groups")


def indicator(value, rule: str) -> int:
    """The indicator tile; the fake okey cannot be one (``rule``)."""
    face = faces([value], "indicator")[0]
    if face == FAKE:
        raise ScenarioError(f"the indicator cannot be a fake okey ({rule})")
    return face


def four_racks(racks) -> list[list[int]]:
    if not isinstance(racks, list) or len(racks) != 4:
        raise ScenarioError("'racks' must be a list of four racks")
    return [faces(r, f"rack {i}") for i, r in enumerate(racks)]



def query_indicator(data: dict, rule: str) -> int:
    """A solver query's indicator; the fake okey cannot be one (``rule``)."""
    if "indicator" not in data:
        raise QueryError("missing field 'indicator'")
    try:
        face = parse_face(data["indicator"])
    except NotationError as exc:
        raise QueryError(f"indicator: {exc}") from None
    if face == FAKE:
        raise QueryError(f"the indicator cannot be a fake okey ({rule})")
    return face


def query_faces(tiles: list, indicator_face: int, rule: str) -> list[int]:
    """A solver query's tile names as faces; with the indicator, at most two copies of a
    face exist (``rule``)."""
    result = []
    for name in tiles:
        try:
            result.append(parse_face(name))
        except NotationError as exc:
            raise QueryError(str(exc)) from None
    counts = Counter(result)
    counts[indicator_face] += 1  # the indicator is one of its face's two copies
    for face, n in counts.items():
        if n > 2:
            extra = " counting the indicator" if face == indicator_face else ""
            raise QueryError(
                f"{face_name(face)} appears {n} times{extra}; at most 2 exist ({rule})"
            )
    return result
