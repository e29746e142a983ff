"""Battle reports read aloud (../shared/REPORT-EXAMPLE.md): the summary, the table per unit, the
steps with their numbers and rules, the reconstructed values; HTML, Markdown, JSON and the CLI."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from strategia.cli import main
from strategia.engine.result import Result
from strategia.game.game import Game
from strategia.game.report import battle_report, ratio
from strategia.game.report_render import fights, html_fragment, markdown, page, report_json
from strategia.theatre.builder import ScenarioBuilder

RAW_FLOAT = re.compile(r"\d[.,]\d{4,}")
INTERNAL = ("line=", "arm=", "linear_ratings", "_ratings.", "loss_rule", "flank45", "None")


def example(tmp_path: Path, level: int = 2) -> tuple[Game, Result]:
    """REPORT-EXAMPLE's battle: 101 т.д. at 6,3 facing west strikes 13 с.д. holding hills at 5,3."""
    b = ScenarioBuilder.blank(14, 7).state("R", "К", "red", lon=(1, 6))
    b = b.state("B", "С", "blue", lon=(7, 14)).paint("hills", lon=(5, 5), lat=(3, 3))
    b = b.place("R", "13 с.д. - 5,3 фронтом на восток").place(
        "B", "101 т.д. - 6,3 фронтом на запад"
    )
    g = Game.new(b.build(), tmp_path / "b.game", level=level)
    g.end_turn()
    r = g.order("удар по 5,3: 101 т.д.")
    assert r is not None and r.battle is not None
    return g, r


def test_the_example_battle_reads_as_the_mediator_says_it(tmp_path: Path) -> None:
    _, r = example(tmp_path)
    assert r.battle is not None
    rep = battle_report(r.battle, "ru", turn=1, explanation=r.explanation)
    assert rep.title == "Бой за 5,3, ход 1."
    who, forces, outcome = (lead + " " + text for lead, text in rep.summary)
    assert "101 т.д. (Синие) бьет во фронт 13 с.д. (Красные), обороняющуюся в холмах." in who
    assert forces == "Силы: 2,0 против 1,2 (1,0 × 1,2 в холмах) — соотношение 1,7 : 1."
    assert outcome.startswith("Итог: 5,3 удержан. 13 с.д. теряет 83\u00a0% (остается 0,17 дивизии)")
    assert "101 т.д. теряет 30\u00a0%" in outcome
    rows = {row[0]: row for row in rep.rows}
    assert rows["13 с.д."][2] == "1,0 — фронт, табл. 9-1"
    assert rows["13 с.д."][3] == "× 1,2 в холмах (9.8б)"
    assert rows["13 с.д."][6] == "0,83 дивизии (83\u00a0%)"
    assert rows["101 т.д."][7] == "2 т.п., мот.п., ап(мот.): 0,70"
    steps = " ".join(rep.steps)
    assert "т.п. 0,65 + мот.п. 0,4 + т.п. 0,65 + ап(мот.) 0,3 = 2,0" in steps
    assert "в холмах (9.8б): 1,0 × 1,2 = 1,2" in steps
    assert "обороняющийся теряет 0,5 × 2,0 × 1 = 1,0" in steps
    assert "наступающий теряет 0,5 × 1,2 × 1 = 0,6" in steps
    assert "13 с.д. 1,0 / 1,2 = 83\u00a0% каждого полка" in steps
    assert any("потери противника на единицу" in x and "0,5" in x for x in rep.reconstructed)
    en = battle_report(r.battle, "en", turn=1, explanation=r.explanation)
    assert en.summary[1][1] == "2.0 against 1.2 (1.0 × 1.2 in hills) — ratio 1.7 : 1."
    assert "13 RD loses 83% (0.17 of a division left)" in en.summary[2][1]


def test_no_internal_codes_or_raw_floats(tmp_path: Path) -> None:
    _, r = example(tmp_path)
    assert r.battle is not None
    for lang in ("ru", "en"):
        rep = battle_report(r.battle, lang, turn=1, explanation=r.explanation)
        shown = " ".join(
            [
                rep.title,
                *(t for _, t in rep.summary),
                *(c for row in rep.rows for c in row),
                *rep.steps,
                *rep.reconstructed,
            ]
        )
        assert not RAW_FLOAT.search(shown), RAW_FLOAT.findall(shown)
        assert not [c for c in INTERNAL if c in shown]


def test_html_markdown_and_json(tmp_path: Path) -> None:
    g, r = example(tmp_path)
    assert r.battle is not None
    rep = battle_report(r.battle, "ru", turn=1, explanation=r.explanation)
    html = html_fragment(rep)
    assert "<table>" in html and "<details>" in html and "Полный расчет" in html
    md = markdown(rep)
    assert "| соединение |" in md and "1. 101 т.д. бьет фронтом" in md
    items = fights(g.results, turn=1)
    assert len(items) == 1
    doc = page("Бои, ход 1", items, "ru")
    assert doc.startswith("<!DOCTYPE html>") and "@media print" in doc
    data = report_json(items, "ru")
    assert data[0]["battle"]["target"] == "5,3" and data[0]["report"]["title"] == rep.title


def test_ratios_either_way() -> None:
    assert ratio(2.0, 1.2, "ru") == "1,7 : 1" and ratio(1.8, 3.21, "en") == "1 : 1.8"


def test_a_level_one_battle_and_a_retreat(tmp_path: Path) -> None:
    _, r = example(tmp_path, level=1)
    assert r.battle is not None
    steps = battle_report(r.battle, "ru", explanation=r.explanation).steps
    assert steps[0] == "101 т.д. бьет фронтом: 2,0 × 1 = 2,0 (9.6)."
    b = ScenarioBuilder.blank(14, 7).state("R", "К", "red", lon=(1, 6))
    b = b.state("B", "С", "blue", lon=(7, 14))
    b = b.place("R", "13 с.д. - 5,3 фронтом на восток").place(
        "B", "101 т.д. - 6,3 фронтом на запад"
    )
    g = Game.new(b.build(), tmp_path / "r.game", level=2)
    g.end_turn()
    r2 = g.order("удар по 5,3: 101 т.д. // отход")
    assert r2 is not None and r2.battle is not None and r2.battle.outcome == "retreat"
    rep = battle_report(r2.battle, "ru", explanation=r2.explanation)
    assert "противник отходит из 5,3, не принимая боя (9.8а)" in rep.summary[0][1]
    assert any("преследует" in s for _, s in rep.summary)


def test_the_report_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g, _ = example(tmp_path)
    path = str(g.journal.path)
    assert main(["game", "report", path, "--turn", "1", "--lang", "ru"]) == 0
    assert "Бой за 5,3, ход 1." in capsys.readouterr().out
    out = tmp_path / "turn1.html"
    assert main(["game", "report", path, "--turn", "1", "--format", "html", "-o", str(out)]) == 0
    assert "<table>" in out.read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["game", "report", path, "--format", "json", "--lang", "en"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data[0]["report"]["title"] == "Battle for 5,3, turn 1."
    assert main(["game", "report", path, "--format", "md", "--at", "5,3", "--lang", "ru"]) == 0
    assert "**Бой за 5,3, ход 1.**" in capsys.readouterr().out
    assert main(["game", "report", path, "--side", "red", "--lang", "ru"]) == 0
    red = capsys.readouterr().out
    # Red defended: its own 13 с.д. in full; the enemy's forces, rating and losses unknown
    assert "Силы: (неизвестно) против 1,2 (1,0 × 1,2 в холмах)." in red
    assert "13 с.д. теряет 83" in red and "2,0" not in red and "Полный расчет" not in red
    assert main(["game", "report", path, "--side", "blue", "--lang", "ru"]) == 0
    blue = capsys.readouterr().out
    assert "Силы: 2,0 против (неизвестно)." in blue and "83" not in blue and "1,2" not in blue
