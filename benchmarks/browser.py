"""The console and a team's page in Chromium (issues 16, 25): open, and End turn to the map
redrawn.

    .venv/bin/python benchmarks/browser.py              # 79 units and 1,000 divisions, 3 rounds
    .venv/bin/python benchmarks/browser.py --quick      # 200 divisions on 100 x 100, 1 round
    .venv/bin/python benchmarks/browser.py --json       # the figures as JSON
    .venv/bin/python benchmarks/browser.py --no-preheat # Voilà without its kernel kept ready

Not a test (needs /usr/bin/chromium and Playwright). Two games: the default scenario's first
turn (79 units; not in --quick) and `turn.py`'s at turn 2, the fronts in contact, both sides'
orders given (strikes, blows, moves; 1,000 divisions on 300 x 300). Each round, a fresh copy of
each is served by its own Voilà to a fresh headless Chromium page:

- the console (`notebooks/console.ipynb`, `STRATEGIA_SCENARIO` naming the game file, as
  `make console-app` serves it: `strategia.ui.team.server`, with its kernel kept ready by
  Voilà's pre-heating, the flags of `serve_cmd.PREHEAT`; the kernel kept ready opens the game
  when the page does, `strategia.ui.widgets.gate`); `open_s` is from the page asked for to
  the map showing every counter and the turn; at 1,000 divisions `end_turn_s` from the click
  on End turn («Исполнить ход» at level 3) to the turn label showing the next turn, the
  console no longer working (⏳ gone), the map's units layer drawn with the new turn's
  counters and the page painted;
- Red's page as `strategia serve --preheat` serves it (`serve_cmd.start`; with --no-preheat as
  `strategia serve`): `team_open_s`, from the page asked for to its map showing Red's counters.

A page is asked for once its server is ready: listening, and its kernel kept ready has run its
notebook (its CPU time no longer grows), as when a mediator opens the console some time after
starting it. The kernel that replaces the one taken starts `serve_cmd.FILL_DELAY` seconds later,
after the round's End turn. Medians over the rounds. Beside them, the kernel's share
(`Console.open`, `Console.end_turn` in this process on the same game) and the bare baseline of
`turn.py`, measured in the same run.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from turn import baseline, contact_game, contact_orders, median_s, scenario, show, turn_two

from strategia.cli import serve_cmd
from strategia.game.game import Game
from strategia.rules import load_ruleset
from strategia.theatre.scenario_io import load_scenario
from strategia.ui.console import Console

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
END = re.compile("Конец хода|Исполнить ход")  # level 3: every side's orders carried out
UNITS = "document.querySelector('canvas.sg-units')"  # the map's units layer (counters.js)
COUNTERS = f"+({UNITS}?.dataset.count || 0)"  # the counters it holds
REV = f"+({UNITS}?.dataset.rev || -1)"  # the revision of the records it last drew
DEFAULT = ROOT / "maps" / "continental.toml"


def game_with_orders(folder: Path, size: int, per_side: int) -> tuple[Path, int]:
    """turn.py's game at turn 2 with both sides' orders given; the number of units."""
    rules = load_ruleset(level=3)
    sc = scenario(size, per_side)
    state = turn_two(sc, rules)
    path = contact_game(sc, state, folder)
    g = Game.open(path)
    orders = contact_orders(state, rules)
    for side in ("red", "blue"):
        g.orders([o.format("ru") for s, o in orders if s == side], side)
    g.journal.close()
    return path, len(state.units)


def fresh(start: Path, folder: Path, n: int) -> Path:
    copy = folder / f"round{n}.game"
    shutil.copy(start, copy)
    return copy


def default_game(folder: Path) -> tuple[Path, int]:
    """The default scenario's game at its first turn; the number of its units."""
    path = folder / "default.game"
    g = Game.new(load_scenario(DEFAULT), path)
    units = len(g.state.units)
    g.journal.close()
    return path, units


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(game: Path, games: Path, preheat: bool) -> tuple[subprocess.Popen[bytes], str]:
    """The console served for `game` as `make console-app` serves it."""
    port = _port()
    path = f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"  # this checkout's strategia
    env = {**os.environ, "STRATEGIA_SCENARIO": str(game), "STRATEGIA_GAMES": str(games),
           "STRATEGIA_LANG": "ru", "PYTHONPATH": path}  # fmt: skip
    flags = list(getattr(serve_cmd, "PREHEAT", ())) if preheat else []
    proc = subprocess.Popen(
        [sys.executable, "-m", serve_cmd.SERVER, "notebooks/console.ipynb", f"--port={port}",
         "--no-browser", "--Voila.ip=127.0.0.1", *flags], cwd=ROOT, env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    ready(proc, port, preheat)
    return proc, f"http://127.0.0.1:{port}/"


def serve_team(game: Path, side: str, preheat: bool) -> tuple[list[subprocess.Popen[bytes]], str]:
    """`side`'s page as `strategia serve` serves it (its own Voilà, token and notebook)."""
    port = _port()
    screen = serve_cmd.Screen(side, port, "bench-token-" + side, "127.0.0.1")
    path = f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"
    kept = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = path
    try:
        if preheat:
            procs = serve_cmd.start(game, [screen], "ru", True)
        else:
            procs = serve_cmd.start(game, [screen])
    finally:
        if kept is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = kept
    ready(procs[0], port, preheat)
    return procs, screen.url


def _cpu(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _kernels(pid: int) -> list[int]:
    return [
        k
        for k in serve_cmd._descendants({pid})
        if b"ipykernel" in Path(f"/proc/{k}/cmdline").read_bytes()
    ]


def ready(proc: subprocess.Popen[bytes], port: int, preheat: bool, limit: float = 180) -> None:
    """Until the server listens and (pre-heating) its kernel kept ready has run its notebook:
    a kernel whose CPU time has not grown for 1.5 s after it used some."""
    deadline = time.time() + limit
    while time.time() < deadline:  # listening (a GET would start a kernel)
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.3)
    else:
        raise RuntimeError("Voilà did not start")
    if not preheat:
        return
    last, still = -1.0, 0.0
    while time.time() < deadline:
        kernels = _kernels(proc.pid)
        cpu = sum(_cpu(k) for k in kernels)
        if kernels and cpu > 1.0 and cpu == last:
            still += 0.5
            if still >= 1.5:
                return
        else:
            still = 0.0
        last = cpu
        time.sleep(0.5)
    raise RuntimeError("the kernel kept ready did not finish its notebook")


def stop(procs: list[subprocess.Popen[bytes]]) -> None:
    serve_cmd.stop(procs)


def open_page(browser: Any, url: str, counters: int, text: str) -> tuple[Any, float]:
    """A new page at `url`: seconds to its map showing `counters` counters and `text`."""
    page = browser.new_context(viewport={"width": 1600, "height": 1000}).new_page()
    t = time.perf_counter()
    page.goto(url, timeout=180_000)
    page.wait_for_function(f"{COUNTERS} >= {counters}", timeout=180_000, polling=50)
    page.wait_for_function(text, timeout=60_000, polling=50)
    return page, time.perf_counter() - t


TURN = "(document.body.innerText.match(/Ход (\\d+),/) || [])[1]"


def one_round(browser: Any, url: str, units: int, end: bool = True) -> tuple[float, float, int]:
    """Seconds to the map, seconds from End turn to the map redrawn; the counters after."""
    page, opened = open_page(browser, url, units, TURN)
    if not end:
        page.context.close()
        return opened, 0.0, units
    after = f"'Ход {int(page.evaluate(TURN)) + 1},'"
    page.wait_for_timeout(2000)  # let the page settle (fit, labels) before the click
    rev = int(page.evaluate(REV))
    t = time.perf_counter()
    page.get_by_role("button", name=END).click()
    page.wait_for_function(
        f"document.body.innerText.includes({after}) && !document.body.innerText.includes('⏳')"
        f" && {REV} > {rev}",
        timeout=120_000,
        polling=20,
    )
    page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    ended = time.perf_counter() - t
    drawn = int(page.evaluate(COUNTERS))
    page.context.close()
    return opened, ended, drawn


def team_round(browser: Any, url: str, own: int) -> float:
    page, opened = open_page(browser, url, own, "document.body.innerText.includes('Красные — ')")
    page.context.close()
    return opened


def kernel_side(start: Path, folder: Path, runs: int) -> tuple[float, float]:
    """`Console.open` and `Console.end_turn` in this process, each on its own fresh copy of the
    game: what the kernel does. Medians after a warm-up."""
    opens: list[float] = []
    ends: list[float] = []
    for n in range(runs + 1):
        t = time.perf_counter()
        c = Console.open(fresh(start, folder, 100 + n), lang="ru", games=folder)
        opened = time.perf_counter() - t
        t = time.perf_counter()
        c.end_turn()
        ended = time.perf_counter() - t
        c.game.journal.close()
        if n:
            opens.append(opened)
            ends.append(ended)
    return statistics.median(opens), statistics.median(ends)


def red_units(path: Path) -> int:
    g = Game.open(path)
    n = sum(1 for u in g.state.units.values() if g.state.side_of(u.ref) == "red")
    g.journal.close()
    return n


def options(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--json", action="store_true")
    p.add_argument("--runs", type=int, default=None)
    p.add_argument("--no-preheat", action="store_true", dest="no_preheat")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright

    args = options(argv)
    preheat = not args.no_preheat
    size, per_side = (100, 100) if args.quick else (300, 500)
    runs = args.runs or (1 if args.quick else 3)
    rules = load_ruleset(level=3)
    figures: dict[str, Any] = {"size": size, "preheat": preheat}
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        start, units = game_with_orders(folder, size, per_side)
        small, small_units = default_game(folder)
        base = median_s(baseline(turn_two(scenario(size, per_side), rules), rules), 3)
        k_open, k_end = kernel_side(start, folder, runs)
        cases = [("", start, units, True)]
        if not args.quick:
            cases.insert(0, ("default_", small, small_units, False))
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for prefix, game, n_units, end in cases:
                opens, ends, teams = [], [], []
                own = red_units(game)
                for n in range(runs):
                    copy = fresh(game, folder, n)
                    proc, url = serve(copy, folder, preheat)
                    try:
                        opened, ended, after = one_round(browser, url, n_units, end)
                    finally:
                        stop([proc])
                    team_copy = fresh(game, folder, 50 + n)
                    procs, team_url = serve_team(team_copy, "red", preheat)
                    try:
                        team = team_round(browser, team_url, own)
                    finally:
                        stop(procs)
                    print(f"{prefix or 'large_'}round {n + 1}: open {opened:.2f} s, End turn "
                          f"{ended:.2f} s, {after} counters after; Red's page {team:.2f} s",
                          file=sys.stderr, flush=True)  # fmt: skip
                    opens.append(opened)
                    ends.append(ended)
                    teams.append(team)
                figures[f"{prefix}units"] = n_units
                figures[f"{prefix}open_s"] = round(statistics.median(opens), 2)
                figures[f"{prefix}open_ratio"] = round(statistics.median(opens) / base, 1)
                if end:
                    figures["end_turn_s"] = round(statistics.median(ends), 2)
                    figures["end_turn_ratio"] = round(statistics.median(ends) / base, 1)
                figures[f"{prefix}team_open_s"] = round(statistics.median(teams), 2)
                figures[f"{prefix}team_open_ratio"] = round(statistics.median(teams) / base, 1)
            browser.close()
    figures |= {
        "load_average": [round(x, 2) for x in os.getloadavg()],  # the machine's load at the end
        "divisions": units,
        "baseline_s": round(base, 4),
        "kernel_open_s": round(k_open, 2),
        "kernel_end_turn_s": round(k_end, 2),
    }
    show(figures, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
