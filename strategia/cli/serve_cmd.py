"""`strategia serve GAME`: the mediator's console and one screen per side, each a Voilà page of
its own behind its own secret token, printed for the mediator to hand out.

Each screen is a Voilà server (`strategia.ui.team.server`: Voilà without the routes that answer
without a token) with one notebook and the game and the side in its environment
(STRATEGIA_GAME, STRATEGIA_SIDE): the side is fixed by the server, never by the page's URL, and
a team's kernel only ever renders that side's screen (`strategia.ui.team.screen`). The servers write
to the same game file, which is safe with any number of writers (the game store); each screen
catches up with the others' entries within a second. A wrong or old token gets Voilà's refusal.

Each screen's token and port are planned once and kept (`serve_plan`): the addresses `--plan`
prints are the ones `serve` serves, after a restart too, and a planned port that is taken is
refused, never exchanged for another. Each Voilà gets its own token in its environment
(JUPYTER_TOKEN), which other users cannot read, never on its command line, which they can (`ps`).
The notebooks the servers run are written into a folder only the user may enter, beside the game
(`serve_folder`).

SIGTERM, SIGHUP and Ctrl-C stop every server and its kernels (SIGHUP and SIGINT unless they
were ignored when `serve` started, as `nohup` and a shell's background jobs do). On Linux each
server is also told by the kernel when `serve` ends, however it ends (`kill -9` included), and
stops: its kernels follow it within a second (ipykernel watches its parent).
"""

from __future__ import annotations

import argparse
import ctypes
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from types import FrameType
from typing import Any

from strategia.cli.output import Output, need
from strategia.cli.serve_folder import folder, notebooks, private_folder
from strategia.cli.serve_plan import (
    DEFAULT_PORT,
    Screen,
    _free,
    _read_plan,
    check_ports,
    exposed,
    holder,
    plan,
    token_file,
)
from strategia.core.i18n import Lang, Text
from strategia.rules.kinds import side_name

SERVER = "strategia.ui.team.server"  # run as `python -m`
# With `--preheat`, each server keeps one kernel ready with its notebook already run (Voilà's
# pre-heated kernels): the page opens on a console or screen already built, the game already
# open. The kernel that replaces it is started FILL_DELAY seconds after a page takes one, so that
# it does not take the CPU from the page's first actions (a page opened again within that time
# waits for it). Not the default: on a machine loaded by other work, a kernel kept ready since
# the server started was seen to leave its page without its map (README, Performance).
# Voilà hands a pre-heated kernel its page's request (the token in it) on a websocket that
# asks for no token; the screens' server does not serve it (`strategia.ui.team.server`).
FILL_DELAY = 20
PREHEAT = (
    "--preheat_kernel=True",
    "--pool_size=1",
    f"--VoilaKernelManager.fill_delay={FILL_DELAY}",
)
# `--token` alone is Voilà's flag "ask for a token"; the token itself comes from JUPYTER_TOKEN
# (jupyter_server's IdentityProvider). Without the flag Voilà would serve with no token at all.
AUTH = ("--token", "--IdentityProvider.logout_handler_class=strategia.ui.team.logout.LogoutHandler")
# A port taken makes Voilà exit, never listen on another (by default it tries 50 others)
FIXED_PORT = ("--Voila.port_retries=0",)
PR_SET_PDEATHSIG = 1  # prctl(2)
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
    "died_port": Text("; its port {port} is held by {holder}", "; его порт {port} занят: {holder}"),
    "exposed": Text(
        "{path} could be read by others: new tokens and ports are made (hand out the new "
        "addresses)",
        "{path} могли прочесть другие: сделаны новые токены и порты (раздайте новые адреса)",
    ),
    "kept_ports": Text(
        "the screens keep their planned ports ({ports}); --new-ports takes new ones from {port} "
        "(the addresses handed out before stop working)",
        "у экранов остаются их порты ({ports}); --new-ports возьмет новые, начиная с {port} "
        "(розданные адреса перестанут работать)",
    ),
}


def add_commands(sub: Any, parent: argparse.ArgumentParser) -> None:
    c = sub.add_parser(
        "serve",
        parents=[parent],
        help="the mediator's console and a screen per side, each behind its own token",
    )
    c.add_argument("game", type=Path)
    c.add_argument("--sides", help="the teams' sides (default: every side of the game)")
    c.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    c.add_argument(
        "--port",
        type=int,
        default=None,
        help=f"the first port of screens not planned yet (default {DEFAULT_PORT}); a planned "
        "screen keeps its port",
    )
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
        "--new-ports",
        action="store_true",
        dest="new_ports",
        help="plan every screen's port anew from --port (the addresses handed out before stop "
        "working)",
    )
    c.add_argument(
        "--preheat",
        action="store_true",
        help="keep a kernel ready for each screen, its notebook already run (pages open faster)",
    )
    c.set_defaults(handler=serve)


def _dies_with_us() -> Callable[[], None] | None:
    """What a child runs before Voilà starts so that it is sent SIGTERM when this process ends,
    however it ends (Linux's PR_SET_PDEATHSIG; None elsewhere). Voilà stops on SIGTERM, and its
    kernels stop within a second of it (ipykernel polls its parent). The signal follows the
    thread that started the child: `start` is called from the main thread."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def preexec() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        if os.getppid() != parent:  # ended before the wish was made
            os.kill(os.getpid(), signal.SIGTERM)

    return preexec


def start(
    game: Path, screens: list[Screen], lang: str = "ru", preheat: bool = False
) -> list[subprocess.Popen[bytes]]:
    """Start a Voilà server for each screen (its notebook, game and side, and its token in its
    environment), each in a session of its own, each ending when this process does."""
    game = game.resolve()
    books = notebooks(private_folder(game))
    procs = []
    for s in screens:
        env = {**os.environ, "STRATEGIA_GAME": str(game), "STRATEGIA_LANG": lang,
               "STRATEGIA_SIDE": s.who, "JUPYTER_TOKEN": s.token}  # fmt: skip
        env.pop("JUPYTER_TOKEN_FILE", None)
        book = books["mediator" if s.who == "mediator" else "team"]
        cmd = [sys.executable, "-m", SERVER, str(book), "--no-browser", f"--port={s.port}",
               f"--Voila.ip={s.host}", *FIXED_PORT, *AUTH,
               *(PREHEAT if preheat else ())]  # fmt: skip
        try:
            procs.append(
                subprocess.Popen(
                    cmd,
                    env=env,
                    cwd=book.parent,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,
                    preexec_fn=_dies_with_us(),
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
    need("console", "voila", "ipywidgets", "ipyleaflet", "anywidget")
    sides = [x.strip() for x in args.sides.split(",")] if args.sides else None
    warnings = []
    path = token_file(args.game)
    before, trusted = _read_plan(path)
    if not args.new_tokens and not trusted:
        warnings.append(WORDS["exposed"](args.lang).format(path=path))
    screens = plan(args.game, sides, args.host, args.port, args.new_tokens, args.new_ports)
    kept = sorted(before[s.who]["port"] for s in screens if before.get(s.who, {}).get("port"))
    if trusted and args.port is not None and not args.new_ports and kept and kept[0] != args.port:
        ports = ", ".join(map(str, kept))
        warnings.append(WORDS["kept_ports"](args.lang).format(ports=ports, port=args.port))
    data = {"game": str(args.game), "screens": [s.to_json() for s in screens]}
    text = _listing(args.game, screens, args.lang)
    if args.plan:
        return Output(text, data, warnings=warnings)
    for w in warnings:
        print(f"strategia serve: warning: {w}", file=sys.stderr, flush=True)
    private_folder(args.game)
    check_ports(screens, args.lang)
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
        screen, status = died
        said = WORDS["died"](args.lang).format(who=side_name(screen.who, args.lang), status=status)
        if not _free(screen.host, screen.port):  # taken meanwhile by something not ours
            said += WORDS["died_port"](args.lang).format(
                port=screen.port, holder=holder(screen.port, args.lang)
            )
        return Output(said, data, 2)
    return Output(WORDS["stopped"](args.lang), data)


__all__ = [
    "Screen",
    "check_ports",
    "exposed",
    "folder",
    "holder",
    "notebooks",
    "plan",
    "private_folder",
    "start",
    "stop",
    "token_file",
]
