"""`strategia serve GAME`: the mediator's console and one screen per side, each a Voilà page of
its own behind its own secret token, printed for the mediator to hand out.

Each screen is a Voilà server with one notebook and the game and the side in its environment
(STRATEGIA_GAME, STRATEGIA_SIDE): the side is fixed by the server, never by the page's URL, and
a team's kernel only ever renders that side's screen (`strategia.ui.team.screen`). The servers write
to the same game file, which is safe with any number of writers (the game store); each screen
catches up with the others' entries within a second. A wrong or old token gets Voilà's refusal.

The tokens are kept beside the game in `.GAME.tokens`, a file only its owner may read (0600),
outside the folder the servers serve. The first `serve` or `serve --plan` makes them and every
later one uses them until `--new-tokens`, so the addresses `--plan` prints are the ones `serve`
serves. Each Voilà gets its own token in its environment (JUPYTER_TOKEN), which other users
cannot read, never on its command line, which they can (`ps`).

SIGTERM, SIGHUP and Ctrl-C stop every server and its kernels (SIGHUP and SIGINT unless they
were ignored when `serve` started, as `nohup` and a shell's background jobs do).
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from strategia.cli.output import Output
from strategia.core.errors import StrategiaError
from strategia.core.i18n import Lang, Text
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
# With `--preheat`, each server keeps one kernel ready with its notebook already run (Voilà's
# pre-heated kernels): the page opens on a console or screen already built, the game already
# open. The kernel that replaces it is started FILL_DELAY seconds after a page takes one, so that
# it does not take the CPU from the page's first actions (a page opened again within that time
# waits for it). Not the default: on a machine loaded by other work, a kernel kept ready since
# the server started was seen to leave its page without its map (README, Performance).
FILL_DELAY = 20
PREHEAT = (
    "--preheat_kernel=True",
    "--pool_size=1",
    f"--VoilaKernelManager.fill_delay={FILL_DELAY}",
)
# `--token` alone is Voilà's flag "ask for a token"; the token itself comes from JUPYTER_TOKEN
# (jupyter_server's IdentityProvider). Without the flag Voilà would serve with no token at all.
AUTH = ("--token", "--IdentityProvider.logout_handler_class=strategia.ui.team.logout.LogoutHandler")
WORDS = {
    "head": Text(
        "{game}: hand each team its own address (its token is its key):",
        "{game}: дайте каждой команде ее адрес (ее ключ — токен в нем):",
    ),
    "running": Text(
        "(Ctrl-C, SIGTERM or SIGHUP stops every screen)",
        "(Ctrl-C, SIGTERM или SIGHUP останавливает все экраны)",
    ),
    "stopped": Text("the screens are stopped", "экраны остановлены"),
    "died": Text(
        "the screen of {who} stopped by itself (status {status}); the others are stopped",
        "экран: {who} остановился сам (код {status}); остальные остановлены",
    ),
    "exposed": Text(
        "{path} could be read by others: new tokens are made (hand out the new addresses)",
        "{path} могли прочесть другие: сделаны новые токены (раздайте новые адреса)",
    ),
}


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
    c.add_argument(
        "--plan", action="store_true", help="print the screens (and their tokens) and exit"
    )
    c.add_argument(
        "--new-tokens",
        action="store_true",
        dest="new_tokens",
        help="make new tokens (the addresses handed out before stop working)",
    )
    c.add_argument(
        "--preheat",
        action="store_true",
        help="keep a kernel ready for each screen, its notebook already run (pages open faster)",
    )
    c.set_defaults(handler=serve)


def plan(
    game: Path, sides: list[str] | None, host: str, port: int, renew: bool = False
) -> list[Screen]:
    """The screens for `game`: the mediator's and each side's, on free ports from `port`, each
    with its token (`tokens`)."""
    g = Game.open(game)
    known = [
        s for s in ("red", "blue", "green", "black") if s in {x.side for x in g.scenario.states}
    ]
    chosen = [g.known_side(s) for s in sides] if sides else known
    g.journal.close()
    who = ["mediator", *chosen]
    keys = tokens(game, who, renew)
    screens, p = [], port
    for w in who:
        p = _free_port(host, p)
        screens.append(Screen(w, p, keys[w], host))
        p += 1
    return screens


def folder(game: Path) -> Path:
    """The folder beside `game` holding its screens' notebooks (each server's root)."""
    game = game.resolve()
    return game.parent / f".{game.stem}.screens"


def tokens(game: Path, who: Sequence[str], renew: bool = False) -> dict[str, str]:
    """The secret token of each screen in `who`: the one kept for `game` (`token_file`), or a new
    one for a screen that has none yet (every one new with `renew`, or when others could read
    the file); whatever is new is kept at once."""
    path = token_file(game)
    kept = {} if renew or exposed(path) else _read_tokens(path)
    made = {w: kept.get(w) or secrets.token_urlsafe(24) for w in who}
    if any(kept.get(w) != t for w, t in made.items()):
        _write_tokens(path, {**kept, **made})
    return made


def token_file(game: Path) -> Path:
    """Where `game`'s screens' tokens are kept: a JSON object, screen to token, mode 0600, beside
    the game and outside the servers' folder."""
    game = game.resolve()
    return game.parent / f".{game.stem}.tokens"


def exposed(path: Path) -> bool:
    """Whether a token file exists that someone but its owner may read or write."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return False
    return not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid() or bool(st.st_mode & 0o077)


def _read_tokens(path: Path) -> dict[str, str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):  # none yet, or damaged: new tokens replace it
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str) and v}


def _write_tokens(path: Path, keys: dict[str, str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            os.fchmod(f.fileno(), 0o600)  # a leftover of an earlier run may have had another mode
            json.dump(keys, f, indent=1)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _free_port(host: str, port: int) -> int:
    for p in range(port, port + 200):
        with socket.socket() as s:
            try:
                s.bind((host, p))
            except OSError:
                continue
            return p
    raise StrategiaError(
        f"no free port from {port} on {host}", ru=f"на {host} нет свободного порта начиная с {port}"
    )


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


def start(
    game: Path, screens: list[Screen], lang: str = "ru", preheat: bool = False
) -> list[subprocess.Popen[bytes]]:
    """Start a Voilà server for each screen (its notebook, game and side, and its token in its
    environment), each in a session of its own."""
    game = game.resolve()
    books = notebooks(folder(game))
    procs = []
    for s in screens:
        env = {**os.environ, "STRATEGIA_GAME": str(game), "STRATEGIA_LANG": lang,
               "STRATEGIA_SIDE": s.who, "JUPYTER_TOKEN": s.token}  # fmt: skip
        env.pop("JUPYTER_TOKEN_FILE", None)
        book = books["mediator" if s.who == "mediator" else "team"]
        cmd = [sys.executable, "-m", "voila", str(book), "--no-browser", f"--port={s.port}",
               f"--Voila.ip={s.host}", *AUTH, *CULLING, *(PREHEAT if preheat else ())]  # fmt: skip
        try:
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
        except BaseException:
            stop(procs)
            raise
    return procs


def stop(procs: list[subprocess.Popen[bytes]], timeout: float = 10) -> None:
    """Stop the servers and everything they started: each server's process group is asked to
    stop (Voilà then shuts its kernels down), killed if it has not within `timeout` seconds;
    then whatever of their processes is left (a kernel runs in a session of its own) is killed."""
    tree = _descendants({p.pid for p in procs})
    for p in procs:
        if p.poll() is None:
            _signal_group(p.pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    for p in procs:
        try:
            p.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            _signal_group(p.pid, signal.SIGKILL)
            p.wait()
    now = _processes()
    for pid, started in tree.items():
        if now.get(pid, (0, ""))[1] == started:  # still the same process
            with suppress(OSError):
                os.kill(pid, signal.SIGKILL)


def _signal_group(pid: int, sig: int) -> None:
    with suppress(ProcessLookupError):
        os.killpg(pid, sig)


def _processes() -> dict[int, tuple[int, str]]:
    """Every process's parent and start time, from /proc (nothing where there is no /proc)."""
    out = {}
    for d in Path("/proc").glob("[0-9]*"):
        try:
            line = (d / "stat").read_text()
        except OSError:
            continue
        fields = line[line.rindex(")") + 2 :].split()  # after "pid (name) "; a name may hold ")"
        out[int(d.name)] = (int(fields[1]), fields[19])  # ppid, starttime (proc(5))
    return out


def _descendants(roots: set[int]) -> dict[int, str]:
    """The processes under `roots` (children, theirs, ...), each with its start time."""
    table = _processes()
    children: dict[int, list[int]] = {}
    for pid, (ppid, _) in table.items():
        children.setdefault(ppid, []).append(pid)
    out, todo = {}, list(roots)
    while todo:
        for c in children.get(todo.pop(), []):
            if c not in out:
                out[c] = table[c][1]
                todo.append(c)
    return out


@contextmanager
def _stopping(asked: list[int]) -> Iterator[None]:
    """While inside, SIGTERM, SIGHUP and SIGINT are noted in `asked` instead of ending the
    process (SIGHUP and SIGINT only where they are not ignored: `nohup`, a background job)."""

    def note(signum: int, frame: FrameType | None) -> None:
        asked.append(signum)

    previous = {}
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        if sig == signal.SIGTERM or signal.getsignal(sig) is not signal.SIG_IGN:
            previous[sig] = signal.signal(sig, note)
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _listing(game: Path, screens: list[Screen], lang: Lang) -> str:
    lines = [WORDS["head"](lang).format(game=game)]
    for s in screens:
        lines.append(f"  {side_name(s.who, lang, capital=True):<14} {s.url}")
    return "\n".join(lines)


def serve(args: argparse.Namespace) -> Output:
    sides = [x.strip() for x in args.sides.split(",")] if args.sides else None
    warnings = []
    if not args.new_tokens and exposed(token_file(args.game)):
        warnings.append(WORDS["exposed"](args.lang).format(path=token_file(args.game)))
    screens = plan(args.game, sides, args.host, args.port, args.new_tokens)
    data = {"game": str(args.game), "screens": [s.to_json() for s in screens]}
    text = _listing(args.game, screens, args.lang)
    if args.plan:
        return Output(text, data, warnings=warnings)
    for w in warnings:
        print(f"strategia serve: warning: {w}", file=sys.stderr, flush=True)
    asked: list[int] = []
    procs: list[subprocess.Popen[bytes]] = []
    died: tuple[Screen, int] | None = None
    with _stopping(asked):
        try:
            procs = (
                start(args.game, screens, args.screen_lang, preheat=True)
                if args.preheat
                else start(args.game, screens, args.screen_lang)
            )
            print(text + "\n" + WORDS["running"](args.lang), flush=True)
            while not asked and died is None:
                time.sleep(0.2)
                ended = [
                    (s, p.returncode)
                    for s, p in zip(screens, procs, strict=True)
                    if p.poll() is not None
                ]
                died = ended[0] if ended else None
        finally:
            stop(procs)
    if died is not None:
        who = side_name(died[0].who, args.lang)
        return Output(WORDS["died"](args.lang).format(who=who, status=died[1]), data, 2)
    return Output(WORDS["stopped"](args.lang), data)


__all__ = [
    "Screen",
    "exposed",
    "folder",
    "notebooks",
    "plan",
    "start",
    "stop",
    "token_file",
    "tokens",
]
