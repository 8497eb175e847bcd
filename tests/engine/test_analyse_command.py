"""The analysis command (issue 31): ``python -m game.engine.analyse`` dispatches on the
scenario's ``"game"`` through the registry's ``"analyse"`` entries, like the replay
command; a game whose analysis is not there (yet) is refused with one line, exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from game.engine import cli, registry

ROOT = Path(__file__).resolve().parents[2]


def test_every_game_names_an_analyse_command():
    # the convention: <engine package>.analysis:run_scenario (registry.COMMANDS)
    assert registry.COMMANDS["analyse"] == "analysis:run_scenario"
    for key, entry in registry.GAMES.items():
        if not entry.package.startswith("games."):
            continue  # the tests' toy game has no analysis
        assert "analyse" in entry.commands, key
        assert entry.target("analyse") == f"{entry.package}.analysis:run_scenario"


def test_the_command_dispatches_on_the_game():
    from games.kelimeki.engine import analysis as kelimeki_analysis
    from games.king.engine import analysis as king_analysis

    assert registry.command("analyse", {"game": "king"}) is king_analysis.run_scenario
    assert registry.command("analyse", {"game": "kelimeki"}) is kelimeki_analysis.run_scenario


def test_a_game_without_its_analysis_module_is_refused_with_one_line(monkeypatch, tmp_path,
                                                                     capsys):  # fmt: skip
    # a package that is there (the toy game's) without an analysis module
    entry = registry.GameEntry("toy", "tests.toygame.engine", ("replay", "analyse"))
    monkeypatch.setitem(registry.GAMES, "toy", entry)
    p = tmp_path / "s.json"
    p.write_text(json.dumps({"game": "toy"}))
    assert cli.main("analyse", [str(p)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == "analysis not available for this game ('toy')\n"
    # a game's missing package keeps its own message
    monkeypatch.setitem(
        registry.GAMES,
        "toy",
        registry.GameEntry("toy", "games.no_such_game.engine", ("replay", "analyse")),
    )
    assert cli.main("analyse", [str(p)]) == 2
    assert capsys.readouterr().err == "the game 'toy' is not available yet\n"


def test_an_unknown_game_or_bad_json_exits_2_with_one_line():
    for text in ('{"game": "tavla"}', "{", "[1]"):
        proc = subprocess.run([sys.executable, "-m", "game.engine.analyse", "-"], cwd=ROOT,
                              input=text, capture_output=True, text=True, timeout=60)  # fmt: skip
        assert proc.returncode == 2 and proc.stdout == ""
        assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
