"""The package's shape: packages by the stage an order passes through, lower never importing higher,
no import cycles, modules of a few hundred lines.

Every import statement counts, those inside functions and under TYPE_CHECKING too; importing
`a.b.c` also counts as importing the package `a.b` (its `__init__` runs first).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1] / "strategia"

# What each package may import besides itself (the path of an order, lowest first).
LOWER = {
    "core": set(),
    "scenarios": {"core"},  # the scenarios shipped (package data), by name
    "explain": {"core"},
    "rules": {"core", "explain"},
    "notation": {"core", "rules"},
    "theatre": {"core", "explain", "rules", "notation"},
    "engine": {"core", "explain", "rules", "notation", "theatre"},
    "game": {"core", "explain", "rules", "notation", "theatre", "engine"},
    "players": {"core", "explain", "rules", "notation", "theatre", "engine", "game"},
    # balance sweeps (issue 27): games played by the players, on Dask
    "sweep": {"core", "explain", "rules", "notation", "theatre", "engine", "game", "players"},
    "tactical": {"core", "explain", "rules", "game"},
    "casebook": {"core", "explain", "rules", "notation", "theatre", "engine", "game", "tactical"},
    "ui": {
        "core",
        "explain",
        "rules",
        "notation",
        "theatre",
        "engine",
        "game",
        "players",
        "sweep",
        "tactical",
        "casebook",
        "scenarios",
    },
    "cli": {
        "core",
        "explain",
        "rules",
        "notation",
        "theatre",
        "engine",
        "game",
        "tactical",
        "casebook",
        "players",
        "sweep",
        "scenarios",
    },
}
TOP = {"strategia", "strategia._moved"}  # the package's own __init__ and its old-name finder
MAX_LINES = 520


def _modules() -> dict[str, Path]:
    out = {}
    for p in ROOT.rglob("*.py"):
        parts = list(p.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = p
    return out


def _graph() -> dict[str, set[str]]:
    mods = _modules()
    graph: dict[str, set[str]] = defaultdict(set)
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                targets = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names
                ]
            for t in targets:
                if t not in mods or t == name:
                    continue
                graph[name].add(t)
                parts = t.split(".")
                for k in range(2, len(parts)):
                    parent = ".".join(parts[:k])
                    if parent in mods and not (name == parent or name.startswith(parent + ".")):
                        graph[name].add(parent)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted({*graph, *(w for ws in graph.values() for w in ws)}):
        if v not in index:
            visit(v)
    return out


def _package(module: str) -> str:
    return module.split(".")[1] if module.count(".") else ""


def test_no_import_cycles() -> None:
    assert _cycles(_graph()) == []


def test_lower_layers_never_import_higher_ones() -> None:
    wrong = [
        f"{m} imports {t}"
        for m, targets in _graph().items()
        if m not in TOP
        for t in targets
        if t not in TOP and _package(t) != _package(m) and _package(t) not in LOWER[_package(m)]
    ]
    assert wrong == []


def test_the_engine_never_imports_the_ui_the_cli_or_the_game() -> None:
    graph = _graph()
    engine = [m for m in graph if _package(m) == "engine"]
    assert engine and all(
        _package(t) not in ("ui", "cli", "game") for m in engine for t in graph[m]
    )


# Within ui/, a folder a screen: each screen imports only the widgets they share (and what it
# is built on: the builder's trial opens a console, the tactical lesson shows the table).
UI_SCREENS = {
    "widgets": set(),
    "console": {"widgets"},
    "team": {"widgets"},
    "tactical": {"widgets"},
    "lessons": {"widgets", "tactical"},
    "builder": {"widgets", "console", "lessons"},
}


def test_each_screen_has_its_folder_and_imports_only_the_shared_widgets() -> None:
    ui = ROOT / "ui"
    folders = {p.name for p in ui.iterdir() if (p / "__init__.py").exists()}
    assert folders == set(UI_SCREENS)
    assert sorted(p.name for p in ui.glob("*.py")) == ["__init__.py"]
    bad = []
    for name, targets in _graph().items():
        parts = name.split(".")
        if parts[:2] != ["strategia", "ui"] or len(parts) < 3:
            continue
        for t in targets:
            tp = t.split(".")
            other = tp[2] if tp[:2] == ["strategia", "ui"] and len(tp) > 2 else parts[2]
            if other != parts[2] and other not in UI_SCREENS[parts[2]]:
                bad.append(f"{name} imports {t}")
    assert bad == []


def test_every_package_is_known_and_documented() -> None:
    packages = {p.name for p in ROOT.iterdir() if (p / "__init__.py").exists()}
    assert packages == set(LOWER)
    for p in packages:
        init = ast.parse((ROOT / p / "__init__.py").read_text(encoding="utf-8"))
        assert ast.get_docstring(init), f"strategia.{p} has no docstring"


@pytest.mark.parametrize("path", sorted(ROOT.rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_modules_stay_a_few_hundred_lines(path: Path) -> None:
    assert len(path.read_text(encoding="utf-8").splitlines()) <= MAX_LINES


def test_the_checker_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_first_versions_module_names_still_import() -> None:
    import importlib

    with pytest.warns(DeprecationWarning, match="strategia.notation.orders"):
        old = importlib.import_module("strategia.orders")
    from strategia.notation import orders

    assert old is orders and str(old.parse_order("17 RD to 45,25")) == "17 с.д. на 45,25"
