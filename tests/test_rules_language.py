"""The rule data speaks both languages: every reason a value was reconstructed, every note and
every source has its Russian twin, so the Russian rules sheet and console show no English."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_russian import latin

from strategia.cli import main
from strategia.rules import load_ruleset
from strategia.rules.sheet import sheet_text

RULES = Path(__file__).parents[1] / "strategia" / "rules"
RULESETS = ["continental", "tactical"]
TWINNED = ("reconstructed", "note", "source")  # each needs `<key>_ru` beside it
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
LATIN = re.compile(r"[A-Za-z]")


def _russian(text: str | None) -> bool:
    """Russian: Cyrillic letters, or no letters of any script (a bare citation like "002, 4.2")."""
    return bool(text) and bool(CYRILLIC.search(text or "") or not LATIN.search(text or ""))


# Phrases of the tactical data's English reasons and notes; none may reach a Russian reader.
ENGLISH = ["lost; ", "the seed", "the walk", "the mediator", "as the line", "bases", "given ("]


def _texts(data: Any, where: str = "") -> Iterator[tuple[str, dict[str, Any], str]]:
    """Every (place, table, key) of a TOML document whose key needs a Russian twin."""
    if isinstance(data, dict):
        for k, v in data.items():
            if k in TWINNED and isinstance(v, str):
                yield where, data, k
            else:
                yield from _texts(v, f"{where}.{k}" if where else k)


@pytest.mark.parametrize("name", RULESETS)
def test_every_reason_and_note_in_the_data_has_a_russian_twin(name: str) -> None:
    with (RULES / f"{name}.toml").open("rb") as f:
        data = tomllib.load(f)
    places = list(_texts(data))
    assert places, name
    missing = [f"{w}.{k}" for w, d, k in places if f"{k}_ru" not in d]
    assert not missing, f"{name}: no Russian twin for\n  " + "\n  ".join(missing)
    latin_only = [f"{w}.{k}_ru" for w, d, k in places if not _russian(d[f"{k}_ru"])]
    assert not latin_only, f"{name}: Russian twin without Cyrillic:\n  " + "\n  ".join(latin_only)


@pytest.mark.parametrize("name", RULESETS)
def test_the_loaded_rules_tell_every_reason_and_note_in_russian(name: str) -> None:
    rules = load_ruleset(name)
    seen = 0
    for e in rules.entries.values():
        for text, ru in ((e.note, e.remark("ru")), (e.source, e.origin("ru"))):
            if text:
                seen += 1
                assert _russian(ru), f"{e.key}: {text}"
        for p in e.params():
            if p.why is not None:
                seen += 1
                assert p.reconstructed_ru and _russian(p.why.ru), p.key
            if p.note:
                seen += 1
                assert p.note_ru and _russian(p.remark("ru")), p.key
    assert seen > 20


def test_the_russian_tactical_rules_sheet_has_no_english_reasons(
    capsys: pytest.CaptureFixture[str],
) -> None:
    main(["rules", "--ruleset", "tactical", "--lang", "ru"])
    out = capsys.readouterr().out
    assert "[в]" in out and "утрачено; " in out and "посредник" in out
    found = [phrase for phrase in ENGLISH if phrase in out]
    assert not found, f"English in the Russian tactical rules sheet: {found}"


@pytest.mark.parametrize("name", RULESETS)
def test_the_russian_sheets_footnotes_and_notes_are_russian(name: str) -> None:
    rules = load_ruleset(name)
    text = sheet_text(rules, "ru")
    # footnotes ([в] reconstructed, - notes) and the entries' own notes under their titles
    lines = [ln for ln in text.splitlines() if ln.startswith(("    [в] ", "    - "))]
    lines += [e.remark("ru") for e in rules.entries.values() if e.note]
    assert lines
    english = [ln.strip() for ln in lines if re.search(r"\b[a-z]{3,} [a-z]{3,}\b", ln)]
    assert not english, "English in the Russian rules sheet:\n  " + "\n  ".join(english)


def test_the_russian_tactical_rules_sheet_is_all_russian() -> None:
    """Values, units and footnotes too: only the layout's letters n (figures) and s (squadrons)
    and the `keys` of house rules are in Latin script."""
    text = sheet_text(load_ruleset("tactical"), "ru")
    words = {w for line in text.splitlines() for w in latin(line)}
    assert words <= {"n", "s"}, sorted(words - {"n", "s"})
    assert "[в] [в]" not in text  # a footnote names its row, not the mark
    assert "1 пара[в]" in text and "2 эскадрона" in text and "невозможно" in text
    assert "расстроенные  рассыпанные" in text


def test_the_rules_as_json_carry_the_russian_notes(capsys: pytest.CaptureFixture[str]) -> None:
    """`strategia rules --json` keeps each note's Russian twin (a cell's and an entry's)."""
    import json

    assert main(["rules", "--ruleset", "tactical", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    text = json.dumps(data, ensure_ascii=False)
    assert '"note_ru"' in text and '"reconstructed_ru"' in text


def test_the_consoles_sheet_leaves_the_data_keys_to_the_command_line() -> None:
    """The sheet players read in the console has no data keys (`scale`); `strategia rules`,
    where a house rule's author looks them up, has them."""
    rules = load_ruleset(level=2)
    assert "ключ `scale`" in sheet_text(rules, "ru")
    read = sheet_text(rules, "ru", keys=False)
    assert "; ключ" not in read and "2.1. Масштаб и время  (уровень 1)" in read


def test_house_rule_problems_in_russian_say_tables_and_words_in_russian() -> None:
    """«табл. 4», not "table 4"; the words a cell may hold quoted one by one, each said in
    Russian; the value given quoted as written."""
    from strategia.core.errors import say
    from strategia.rules.load import apply_house_text

    said = []
    for text in ('[movement.plain]\nrifle = "fly"\n', "[movement.plian]\nrifle = 3\n"):
        with pytest.raises(Exception) as e:
            apply_house_text(load_ruleset(level=3), text, "h.toml")
        said.append(say(e.value, "ru"))
    assert (
        "одно из: «trails» (только по тропам), «impassable» (непроходимо), а дано «fly»"
        in (said[0])
    )
    assert "нет такой строки в табл. 4; может быть, «plain»?" in said[1]
    assert not [w for s in said for w in latin(s.replace("h.toml", "")) if w not in
                {"trails", "impassable", "plain", "movement", "rifle", "plian", "fly"}]  # fmt: skip
