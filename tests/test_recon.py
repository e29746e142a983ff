"""Reconnaissance (8.3): questions in both languages, their price, the budget, true and false
answers, and what the asking side is shown."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from strategia.core.geometry import Cell
from strategia.engine.state import GameState, initial_state
from strategia.game.questions import Question, parse_question
from strategia.game.recon import (
    Answer,
    ReconError,
    ask,
    budget,
    cost,
    resource_cost,
    true_answer,
)
from strategia.notation.refs import (
    AmbiguousNotationError,
    IllegalNotationError,
    InvalidNotationError,
)
from strategia.rules import RuleSet
from strategia.rules.kinds import DivisionKind
from strategia.theatre.builder import ScenarioBuilder
from strategia.theatre.scenario import Scenario
from strategia.theatre.scenario_io import load_scenario

MAPS = Path(__file__).parent.parent / "maps"


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    b = ScenarioBuilder.blank(20, 12, name="Разведка")
    b = b.state("B", "Синие", "blue", lon=(1, 10)).state("R", "Красные", "red", lon=(11, 20))
    b = b.paint("mountains", lon=8, lat=(10, 12)).road("1,11 20,11").road("2,6 18,6")
    b = b.river("10.5,0.5 10.5,12.5")  # bridges at 10,6-11,6 and 10,11-11,11; a pass at 8,11
    b = b.city("Синевск", "2,6", capital=True).city("Краснодол", "18,6")
    b = b.fortress("3,9", "Бродская крепость").corps("B", "2 т.к.", "21 т.д.", "22 т.д.")
    b = b.place("B", "2 т.к. расположен между 6-5 и 6-6", "101 с.д. - 5,6", "51 а.д. - 4,4")
    b = b.place("B", "102 с.д. - 10,6", "91 крепость - 3,9").army("B", "1 А", "2 т.к.", "101 с.д.")
    b = b.reserves("B", "M", "2,6", "171 с.д.").reserves("R", "M", "18,6", "71 с.д.")
    b = b.place("R", "17 с.д. - 12,6", "18 с.д. - 8,11")  # 18 с.д. stands on the Blue pass
    return b.build()


@pytest.fixture(scope="module")
def war(scenario: Scenario) -> GameState:
    return dataclasses.replace(initial_state(scenario, 2), at_war=True)


@pytest.fixture(scope="module")
def continental() -> GameState:
    sc = load_scenario(MAPS / "continental.toml")
    return dataclasses.replace(initial_state(sc, 2), at_war=True)


PAIRS = [
    ("есть ли войска в 40,21 41,21?", "troops in 40,21 41,21?"),
    ("сколько дивизий в 40,21?", "how many divisions in 40,21?"),
    ("какие войска в 40,21?", "what troops in 40,21?"),
    ("где 17 с.д.?", "where is 17 RD?"),
    ("есть ли войска в Краснодол?", "troops in Краснодол?"),
    ("есть ли войска на мосту 30,27?", "troops on the bridge at 30,27?"),
    ("есть ли войска на перевале 50,11?", "troops on the pass at 50,11?"),
    ("есть ли войска в крепости 45,22?", "troops in the fortress at 45,22?"),
    ("пункты мобилизации?", "mobilisation points?"),
]


@pytest.mark.parametrize(("ru", "en"), PAIRS)
def test_both_languages_parse_to_one_question(ru: str, en: str) -> None:
    q = parse_question(ru)
    assert parse_question(en) == q
    assert str(q) == ru and q.format("en") == en
    assert eval(repr(q), {"parse_question": parse_question}) == q


def test_question_forms() -> None:
    assert parse_question("есть ли войска в 40,21 41-21").cells == (Cell(40, 21), Cell(41, 21))
    assert parse_question("How many divisions are there in 40, 21 ?").kind == "count"
    assert parse_question("what kind of troops in 40,21").kind == "kind"
    assert parse_question("where 17 RD").unit == parse_question("где 17 сд?").unit
    assert parse_question("are there any troops on the road 40,21?").feature == "road"
    assert parse_question("где пункты мобилизации?").kind == "mobilisation"
    assert parse_question("mobilization points").kind == "mobilisation"
    q = parse_question("troops in Краснодол", side="Red")
    assert q.kind == "place" and q.place == "Краснодол" and q.side == "red"
    assert repr(q) == "parse_question('есть ли войска в Краснодол?', side='red')"


def test_place_names_against_the_map(war: GameState) -> None:
    assert parse_question("есть ли войска в Краснодоле?", war).place == "Краснодол"
    assert parse_question("troops in бродской крепости", war).place == "Бродская крепость"
    with pytest.raises(IllegalNotationError, match="no place 'Москва'") as e:
        parse_question("есть ли войска в Москва?", war)
    assert e.value.column == 18
    with pytest.raises(IllegalNotationError, match="no bridge at 5,6") as e:
        parse_question("есть ли войска на мосту 5,6?", war)
    assert e.value.column == 25
    assert parse_question("troops on the bridge at 11,6", war).cells == (Cell(11, 6),)


def test_bad_questions_name_the_column(war: GameState) -> None:
    with pytest.raises(InvalidNotationError, match="not a reconnaissance question") as e:
        parse_question("погода на завтра?")
    assert e.value.column == 1
    with pytest.raises(InvalidNotationError, match="no separator") as e:
        parse_question("сколько дивизий в 40,21 41?")
    assert e.value.column == 27
    with pytest.raises(IllegalNotationError, match="off the map") as e:
        parse_question("how many divisions in 5,99", war)
    assert e.value.column == 25
    with pytest.raises(InvalidNotationError, match="unit type missing") as e:
        parse_question("где 17?")
    assert e.value.column == 7
    # any designation may be asked about (8.3), whether or not such a unit exists
    assert str(parse_question("where is 99 RD", war)) == "где 99 с.д.?"
    with pytest.raises(InvalidNotationError, match="unit type missing") as e:
        parse_question("где 99?", war)  # a bare number is completed only from known units
    assert e.value.column == 7  # where the type is missing
    assert str(parse_question("где 101?", war)) == "где 101 с.д.?"
    with pytest.raises(InvalidNotationError, match="no cells"):
        parse_question("какие войска в ?")
    with pytest.raises(InvalidNotationError, match="2 cells"):
        parse_question("troops on the bridge at 1,1 2,2")
    with pytest.raises(InvalidNotationError, match="unexpected text"):
        parse_question("пункты мобилизации в 40,21?")
    with pytest.raises(AmbiguousNotationError):
        parse_question("где 21?", ambiguous_context())


def ambiguous_context() -> object:
    from strategia.notation.refs import UnitRef

    class Ctx:
        width = height = 50
        known_units = (UnitRef.parse("21 т.д."), UnitRef.parse("21 с.к."))

    return Ctx()


def test_cost_by_kind(rules2: RuleSet) -> None:
    asked = {t: cost(parse_question(t), rules2) for t in (ru for ru, _ in PAIRS)}
    assert [asked[ru] for ru, _ in PAIRS] == [0.5, 1, 2, 1, 0.5, 0.5, 0.5, 0.5, 1]
    assert resource_cost(rules2) == 1


def test_budget_accumulates(war: GameState, rules2: RuleSet) -> None:
    assert budget(war, "red", rules2).left == 15
    assert budget(dataclasses.replace(war, turn=10), "red", rules2).left == 15
    later = dataclasses.replace(war, turn=11)
    history = [ask(war, "red", parse_question("какие войска в 6,5"), rules2).value]
    history.append(ask(war, "blue", parse_question("troops in 12,6"), rules2).value)
    b = budget(later, "red", rules2, history)
    assert (b.allowance, b.spent, b.left, b.resources) == (30, 2, 28, 1)
    assert budget(later, "blue", rules2, history).left == 29.5
    more = dataclasses.replace(war.scenario.settings, recon_questions=5)
    small = dataclasses.replace(later, scenario=dataclasses.replace(war.scenario, settings=more))
    assert budget(small, "red", rules2).allowance == 10


def test_refusals(war: GameState, rules2: RuleSet) -> None:
    with pytest.raises(ReconError, match="no war yet"):
        ask(dataclasses.replace(war, at_war=False), "red", parse_question("где 101 с.д."), rules2)
    history: list[Answer] = []
    for _ in range(7):  # 7 × 2 = 14 of 15
        history.append(ask(war, "red", parse_question("какие войска в 6,5"), rules2,
                           history=history).value)  # fmt: skip
    with pytest.raises(ReconError, match="costs 2 questions; red has 1 left of the 15"):
        ask(war, "red", parse_question("what troops in 6,5"), rules2, history=history)
    ask(war, "red", parse_question("где 101 с.д."), rules2, history=history)  # 1 left: enough
    with pytest.raises(ReconError, match="not an enemy unit"):
        ask(war, "red", parse_question("где 17 с.д."), rules2)
    # 1.6: a unit nobody has is answered (and paid for) as an enemy unit not on the map
    nobody = ask(war, "red", parse_question("где 99 с.д."), rules2).value
    assert nobody.value == () and nobody.text.ru == "не обнаружена"
    with pytest.raises(ReconError, match="no place 'Москва'"):
        ask(war, "red", parse_question("troops in Москва"), rules2)
    with pytest.raises(ReconError, match="no bridge at 5,6"):
        ask(war, "red", parse_question("troops on the bridge at 5,6"), rules2)
    with pytest.raises(ReconError, match="asked by blue"):
        ask(war, "red", parse_question("troops in 5,6", side="blue"), rules2)


def truth(state: GameState, side: str, text: str) -> object:
    return true_answer(state, side, parse_question(text))


def test_true_answers_small_scenario(war: GameState) -> None:
    assert truth(war, "red", "есть ли войска в 6,5 1,1?") is True
    assert truth(war, "red", "troops in 1,1 1,2") is False
    assert truth(war, "red", "troops in 8,11") is False  # only the enemy's troops count
    assert truth(war, "blue", "troops in 8,11") is True
    assert truth(war, "red", "сколько дивизий в 6,5 6,6 5,6 8,11") == 3
    assert truth(war, "red", "какие войска в 6,5 6,6 4,4") == (
        (DivisionKind.TANK, 2),
        (DivisionKind.ARTILLERY, 1),
    )
    assert truth(war, "red", "какие войска в 1,1") == ()
    assert truth(war, "red", "где 101 с.д.") == (Cell(5, 6),)
    assert truth(war, "red", "где 2 т.к.") == (Cell(6, 5), Cell(6, 6))
    assert truth(war, "red", "где 1 А") == (Cell(6, 5), Cell(6, 6), Cell(5, 6))
    assert truth(war, "red", "где 171 с.д.") == ()  # a reserve not yet arrived: not found
    assert truth(war, "red", "troops in Бродская крепость") is True
    assert truth(war, "red", "есть ли войска в Синевск?") is False
    assert truth(war, "red", "troops on the bridge at 10,6") is True
    assert truth(war, "red", "troops on the pass at 8,11") is False
    assert truth(war, "blue", "есть ли войска на перевале 8,11?") is True
    assert truth(war, "blue", "troops in the city at 18,6") is False
    assert truth(war, "red", "пункты мобилизации?") == (Cell(2, 6),)
    assert truth(war, "blue", "mobilisation points") == (Cell(18, 6),)


def test_answer_texts(war: GameState, rules2: RuleSet) -> None:
    def text(q: str, side: str = "red") -> tuple[str, str]:
        a = ask(war, side, parse_question(q), rules2).value
        assert a.true and a.text == a.truth and a.turn == 1
        return a.text.ru, a.text.en

    assert text("troops in 6,5") == ("Да", "Yes")
    assert text("сколько дивизий в 6,5 6,6 5,6") == ("3 дивизии", "3 divisions")
    assert text("сколько дивизий в 5,6") == ("1 дивизия", "1 division")
    assert text("сколько дивизий в 1,1") == ("0 дивизий", "0 divisions")
    assert text("какие войска в 6,5 6,6 4,4") == ("2 т.д., 1 а.д.", "2 TD, 1 AD")
    assert text("какие войска в 1,1") == ("войск нет", "no troops")
    assert text("где 2 т.к.") == ("в 6,5 и 6,6", "in 6,5 and 6,6")
    assert text("где 171 с.д.") == ("не обнаружена", "not found")
    assert text("пункты мобилизации") == ("Синевск (2,6)", "Синевск (2,6)")


def test_true_answers_default_scenario(continental: GameState, rules2: RuleSet) -> None:
    st = continental
    assert truth(st, "red", "сколько дивизий в 26,33 26,34 26,35?") == 3  # 11 с.к.
    assert truth(st, "red", "где 110 с.д.?") == (Cell(29, 39),)
    assert truth(st, "blue", "where is 1 RC?") == (Cell(33, 34), Cell(33, 35), Cell(33, 36))
    assert truth(st, "red", "есть ли войска в Бродская крепость?") is True
    assert truth(st, "red", "какие войска в 22,33 22,34 23,28?") == (
        (DivisionKind.TANK, 2),
        (DivisionKind.ARTILLERY, 1),
    )
    assert truth(st, "blue", "troops in 31,27") is True  # 14 с.д., Red's
    assert truth(st, "red", "troops in 31,27") is False
    points = truth(st, "blue", "пункты мобилизации?")
    assert isinstance(points, tuple) and Cell(57, 28) in points and Cell(8, 31) not in points
    a = ask(st, "red", parse_question("где 110 с.д.?", st), rules2).value
    assert a.text.ru == "в 29,39" and a.cost == 1 and a.resources == 1
    assert parse_question("где 11 А?", st).unit == parse_question("where is 11 A").unit  # an army
    assert truth(st, "red", "где 171 с.д.?") == ()  # a reserve, known to the scenario
    q = parse_question("пункты мобилизации?")
    history = [ask(st, "red", q, rules2, lie=False).value] * 4
    lied = ask(st, "red", q, rules2, lie=True, history=history).value
    true_points = lied.truth_value
    assert not lied.true and len(lied.value) == len(true_points) == 8  # type: ignore[arg-type]
    assert len(set(lied.value) - set(true_points)) == 1  # type: ignore[arg-type]


def test_mediator_forces_a_false_answer(war: GameState, rules2: RuleSet) -> None:
    q = parse_question("сколько дивизий в 6,5 6,6 5,6")
    with pytest.raises(ReconError, match="1 of 1 answers false, more than 20%"):
        ask(war, "red", q, rules2, lie=True)
    history = [ask(war, "red", q, rules2, lie=False, history=[]).value]
    for _ in range(3):
        history.append(ask(war, "red", q, rules2, lie=False, history=history).value)
    res = ask(war, "red", q, rules2, lie=True, history=history)
    a = res.value
    assert not a.true and a.truth_value == 3 and a.value in (1, 2, 4, 5)
    assert a.truth.ru == "3 дивизии" and a.text != a.truth
    steps = [s.label.en for s in res.explanation.walk()]
    assert "the mediator's choice: false" in steps and res.explanation.find("8.3")
    with pytest.raises(ReconError, match="2 of 6 answers"):
        ask(war, "red", q, rules2, lie=True, history=[*history, a])


@pytest.mark.parametrize(
    "text",
    ["troops in 6,5", "troops in 1,1", "какие войска в 6,5 6,6 4,4", "какие войска в 1,1",
     "где 101 с.д.", "где 171 с.д.", "где 99 с.д.", "пункты мобилизации",
     "сколько дивизий в 1,1"],
)  # fmt: skip
def test_false_answers_keep_the_form(war: GameState, rules2: RuleSet, text: str) -> None:
    q = parse_question(text)
    history = [ask(war, "red", q, rules2, lie=False).value] * 4
    a = ask(war, "red", q, rules2, lie=True, history=history).value
    assert not a.true and a.value != a.truth_value and type(a.value) is type(a.truth_value)
    if q.kind == "count":
        assert a.value in (1, 2)  # never negative
    if q.kind == "where" and a.truth_value:
        assert Cell(5, 6).chebyshev(a.value[0]) <= 2  # type: ignore[index]
    if q.kind == "where" and not a.truth_value:  # 171: Blue's reserve; 99: nobody's (1.6)
        assert len(a.value) == 1 and a.value[0].lon <= 10  # type: ignore[arg-type]


def run(state: GameState, rules: RuleSet, seed: int, n: int) -> list[Answer]:
    questions = [parse_question(t) for t in
                 ("troops in 6,5", "сколько дивизий в 6,5 6,6", "где 101 с.д.", "troops in 1,1")]  # fmt: skip
    history: list[Answer] = []
    for i in range(n):
        history.append(ask(state, "red", questions[i % 4], rules, history=history, seed=seed).value)
    return history


def test_seeded_draws_are_reproducible_and_within_the_share(
    war: GameState, rules2: RuleSet
) -> None:
    late = dataclasses.replace(war, turn=200)  # 300 questions granted
    first = run(late, rules2, 7, 200)
    assert run(late, rules2, 7, 200) == first
    assert run(late, rules2, 8, 200) != first
    false = 0
    for i, a in enumerate(first, 1):
        false += not a.true
        assert false <= 0.2 * i + 1e-9
    assert 10 < false <= 40
    assert all(a.true for a in first[:4])  # a first false answer needs five answers


def test_the_draw_is_explained_for_the_mediator(war: GameState, rules2: RuleSet) -> None:
    res = ask(war, "red", parse_question("troops in 6,5"), rules2, seed=3)
    labels = {s.label.en: s.value for s in res.explanation.walk()}
    assert labels["a yes/no question"] == 0.5
    assert labels["questions left"] == 15 and labels["left after this question"] == 14.5
    assert labels["probability of a false answer"] == 0.2
    assert 0 <= labels["drawn (seed 3, red, question 0)"] < 1  # type: ignore[operator]
    assert labels["one more false answer within the share"] is False
    assert labels["answer: Yes"] is True


def test_level_one_has_no_resource_cost(scenario: Scenario, rules1: RuleSet) -> None:
    st = dataclasses.replace(initial_state(scenario, 1), at_war=True)
    assert resource_cost(rules1) == 0
    assert ask(st, "red", parse_question("troops in 6,5"), rules1).value.resources == 0


def test_json_for_the_side_hides_the_truth(war: GameState, rules2: RuleSet) -> None:
    a = ask(war, "red", parse_question("troops in 6,5"), rules2).value
    side = a.to_json(for_side=True)
    assert side == {"question": "есть ли войска в 6,5?", "answer": {"en": "Yes", "ru": "Да"}}
    mediator = a.to_json(for_side=False)
    assert mediator["true"] is True and mediator["truth"] == {"en": "Yes", "ru": "Да"}
    assert mediator["cost"] == 0.5 and mediator["side"] == "red" and mediator["turn"] == 1


def test_history_may_be_the_mediators_json(war: GameState, rules2: RuleSet) -> None:
    late = dataclasses.replace(war, turn=200)
    answers = run(late, rules2, 7, 40)
    records = [a.to_json(for_side=False) for a in answers]
    q = parse_question("troops in 6,5")
    assert ask(late, "red", q, rules2, history=records, seed=7) == ask(
        late, "red", q, rules2, history=answers, seed=7
    )
    assert budget(late, "red", rules2, records) == budget(late, "red", rules2, answers)


def test_question_needs_its_object() -> None:
    with pytest.raises(ValueError, match="question kind 'weather'"):
        Question("weather")
    with pytest.raises(ValueError, match="needs its cells"):
        Question("count")
