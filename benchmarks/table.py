"""Issue 25's table: every figure beside its baseline from the same run, and its target.

    .venv/bin/python benchmarks/table.py           # turn.py, game_open.py, scale.py, browser.py
    .venv/bin/python benchmarks/table.py --quick   # their quick modes (a few minutes)

Runs each benchmark in turn (never two at once: the machine has two shared cores), each with
`--json`, and prints the table: the figure, what it measured, the bare baseline measured in the
same script's run (`turn.py`'s searches), the ratio, the target and whether it is met. Where
Chromium is missing the browser rows say so. `table(...)` makes the rows from the scripts'
JSON, without running anything (tests/test_benchmarks.py).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ("turn.py", "game_open.py", "scale.py", "browser.py")
Row = tuple[str, str, str, str, str, str]


def run(script: str, quick: bool) -> dict[str, Any] | None:
    if script == "browser.py" and not Path("/usr/bin/chromium").exists():
        return None
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    args = [sys.executable, str(ROOT / "benchmarks" / script), "--json"]
    done = subprocess.run(
        args + (["--quick"] if quick else []),
        capture_output=True, text=True, cwd=ROOT, env=env, check=False,
    )  # fmt: skip
    sys.stderr.write(done.stderr)
    if done.returncode != 0:
        print(f"{script}: failed (status {done.returncode})", file=sys.stderr)
        return None
    return dict(json.loads(done.stdout))


def _s(v: float) -> str:
    return f"{v:.3g} s" if v < 10 else f"{v:.1f} s"


def _row(name: str, value: float, base: float, target: float, unit: str = "s") -> Row:
    shown = _s(value) if unit == "s" else f"{value:g} {unit}"
    met = "yes" if value < target else "no"
    wanted = f"< {_s(target)}" if unit == "s" else f"< {target:g} {unit}"
    return (name, shown, _s(base), f"{value / base:.2f}x" if unit == "s" else "", wanted, met)


def _ratio(name: str, value: float, base: float, target: float) -> Row:
    ratio = value / base
    met = "yes" if ratio <= target else "no"
    return (name, _s(value), _s(base), f"{ratio:.2f}x", f"<= {target:g}x", met)


def table(out: dict[str, dict[str, Any] | None]) -> list[Row]:
    """The issue's rows from the benchmarks' JSON (a missing script: its rows say so)."""
    rows: list[Row] = []
    b = out.get("browser.py")
    if b:
        base = b["baseline_s"]
        if "default_open_s" in b:
            rows.append(_row(f"console open, default scenario ({b['default_units']} units)",
                             b["default_open_s"], base, 3.0))  # fmt: skip
        rows.append(_row(f"console open, {b['divisions']} divisions", b["open_s"], base, 5.0))
        rows.append(_row(f"End turn to the map redrawn, {b['divisions']} divisions",
                         b["end_turn_s"], base, 1.0))  # fmt: skip
        if "default_team_open_s" in b:
            rows.append(_row(f"a team's page to its map ({b['default_units']} units)",
                             b["default_team_open_s"], base, 3.0))  # fmt: skip
        rows.append(_row(f"a team's page to its map ({b['divisions']} divisions)",
                         b["team_open_s"], base, 3.0))  # fmt: skip
    else:
        rows.append(("browser figures", "not measured (no Chromium)", "", "", "", ""))
    g = out.get("game_open.py")
    if g:
        for o in g["opens"]:
            rows.append(_row(f"Game.open after {o['turns']} turns ({g['divisions']} divisions)",
                             o["open_s"], g["baseline_s"], 1.0))  # fmt: skip
        for k, m in g["memory"].items():
            more = next(v for n, v in m.items() if n != "open_mb")
            rows.append((f"memory of the open game, {k.replace('_', ' ')}",
                         f"{m['open_mb']} MB open, {more} MB after more turns", "", "",
                         "flat in game length", ""))  # fmt: skip
    t = out.get("turn.py")
    if t:
        rows.append(_ratio("a turn through Game (lighter: one End turn)", t["game_turn_s"],
                           t["baseline_s"], 2.5))  # fmt: skip
        rows.append(_ratio("… engine alone", t["engine_turn_s"], t["baseline_s"], 1.5))
        if "engine_whole_s" in t:  # not a target: what building every explanation whole costs
            whole, base = t["engine_whole_s"], t["baseline_s"]
            rows.append(("… engine alone, every explanation built whole", _s(whole), _s(base),
                         f"{whole / base:.2f}x", "", ""))  # fmt: skip
        said = (f"{sum(t['heavy_moves'])} moves, {sum(t['heavy_strikes'])} strikes, "
                f"{sum(t['heavy_attacks'])} blows, two End turns")  # fmt: skip
        rows.append(_ratio(f"the heavier turn through Game ({said})", t["heavy_game_s"],
                           t["heavy_baseline_s"], 2.5))  # fmt: skip
        rows.append(_ratio("… engine alone", t["heavy_engine_s"], t["heavy_baseline_s"], 1.5))
    s = out.get("scale.py")
    if s:
        per = ", ".join(f"{r['ms_per_order']} ms at {r['divisions']}" for r in s["sizes"])
        growth = s["per_order_growth"]
        rows.append(("cost of an order", per, "", f"{growth}x for {s['units_growth']}x units",
                     "flat", "yes" if growth <= 1.25 else "no"))  # fmt: skip
    return rows


def render(rows: list[Row]) -> str:
    head: Row = ("figure", "measured", "baseline", "× baseline", "target", "met?")
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--quick", action="store_true")
    args = p.parse_args(argv)
    out: dict[str, dict[str, Any] | None] = {}
    for script in SCRIPTS:
        print(f"--- {script}", file=sys.stderr, flush=True)
        out[script] = run(script, args.quick)
        if out[script] is not None:
            print(f"{script}: {json.dumps(out[script])}", flush=True)
    print(render(table(out)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
