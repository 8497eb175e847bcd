"""The systemd units in ``deploy/systemd/`` (README, Production: the restart policy) agree
with the code: every command they run names a real entry point with real options, every
process is restarted without limit and has a health check that restarts that very
process, there is exactly one beat, and the README's commands are theirs."""

from __future__ import annotations

import importlib
import shlex
from pathlib import Path

import pytest
from celery.bin.celery import celery as celery_cli
from django.core.management import load_command_class

from tests.conftest import ROOT

UNITS = ROOT / "deploy" / "systemd"
VENV_BIN = "/srv/kut/.venv/bin/"
# main unit -> its health check (a service of the same stem with its timer)
PROCESSES = {
    "kut-daphne@.service": "kut-daphne-health@",
    "kut-celery-worker.service": "kut-celery-worker-health",
    "kut-celery-beat.service": "kut-celery-beat-health",
    # issue 31: the analysis of finished matches, on its own queue
    "kut-celery-analysis.service": "kut-celery-analysis-health",
}


def parse(path: Path) -> dict[str, dict[str, list[str]]]:
    """A unit file: section -> key -> values (a key may repeat)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current = None
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        assert current is not None, f"{path.name}: {line!r} outside a section"
        key, sep, value = line.partition("=")
        assert sep, f"{path.name}: not key=value: {line!r}"
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


def one(unit: dict, section: str, key: str) -> str:
    values = unit.get(section, {}).get(key, [])
    assert len(values) == 1, (section, key, values)
    return values[0]


def expand(text: str) -> str:
    """The specifiers these units use, for an instance on port 8000 of host ``host``."""
    return text.replace("%i", "8000").replace("%H", "host")


def options(command) -> set[str]:
    return {opt for p in command.params for opt in (*p.opts, *p.secondary_opts)}


def check_celery(argv: list[str]) -> str:
    """``celery -A kut_site <worker|beat> <options>``: the app exists, the options are
    the subcommand's.  Returns the subcommand."""
    assert argv[:3] == ["celery", "-A", "kut_site"], argv
    from kut_site.celery import app

    assert app.main == "kut_site"
    sub = celery_cli.commands[argv[3]]
    known = options(sub)
    for arg in argv[4:]:
        if arg.startswith("-"):
            assert arg.split("=")[0] in known, f"celery {argv[3]} has no option {arg}"
    return argv[3]


def check_daphne(argv: list[str]) -> None:
    from daphne.cli import CommandLineInterface

    assert argv[0] == "daphne"
    parser = CommandLineInterface().parser
    args = parser.parse_args(argv[1:])
    module, _, attr = args.application.partition(":")
    assert callable(getattr(importlib.import_module(module), attr))


def check_health(argv: list[str]) -> list[str]:
    """``python manage.py health <options>``: the command parses them."""
    assert argv[:3] == [VENV_BIN + "python", "manage.py", "health"], argv
    parser = load_command_class("game", "health").create_parser("manage.py", "health")
    parser.parse_args(argv[3:])  # exits (fails the test) on an unknown option
    return argv[3:]


def main_command(unit: dict) -> list[str]:
    argv = shlex.split(expand(one(unit, "Service", "ExecStart")))
    assert argv[0].startswith(VENV_BIN), argv[0]  # the site's virtualenv
    return [argv[0][len(VENV_BIN) :], *argv[1:]]


def test_the_folder_holds_the_processes_their_checks_and_the_target():
    names = {p.name for p in UNITS.iterdir()}
    expected = {"kut.target", *PROCESSES}
    for check in PROCESSES.values():
        expected |= {check + ".service", check + ".timer"}
    assert names == expected


@pytest.mark.parametrize("name", sorted(PROCESSES))
def test_each_process_restarts_always_without_a_limit(name):
    unit = parse(UNITS / name)
    assert one(unit, "Service", "Restart") == "always"
    assert 1 <= float(one(unit, "Service", "RestartSec")) <= 10
    assert one(unit, "Unit", "StartLimitIntervalSec") == "0"  # never gives up
    assert one(unit, "Service", "User") == "kut"
    assert one(unit, "Service", "EnvironmentFile") == "/etc/kut/kut.env"
    assert one(unit, "Unit", "PartOf") == "kut.target"
    assert one(unit, "Install", "WantedBy") == "kut.target"


def test_the_commands_name_real_entry_points_and_options():
    daphne = main_command(parse(UNITS / "kut-daphne@.service"))
    check_daphne(daphne)
    assert daphne[-1] == "kut_site.asgi:application" and "8000" in daphne
    worker = main_command(parse(UNITS / "kut-celery-worker.service"))
    assert check_celery(worker) == "worker"
    beat = main_command(parse(UNITS / "kut-celery-beat.service"))
    assert check_celery(beat) == "beat"
    analysis = main_command(parse(UNITS / "kut-celery-analysis.service"))
    assert check_celery(analysis) == "worker"
    assert analysis[analysis.index("-Q") + 1] == "analysis" and "-Q" not in worker


@pytest.mark.parametrize("name", sorted(PROCESSES))
def test_each_health_check_restarts_its_own_process(name):
    stem = PROCESSES[name]
    check = parse(UNITS / f"{stem}.service")
    assert one(check, "Service", "Type") == "oneshot"
    shell = shlex.split(one(check, "Service", "ExecStart"))
    assert shell[:2] == ["/bin/sh", "-c"] and len(shell) == 3, shell
    probe, sep, restart = expand(shell[2]).partition("||")
    assert sep, "the check must restart the process when it fails"
    restart_argv = shlex.split(restart)
    assert restart_argv[:2] == ["systemctl", "restart"]
    assert restart_argv[2] == expand(name.replace("@.", "@%i.")), restart_argv
    probe_argv = shlex.split(probe)
    if name.startswith("kut-daphne"):
        assert probe_argv[0] == "curl" and "-f" not in probe_argv  # any answer passes
        assert probe_argv[-1] == "http://127.0.0.1:8000/healthz"
        assert "--max-time" in probe_argv
    else:
        assert probe_argv[:4] == ["runuser", "-u", "kut", "--"]  # the app code not as root
        args = check_health(probe_argv[4:])
        which = "--beat" if "beat" in name else "--worker"
        assert which in args
        if which == "--worker":  # the name pinged is the worker's own
            worker = main_command(parse(UNITS / name))
            assert args[args.index("--name") + 1] == worker[worker.index("-n") + 1]
    timer = parse(UNITS / f"{stem}.timer")
    assert float(one(timer, "Timer", "OnUnitActiveSec")) <= 60
    assert one(timer, "Install", "WantedBy") == "kut.target"


def test_exactly_one_beat_and_it_is_no_template():
    """Of the processes, one runs beat (no worker embeds one with -B), and it is no
    template (a template could be started twice)."""
    beats = []
    for path in sorted(UNITS.glob("*.service")):
        unit = parse(path)
        if unit["Service"].get("Restart") != ["always"]:
            continue  # a check
        argv = main_command(unit)
        if argv[0] == "celery" and (argv[3] == "beat" or {"-B", "--beat"} & set(argv)):
            beats.append(path.name)
    assert beats == ["kut-celery-beat.service"]


def test_the_readme_runs_the_same_commands_and_names_every_unit():
    readme = (ROOT / "README.md").read_text()
    block = readme.split("## Production", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    commands = [shlex.split(line.split("#")[0]) for line in block.splitlines()
                if line.startswith(("daphne", "celery"))]  # fmt: skip
    units = {
        "daphne": main_command(parse(UNITS / "kut-daphne@.service")),
        "worker": main_command(parse(UNITS / "kut-celery-worker.service")),
        "beat": main_command(parse(UNITS / "kut-celery-beat.service")),
        "analysis": main_command(parse(UNITS / "kut-celery-analysis.service")),
    }
    assert len(commands) == 4
    for argv in commands:
        which = "daphne" if argv[0] == "daphne" else "analysis" if "-Q" in argv else argv[3]
        unit = units[which]
        assert unit[: len(argv)] == argv, (argv, unit)  # the README's, plus options
    production = readme.split("## Production", 1)[1].split("\n## ", 1)[0]
    assert "`deploy/systemd/`" in production and "kut.target" in production
    for path in UNITS.iterdir():  # by name (a template's with its instance, PORT)
        stem = path.name.split("@")[0] + "@" if "@" in path.name else path.stem
        assert stem in production, path.name
