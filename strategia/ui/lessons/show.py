"""How a lesson shows things: figures as PNG images with a text summary, live widgets with a still
picture for readers without a running kernel, and tables in the rules' own terms.

Figures are drawn on `matplotlib.figure.Figure` objects, never through pyplot, so no plotting
backend is involved and no figure is left to vanish: each is rendered to PNG here and handed to
the notebook as data. A live widget's output carries the widget and a still of its first state:
JupyterLab and Voilà, running the lesson, show the widget; a notebook opened without running it
(JupyterLab before the notebook is trusted, a code host) shows the still.
"""

from __future__ import annotations

import base64
import html
import io
import os
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, ScalarFormatter

from strategia.core.i18n import Lang, Text, check_lang
from strategia.core.numbers import num, quantity
from strategia.explain.render import fmt, rule_label
from strategia.rules import RuleSet
from strategia.rules.kinds import RegimentKind
from strategia.rules.model import VALUE, told

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
DPI = 100
# ipywidgets cut a description longer than about ten letters; this lets it take what it needs
LABELLED = {"description_width": "initial"}
RECONSTRUCTED_MARK = "*"
SPECIAL = {  # the rule data's words in place of a number (table 4, 9.7)
    "trails": Text("trails only", "только по тропам"),
    "impassable": Text("impassable", "непроходимо"),
    "impossible": Text("impossible", "невозможно"),
}
_TABLE_CSS = (
    "<style>.strategia-table{border-collapse:collapse;margin:4px 0 10px}"
    ".strategia-table th,.strategia-table td{border:1px solid #bbb;padding:2px 8px;"
    "text-align:left}.strategia-table th{background:#f0ece0}"
    ".strategia-table caption{caption-side:top;text-align:left;font-weight:bold}"
    ".strategia-table .num{text-align:right}</style>"
)


def lesson_lang() -> Lang:
    """The reader's language: `STRATEGIA_LANG` (ru by default)."""
    return check_lang(os.environ.get("STRATEGIA_LANG", "ru"))


# the lessons' own small theatres name their two states in the reader's language
STATE_NAMES = {"red": Text("Red", "Красные"), "blue": Text("Blue", "Синие")}


def state_name(side: str) -> str:
    """A lesson theatre's state of `side` ("red", "blue"), named in the reader's language."""
    return STATE_NAMES[side](lesson_lang())


def repository() -> Path:
    """The project's root, where `notebooks/` lies (from the notebook's folder or the
    package's)."""
    for here in (Path.cwd(), Path.cwd().parent, Path(__file__).resolve().parents[3]):
        if (here / "notebooks").is_dir():
            return here
    raise FileNotFoundError("no notebooks/ folder here or beside the package")


def scratch_dir() -> Path:
    """A new folder for a lesson's games and files."""
    return Path(tempfile.mkdtemp(prefix="strategia-"))


@dataclass(frozen=True)
class Picture:
    """A rendered figure: its PNG and `alt`, a summary in words of what it shows (the numbers
    drawn), which is what a notebook's test compares."""

    png: bytes
    alt: str

    def bundle(self) -> dict[str, Any]:
        return {"image/png": base64.b64encode(self.png).decode("ascii"), "text/plain": self.alt}

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        return self.bundle()


def new_figure(width: float, height: float) -> Figure:
    """A figure of `width` x `height` inches, drawn without pyplot."""
    return Figure(figsize=(width, height), dpi=DPI, layout="constrained")


def picture(fig: Figure, alt: str, lang: Lang | None = None) -> Picture:
    """The figure as a PNG (the same bytes for the same drawing: no date, no version stamp), its
    axes' numbers written in `lang` (the lesson's by default): 0,2 in Russian."""
    localise_ticks(fig, lang or lesson_lang())
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    return Picture(buf.getvalue(), alt)


def localise_ticks(fig: Figure, lang: Lang) -> None:
    """Every axis of `fig` that writes its own numbers writes them as the reader does (a decimal
    comma in Russian, no float noise); labels set by hand are left as set."""
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            if isinstance(axis.get_major_formatter(), ScalarFormatter):
                axis.set_major_formatter(FuncFormatter(lambda v, _, lang=lang: num(v, lang)))


@dataclass
class Live:
    """A widget for the class, shown with a still of its first state where no kernel runs.

    `still` is a Picture or an HTML string; `alt` is the text summary."""

    widget: Any
    still: Picture | str
    alt: str

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        view = self.widget._repr_mimebundle_()[WIDGET_VIEW]
        still = (
            self.still.bundle() if isinstance(self.still, Picture) else {"text/html": self.still}
        )
        return {**still, WIDGET_VIEW: view, "text/plain": self.alt}


@dataclass(frozen=True)
class Html:
    """HTML for the notebook with a plain-text summary."""

    html: str
    alt: str

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        return {"text/html": self.html, "text/plain": self.alt}


@dataclass(frozen=True)
class Svg:
    """An SVG drawing with a plain-text summary."""

    svg: str
    alt: str

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        return {"image/svg+xml": self.svg, "text/plain": self.alt}


def table_html(
    heads: Sequence[str],
    rows: Iterable[Sequence[object]],
    caption: str = "",
    foot: Sequence[str] = (),
    lang: Lang | None = None,
) -> str:
    """An HTML table: numbers right-aligned (written in `lang`, the lesson's by default),
    everything escaped."""
    lang = lang or lesson_lang()

    def cell(tag: str, v: object) -> str:
        number = isinstance(v, int | float) and not isinstance(v, bool)
        text = fmt(v, lang) if number else str(v)  # type: ignore[arg-type]
        cls = ' class="num"' if number else ""
        return f"<{tag}{cls}>{html.escape(text)}</{tag}>"

    head = "".join(cell("th", h) for h in heads)
    body = "".join("<tr>" + "".join(cell("td", v) for v in r) + "</tr>" for r in rows)
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    notes = "".join(f"<div style='font-size:85%'>{html.escape(n)}</div>" for n in foot)
    return f"{_TABLE_CSS}<table class='strategia-table'>{cap}<tr>{head}</tr>{body}</table>{notes}"


def rich_table(heads: Sequence[str], rows: Iterable[Sequence[str]], caption: str = "") -> str:
    """An HTML table whose cells are HTML already (escaped by the caller); the heads and the
    caption are escaped here."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in heads)
    body = "".join("<tr>" + "".join(f"<td>{v}</td>" for v in r) + "</tr>" for r in rows)
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return f"{_TABLE_CSS}<table class='strategia-table'>{cap}<tr>{head}</tr>{body}</table>"


def cell_text(rules: RuleSet, entry: str, row: str, column: str, lang: Lang) -> str:
    """One cell of the rule data as the reader reads it: a number with its unit in `lang`, or the
    rule's word (по тропам, непроходимо); marked if reconstructed."""
    e = rules.entry(entry)
    p = e.rows[row][column]
    v = p.value
    if isinstance(v, str) and v in SPECIAL:
        text = SPECIAL[v](lang)
    elif isinstance(v, list):  # a list of regiments (table 1)
        text = ", ".join(RegimentKind.from_key(k).label(lang) for k in v) or "—"
    elif p.unit == "×":
        text = "×" + fmt(v, lang)
    elif isinstance(v, int | float) and not isinstance(v, bool) and p.unit:
        text = quantity(v, p.unit, lang, digits=4)
    else:
        text = fmt(told(p, rules), lang)
    return text + (RECONSTRUCTED_MARK if p.reconstructed else "")


def entry_table(
    rules: RuleSet,
    entry: str,
    lang: Lang,
    rows: Sequence[str] | None = None,
    columns: Sequence[str] | None = None,
) -> Html:
    """A table of the rule data in its own terms: the entry's title and rule id, its row and
    column labels in `lang`, its cells as the reader reads them; reconstructed cells marked."""
    e = rules.entry(entry)
    rows = [r for r in (rows or list(e.rows)) if r in e.rows]
    cols = list(columns or [c for c in e.columns if any(c in e.rows[r] for r in rows)])
    if e.shape == "params":
        cols = [VALUE]
    heads = [""] + [e.column_label(c)(lang) if c != VALUE else "" for c in cols]
    grid = [
        [e.row_label(r)(lang)]
        + [cell_text(rules, entry, r, c, lang) if c in e.rows[r] else "—" for c in cols]
        for r in rows
    ]
    marked = any(e.rows[r][c].reconstructed for r in rows for c in cols if c in e.rows[r])
    foot = [RECONSTRUCTED_MARK + " " + RECONSTRUCTED(lang)] if marked else []
    caption = f"{e.title(lang)} ({rule_label(e.rule, lang)})"
    alt = "\n".join([caption, " | ".join(heads), *(" | ".join(g) for g in grid)])
    return Html(table_html(heads, grid, caption, foot, lang), alt)


RECONSTRUCTED = Text(
    "reconstructed: the seeds give no value here (the rules sheet gives the reason)",
    "восстановлено: в правилах нет значения (причина — в листе правил)",
)
