"""Movement statutes (5.9): a side's standing orders for how a formation moves and strikes.

«Играющий имеет право создавать уставы движения соединения войск, записывая их в журнал или
сообщая посреднику. В дальнейшей игре уставной порядок движения считается принятым по
умолчанию.» A statute is recorded for a corps or a division (`record`: it costs no time) and kept
with its side in the state (`GameState.statutes`). Afterwards it is the default where an order
leaves the matter open (`statutes` in the rule data):

- a move (4.1, 4.2, 4.4) whose order names no formation is made in the statute's (9.6), taken up
  first at re-forming's time (`move`);
- a blow whose order names the formation whole, in a single echelon, strikes in the statute's
  echelons (9.8c), the troops the statute does not name in its «остальные» echelon, else in the
  first (`blow`). Echelons or a formation written in an order stand.

A division moves by its own statute, else by its corps'. A corps named in a blow without a
statute to deploy it strikes with its divisions, in the echelon it is named in.
"""

from __future__ import annotations

from dataclasses import replace

from strategia.core.i18n import Lang, Text
from strategia.engine import movement
from strategia.engine.battle import battle
from strategia.engine.facing import reform
from strategia.engine.result import Cut, OrderError, Result, cut
from strategia.engine.state import GameState, UnitState
from strategia.explain.trace import Trace, explain, quiet, record
from strategia.notation.orders import Attack, Move, Reform, Statute
from strategia.notation.refs import UnitRef
from strategia.notation.slots import REST
from strategia.rules import RuleSet
from strategia.rules.english import en
from strategia.rules.kinds import Formation


def statutes_of(state: GameState, side: str) -> tuple[Statute, ...]:
    """The movement statutes `side` has recorded, oldest first."""
    return tuple(s for who, s in state.statutes if who == side)


def statute_of(state: GameState, ref: UnitRef) -> Statute | None:
    """The statute recorded for the formation `ref` itself, if any."""
    return next((s for _, s in state.statutes if s.unit == ref), None)


def statute_for(state: GameState, ref: UnitRef) -> Statute | None:
    """The statute a division moves by: its own, else its corps'."""
    own = statute_of(state, ref)
    u = state.units.get(ref)
    if own is None and u is not None and u.corps is not None:
        return statute_of(state, u.corps)
    return own


def troops(state: GameState, ref: UnitRef) -> list[UnitState]:
    """The divisions on the map that make up the formation `ref` (a corps or a division)."""
    if ref.echelon == "corps":
        return [u for u in state.units.values() if u.corps == ref]
    return [state.units[ref]] if ref.echelon == "division" and ref in state.units else []


# --- recording ------------------------------------------------------------------------------------


def record_statute(state: GameState, order: Statute, rules: RuleSet) -> tuple[GameState, Result]:
    """Record (or cancel) a formation's movement statute (5.9); it takes no time."""
    ref = order.unit
    if ref.echelon not in ("corps", "division"):
        raise OrderError(
            en(f"{order.format('en')}: a movement statute is for a corps or a division (5.9)"),
            ru=f"{order}: устав движения дается корпусу или дивизии (5.9)",
        )
    mine = troops(state, ref)
    if not mine:
        raise OrderError(
            en(f"{order.format('en')}: {ref} is not on the map"), ru=f"{order}: {ref} нет на карте"
        )
    side = state.side_of(mine[0].ref)
    had = statute_of(state, ref)
    kept = tuple(x for x in state.statutes if x[1].unit != ref)
    cuts: list[Cut] = []
    with explain(Text(en(f"Movement statute of {ref}"), f"Устав движения {ref}"), rule="5.9") as ex:
        if order.cancel:
            statutes = kept
            if had is None:
                cuts.append(cut("5.9", en(f"{ref} has no movement statute"), f"у {ref} нет устава"))
                record(cuts[-1].reason, None, kind="cut", rule="5.9")
            outcome = Text(
                en(f"movement statute of {ref} cancelled"), f"устав движения {ref} отменен"
            )
        else:
            statutes = (*kept, (side, order))
            _describe(ex, order)
            cuts += _not_in(state, order, mine)
            again = (", replacing the one before", " взамен прежнего") if had else ("", "")
            outcome = Text(
                en(f"movement statute of {ref} recorded{again[0]}"),
                f"устав движения {ref} записан{again[1]}",
            )
        ex.step(Text("time it takes", "затрачено времени"), 0.0, unit="turn", rule="5.9")
        ex.set(0.0)
    new = state.evolve(statutes=statutes)
    return new, Result(order.format("ru"), outcome, ex.freeze(), tuple(cuts))


def _describe(ex: Trace, s: Statute) -> None:
    """The statute's parts as the mediator reads them, and where the engine uses each."""
    if s.formation is not None:
        f = s.formation
        ex.step(
            Text("formation of its divisions on the move", "построение дивизий в движении"),
            Text(f.en, f.ru),
            rule="9.6",
            note=Text(
                "taken up by its moves that name no formation",
                "принимается при перемещениях без построения в приказе",
            ),
        )
    for k, _ in enumerate(s.echelons, 1):
        ex.step(
            Text(en(f"echelon {k}"), f"{k}-й эшелон"),
            Text(_echelon(s, k, "en"), _echelon(s, k, "ru")),
            rule="9.8c",
        )
    if s.echelons:
        ex.step(
            Text(
                "its echelons strike when a blow names it whole in one echelon",
                "эшелонами устава наносится удар, в приказе на который оно названо целиком",
            ),
            kind="note",
            rule="5.9",
        )
    if s.gap is not None:
        ex.step(
            Text("distance between echelons", "расстояние между эшелонами"),
            s.gap,
            unit="km",
            rule="5.9",
            note=Text(
                "recorded: the engine places echelons by cells (9.8c)",
                "записано: движок располагает эшелоны по клеткам (9.8в)",
            ),
        )


def _echelon(s: Statute, k: int, lang: Lang) -> str:
    names = [r.format(lang) for r in s.echelons[k - 1]]
    return ", ".join([*names, *([REST[0] if lang == "ru" else REST[1]] if k == s.rest else [])])


def _not_in(state: GameState, s: Statute, mine: list[UnitState]) -> list[Cut]:
    """The units a statute names that are not part of its formation now (9.3: left out of its
    echelons while so)."""
    divisions = {u.ref: u for u in mine}
    out = []
    for r in (r for e in s.echelons for r in e):
        if _index(divisions, r) is None:
            out.append(
                cut(
                    "5.9",
                    en(f"{r} is not part of {s.unit} now: left out of its echelons while so"),
                    f"{r} сейчас не входит в {s.unit}: в эшелоны не ставится, пока так",
                )
            )
            record(out[-1].reason, None, kind="cut", rule="5.9")
    return out


def _index(divisions: dict[UnitRef, UnitState], r: UnitRef) -> set[int] | None:
    """The regiments (indices) of a division of the formation that `r` names; None if none."""
    u = divisions.get(r.division)
    if u is None:
        return None
    if r.regiment is None:
        return set(range(len(u.division.regiments)))
    i = u.division.regiment_index(*r.regiment)
    return {i} if i is not None else None


# --- moves ----------------------------------------------------------------------------------------


def move(state: GameState, order: Move, rules: RuleSet) -> tuple[GameState, Result]:
    """A move in the formation its order names, else in its statute's (5.9, 9.6): taken up first,
    at re-forming's time, then the move with the time left (`movement.move`)."""
    u = state.unit(order.unit)
    formation, by = order.formation, None
    if formation is None and (s := statute_for(state, u.ref)) and s.formation is not None:
        with quiet():
            on = bool(rules.value("statutes", "formation_on_move"))
        formation, by = (s.formation, s.unit) if on else (None, None)
    if formation is None:
        return movement.move(state, order, rules)
    title = Text(
        en(f"{u.ref} moves in formation {formation.en}"),
        f"{u.ref} движется: построение {formation.ru}",
    )
    cuts: list[Cut] = []
    used = 0.0
    with explain(title, rule="5.9" if by else "9.6", unit="turn") as ex:
        if by is not None:
            rules.value("statutes", "formation_on_move")
            ex.step(
                Text(en(f"by the movement statute of {by}"), f"по уставу движения {by}"),
                Text(formation.en, formation.ru),
                rule="5.9",
            )
        if u.formation is formation or u.busy is not None or u.left <= 0:
            pass  # already so, or no time: the move itself says why it does not go
        elif by is not None and not rules.active("formations"):
            _level_1_note(formation)
        else:
            state, r = reform(state, Reform(u.ref, formation), rules)
            cuts += r.cuts
            used += float(r.explanation.value or 0.0)  # type: ignore[arg-type]
        state, r = movement.move(state, order, rules)
        cuts += r.cuts
        ex.set(round(used + float(r.explanation.value or 0.0), 9))  # type: ignore[arg-type]
    return state, replace(r, explanation=ex.freeze(), cuts=tuple(cuts))


def _level_1_note(formation: Formation) -> None:
    record(
        Text(
            en(f"formations are a level-2 rule (9.6): it moves as it stands, not {formation.en}"),
            "построения — правило 2 уровня (9.6): движется как стоит",
        ),
        None,
        kind="note",
        rule="9.6",
    )


# --- blows ----------------------------------------------------------------------------------------


def blow(state: GameState, order: Attack, rules: RuleSet) -> tuple[GameState, Result]:
    """A blow (9.8) with each formation it names whole deployed (`deploy`), then fought."""
    with quiet():
        deployed, notes, by_statute = deploy(state, order, rules)
    if deployed == order:
        return battle(state, order, rules)
    title = Text(en(f"Echelons of the blow on {order.target}"), f"Эшелоны удара по {order.target}")
    with explain(title, rule="5.9" if by_statute else "9.8c") as ex:
        if by_statute:
            rules.value("statutes", "echelons_in_blows")
        for note in notes:
            ex.step(note, kind="note", rule="5.9" if by_statute else "9.8c")
        for k, e in enumerate(deployed.echelons, 1):
            written = Text(", ".join(r.format("en") for r in e), ", ".join(map(str, e)))
            ex.step(Text(en(f"echelon {k}"), f"{k}-й эшелон"), written, rule="9.8c")
        state, r = battle(state, deployed, rules)
        ex.set(r.explanation.value)
    return state, replace(r, order=order.format("ru"), explanation=ex.freeze())


def deploy(state: GameState, order: Attack, rules: RuleSet) -> tuple[Attack, list[Text], bool]:
    """The blow with every formation it names whole put in its echelons: by its statute where
    the order gives a single echelon (5.9), else a corps by its divisions where it is named.
    Also what was done, in words, and whether a statute was used."""
    single = len(order.echelons) == 1
    out: list[list[UnitRef]] = [[] for _ in order.echelons]
    notes: list[Text] = []
    used = False
    for k, refs in enumerate(order.echelons):
        for ref in refs:
            s = statute_of(state, ref) if single and troops(state, ref) else None
            if s is not None and s.echelons and rules.value("statutes", "echelons_in_blows"):
                parts, said = _by_statute(state, s)
                out += [[] for _ in range(len(parts) - len(out))]
                for j, part in enumerate(parts):
                    out[j] += part
                notes += said
                used = True
            elif ref.echelon == "corps" and (mine := troops(state, ref)):
                out[k] += [u.ref for u in mine]
                names = ", ".join(str(u.ref) for u in mine)
                notes.append(
                    Text(en(f"{ref} strikes with {names}"), f"{ref} наносит удар: {names}")
                )
            else:
                out[k].append(ref)
    echelons = tuple(tuple(dict.fromkeys(e)) for e in out if e)
    return replace(order, echelons=echelons), notes, used


def _by_statute(state: GameState, s: Statute) -> tuple[list[list[UnitRef]], list[Text]]:
    """A formation's troops in its statute's echelons: those named where named, the rest in the
    «остальные» echelon (the regiments a division left there by name), else in the first."""
    mine = troops(state, s.unit)
    divisions = {u.ref: u for u in mine}
    parts: list[list[UnitRef]] = [[] for _ in s.echelons]
    named: dict[UnitRef, set[int]] = {}
    notes = [
        Text(
            en(f"{s.unit} strikes by its movement statute"),
            f"{s.unit} наносит удар по уставу движения",
        )
    ]
    for k, e in enumerate(s.echelons):
        for r in e:
            got = _index(divisions, r)
            if got is None:
                notes.append(
                    Text(
                        en(f"{r}, named in the statute, is not part of {s.unit} now: left out"),
                        f"{r}, названная в уставе, сейчас не входит в {s.unit}: не участвует",
                    )
                )
                continue
            parts[k].append(r)
            named.setdefault(r.division, set()).update(got)
    rest = min(s.rest, len(parts)) or 1
    for u in mine:
        got = named.get(u.ref, set())
        if not got:
            parts[rest - 1].append(u.ref)
        elif s.rest:
            left = sorted(set(range(len(u.division.regiments))) - got)
            parts[rest - 1] += [_regiment(u, i) for i in left]
    return parts, notes


def _regiment(u: UnitState, i: int) -> UnitRef:
    """The regiment at index `i` of a division, as the journal names it (`3 с.п. 17 с.д.`)."""
    kind = u.division.regiments[i].kind
    n = 1 + sum(1 for r in u.division.regiments[:i] if r.kind is kind)
    return UnitRef(u.ref.number, u.ref.kind, (n, kind))


__all__ = ["blow", "deploy", "move", "record_statute", "statute_for", "statutes_of", "troops"]
