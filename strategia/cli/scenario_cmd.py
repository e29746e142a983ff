"""`strategia scenario check|show|convert`: validate, summarise and convert scenario files."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from strategia.cli.output import FORCE_HELP, SCENARIO_HELP, Output, check_output, scenario_arg
from strategia.core.errors import StrategiaError
from strategia.core.i18n import Lang, Text
from strategia.core.numbers import unit_word
from strategia.rules.kinds import DivisionKind, Side, side_name
from strategia.theatre import terrain
from strategia.theatre.ascii_map import render
from strategia.theatre.scenario import Scenario, scenario_warnings, summary
from strategia.theatre.scenario_io import ScenarioError, load_scenario, save_scenario


def add_commands(sub: Any, parent: argparse.ArgumentParser) -> None:
    p = sub.add_parser("scenario", help="check, show or convert a scenario file")
    ss = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    c = ss.add_parser("check", parents=[parent], help="validate a scenario; report every problem")
    c.add_argument("file", type=scenario_arg, help=SCENARIO_HELP)
    c.set_defaults(handler=check)
    s = ss.add_parser("show", parents=[parent], help="a text summary and an ASCII map")
    s.add_argument("file", type=scenario_arg, help=SCENARIO_HELP)
    s.add_argument(
        "--level", type=int, choices=(1, 2, 3), help="show the map as this level sees it"
    )
    s.add_argument("--no-units", action="store_true", help="leave the units off the map")
    s.set_defaults(handler=show)
    v = ss.add_parser(
        "convert",
        parents=[parent],
        help="write the theatre to NetCDF (OUT.nc), or the scenario to text (OUT.toml)",
    )
    v.add_argument("file", type=scenario_arg, help=SCENARIO_HELP)
    v.add_argument("out", type=Path)
    v.add_argument("--force", action="store_true", help=FORCE_HELP)
    v.set_defaults(handler=convert)
    r = ss.add_parser("random", parents=[parent], help="a random theatre with forces, for trials")
    r.add_argument("out", type=Path, help="the scenario file to write (.toml)")
    r.add_argument("--force", action="store_true", help=FORCE_HELP)
    r.add_argument("--size", type=int, nargs=2, default=(64, 44), metavar=("W", "H"))
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--divisions", type=int, default=30, help="divisions a side")
    r.add_argument("--rivers", type=int, default=4)
    r.add_argument(
        "--netcdf", action="store_true", help="keep the theatre in a NetCDF file beside it"
    )
    r.set_defaults(handler=random_command)
    t = ss.add_parser(
        "trial", parents=[parent], help="a few turns, the computer on every side: the balance"
    )
    t.add_argument("file", type=scenario_arg, help=SCENARIO_HELP)
    t.add_argument("--turns", type=int, default=5)
    t.add_argument("--level", type=int, choices=(1, 2, 3))
    t.add_argument("--script", action="store_true", help="the old scripted orders instead")
    t.set_defaults(handler=trial_command)


def check(args: argparse.Namespace) -> Output:
    try:
        sc = load_scenario(args.file)
    except ScenarioError as e:
        data = {"file": str(args.file), "ok": False, "problems": [str(p) for p in e.problems]}
        raise _Reported(e, data) from None
    cells = unit_word("cell", sc.height, args.lang)
    text = Text(
        f"{args.file}: ok — «{sc.name}», {sc.width} × {sc.height} {cells}",
        f"{args.file}: без ошибок — «{sc.name}», {sc.width} × {sc.height} {cells}",
    )(args.lang)
    warnings = [w.say(args.lang) for w in scenario_warnings(sc)]
    word = Text("warning", "предупреждение")(args.lang)
    text += "".join(f"\n  {word}: {w}" for w in warnings)
    data = {"file": str(args.file), "ok": True, "problems": [], "warnings": warnings}
    return Output(text, data)


SHOW = {  # what `scenario show`, `convert` and `random` say
    "level": Text("level", "уровень"),
    "reserves": Text("reserves", "резервы"),
    "places": Text(
        "  cities {cities}, fortresses {fortresses}, transport nodes {nodes}",
        "  городов: {cities}, крепостей: {fortresses}, транспортных узлов: {nodes}",
    ),
    "wrote_theatre": Text("wrote the theatre to {out}", "театр записан в {out}"),
    "wrote_scenario": Text("wrote the scenario to {out}", "сценарий записан в {out}"),
    "wrote_random": Text(
        "wrote a random scenario to {out} ({w} × {h}, seed {seed})",
        "случайный сценарий записан в {out} ({w} × {h}, зерно {seed})",
    ),
}
SIDE_KEYS = {s.key for s in Side}


def _kind(ru: str, lang: Lang) -> str:
    """A division type the summary counts by its Russian name, in `lang`."""
    kind = DivisionKind.find(ru)
    return kind.label(lang) if kind is not None else ru


class _Reported(StrategiaError):
    """A check that found problems: the CLI prints them in the reader's language (as JSON with
    --json) and exits 1 (findings)."""

    status = 1

    def __init__(self, error: ScenarioError, data: dict[str, Any]) -> None:
        super().__init__(str(error), ru=error.say("ru"))
        self.problems = error.problems
        self.data = data


def _units_on_map(sc: Scenario) -> dict[Any, str]:
    letters = {"red": "R", "blue": "B", "green": "G", "black": "K"}
    out = {}
    for f in sc.forces:
        side = sc.state(f.state).side
        for p in f.deployment:
            for cell in p.cells:
                out[cell] = letters[side]
    return out


def show(args: argparse.Namespace) -> Output:
    sc = load_scenario(args.file)
    level = args.level or sc.settings.level
    info = summary(sc)
    lang = args.lang
    lines = [f"«{sc.name}»  {sc.width} × {sc.height}  {SHOW['level'](lang)} {level}"]
    for s in info["states"]:
        f = info["forces"].get(s["code"], {})
        divs = ", ".join(f"{n} {_kind(k, lang)}" for k, n in f.get("divisions", {}).items())
        res = ", ".join(f"{n} {_kind(k, lang)}" for k, n in f.get("reserves", {}).items())
        side = side_name(s["side"], lang) if s["side"] in SIDE_KEYS else s["side"]
        lines.append(
            f"  {s['code']} {s['name']} ({side}): {divs or '—'}; {SHOW['reserves'](lang)}: "
            f"{res or '—'}"
        )
    lines.append(
        SHOW["places"](lang).format(
            cities=info["cities"], fortresses=info["fortresses"], nodes=info["transport_nodes"]
        )
    )
    units = None if args.no_units else _units_on_map(sc)
    lines += ["", render(sc.theatre, level, units, lang=args.lang)]
    info["map"] = render(sc.theatre, level, units, legend=False).split("\n")
    return Output("\n".join(lines), info)


def convert(args: argparse.Namespace) -> Output:
    check_output("", args.out, args.force, [args.file])
    sc = load_scenario(args.file)
    if args.out.suffix == ".nc":
        terrain.save(sc.theatre, args.out)
        what = "theatre"
    else:
        save_scenario(sc, args.out)
        what = "scenario"
    text = SHOW[f"wrote_{what}"](args.lang).format(out=args.out)
    return Output(text, {"file": str(args.out), "wrote": what})


def random_command(args: argparse.Namespace) -> Output:
    from strategia.theatre.generate import random_scenario

    check_output("", args.out, args.force)
    if args.netcdf:
        check_output("--netcdf", args.out.with_suffix(".nc"), args.force, [args.out])
    w, h = args.size
    sc = random_scenario(
        w, h, seed=args.seed, divisions_per_side=args.divisions, rivers=args.rivers
    )
    out = save_scenario(
        sc, args.out, netcdf=args.out.with_suffix(".nc").name if args.netcdf else None
    )
    text = SHOW["wrote_random"](args.lang).format(out=out, w=w, h=h, seed=args.seed)
    return Output(text, summary(sc))


def trial_command(args: argparse.Namespace) -> Output:
    import tempfile

    from strategia.cli.auto_cmd import play
    from strategia.game.game import Game
    from strategia.game.trial import balance, script_turn
    from strategia.players import Player, settings

    sc = load_scenario(args.file)
    game = Game.new(sc, Path(tempfile.mkdtemp()) / "trial.game", level=args.level, seed=1)
    sides = {s.side for s in sc.states}
    players = {s: Player.of_settings(s, settings(s)) for s in sides}
    forces = balance(
        game, args.turns, script_turn if args.script else lambda g: play(g, players, g.state.turn)
    )
    head = Text("balance of forces by turn (Σ 9.6 ratings × strength)", "соотношение сил по ходам")
    lines = [head(args.lang)] + [
        f"  {side:<6} " + " ".join(f"{v:7.2f}" for v in values) for side, values in forces.items()
    ]
    by = "script" if args.script else "computer"
    return Output("\n".join(lines), {"turns": args.turns, "forces": forces, "by": by})
