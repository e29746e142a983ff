"""The plan of `strategia serve`: each screen's token and port, kept beside the game in
`.GAME.tokens` (a JSON object, screen to {"token", "port"}, mode 0600, outside the folder the
servers serve), and what holds a planned port that is taken.

The first `serve` or `serve --plan` makes it and every later one uses it until `--new-tokens` or
`--new-ports`, so the addresses `--plan` prints are the ones `serve` serves, after a restart
too. A screen without a port gets one free at that moment and not another screen's of the game;
once planned it never moves: a port taken when `serve` starts is refused (`check_ports`), naming
what holds it, for an address handed out for one side's screen must never lead to another's.
A file that is not its owner's alone, or a symbolic link, is not read: new tokens and ports are
made. The file is written to a new file of a random name (never opened if it is there, never
through a link) renamed over it.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import stat
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from strategia.core.errors import StrategiaError
from strategia.core.i18n import Lang, Text
from strategia.game.game import Game
from strategia.rules.kinds import side_name

DEFAULT_PORT = 8866  # the first port of a game's first plan, unless --port says
WORDS = {
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
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()  # a process's, not the game file
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


__all__ = [
    "DEFAULT_PORT",
    "Screen",
    "check_ports",
    "exposed",
    "holder",
    "plan",
    "token_file",
]
