"""`strategia serve GAME`: the mediator's console and one screen per side, each a Voilà page of
its own behind its own secret token, printed for the mediator to hand out.

Each screen is a Voilà server with one notebook and the game and the side in its environment
(STRATEGIA_GAME, STRATEGIA_SIDE): the side is fixed by the server, never by the page's URL, and
a team's kernel only ever renders that side's screen (`strategia.ui.team`). The servers write
to the same game file, which is safe with any number of writers (the game store); each screen
catches up with the others' entries within a second. A wrong or old token gets Voilà's refusal.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from strategia.cli.output import Output
from strategia.core.i18n import Lang
from strategia.game.game import Game
from strategia.rules.kinds import side_name

MEDIATOR_CODE = """import os
from strategia.ui.console import Console

console = Console.open(os.environ["STRATEGIA_GAME"], lang=os.environ.get("STRATEGIA_LANG", "ru"))
console.watch()
console.widget"""
TEAM_CODE = """from strategia.ui.team import TeamScreen

TeamScreen.from_env().widget"""
CULLING = (  # the kernels of closed pages are shut (as voila.json does for `make console-app`)
    "--MappingKernelManager.cull_idle_timeout=20",
    "--MappingKernelManager.cull_interval=5",
    "--MappingKernelManager.cull_connected=False",
)


@dataclass(frozen=True)
class Screen:
    """One screen to serve: whose, where, its token."""

    who: str  # "mediator" or a side
    port: int
    token: str
    host: str

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/?token={self.token}"

    def to_json(self) -> dict[str, Any]:
        return {"who": self.who, "url": self.url, "port": self.port}


def add_commands(sub: Any, parent: argparse.ArgumentParser) -> None:
    c = sub.add_parser(
        "serve",
        parents=[parent],
        help="the mediator's console and a screen per side, each behind its own token",
    )
    c.add_argument("game", type=Path)
    c.add_argument("--sides", help="the teams' sides (default: every side of the game)")
    c.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    c.add_argument("--port", type=int, default=8866, help="the first port (one per screen)")
    c.add_argument("--screen-lang", choices=("ru", "en"), default="ru", dest="screen_lang")
    c.add_argument("--plan", action="store_true", help="print the screens and exit")
    c.set_defaults(handler=serve)


def plan(game: Path, sides: list[str] | None, host: str, port: int) -> list[Screen]:
    """The screens for `game`: the mediator's and each side's, on free ports from `port`."""
    g = Game.open(game)
    known = [
        s for s in ("red", "blue", "green", "black") if s in {x.side for x in g.scenario.states}
    ]
    chosen = [g.known_side(s) for s in sides] if sides else known
    g.journal.close()
    screens, p = [], port
    for who in ["mediator", *chosen]:
        p = _free_port(host, p)
        screens.append(Screen(who, p, secrets.token_urlsafe(24), host))
        p += 1
    return screens


def _free_port(host: str, port: int) -> int:
    for p in range(port, port + 200):
        with socket.socket() as s:
            try:
                s.bind((host, p))
            except OSError:
                continue
            return p
    raise OSError(f"no free port from {port} on {host}")


def notebooks(folder: Path) -> dict[str, Path]:
    """The two notebooks the servers run, written into `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    out = {}
    for name, code in (("mediator", MEDIATOR_CODE), ("team", TEAM_CODE)):
        nb = {
            "cells": [
                {
                    "cell_type": "code",
                    "execution_count": None,
                    "id": name,
                    "metadata": {},
                    "outputs": [],
                    "source": code.splitlines(True),
                }
            ],
            "metadata": {
                "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}
            },
            "nbformat": 4,
            "nbformat_minor": 5,
        }
        path = folder / f"{name}.ipynb"
        path.write_text(json.dumps(nb, indent=1), encoding="utf-8")
        out[name] = path
    return out


def start(game: Path, screens: list[Screen], lang: str = "ru") -> list[subprocess.Popen[bytes]]:
    """Start a Voilà server for each screen (its notebook, token, game and side)."""
    game = game.resolve()
    books = notebooks(game.parent / f".{game.stem}.screens")
    procs = []
    for s in screens:
        env = {**os.environ, "STRATEGIA_GAME": str(game), "STRATEGIA_LANG": lang,
               "STRATEGIA_SIDE": s.who}  # fmt: skip
        book = books["mediator" if s.who == "mediator" else "team"]
        cmd = [sys.executable, "-m", "voila", str(book), "--no-browser", f"--port={s.port}",
               f"--Voila.ip={s.host}", f"--token={s.token}", *CULLING]  # fmt: skip
        procs.append(
            subprocess.Popen(
                cmd,
                env=env,
                cwd=book.parent,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        )
    return procs


def stop(procs: list[subprocess.Popen[bytes]]) -> None:
    """Stop the servers (and their kernels)."""
    for p in procs:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGTERM)
    for p in procs:
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)


def _listing(game: Path, screens: list[Screen], lang: Lang) -> str:
    lines = [f"{game}: hand each team its own address (its token is its key):"]
    for s in screens:
        who = "the mediator" if s.who == "mediator" else side_name(s.who, lang, capital=True)
        lines.append(f"  {who:<14} {s.url}")
    return "\n".join(lines)


def serve(args: argparse.Namespace) -> Output:
    sides = [x.strip() for x in args.sides.split(",")] if args.sides else None
    screens = plan(args.game, sides, args.host, args.port)
    data = {"game": str(args.game), "screens": [s.to_json() for s in screens]}
    text = _listing(args.game, screens, args.lang)
    if args.plan:
        return Output(text, data)
    procs = start(args.game, screens, args.screen_lang)
    print(text + "\n(Ctrl-C stops every screen)", flush=True)
    try:
        while all(p.poll() is None for p in procs):
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        stop(procs)
    return Output("the screens are stopped", data)


__all__ = ["Screen", "notebooks", "plan", "start", "stop"]
