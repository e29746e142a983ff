"""The console in Chromium at 1,000 divisions (issue 16): open, and End turn to the map redrawn.

    .venv/bin/python benchmarks/browser.py            # 1,000 divisions on 300 x 300, 3 rounds
    .venv/bin/python benchmarks/browser.py --quick    # 200 divisions on 100 x 100, 1 round
    .venv/bin/python benchmarks/browser.py --json     # the figures as JSON

Not a test (needs /usr/bin/chromium and Playwright). The game is `turn.py`'s at turn 2, the
fronts in contact, both sides' orders given (strikes, blows, moves). Each round, a fresh copy of
it is served by its own Voilà (`notebooks/console.ipynb`, `STRATEGIA_SCENARIO` naming the game
file, as `make console-app` does) to a fresh headless Chromium page: `open_s` is from the page
asked for to the map showing every counter; `end_turn_s` from the click on End turn («Исполнить
ход» at level 3) to the turn label showing the next turn with every counter drawn anew (the old
ones gone, no ⏳). Medians over the rounds. Beside them, the kernel's share (`Console.open`,
`Console.end_turn` in this process on the same game) and the bare baseline of `turn.py`,
measured in the same run.
"""

from __future__ import annotations

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

from turn import baseline, contact_game, contact_orders, median_s, options, scenario, show, turn_two

from strategia.game.game import Game
from strategia.rules import load_ruleset
from strategia.ui.console import Console

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
END = re.compile("Конец хода|Исполнить ход")  # level 3: every side's orders carried out
COUNTERS = "document.querySelectorAll('path[fill-opacity=\"0.8\"]')"  # one a unit (layers.py)


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


def serve(game: Path, games: Path) -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    path = f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"  # this checkout's strategia
    env = {**os.environ, "STRATEGIA_SCENARIO": str(game), "STRATEGIA_GAMES": str(games),
           "STRATEGIA_LANG": "ru", "PYTHONPATH": path}  # fmt: skip
    voila = Path(sys.executable).with_name("voila")
    proc = subprocess.Popen(
        [str(voila), "notebooks/console.ipynb", f"--port={port}", "--no-browser",
         "--Voila.ip=127.0.0.1"], cwd=ROOT, env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
    )  # fmt: skip
    deadline = time.time() + 60
    while time.time() < deadline:  # listening (a GET would start a kernel)
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc, f"http://127.0.0.1:{port}/"
        except OSError:
            time.sleep(0.3)
    proc.terminate()
    raise RuntimeError("Voilà did not start")


def one_round(browser: Any, url: str, units: int) -> tuple[float, float, int]:
    """Seconds to the map, seconds from End turn to the map redrawn; the counters after."""
    page = browser.new_context(viewport={"width": 1600, "height": 1000}).new_page()
    t = time.perf_counter()
    page.goto(url, timeout=180_000)
    page.wait_for_function(f"{COUNTERS}.length >= {units}", timeout=180_000, polling=50)
    turn = "(document.body.innerText.match(/Ход (\\d+),/) || [])[1]"
    page.wait_for_function(turn, timeout=60_000, polling=50)
    opened = time.perf_counter() - t
    after = f"'Ход {int(page.evaluate(turn)) + 1},'"
    page.wait_for_timeout(2000)  # let the page settle (fit, labels) before the click
    page.evaluate(f"{COUNTERS}.forEach(p => p.dataset.old = '1')")
    t = time.perf_counter()
    page.get_by_role("button", name=END).click()
    page.wait_for_function(
        f"document.body.innerText.includes({after}) && !document.body.innerText.includes('⏳')"
        f" && {COUNTERS}.length > 0 && !document.querySelector('path[data-old]')",
        timeout=120_000,
        polling=20,
    )
    page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    ended = time.perf_counter() - t
    drawn = int(page.evaluate(f"{COUNTERS}.length"))
    page.context.close()
    return opened, ended, drawn


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


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright

    args = options(__doc__, argv)
    size, per_side = (100, 100) if args.quick else (300, 500)
    runs = args.runs or (1 if args.quick else 3)
    rules = load_ruleset(level=3)
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        start, units = game_with_orders(folder, size, per_side)
        base = median_s(baseline(turn_two(scenario(size, per_side), rules), rules), 3)
        k_open, k_end = kernel_side(start, folder, runs)
        opens, ends = [], []
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for n in range(runs):
                proc, url = serve(fresh(start, folder, n), folder)
                try:
                    opened, ended, after = one_round(browser, url, units)
                finally:
                    proc.terminate()
                    proc.wait(timeout=30)
                print(f"round {n + 1}: open {opened:.2f} s, End turn {ended:.2f} s, "
                      f"{after} counters after", file=sys.stderr, flush=True)  # fmt: skip
                opens.append(opened)
                ends.append(ended)
            browser.close()
    figures = {
        "size": size,
        "divisions": units,
        "baseline_s": round(base, 4),
        "open_s": round(statistics.median(opens), 2),
        "open_ratio": round(statistics.median(opens) / base, 1),
        "end_turn_s": round(statistics.median(ends), 2),
        "end_turn_ratio": round(statistics.median(ends) / base, 1),
        "kernel_open_s": round(k_open, 2),
        "kernel_end_turn_s": round(k_end, 2),
    }
    show(figures, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
