"""`strategia serve GAME`: the mediator's console and one screen per side, each a Voilà page of
its own behind its own secret token, printed for the mediator to hand out.

Each screen is a Voilà server (`strategia.ui.team.server`: Voilà without the routes that answer
without a token) with one notebook and the game and the side in its environment
(STRATEGIA_GAME, STRATEGIA_SIDE): the side is fixed by the server, never by the page's URL, and
a team's kernel only ever renders that side's screen (`strategia.ui.team.screen`). The servers write
to the same game file, which is safe with any number of writers (the game store); each screen
catches up with the others' entries within a second. A wrong or old token gets Voilà's refusal.

The plan (each screen's token and port) is kept beside the game in `.GAME.tokens`, a file only
its owner may read (0600), outside the folder the servers serve. The first `serve` or `serve
--plan` makes it and every later one uses it until `--new-tokens` or `--new-ports`, so the
addresses `--plan` prints are the ones `serve` serves, after a restart too. A planned port that
is taken when `serve` starts is refused, naming what holds it: a screen never moves to another
port (where an address handed out for another screen would lead). Each Voilà gets its own token
in its environment (JUPYTER_TOKEN), which other users cannot read, never on its command line,
which they can (`ps`).

The notebooks the servers run are written into `.GAME.screens/` beside the game, a folder only
its owner may enter (0700); one that someone else made, that is a symbolic link or that others
may write to is refused, and so is a game's folder that others may rename it in (another
user's, or one anybody may write to without the sticky bit /tmp has). Nothing there is followed
or overwritten in place: each notebook is written to a new file and renamed over the old.

SIGTERM, SIGHUP and Ctrl-C stop every server and its kernels (SIGHUP and SIGINT unless they
were ignored when `serve` started, as `nohup` and a shell's background jobs do). On Linux each
server is also told by the kernel when `serve` ends, however it ends (`kill -9` included), and
stops: its kernels follow it within a second (ipykernel watches its parent).
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import secrets
import signal
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
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

# Each notebook first hides the server's paths from the page's error messages (ui.team.errors).
MEDIATOR_CODE = """import os
from strategia.ui.team.errors import hide_paths

hide_paths(lang=os.environ.get("STRATEGIA_LANG", "ru"))
from strategia.ui.console import Console

console = Console.open(os.environ["STRATEGIA_GAME"], lang=os.environ.get("STRATEGIA_LANG", "ru"))
console.watch()
console.widget"""
TEAM_CODE = """import os
from strategia.ui.team.errors import hide_paths

hide_paths(lang=os.environ.get("STRATEGIA_LANG", "ru"))
from strategia.ui.team import TeamScreen

TeamScreen.from_env().widget"""
SERVER = "strategia.ui.team.server"  # run as `python -m`
DEFAULT_PORT = 8866  # the first port of a game's first plan, unless --port says
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
        "у экранов остаются их порты ({ports}); --new-ports возьмет новые начиная с {port} "
        "(розданные адреса перестанут работать)",
    ),
    "port_taken": Text(
        "port {port} of the screen of {who} is taken by {holder}: stop it, or plan new ports with "
        "--new-ports [--port N] and hand out the new addresses",
        "порт {port} экрана {who} занят: {holder}; остановите его или возьмите новые порты: "
        "--new-ports [--port N] — и раздайте новые адреса",
    ),
    "process": Text("process {pid} ({command})", "процесс {pid} ({command})"),
    "unseen": Text(
        "a process this user cannot see (another user's?)",
        "процесс, которого этот пользователь не видит (другого пользователя?)",
    ),
    "not_private": Text(
        "{path} is not a private folder of this user ({why}): someone else could change the "
        "notebooks the screens run; remove it (rm -r) and serve again",
        "{path} — не личная папка этого пользователя ({why}): другой мог бы подменить "
        "тетради, которые запускают экраны; удалите ее (rm -r) и запустите снова",
    ),
    "symlink": Text("a symbolic link", "это символическая ссылка"),
    "not_dir": Text("not a folder", "это не папка"),
    "owner": Text("its owner is user {uid}", "ее владелец — пользователь {uid}"),
    "mode": Text(
        "others may write to it (mode {mode:o})", "в нее могут писать другие (права {mode:o})"
    ),
    "shared_parent": Text(
        "{path}: {why}: another user could replace the screens' folder there, and the notebooks "
        "the screens run; keep the game in a folder of your own",
        "{path}: {why}: другой пользователь мог бы подменить там папку экранов и тетради, "
        "которые запускают экраны; держите игру в своей папке",
    ),
    "parent_owner": Text("the folder is user {uid}'s", "папка принадлежит пользователю {uid}"),
    "parent_mode": Text(
        "anybody may write to the folder (mode {mode:o}, no sticky bit)",
        "в папку может писать любой (права {mode:o}, без бита sticky)",
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


def plan(
    game: Path,
    sides: list[str] | None,
    host: str,
    port: int | None = None,
    renew: bool = False,
    new_ports: bool = False,
) -> list[Screen]:
    """The screens for `game`: the mediator's and each side's, each with the token and port
    kept for it (`token_file`); a screen with none (all of them with `renew` or `new_ports`,
    or when others could read the file) gets a new token, and a port that is free now from
    `port` on (DEFAULT_PORT if None), none that another screen of the game has; whatever is new
    is kept at once."""
    g = Game.open(game)
    known = [
        s for s in ("red", "blue", "green", "black") if s in {x.side for x in g.scenario.states}
    ]
    chosen = [g.known_side(s) for s in sides] if sides else known
    g.journal.close()
    who = ["mediator", *chosen]
    path = token_file(game)
    kept, trusted = _read_plan(path)
    if not trusted:
        kept = {}
    made: dict[str, dict[str, Any]] = {}
    for w in who:
        old = kept.get(w, {})
        made[w] = {
            "token": old.get("token") if not renew and old.get("token") else _new_token(),
            "port": None if new_ports else old.get("port"),
        }
    others = {v["port"] for w, v in kept.items() if w not in made and not new_ports}
    p = DEFAULT_PORT if port is None else port
    for w in who:
        if made[w]["port"] is None:
            used = others | {v["port"] for v in made.values()}
            p = _free_port(host, p, used)
            made[w]["port"] = p
            p += 1
    everything = {w: v for w, v in kept.items() if not new_ports} | made
    if everything != kept:
        _write_plan(path, everything)
    return [Screen(w, int(made[w]["port"]), str(made[w]["token"]), host) for w in who]


def _new_token() -> str:
    return secrets.token_urlsafe(24)


def folder(game: Path) -> Path:
    """The folder beside `game` holding its screens' notebooks (each server's root)."""
    game = game.resolve()
    return game.parent / f".{game.stem}.screens"


def token_file(game: Path) -> Path:
    """Where `game`'s plan is kept: a JSON object, screen to its token and port, mode 0600,
    beside the game and outside the servers' folder."""
    game = game.resolve()
    return game.parent / f".{game.stem}.tokens"


def exposed(path: Path) -> bool:
    """Whether a token file exists that someone but its owner may read or write."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return False
    return not _own_private_file(st)


def _own_private_file(st: os.stat_result) -> bool:
    return stat.S_ISREG(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077


def _read_plan(path: Path) -> tuple[dict[str, dict[str, Any]], bool]:
    """The plan kept in `path` (screen to {"token", "port"}; an older file's screen to token
    reads as a token with no port), and whether it may be trusted: a file that is not its
    owner's alone, or a symbolic link, is not read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except FileNotFoundError:
        return {}, True
    except OSError:  # a symbolic link (ELOOP), or unreadable
        return {}, False
    with os.fdopen(fd, encoding="utf-8") as f:
        if not _own_private_file(os.fstat(f.fileno())):
            return {}, False
        try:
            data = json.load(f)
        except ValueError:  # damaged: a new plan replaces it
            return {}, True
    if not isinstance(data, dict):
        return {}, True
    out: dict[str, dict[str, Any]] = {}
    for who, v in data.items():
        entry = {"token": v} if isinstance(v, str) else v if isinstance(v, dict) else {}
        token, port = entry.get("token"), entry.get("port")
        if isinstance(who, str) and isinstance(token, str) and token:
            ok = isinstance(port, int) and not isinstance(port, bool) and 0 < port < 65536
            out[who] = {"token": token, "port": port if ok else None}
    return out, True


def _write_plan(path: Path, keys: dict[str, dict[str, Any]]) -> None:
    """`keys` into `path`, through a new file of a random name (created, never opened if there,
    never through a link) renamed over it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(8)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(keys, f, indent=1)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _free(host: str, port: int) -> bool:
    """Whether a server could listen on `port` now (as Voilà binds: SO_REUSEADDR, so a port
    left in TIME_WAIT by a server just stopped counts as free)."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def _free_port(host: str, port: int, used: set[int]) -> int:
    for p in range(port, port + 200):
        if p not in used and _free(host, p):
            return p
    raise StrategiaError(
        f"no free port from {port} on {host}", ru=f"на {host} нет свободного порта начиная с {port}"
    )


def holder(port: int, lang: Lang = "en") -> str:
    """What holds `port`, as a person reads it: "process 1234 (python -m http.server)", or a
    process this user cannot see (another user's: its /proc/PID/fd is closed to us)."""
    inodes: dict[str, bool] = {}  # the sockets on the port, whether each is listening
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(name).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            f = line.split()
            if len(f) > 9 and int(f[1].rsplit(":", 1)[1], 16) == port and f[9] != "0":
                inodes[f[9]] = inodes.get(f[9], False) or f[3] == "0A"
    found: list[tuple[bool, int]] = []
    for d in Path("/proc").glob("[0-9]*"):
        try:
            fds = os.listdir(d / "fd")
        except OSError:
            continue
        for fd in fds:
            with suppress(OSError):
                link = os.readlink(d / "fd" / fd)
                if link.startswith("socket:[") and link[8:-1] in inodes:
                    found.append((inodes[link[8:-1]], int(d.name)))
    if not found:
        return WORDS["unseen"](lang)
    pid = max(found)[1]  # a listening socket's first
    command = _cmdline(pid) or "?"
    if len(command) > 100:
        command = command[:99] + "…"
    return WORDS["process"](lang).format(pid=pid, command=command)


def _cmdline(pid: int) -> str:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return ""
    return raw.rstrip(b"\0").replace(b"\0", b" ").decode("utf-8", "replace")


def check_ports(screens: Sequence[Screen], lang: Lang = "en") -> None:
    """Refuse, naming the port, its screen and what holds it, if a planned port is taken."""
    for s in screens:
        if not _free(s.host, s.port):
            text = WORDS["port_taken"]
            raise StrategiaError(
                text("en").format(
                    port=s.port, who=side_name(s.who, "en"), holder=holder(s.port, "en")
                ),
                ru=text("ru").format(
                    port=s.port, who=side_name(s.who, "ru", "gen"), holder=holder(s.port, "ru")
                ),
            )


def private_folder(game: Path) -> Path:
    """The screens' folder of `game` (`folder`), made if need be, only its owner's (0700):
    refused, saying why, if it is a symbolic link or not a folder, someone else's, or others
    may write to it, or if the game's folder lets others replace it (another user's folder, or
    one anybody may write to without the sticky bit). A folder of ours others may only read
    (an older serve's, 0755) is closed to them."""
    path = folder(game)
    _check_parent(path.parent)
    with suppress(FileExistsError):
        os.mkdir(path, 0o700)
    fd = _open_private(path)
    os.close(fd)
    return path


def _check_parent(parent: Path) -> None:
    st = os.stat(parent)
    why = None
    if st.st_uid not in (os.getuid(), 0):
        why = WORDS["parent_owner"]
        args: dict[str, Any] = {"uid": st.st_uid}
    elif st.st_mode & stat.S_IWOTH and not st.st_mode & stat.S_ISVTX:
        why = WORDS["parent_mode"]
        args = {"mode": stat.S_IMODE(st.st_mode)}
    if why is not None:
        text = WORDS["shared_parent"]
        raise StrategiaError(
            text("en").format(path=parent, why=why("en").format(**args)),
            ru=text("ru").format(path=parent, why=why("ru").format(**args)),
        )


def _open_private(path: Path) -> int:
    """A descriptor of the folder `path` (never through a symbolic link), once it is known to
    be this user's own and closed to others; refused otherwise (`private_folder`)."""
    why: Text | None = None
    args: dict[str, Any] = {}
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode):
        why = WORDS["symlink"]
    elif not stat.S_ISDIR(st.st_mode):
        why = WORDS["not_dir"]
    elif st.st_uid != os.getuid():
        why, args = WORDS["owner"], {"uid": st.st_uid}
    elif st.st_mode & 0o022:
        why, args = WORDS["mode"], {"mode": stat.S_IMODE(st.st_mode)}
    if why is None:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        now = os.fstat(fd)
        if (now.st_dev, now.st_ino) == (st.st_dev, st.st_ino):
            os.fchmod(fd, 0o700)
            return fd
        os.close(fd)  # replaced between the two looks
        why = WORDS["symlink"]
    text = WORDS["not_private"]
    raise StrategiaError(
        text("en").format(path=path, why=why("en").format(**args)),
        ru=text("ru").format(path=path, why=why("ru").format(**args)),
    )


def notebooks(folder: Path) -> dict[str, Path]:
    """The two notebooks the servers run, written into `folder` (which must be private: see
    `private_folder`): each to a new file, created there and nowhere else, renamed over the
    old one."""
    fd = _open_private(folder)
    out = {}
    try:
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
                    "kernelspec": {
                        "name": "python3",
                        "display_name": "Python 3",
                        "language": "python",
                    }
                },
                "nbformat": 4,
                "nbformat_minor": 5,
            }
            tmp = f".{name}.{secrets.token_hex(8)}"
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
            with os.fdopen(os.open(tmp, flags, 0o600, dir_fd=fd), "w", encoding="utf-8") as f:
                json.dump(nb, f, indent=1)
            os.replace(tmp, f"{name}.ipynb", src_dir_fd=fd, dst_dir_fd=fd)
            out[name] = folder / f"{name}.ipynb"
    finally:
        os.close(fd)
    return out


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
               f"--Voila.ip={s.host}", *FIXED_PORT, *AUTH, *CULLING,
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
