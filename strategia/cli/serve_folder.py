"""The folder `strategia serve` writes its screens' notebooks into, `.GAME.screens/` beside the
game (each server's root and its kernels' working folder: the mediator's forks go to its
`games/`), and the notebooks.

Whoever may write there chooses the code the screens run, as the user who serves (a notebook, or
a module the server imports from its working folder), so the folder is only its owner's (0700):
made so, or checked without following a link (`os.open` with O_NOFOLLOW, the same inode as
`lstat` saw), and refused, saying why, if it is a symbolic link or not a folder, someone else's,
or open to others' writes. An older serve's folder of ours that others could only read is closed.
The game's folder is refused too if others could replace the screens' folder in it: another
user's folder, or one anybody may write to without the sticky bit /tmp has. Each notebook is
written to a new file, created in that folder and nowhere else, and renamed over the old one.
"""

from __future__ import annotations

import json
import os
import secrets
import stat
from contextlib import suppress
from pathlib import Path
from typing import Any

from strategia.core.errors import StrategiaError
from strategia.core.i18n import Text

# Each notebook first hides the server's paths from the page's error messages (ui.team.errors).
MEDIATOR_CODE = """import os
from strategia.ui.team.errors import hide_paths

lang = os.environ.get("STRATEGIA_LANG", "ru")
hide_paths(lang=lang)
from strategia.ui.console import Console
from strategia.ui.widgets.gate import on_page


def open_console():
    global console
    console = Console.open(os.environ["STRATEGIA_GAME"], lang=lang)
    console.watch()
    return console.widget


on_page(open_console, lang)"""
TEAM_CODE = """import os
from strategia.ui.team.errors import hide_paths

lang = os.environ.get("STRATEGIA_LANG", "ru")
hide_paths(lang=lang)
from strategia.ui.team import TeamScreen
from strategia.ui.widgets.gate import on_page


def open_screen():
    global screen
    screen = TeamScreen.from_env()
    return screen.widget


on_page(open_screen, lang)"""
WORDS = {
    "not_private": Text(
        "{path} is not a private folder of this user ({why}): someone else could change the "
        "notebooks the screens run; remove it (rm -r) and serve again",
        "{path} — не личная папка этого пользователя ({why}): другой пользователь мог бы подменить "
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


def folder(game: Path) -> Path:
    """The folder beside `game` holding its screens' notebooks (each server's root)."""
    game = game.resolve()
    return game.parent / f".{game.stem}.screens"


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


__all__ = ["MEDIATOR_CODE", "TEAM_CODE", "folder", "notebooks", "private_folder"]
