"""The console's actions, as the buttons call them, on the default scenario: medians in ms.

    .venv/bin/python benchmarks/console.py [--runs 7]

Not a test. Each action runs after a warm-up, `--runs` times, each on a fresh copy of the same
position (a war in its fourth turn, Blue to move beside a Red division, as the browser test
plays it); the machine is shared and noisy, so the median is what to compare. What the browser
adds (the messages to the page, drawing) is in `test-output/browser-timing.json`.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from strategia.game import trial
from strategia.game.game import Game
from strategia.game.report_render import page
from strategia.notation.refs import UnitRef
from strategia.ui.console import Console

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"


def war(folder: Path) -> tuple[Path, str, str]:
    """The browser test's position: a saved game, Blue's unit and the Red cell beside it."""
    g = Game.new(DEFAULT, folder / "war.game", level=2)
    while True:
        st = g.state
        if st.at_war and g.side == "blue":
            for u in sorted(st.units.values(), key=lambda u: u.ref.number):
                if st.side_of(u.ref) != "blue" or u.busy or u.division.kind.key != "rifle":
                    continue
                for e in st.units.values():
                    near = min(c.chebyshev(x) for c in u.cells for x in e.cells) == 1
                    if st.side_of(e.ref) == "red" and near:
                        return g.journal.path, str(u.ref), str(e.cell)
        trial.script_turn(g)


def timed(action: Callable[[Console], object], start: Path, runs: int) -> float:
    """The median ms of `action` on fresh consoles opened on a copy of the game `start`."""
    out = []
    for n in range(runs + 1):
        with tempfile.TemporaryDirectory() as d:
            copy = Path(d) / "g.game"
            shutil.copy(start, copy)
            c = Console.open(copy, lang="ru", games=d)
            t0 = time.perf_counter()
            action(c)
            if n:  # the first run warms up
                out.append((time.perf_counter() - t0) * 1000)
    return statistics.median(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--runs", type=int, default=7)
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as d:
        start, unit, target = war(Path(d))
        ref = UnitRef.parse(unit)
        attack = f"удар по {target}: {unit}"

        def battle(c: Console) -> object:
            return c.submit(attack)

        def report(c: Console) -> object:
            return page("бой", [(c.game.state.turn, c.last)], "ru") if c.last else None

        def reopen(c: Console) -> object:
            return Console.open(c.game.journal.path, "ru", games=d)

        cases: list[tuple[str, Callable[[Console], object]]] = [
            ("open the game (replay its journal), draw the console", reopen),
            ("select a unit: its reach shaded by cost", lambda c: c.select(ref)),
            ("order a battle: result, report, map and panels redrawn", battle),
            ("the battle's report as a page to print", lambda c: (c.submit(attack), report(c))),
            ("end the move: the next side's, map and panels redrawn", lambda c: c.end_turn()),
            ("undo the last order", lambda c: (c.submit(attack), c.undo())),
            ("history: the game at an earlier entry", lambda c: c.show_history(5)),
            ("hover: the readout of a unit", lambda c: c.hover(28, 34, {"unit": unit})),
        ]
        print(f"{'action':64} median ms ({args.runs} runs)", file=sys.stdout)
        for name, action in cases:
            print(f"{name:64} {timed(action, start, args.runs):8.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
