"""Fog of war that holds (1.6): scripted games at each level, and everything each side receives
(the channel's outputs, every `--side` command of the CLI as text and as JSON, its refusals)
searched for an enemy fact outside what the side legitimately learned.

What a side learns legitimately: the enemy units its views identified (open sectors, in sight of
its troops), the enemy units named in its own battles, and what its questions were answered.
Everything else about the enemy must never reach it: an unidentified unit's designation, the
position of a unit neither identified nor told as covering forces, any enemy strength, the
other side's sealed orders (level 3), whether an answer was true. The start of the war (9.1) is
announced to every side (its journal, its screen's banner) and searched with the rest: the
enemy's crossing unit is never named to it.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from strategia.cli import main
from strategia.core.errors import StrategiaError
from strategia.core.i18n import Lang
from strategia.game.channel import SideChannel, channel
from strategia.game.debrief import debrief
from strategia.game.debrief_render import debrief_html, debrief_text
from strategia.game.game import Game
from strategia.game.last_known import last_known
from strategia.game.trial import script_turn
from strategia.notation.refs import UnitRef
from strategia.rules.kinds import CorpsKind, DivisionKind

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "maps" / "continental.toml"
SIDES = ("red", "blue")
TURNS = {1: 8, 2: 8, 3: 8}


def _mentions(text: str, ref: UnitRef, lang: Lang = "ru") -> bool:
    """Whether `text` names `ref` («21 т.д.», not inside «121 т.д.»; `21 TD` in English)."""
    kind = ref.format(lang).split(" ", 1)[1]
    return re.search(rf"(?<![\d]){ref.number}\s*{re.escape(kind)}", text) is not None


class Log:
    """What one side received, and what it learned legitimately along the way."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.known: set[UnitRef] = set()

    def add(self, *items: object) -> None:
        for x in items:
            self.texts.append(x if isinstance(x, str) else json.dumps(x, ensure_ascii=False))

    def learn(self, ch: SideChannel) -> None:
        view = ch.view()
        self.known |= {s.unit for s in view.seen if s.unit is not None}
        for d in ch.told():
            battle = d.get("battle", {})
            mine = {role for role in ("attacker", "defender") if battle.get(role) == ch.side}
            for u in battle.get("units", []):
                self.known.add(UnitRef.parse(u["unit"]))
                if u["role"] not in mine:  # the enemy in its battle: named, nothing measured
                    assert (u["rating"], u["effective"], u["before"], u["after"]) == (0, 0, [], [])
                    assert not u["factors"] and not u.get("blows") and not u["strength_before"]
            if battle:
                enemy = "defence" if "attacker" in mine else "attack"
                assert battle.get(enemy, 0) == 0 and battle.get(f"{enemy}_support", 0) == 0
            if d["kind"] == "answer":
                q = d["question"]
                self.known |= {u.ref for u in ch.game.state.units.values() if _mentions(q, u.ref)}


def _probe(ch: SideChannel, log: Log, enemy: UnitRef) -> None:
    """Orders and a question a side might use to probe: each refusal the same for an enemy
    unit as for a unit nobody has."""
    taken = set(ch.game.state.units) | set(ch.game.state.known_units)
    nobody = next(
        UnitRef(enemy.number, k) for k in DivisionKind if UnitRef(enemy.number, k) not in taken
    )  # the same number (a refusal may list the side's own units of that number)
    said = []
    for ref in (enemy, nobody):
        try:
            ch.order(f"{ref} на 1,1")
        except StrategiaError as e:
            said.append(e.say("ru").replace(str(ref), "X").replace(str(ref.kind.ru), "K"))
            log.add(e.say("ru"), str(e))
    assert said[0] == said[1], said


def _play(level: int, tmp_path: Path) -> tuple[Game, dict[str, Log]]:
    g = Game.new(DEFAULT, tmp_path / f"l{level}.game", level=level)
    logs = {s: Log() for s in SIDES}
    while g.state.turn <= TURNS[level]:
        for side in SIDES:
            ch, log = channel(g, side), logs[side]
            enemy = next(
                u.ref
                for u in g.state.units.values()
                if g.state.side_of(u.ref) not in (side, "green")
            )
            _probe(ch, log, enemy)
            if g.state.at_war:
                for q in (f"где {enemy}", "сколько войск в 30,20"):
                    try:
                        log.add(ch.ask(q))
                    except StrategiaError as e:
                        log.add(e.say("ru"))
            log.learn(ch)
            log.add(ch.view().to_json(), ch.told(), ch.journal_text("ru"), ch.status())
            war = ch.war()  # the start of the war (9.1), as the side's screen shows it
            log.add(*(war.to_json(), war.en) if war is not None else ())
            log.add([m.to_json() for m in last_known(ch)])  # the faded marks of its map
            d = debrief(ch)  # what happened since its last move, as its screen shows it first
            log.add(d.to_json(), debrief_text(d, "ru"), debrief_html(d, "en", g.simultaneous))
        if g.simultaneous:  # sealed: the other side hears nothing of the orders given so far
            script_turn_sealed(g, logs)
        else:
            script_turn(g)
    return g, logs


def script_turn_sealed(g: Game, logs: dict[str, Log]) -> None:
    """Level 3: red's and blue's orders given, then (before the turn ends) each side's outputs
    checked for the other's orders; then the turn carried out."""
    before = len(g.queued)
    for side in SIDES:
        mine = sorted((u for u in g.state.units.values() if g.state.side_of(u.ref) == side),
                      key=lambda u: u.ref.number)  # fmt: skip
        for u in mine[:3]:
            dx, dy = u.facing.delta
            channel(g, side).order(f"{u.ref} на {u.cell.lon + dx},{u.cell.lat + dy}")
    sealed = {s: [o.format("ru") for _, who, o in g.queued[before:] if who == s] for s in SIDES}
    for side in SIDES:
        other = next(s for s in SIDES if s != side)
        told = json.dumps(channel(g, side).told(), ensure_ascii=False)
        text = channel(g, side).journal_text("ru")
        for o in sealed[other]:  # whole orders: "101 с.д. на 27,33" holds "1 с.д. на 27,33"
            seen = re.compile(rf"(?<!\d){re.escape(o)}")
            assert not seen.search(told) and not seen.search(text), (side, o)
        assert all(o in told for o in sealed[side])
    script_turn(g)


def _cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    main(args)
    out = capsys.readouterr()
    return out.out + out.err


@pytest.mark.parametrize("level", [1, 2, 3])
def test_no_side_receives_a_hidden_enemy_fact(
    level: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    g, logs = _play(level, tmp_path)
    path = str(g.journal.path)
    g = Game.open(path)
    state = g.state
    for side in SIDES:
        log = logs[side]
        ch = channel(g, side)
        log.learn(ch)
        for fmt in ("json", "text"):
            log.add(_cli(["game", "report", path, "--side", side, "--format", fmt], capsys))
        for cmd in (["show"], ["journal"]):
            log.add(_cli(["game", *cmd, path, "--side", side, "--json"], capsys))
            log.add(_cli(["game", *cmd, path, "--side", side], capsys))
        log.add(_cli(["game", "score", path, "--side", side], capsys))
        log.add(_cli(["game", "debrief", path, "--side", side, "--json"], capsys))
        log.add(_cli(["game", "chart", path, "--side", side, "--json"], capsys))
        log.add(_cli(["game", "report", path, "--whole", "--side", side], capsys))
        log.add(_cli(["game", "order", path, "999 т.д. на 1,1", "--side", side], capsys))
        everything = "\n".join(log.texts)
        # the start of the war was announced to the side (9.1), and is searched with the rest
        assert "Началась война (9.1)" in everything and "The war begins (9.1)" in everything

        own = {s.code for s in g.scenario.states if s.side == side}
        enemies = [
            u
            for u in state.units.values()
            if u.owner not in own and g.state.side_of(u.ref) != "green"
        ]
        hidden = [u for u in enemies if u.ref not in log.known]
        assert hidden, "the game should leave some enemy units unknown"
        named = [u.ref for u in hidden if _mentions(everything, u.ref)]
        assert not named, f"{side} was told of {named}"
        view = ch.view()
        covered = {c for s in view.seen for c in s.cells}
        view_text = json.dumps(view.to_json())
        placed = [(u.ref, c) for u in hidden for c in u.cells
                  if c not in covered and f'"{c.lon},{c.lat}"' in view_text]  # fmt: skip
        assert not placed, f"{side} was shown where {placed} stand"
        own_strengths = {
            r.strength for u in state.units.values() if u.owner in own for r in u.division.regiments
        }
        odd = {
            repr(r.strength)
            for u in enemies
            for r in u.division.regiments
            if r.strength not in own_strengths and len(repr(r.strength)) > 5
        }
        leaked = [s for s in odd if s in everything]
        assert not leaked, f"{side} was told enemy strengths {leaked}"
        assert '"truth"' not in everything and "true_answer" not in everything


# --- reconnaissance questions (8.3): read against what the side knows, never the whole game ------


@pytest.fixture(scope="module")
def war_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A level-2 game just at war (Blue to move), kept closed to be copied."""
    path = tmp_path_factory.mktemp("fog") / "war.game"
    g = Game.new(DEFAULT, path, level=2, seed=5)
    while not g.state.at_war:
        script_turn(g)
    g.journal.close()
    return path


@pytest.fixture
def war(war_file: Path, tmp_path: Path) -> Game:
    copy = tmp_path / "war.game"
    shutil.copy(war_file, copy)
    return Game.open(copy)


def _named_by(g: Game, codes: set[str]) -> set[UnitRef]:
    """Every unit, corps, army and front of the states `codes`, on the map or in the forces."""
    refs = {u.ref for u in g.state.units.values() if u.owner in codes}
    refs |= {u.corps for u in g.state.units.values() if u.owner in codes and u.corps}
    for f in (f for f in g.scenario.forces if f.state in codes):
        refs |= {x.ref for x in (*f.fronts, *f.armies, *f.corps)}
        refs |= {*f.deployed_divisions(), *f.reserve_divisions()}
        refs |= {d for c in f.corps for d in c.divisions}
    return refs


class Fog:
    """What `side` knows at the start (its own units, the enemy's shown or told) and what it
    does not: the enemy's hidden units, a unit nobody has for each, numbers of hidden units
    only."""

    def __init__(self, g: Game, side: str) -> None:
        ch = channel(g, side)
        codes = {s.code for s in g.scenario.states}
        own_codes = {s.code for s in g.scenario.states if s.side == side}
        self.own = _named_by(g, own_codes)
        view = ch.view()
        told = {s.unit for s in view.seen if s.unit is not None}
        told |= {a.army for a in view.armies} | {a.front for a in view.armies if a.front}
        for d in ch.told():
            told |= {UnitRef.parse(u["unit"]) for u in d.get("battle", {}).get("units", [])}
        self.told = told
        self.hidden = _named_by(g, codes - own_codes) - told
        self.hidden_units = [u for u in g.state.units.values() if u.ref in self.hidden]
        everyone = _named_by(g, codes)
        others = {r.number for r in self.own | told}
        by_number: dict[int, list[UnitRef]] = {}
        for r in self.hidden:
            by_number.setdefault(r.number, []).append(r)
        unused = [n for n in range(10, 1000) if n not in {r.number for r in everyone}]
        # a hidden division on the map, the only unit of its number; one nobody has, its twin
        self.enemy = next(
            u.ref
            for u in sorted(self.hidden_units, key=lambda u: u.ref.number)
            if u.ref.number not in others and len(by_number[u.ref.number]) == 1
        )
        self.nobody = UnitRef(
            next(n for n in unused if len(str(n)) == len(str(self.enemy.number))), self.enemy.kind
        )
        # a number two hidden units share (21 т.д., 21 с.к.), and a type nobody of it has
        self.shared = next(
            n for n, refs in sorted(by_number.items()) if len(refs) > 1 and n not in others
        )
        taken = {r.kind for r in by_number[self.enemy.number]}
        self.other_kind = next(k for k in DivisionKind if k not in taken)
        self.mine = next(
            u.ref for u in g.state.units.values() if u.ref in self.own and u.ref.number not in
            {r.number for r in self.own | told | self.hidden if r != u.ref}
        )  # fmt: skip


# Well-formed and malformed questions about a unit `{u}` (its number `{n}`), in both languages.
FORMS = (
    "где {u}?",
    "where is {en}?",
    "где {n} {other}?",  # a type no unit of that number has (13 т.д. when 13 с.д. hides)
    "где {n}?",  # a bare number: completed only from what the side knows
    "где {n} хх?",
    "где {n} с.д. 1?",
    "сколько дивизий в {n}?",
)
PLAIN = ("где 21?", "погода?", "где?", "пункты мобилизации в 1,1?")  # text only


def _asked(g: Game, side: str, text: str) -> dict[str, object]:
    """What the side receives for `text` (the answer, or the refusal in both languages), and
    what it cost: the questions left before and after, the records written."""
    ch = channel(g, side)
    before, records = ch.questions_left(), len(g.journal.entries)
    try:
        got: dict[str, object] = {"answer": ch.ask(text)}
    except StrategiaError as e:
        got = {"refused": (e.say("ru"), str(e))}
    got["paid"] = before - ch.questions_left()
    got["written"] = len(g.journal.entries) - records
    if got.get("answer"):
        got["record"] = sorted(g.answers[-1])
        got["told"] = sorted(ch.told()[-1])
    return got


def _masked(got: dict[str, object], text: str, u: UnitRef) -> str:
    """`got` with the question as written and the unit it names put out of the way."""
    out = json.dumps(got, ensure_ascii=False, sort_keys=True)
    for s in (text, str(u), u.format("en"), f"{u.number} "):
        out = out.replace(json.dumps(s, ensure_ascii=False)[1:-1], "X")
    return out


def _leaks(fog: Fog, got: dict[str, object], text: str) -> list[str]:
    """Hidden units (but those the side wrote in `text`) or, in a refusal, their cells in what
    the side received."""
    received = json.dumps(got, ensure_ascii=False)
    written = {r for r in fog.hidden if _mentions(text, r) or _mentions(text, r, "en")}
    named = [str(r) for r in fog.hidden - written if _mentions(received, r)]
    if "refused" in got:
        cells = [c for u in fog.hidden_units for c in u.cells]
        named += [str(c) for c in cells if re.search(rf"(?<!\d){c.lon},{c.lat}(?!\d)", received)]
    return named


@pytest.mark.parametrize("budget", ["left", "spent"])
def test_questions_tell_a_hidden_enemy_unit_from_nobody_s_by_nothing(
    war: Game, budget: str
) -> None:
    """8.3 and 1.6: a side's question is read against what it knows; a well-formed one about a
    hidden enemy unit and about a unit nobody has cost the same and leave the same records; a
    refusal reads the same for both and names no hidden unit, its type or its cell."""
    side = "blue"
    fog = Fog(war, side)
    if budget == "spent":
        while channel(war, side).questions_left() >= 0.5:
            channel(war, side).ask("есть ли войска в 1,1?")
        assert channel(war, side).questions_left() == 0
    for form in FORMS:
        pair = []
        for u in (fog.enemy, fog.nobody):
            text = form.format(u=u, en=u.format("en"), n=u.number, other=fog.other_kind.ru)
            got = _asked(war, side, text)
            assert not _leaks(fog, got, text), (text, got)
            pair.append((got, _masked({k: v for k, v in got.items() if k != "answer"}, text, u)))
        (a, a_masked), (b, b_masked) = pair
        assert a_masked == b_masked, (form, a, b)  # refusals word for word, prices, records
        if budget == "spent" or ("{u}" not in form and "{en}" not in form and "{n} {o" not in form):
            assert "refused" in a and a["paid"] == a["written"] == 0, (form, a)
        else:  # well-formed: answered and paid for, whether or not the unit exists
            assert "answer" in a and a["paid"] == 1 and a["written"] == 1, (form, a)
            assert b["answer"]["answer"] == {"ru": "не обнаружена", "en": "not found"}  # type: ignore[index]
    for text in PLAIN:  # refused free whatever the budget, in words that name no unit
        got = _asked(war, side, text)
        assert "refused" in got and got["written"] == 0, (text, got)
        assert not _leaks(fog, got, text), (text, got)
        assert not re.search(r"\d+ (?:с\.д\.|т\.д\.|с\.к\.|А)", str(got["refused"])), got
    # the side's own units: refused free (it knows them), a bare number completed from them
    got = _asked(war, side, f"где {fog.mine.number}?")
    assert "refused" in got and got["written"] == 0 and str(fog.mine) in str(got["refused"])
    assert not _leaks(fog, got, "")


def test_bare_numbers_are_completed_from_the_side_s_knowledge_only(war: Game) -> None:
    fog = Fog(war, "blue")
    seen = next(s.unit for s in channel(war, "blue").view().seen if s.unit is not None)
    numbered = [r for r in fog.own | fog.told if r.number == seen.number]
    a = _asked(war, "blue", f"где {seen.number}?")
    if len(numbered) == 1:  # the one known unit of that number
        assert a["answer"]["question"] == f"где {seen}?"  # type: ignore[index]
    else:  # the known ones listed, nothing else
        listed = str(a["refused"])
        assert all(str(r) in listed for r in numbered) and not _leaks(fog, a, "")
    a = _asked(war, "blue", f"где {fog.shared}?")
    assert a["refused"] == (
        f"«где {fog.shared}?»: не указан тип части (позиция {5 + len(str(fog.shared))}; ожидалось: "
        "одно из: с.д., кав.д., т.д., м.д., сау.д., пт.д., а.д., крепость, с.к., т.к., м.к., "
        "кав.к., Ф, А)",
        f"где {fog.shared}?: unit type missing (column {5 + len(str(fog.shared))}; expected one "
        "of с.д., кав.д., т.д., м.д., сау.д., пт.д., а.д., крепость, с.к., т.к., м.к., кав.к., "
        "Ф, А / RD, CD, TD, MD, SPD, ATD, AD, fortress, RC, TC, MC, CC, Front, A)",
    )


def test_the_mediator_asks_for_a_side_as_the_side_would(war: Game) -> None:
    """The mediator's path (a side given, a false answer chosen or not) reads the question
    against the side's knowledge too; the truth is in the mediator's journal."""
    fog = Fog(war, "blue")
    with pytest.raises(StrategiaError) as by_mediator:
        war.ask("blue", f"где {fog.shared}?", lie=False)
    with pytest.raises(StrategiaError) as by_side:
        channel(war, "blue").ask(f"где {fog.shared}?")
    assert by_mediator.value.say("ru") == by_side.value.say("ru")
    a = war.ask("blue", f"где {fog.enemy}?", lie=False)
    cells = " ".join(map(str, war.state.unit(fog.enemy).cells))
    assert a["true"] is True and a["truth"]["ru"] == f"в {cells}" and a["cost"] == 1
    b = war.ask("blue", f"где {fog.nobody}?", lie=False)
    assert b["truth"]["ru"] == "не обнаружена" and sorted(a) == sorted(b)
    assert f"{fog.nobody}?  →  не обнаружена" in war.journal_text("ru")


# --- movement statutes (5.9): the side's own record and the mediator's ----------------------------


def test_a_side_s_movement_statute_reaches_no_other_side(
    war: Game, capsys: pytest.CaptureFixture[str]
) -> None:
    """A statute is in its side's journal and the mediator's; the enemy learns nothing of it, not
    even that one was written, from anything it receives (nor from a move made by it), and
    one it tries to write for an enemy corps is refused as for a corps nobody has."""
    blue = channel(war, "blue")
    mine = sorted(
        (u for u in war.state.units.values() if war.state.side_of(u.ref) == "blue" and u.corps),
        key=lambda u: (str(u.corps), u.ref.number),
    )
    corps, lead = mine[0].corps, mine[0]
    assert corps is not None
    first = f"1 с.п. {lead.ref}" if lead.division.kind is DivisionKind.RIFLE else str(lead.ref)
    text = f"устав движения {corps}: построение опорное эшелоны {first}; остальные через 5 км"
    told = blue.order(text)
    assert told is not None and told.text.ru == f"устав движения {corps} записан"
    dx, dy = lead.facing.delta
    blue.order(f"{lead.ref} на {lead.cell.lon + dx},{lead.cell.lat + dy}")
    path = str(war.journal.path)
    assert text in blue.journal_text("ru") and text in war.journal_text("ru")
    mine_cli = _cli(["game", "journal", path, "--side", "blue"], capsys)
    assert text in mine_cli
    red = channel(war, "red")
    received = [
        json.dumps([red.told(), red.view().to_json(), red.status()], ensure_ascii=False),
        red.journal_text("ru"),
        red.journal_text("en"),
    ]
    for cmd in (["journal"], ["show"], ["report"]):
        received.append(_cli(["game", *cmd, path, "--side", "red"], capsys))
        received.append(_cli(["game", *cmd, path, "--side", "red", "--json"], capsys))
    everything = "\n".join(received)
    for word in ("устав", "statute", text, "5.9"):
        assert word not in everything, word
    said = []
    taken = {u.corps for u in war.state.units.values() if u.corps} | set(war.state.known_units)
    nobody = next(  # the same number (a refusal may list the side's own units of that number)
        UnitRef(corps.number, k) for k in CorpsKind if UnitRef(corps.number, k) not in taken
    )
    for ref in (corps, nobody):
        with pytest.raises(StrategiaError) as e:
            red.order(f"устав движения {ref}: построение опорное")
        said.append(e.value.say("ru").replace(str(ref), "X").replace(str(ref.kind.ru), "K"))
    assert said[0] == said[1], said


# --- a computer player's decisions (issue 26): the mediator's, and its own side's after the war ---


@pytest.mark.parametrize("level", [2, 3])
def test_no_side_receives_a_computer_player_s_decisions(
    level: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A computer player's reasons are kept beside its orders for the mediator: no side
    receives another's, nor its own before the war is over; after it, its own only."""
    from strategia.cli.auto_cmd import play
    from strategia.players import Player

    g = Game.new(DEFAULT, tmp_path / "auto.game", level=level, seed=3)
    players = {s: Player(s, "bold", "attack@1", seed=5) for s in ("red", "blue", "green")}
    play(g, players, 4)
    words = ("Замысел хода", "Plan of the move", "соотношение сил по расчету боя",
             "force ratio by the engine", "[решение", "[decision")  # fmt: skip
    path = str(g.journal.path)
    assert "Замысел хода" in g.journal_text("ru") and "[решение" in g.journal_text("ru")

    def received(side: str) -> str:
        ch = channel(g, side)
        out = [json.dumps([ch.told(), ch.view().to_json(), ch.status()], ensure_ascii=False)]
        out += [ch.journal_text("ru"), ch.journal_text("en")]
        for cmd in (["journal"], ["show"], ["report"]):
            out.append(_cli(["game", *cmd, path, "--side", side], capsys))
            out.append(_cli(["game", *cmd, path, "--side", side, "--json"], capsys))
        return "\n".join(out)

    for side in ("red", "blue", "green"):
        everything = received(side)
        for w in words:
            assert w not in everything, (side, w)
    g.end_game()
    for side in ("red", "blue"):
        mine = [d for _, d in g.decisions(side)]
        told = [d for d in channel(g, side).told() if d["kind"] == "decision"]
        assert told and len(told) == len(mine) and all(d["side"] == side for d in told)
        assert "Замысел хода" in channel(g, side).journal_text("ru")
        other = "blue" if side == "red" else "red"
        theirs = {d["text"]["ru"] for _, d in g.decisions(other)} - {d["text"]["ru"] for d in mine}
        text = json.dumps(channel(g, side).told(), ensure_ascii=False)
        assert not [t for t in theirs if json.dumps(t, ensure_ascii=False)[1:-1] in text]
