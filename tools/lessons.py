"""The lessons' kept outputs and screenshots.

    .venv/bin/python tools/lessons.py outputs [NOTEBOOK ...]   # run the lessons, keep their outputs
    .venv/bin/python tools/lessons.py screenshots               # docs/lesson-*.png, via Voilà
    .venv/bin/python tools/lessons.py serve [--port N]          # make lessons: the lessons' pages

`outputs` runs each lesson (every notebook in notebooks/ but NOT_LESSONS) in a fresh kernel in
notebooks/, in Russian, with matplotlib's Agg backend, and writes it back with its outputs. The
result is the same file for the same code: no timings are kept, execution counts run from 1, and
the widget views' model ids (random in every run, meaningless without a kernel) are replaced by
ids made from the notebook, cell and output. `make test` runs the lessons again under nbval and
compares their fresh outputs with these (notebooks/nbval-sanitize.cfg lists what may differ).

`screenshots` serves the lessons with Voilà and photographs two of them in headless Chromium for
the README.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
# tools, not lessons: they keep no outputs (index.ipynb lists the lessons, made fresh each time)
NOT_LESSONS = {"console.ipynb", "team.ipynb", "index.ipynb"}
# Voilà's template "lab" whose folder page leads to the lessons' index (notebooks/index.ipynb)
TEMPLATES = ROOT / "tools" / "jupyter"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = {  # the lessons photographed for the README: the file, and the heading shown at the top
    "02_movement.ipynb": ("lesson-movement.png", "Досягаемость на театре"),
    "05_reconnaissance.ipynb": ("lesson-reconnaissance.png", "Война началась"),
}


def lessons() -> list[Path]:
    return sorted(p for p in NOTEBOOKS.glob("*.ipynb") if p.name not in NOT_LESSONS)


def lesson_env() -> dict[str, str]:
    """The environment the kept outputs are made in (and the tests run the lessons in)."""
    return {**os.environ, "MPLBACKEND": "Agg", "STRATEGIA_LANG": "ru", "PYTHONHASHSEED": "0"}


def voila_lessons(
    port: int, env: dict[str, str], ip: str = "127.0.0.1"
) -> tuple[list[str], dict[str, str]]:
    """The command and environment of `make lessons`: Voilà on notebooks/, its root page the
    lessons' index (the template "strategia", found on JUPYTER_PATH), every lesson's page at
    /voila/render/NN_x.ipynb, in the language of STRATEGIA_LANG (the template is handed it, and
    the page's own words in it: `page_words.resources`)."""
    from strategia.core.i18n import check_lang
    from strategia.ui.widgets.page_words import resources

    voila = Path(sys.executable).with_name("voila")
    paths = os.pathsep.join(p for p in (str(TEMPLATES), env.get("JUPYTER_PATH", "")) if p)
    given = json.dumps(resources(check_lang(env.get("STRATEGIA_LANG", "ru"))))
    cmd = [str(voila), str(NOTEBOOKS), "--template=strategia", f"--port={port}", "--no-browser",
           f"--Voila.ip={ip}", f"--VoilaConfiguration.resources={given}"]  # fmt: skip
    return cmd, {**env, "JUPYTER_PATH": paths}


def serve(port: int, ip: str) -> None:
    """`make lessons`: the lessons' server (`voila_lessons`), in this process's place."""
    cmd, env = voila_lessons(port, dict(os.environ), ip)
    os.execve(cmd[0], cmd, env)


def _stable(nb: object, name: str) -> None:
    """No timings; widget model ids made from the notebook, the cell and the output."""
    for i, cell in enumerate(nb.cells):  # type: ignore[attr-defined]
        cell.metadata.pop("execution", None)
        for k, out in enumerate(cell.get("outputs", [])):
            view = out.get("data", {}).get(WIDGET_VIEW)
            if view is not None:
                digest = hashlib.sha1(f"{name}:{i}:{k}".encode()).hexdigest()
                view["model_id"] = digest[:32]


def outputs(paths: list[Path]) -> None:
    import nbformat
    from nbclient import NotebookClient

    os.environ.update(lesson_env())
    for path in paths or lessons():
        t0 = time.perf_counter()
        nb = nbformat.read(path, as_version=4)
        client = NotebookClient(
            nb,
            timeout=600,
            kernel_name="python3",
            resources={"metadata": {"path": str(NOTEBOOKS)}},
            record_timing=False,
            store_widget_state=False,
        )
        client.execute()
        _stable(nb, path.name)
        nbformat.write(nb, path)
        print(f"{path.relative_to(ROOT)}: {time.perf_counter() - t0:.1f} s")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def screenshots() -> None:
    from playwright.sync_api import sync_playwright

    port = _free_port()
    cmd, env = voila_lessons(port, lesson_env())
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}/voila/render/"
        deadline = time.time() + 90
        while time.time() < deadline:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)
                break
            except OSError:
                time.sleep(0.5)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 960})
            for notebook, (shot, heading) in SHOTS.items():
                page.goto(base + notebook, timeout=180_000)
                page.wait_for_selector(".jp-RenderedImage img", timeout=180_000)
                page.wait_for_timeout(1500)
                page.get_by_role("heading", name=re.compile(heading)).evaluate(
                    "e => e.scrollIntoView({block: 'start'})"
                )
                page.wait_for_timeout(800)
                page.screenshot(path=str(ROOT / "docs" / shot))
                print(f"docs/{shot}")
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    out = sub.add_parser("outputs", help="run the lessons and keep their outputs")
    out.add_argument("notebooks", nargs="*", type=Path)
    sub.add_parser("screenshots", help="photograph two lessons served by Voilà")
    srv = sub.add_parser("serve", help="serve the lessons (make lessons)")
    srv.add_argument("--port", type=int, default=8866)
    srv.add_argument("--ip", default="localhost")
    args = parser.parse_args()
    if args.what == "outputs":
        outputs([p.resolve() for p in args.notebooks])
    elif args.what == "serve":
        serve(args.port, args.ip)
    else:
        screenshots()


if __name__ == "__main__":
    main()
