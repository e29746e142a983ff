"""The case book (issue 23): every case passes against the program, in under a minute; a
failing case shows what was expected beside what was found; house rules show which cases
they change; the printable book in both languages; bad case files refused with every problem."""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path

import pytest

from strategia.casebook import BOOK, CaseError, load_book, load_case, run_book
from strategia.casebook.render import book_html
from strategia.cli import main

LATIN = re.compile(r"[A-Za-z]{2,}")


@pytest.fixture(scope="module")
def runs():  # type: ignore[no-untyped-def]
    t = time.perf_counter()
    out = run_book(load_book())
    return out, time.perf_counter() - t


def test_every_case_of_the_book_passes_in_under_a_minute(runs) -> None:  # type: ignore[no-untyped-def]
    done, seconds = runs
    failed = [(r.case.id, r.to_json()) for r in done if not r.passed]
    assert failed == []
    assert seconds < 60, f"the book took {seconds:.0f} s"


def test_the_command_prints_a_line_a_case_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cases", "--rule", "9.3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    case = next(c for c in data["cases"] if c["id"] == "9.3-1")
    assert set(case) >= {"id", "rule", "quote", "passed", "expected", "actual", "changed"}
    assert case["passed"] and case["changed"] is None
    assert {"unit": "1 т.д.", "at": "4,1"} in case["expected"]
    assert main(["cases", "--case", "9.3-1", "--lang", "ru"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("выполнен") and "9.3-1" in out


def _broken_book(tmp_path: Path) -> Path:
    folder = tmp_path / "book"
    folder.mkdir()
    text = (BOOK / "9.3-1.toml").read_text(encoding="utf-8")
    (folder / "9.3-1.toml").write_text(text.replace('at = "4,1"', 'at = "5,1"'), "utf-8")
    return folder


def test_a_failing_case_shows_the_expected_beside_the_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _broken_book(tmp_path)
    assert main(["cases", "--folder", str(folder), "--lang", "ru"]) == 1
    out = capsys.readouterr().out
    assert "НЕ ВЫПОЛНЕН" in out and "1 т.д.: стоит в 5,1 — найдено 4,1" in out
    assert main(["cases", "--folder", str(folder), "--json"]) == 1
    case = json.loads(capsys.readouterr().out)["cases"][0]
    assert not case["passed"]
    assert case["expected"][0] == {"unit": "1 т.д.", "at": "5,1"}
    assert case["actual"][0] == {"unit": "1 т.д.", "at": "4,1"}


def test_house_rules_show_the_cases_they_change(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A house rule giving tanks 30 km a turn in hills (table 4) lets 1 т.д. reach 5,1: case
    9.3-1 changes, and says how; a house rule on something else changes nothing."""
    fast = tmp_path / "fast.toml"
    fast.write_text("[movement.hills]\ntank = 30\n", encoding="utf-8")
    assert main(["cases", "--case", "9.3-1", "--house", str(fast), "--json"]) == 0
    case = json.loads(capsys.readouterr().out)["cases"][0]
    assert case["changed"] is True
    assert {"unit": "1 т.д.", "at": "5,1"} in case["actual"]
    other = tmp_path / "other.toml"
    other.write_text("[march]\nbonus_km = 15\n", encoding="utf-8")
    assert main(["cases", "--case", "9.3-1", "--house", str(other), "--lang", "ru"]) == 0
    assert "по домашним правилам так же" in capsys.readouterr().out
    assert main(["cases", "--house", str(tmp_path / "none.toml")]) == 2
    assert "none.toml" in capsys.readouterr().err


def test_a_bad_case_file_names_every_problem(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    text = (BOOK / "9.3-1.toml").read_text(encoding="utf-8")
    text = text.replace('quote = "', 'qoute = "').replace("[[expect]]\nunit", "[[expect]]\nunt")
    bad.write_text(text.replace('order = "1 т.д. на 5,1"', 'ordr = "x"'), "utf-8")
    with pytest.raises(CaseError) as info:
        load_case(bad)
    problems = [str(p) for p in info.value.problems]
    assert any("case.qoute: unknown key" in p for p in problems)
    assert any("case.quote: missing" in p for p in problems)
    assert any("step 1: expected one of order" in p for p in problems)
    assert any("expect 1: expected one subject" in p for p in problems)


def test_the_printed_book_in_both_languages(runs) -> None:  # type: ignore[no-untyped-def]
    done, _ = runs
    ru, en = book_html(done, "ru"), book_html(done, "en")
    assert "книга случаев" in ru and "case book" in en
    assert "9.3-1" in ru and "«получив распоряжение" in ru
    hidden = r"<style>.*?</style>|<title>.*?</title>|<pre>.*?</pre>|<code>.*?</code>"
    words = re.sub(hidden + r"|<[^>]+>|&\w+;", " ", ru, flags=re.S)
    words = words.replace("Strategia", "")
    assert LATIN.findall(words) == []
    assert "т.д." not in re.sub(r"<pre>.*?</pre>|class='quote'.*?</div>", "", en, flags=re.S)


def test_a_case_copied_elsewhere_runs_the_same(tmp_path: Path) -> None:
    folder = tmp_path / "copy"
    shutil.copytree(BOOK, folder)
    done = run_book(load_book(folder, "9.3"))
    assert "9.3-1" in [r.case.id for r in done] and all(r.passed for r in done)


PROBE_CASE = '''
[case]
id = "x-1"
rules = ["4.12"]
title = "Проба"
title_en = "A probe"
source = "000, 4.12"
quote = "Фишки дивизий не могут пересекаться."
{meta}

[settings]
level = 2

[map]
relief = """
......
......
"""
states = """
RRRBBB
RRRBBB
"""

[forces.R]
order_of_battle = """
1 А: 1 с.к.
1 с.к.: 1 с.д., 2 т.д.
"""
deployment = """
1 с.д. - 1-1 фронтом на восток
2 т.д. - 2,1 фронтом на восток
"""

[forces.B]
deployment = "101 с.д. - 5,1 фронтом на запад"

{steps}
{expects}
'''


def _probe(tmp_path: Path, expects: str, steps: str = "", meta: str = "") -> list[dict]:
    p = tmp_path / "x-1.toml"
    p.write_text(PROBE_CASE.format(meta=meta, steps=steps, expects=expects), "utf-8")
    run = run_book([load_case(p)])[0]
    assert run.error is None
    return [{"passed": k.passed, **k.actual_json()} for k in run.checks]


def test_the_probes_of_units_the_game_and_a_side(tmp_path: Path) -> None:
    """A unit's cells as the book writes them (`1-1` read as 1,1), whether it is on the map,
    its corps, its regiments' kinds (in any order), its work in Russian (or by its key); the
    game's score and its armies (5.6); what a side is told of the enemy (5.8, 6.2)."""
    expects = """
[[expect]]
unit = "1 с.д."
at = "1,1"
corps = "1 с.к."
composition = ["ап", "с.п.", "с.п.", "с.п."]
[[expect]]
unit = "3 с.д."
on_map = false
[[expect]]
game = true
army_divisions = { "1 А" = 2 }
warned = ["1 А"]
score = { red = 0, blue = 0 }
[[expect]]
view = "red"
cover = ["5,1"]
seen = []
second_echelon = []
"""
    checks = _probe(tmp_path, expects)
    assert all(c["passed"] for c in checks), checks
    assert checks[0]["composition"] == ["с.п.", "с.п.", "с.п.", "ап"]
    steps = '[[step]]\norder = "2 т.д. на 3,1"\n[[step]]\norder = "2 т.д. растянуть на 3,2"\n'
    busy = '[[expect]]\nunit = "2 т.д."\nbusy = "frontage"\n[[expect]]\nunit = "2 т.д."\n'
    busy += 'busy = "смена ширины фронта"\n[[expect]]\nunit = "1 с.д."\nbusy = ""\n'
    checks = _probe(tmp_path, busy, steps)
    assert [c["busy"] for c in checks] == ["смена ширины фронта"] * 2 + [""]
    assert all(c["passed"] for c in checks)


def test_a_case_played_with_clocks(tmp_path: Path) -> None:
    """`clock = true`: each move has the level's time (1.9), the first the planning's (5.2)."""
    expects = '[[expect]]\ngame = true\nclock = 30\nclock_rule = "5.2"\n'
    assert all(c["passed"] for c in _probe(tmp_path, expects, meta="clock = true"))
    steps = "[[step]]\nend_turn = true\n" * 2
    expects = '[[expect]]\ngame = true\nclock = 5\nclock_rule = "1.9"\n'
    assert all(c["passed"] for c in _probe(tmp_path, expects, steps, "clock = true"))
    assert _probe(tmp_path, expects)[0]["clock"] is None  # no clock


def test_the_english_book_writes_the_probes_russian_in_english(tmp_path: Path) -> None:
    from strategia.casebook.render import expectation, position

    p = tmp_path / "x-1.toml"
    expects = """
[[expect]]
unit = "1 с.д."
facing = "восток"
busy = "переправа"
composition = ["с.п.", "ап"]
corps = "1 с.к."
[[expect]]
game = true
side = "blue"
score = { red = 51 }
[[expect]]
view = "blue"
seen = ["1 с.д."]
strips = { "1 А" = "1-2" }
"""
    p.write_text(PROBE_CASE.format(meta="", steps="", expects=expects), "utf-8")
    case = load_case(p)
    en = [x for e in case.expects for x in expectation(e, "en")]
    assert "1 RD: faces east" in en and "1 RD: busy: crossing a river" in en
    assert "1 RD: regiments RR, AR" in en and "1 RD: in the corps 1 RC" in en
    assert "the game: to move Blue" in en and "the game: score Red: 51" in en
    assert (
        "Blue is told: in full 1 RD" in en and "Blue is told: strips of deployment 1 A: 1-2" in en
    )
    ru = [x for e in case.expects for x in expectation(e, "ru")]
    assert "игра: ходят синие" in ru and "Синим сообщено: полностью 1 с.д." in ru
    assert "  1 A: 1 RC" in position(case, "en") and "  1 А: 1 с.к." in position(case, "ru")


def _case(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "case.toml"
    head = (
        '[case]\nid = "x-1"\nrules = ["9.1"]\ntitle = "т"\ntitle_en = "t"\n'
        'source = "000"\nquote = "ц"\n'
    )
    path.write_text(head + text, encoding="utf-8")
    return path


def test_the_wars_probe_names_the_states_at_war(tmp_path: Path) -> None:
    """9.1: Red crossing into a neutral is at war with it and with Blue; Blue and the neutral
    are not at war (`game.wars`, by the states' names)."""
    text = """
[[state]]
code = "R"
name = "Красные"
side = "red"
[[state]]
code = "B"
name = "Синие"
side = "blue"
[[state]]
code = "G"
name = "Зеленые"
side = "green"
[map]
relief = "....."
states = "RRGBB"
[forces.R]
deployment = "17 с.д. - 2,1 фронтом на восток"
[forces.B]
deployment = "101 с.д. - 5,1 фронтом на запад"
[[step]]
order = "17 с.д. на 3,1"
[[expect]]
game = true
wars = ["Зеленые — Красные", "Красные — Синие"]
"""
    run = run_book([load_case(_case(tmp_path, text))])[0]
    assert run.passed, run.to_json()
    assert run.checks[0].actual == (("wars", ["Зеленые — Красные", "Красные — Синие"]),)


def test_strengths_after_name_a_division_fighting_in_two_echelons_once(tmp_path: Path) -> None:
    """9.8c: 101 с.д. defends with 1 с.п. in the first echelon and the rest in the second; its
    strength after the battle is the whole division's, not the sum of its two parts' records.
    Front blows (table 9-1): 17 с.д. 1 against 1 с.п. 0.2; 0.2 is gone in 0.2 / (0.5 × 1) = 0.4
    of a turn, 17 с.д. losing 0.5 × 0.2 × 0.4 = 0.04; then 0.96 against the rest, 0.8
    (0.2 + 0.2 + 0.4), for 0.6 of a turn: the rest loses 0.5 × 0.96 × 0.6 = 0.288 of 0.8 (36 %),
    each of its regiments keeping 0.64: (0 + 3 × 0.64) / 4 = 0.48 of the division."""
    text = """
[settings]
level = 2
[map]
relief = "......"
states = "RRRBBB"
[forces.R]
deployment = "17 с.д. - 3,1 фронтом на восток"
[forces.B]
deployment = "101 с.д. - 4,1 фронтом на запад"
[[step]]
order = "удар по 4,1: 17 с.д. // оборона: 1 с.п. 101 с.д.; 2 с.п. 101 с.д., 3 с.п. 101 с.д., 1 ап 101 с.д."
[[expect]]
result = 1
rounds = 2
after = { "17 с.д." = 0.72, "101 с.д." = 0.48 }
[[expect]]
unit = "101 с.д."
strength = 0.48
"""
    run = run_book([load_case(_case(tmp_path, text))])[0]
    assert run.passed, run.to_json()
    after = dict(run.checks[0].actual)["after"]
    assert list(after) == ["17 с.д.", "101 с.д."] and after["101 с.д."] == pytest.approx(0.48)


def test_the_book_writes_the_program_s_keys_in_words() -> None:
    """A battle's outcome, a formation, a phase, a closed road and the units of `after` are
    printed in the reader's language, not as the program's keys."""
    from strategia.casebook.case import Expect
    from strategia.casebook.render import expectation

    e = Expect("result", 1, (("battle", "held"), ("after", {"5 т.д.": 0.75})))
    assert expectation(e, "ru") == [
        "шаг 1: исход боя позиция удержана",
        "шаг 1: сила после (дивизий) 5 т.д.: 0,75",
    ]
    assert expectation(e, "en") == [
        "step 1: the battle's outcome the position held",
        "step 1: strengths after (divisions) 5 TD: 0.75",
    ]
    u = Expect("unit", "17 с.д.", (("formation", "supporting"),))
    assert expectation(u, "ru") == ["17 с.д.: построение опорное"]
    g = Expect("game", True, (("phase", "deployment"),))
    assert expectation(g, "ru") == ["игра: фаза развертывание (войны еще нет)"]
    c = Expect("closed", "4,2", (("what", ["road-movement"]),))
    assert expectation(c, "ru") == ["закрыто в 4,2: закрыто дорога для движения"]
    assert expectation(c, "en") == ["closed at 4,2: closed the road to movement"]


# --- the tactical cases of seed 003 and the probes of artillery and reconnaissance -------------


def test_a_tactical_case_plays_a_skirmish_and_reads_its_troops() -> None:
    """A `kind = "tactical"` case: the skirmish is its position, its steps are the tactical
    game's cards and phases, its expectations a troop's place, formation and time spent."""
    case = load_case(BOOK / "003-formation-changes-1.toml")
    assert case.is_tactical and case.skirmish is not None and case.scenario is None
    assert case.level == 0 and case.chapter == "003" and case.example
    assert [s.kind for s in case.steps] == ["card", "advance"]
    run = run_book([case])[0]
    assert run.passed and run.to_json()["kind"] == "tactical"
    actual = dict(run.checks[0].actual)
    assert actual["at"] == [30.0, 17.2] and actual["spent"] == 1 and actual["moving"] is True
    assert run.played is not None and run.played.tables is not None


def test_a_tactical_case_that_fails_shows_the_found_beside_the_expected(tmp_path: Path) -> None:
    folder = tmp_path / "book"
    folder.mkdir()
    text = (BOOK / "003-obstacles-1.toml").read_text(encoding="utf-8")
    (folder / "x.toml").write_text(text.replace("moved = 8", "moved = 10"), "utf-8")
    run = run_book(load_book(folder))[0]
    assert not run.passed
    bad = next(k for k in run.checks if not k.passed)
    assert bad.expected["moved"] == 10 and dict(bad.actual)["moved"] == 8
    page = book_html([run], "ru")
    assert "НЕ ВЫПОЛНЕН" in page and "прошел за ход (см) 10 — найдено 8" in page


def test_a_tactical_case_file_names_its_problems(tmp_path: Path) -> None:
    text = (BOOK / "003-speeds-1.toml").read_text(encoding="utf-8")
    bad = tmp_path / "bad.toml"
    text = text.replace('card = "1/Тульский"', 'order = "1/Тульский"', 1)
    text = text.replace("[[expect]]\ntroop", "[[expect]]\nunit", 1)
    bad.write_text(text.replace('arm = "cavalry"', 'arm = "dragons"'), "utf-8")
    with pytest.raises(CaseError) as info:
        load_case(bad)
    problems = [str(p) for p in info.value.problems]
    assert any("step 1: expected one of card, act, advance, report" in p for p in problems)
    assert any("expect 1: expected one subject: troop, result, game" in p for p in problems)
    assert any("dragons" in p for p in problems)
    wrong = tmp_path / "kind.toml"
    wrong.write_text(text.replace('kind = "tactical"', 'kind = "naval"'), "utf-8")
    with pytest.raises(CaseError, match="case.kind"):
        load_case(wrong)


def test_house_rules_go_to_the_cases_of_their_own_rule_set(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A tactical house rule (the division column at 10 cm, not 12) changes the seed's example
    of the square (3/5 of 10 cm: 6 cm); an operational one leaves the tactical cases alone, and
    the tactical one the operational."""
    slow = tmp_path / "slow.toml"
    slow.write_text('[ruleset]\nname = "tactical"\n\n[speeds.column]\nforward = 10\n', "utf-8")
    assert main(["cases", "--case", "003-formation-changes-1", "--house", str(slow), "--json"]) == 0
    case = json.loads(capsys.readouterr().out)["cases"][0]
    assert case["changed"] is True
    assert case["actual"][0]["moved"] == 6.0
    assert main(["cases", "--case", "9.3-1", "--house", str(slow), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["cases"][0]["changed"] is False
    fast = tmp_path / "fast.toml"
    fast.write_text("[movement.hills]\ntank = 30\n", encoding="utf-8")
    assert main(["cases", "--rule", "003 speeds", "--house", str(fast), "--json"]) == 0
    assert all(c["changed"] is False for c in json.loads(capsys.readouterr().out)["cases"])


def test_what_a_side_sees_is_told_and_pays_is_read_off_the_game() -> None:
    """The probes of 8.2 (what a side knows of each enemy division), 8.3 (an answer's price in
    questions and resources, the questions left), 9.7b-c (what each side is told, a closure
    by kind and turn)."""
    runs = {r.case.id: r for r in run_book([load_case(BOOK / f"{n}.toml") for n in (
        "8.2-1", "0.2-4", "9.7b-2", "9.7c-1")])}  # fmt: skip
    assert all(r.passed for r in runs.values())
    seen = dict(runs["8.2-1"].checks[1].actual)["known"]
    assert seen["21 т.д."] == "открытый участок" and seen["1 с.д."] == "прикрытие"
    assert seen["23 т.д."] == ""
    paid = dict(runs["0.2-4"].checks[0].actual)
    assert (paid["cost"], paid["resources"]) == (0.5, 1.0)
    told = dict(runs["9.7b-2"].checks[1].actual)["told_to"]
    assert told == {"red": "артиллерийский огонь по 4,1",
                    "blue": "наши войска в 4,1 под огнем артиллерии"}  # fmt: skip
    closed = next(k for k in runs["9.7c-1"].checks if k.expect.subject == "closed")
    assert dict(closed.actual)["closed_for"] == {"road-transfer": 5, "road-movement": 2}


def test_the_english_book_gives_the_programs_words_in_english(runs) -> None:  # type: ignore[no-untyped-def]
    done, _ = runs
    en = book_html([r for r in done if r.case.id in ("8.3-1", "9.7b-2", "003-limbering-1")], "en")
    assert "the answer 1 AD" in en and "where is 21 TD?" in en
    assert "Blue: our troops at 4,1 under artillery fire" in en
    assert "mediator: 3-я батарея, artillery fire, casualties 1 fig." in en
    ru = book_html([r for r in done if r.case.id in ("9.7c-1", "003-limbering-1")], "ru")
    assert "дорога для переброски — по 5-й ход" in ru and "артиллерийская стрельба" in ru


def test_a_refusal_is_expected_in_part_or_at_all() -> None:
    from strategia.casebook.probes import compare

    assert compare("refused", "больше 20 % (8.3)", "… 2 из 6, больше 20\u00a0% (8.3)")
    assert compare("refused", True, "any refusal") and not compare("refused", True, None)
    assert compare("refused", False, None) and not compare("refused", "x", None)


# Rule ids the code cites that are not rules a case can check: a key of the rule data, a table
# the engine reads nowhere (table 3, 45° distances: `distances.py` is never asked for them).
NOT_CASES = {"loss_rule", "table 3"}


def _cited() -> set[str]:
    """Every rule id the engine, the game, the rule data and the tactical rules cite."""
    root = Path(__file__).parents[1] / "strategia"
    found: set[str] = set()
    pattern = re.compile(r'rule ?= ?"([^"]+)"|rule="([^"]+)"|\bcut\(\s*"([^"]+)"')
    for folder in ("engine", "game", "rules", "tactical"):
        for path in (root / folder).rglob("*"):
            if path.suffix in (".py", ".toml"):
                for m in pattern.finditer(path.read_text(encoding="utf-8")):
                    found.add(next(g for g in m.groups() if g))
    return found - NOT_CASES


def test_every_rule_the_engine_implements_has_a_case() -> None:
    """At least one case for every rule id the program cites, every chapter's included."""
    covered = {r for c in load_book() for r in c.rules}
    assert sorted(_cited() - covered) == []
    assert len(load_book()) >= 70
