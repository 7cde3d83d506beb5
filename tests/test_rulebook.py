"""The rule book inside the package: ``pokerdraw32.rule_text`` and ``pokerdraw32 rules [ID]``."""

from __future__ import annotations

import io
from importlib import resources
from pathlib import Path

import pytest

import pokerdraw32
from pokerdraw32 import PokerDraw32Error, PokerDraw32TypeError, PokerDraw32ValueError, rule_text
from pokerdraw32.cli import main
from pokerdraw32.rulebook import rule_ids

ROOT_RULES = Path(__file__).resolve().parent.parent / "RULES.md"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.skipif(not ROOT_RULES.exists(), reason="needs the repository's RULES.md beside tests/")
def test_the_package_copy_is_the_rule_book() -> None:
    """src/pokerdraw32/RULES.md must stay byte-identical to the root RULES.md: after editing the
    rule book, run `cp RULES.md src/pokerdraw32/RULES.md`."""
    shipped = resources.files("pokerdraw32").joinpath("RULES.md").read_bytes()
    assert shipped == ROOT_RULES.read_bytes(), "run: cp RULES.md src/pokerdraw32/RULES.md"


def test_rule_text_whole_book_section_and_rule() -> None:
    book = rule_text()
    assert book.startswith("# 32-Card Draw") and pokerdraw32.rule_text is rule_text
    r34 = rule_text("R3.4")
    assert r34.startswith("* R3.4 Betting structure") and "  * pot-limit:" in r34 and "  * fixed-limit:" in r34
    assert "R3.5" not in r34 and r34 in book
    r3 = rule_text("R3")
    assert r3.startswith("## R3 Table, stakes, chips\n") and r34 in r3 and "## R4" not in r3
    assert rule_text("[r3.4]") == rule_text(" R3.4 ") == r34              # as cited in error messages
    assert rule_text("R11").startswith("## R11 Randomness")
    ids = rule_ids()
    assert ids[:4] == ["R1", "R1.1", "R1.2", "R1.3"] and "R10.4" in ids
    for rule in ids:
        assert rule_text(rule) in book


@pytest.mark.parametrize(("rule", "message"), [
    ("R3.99", "unknown rule 'R3.99': section R3 has R3.1 to R3."),
    ("R99", "unknown rule 'R99': give a section id (R1 to R11) or a rule id such as R3.4"),
    ("hello", "'hello' is not a rule id: give a section id (R1 to R11) or a rule id such as R3.4"),
    ("R3.", "'R3.' is not a rule id"),
])
def test_unknown_rule_is_an_error_naming_the_valid_form(rule: str, message: str) -> None:
    with pytest.raises(PokerDraw32ValueError, match="^" + message.replace("(", r"\(").replace(")", r"\)")) as info:
        rule_text(rule)
    assert isinstance(info.value, PokerDraw32Error) and isinstance(info.value, ValueError)
    code, out, err = run("rules", rule)
    assert code == 1 and out == "" and err.startswith("pokerdraw32 rules: error: ") and message in err


def test_rules_command() -> None:
    code, out, err = run("rules", "R3.4")
    assert code == 0 and err == "" and out == rule_text("R3.4") + "\n"
    code, out, _ = run("rules", "R3")
    assert code == 0 and out == rule_text("R3") + "\n"
    code, out, _ = run("rules")
    assert code == 0 and out == rule_text().rstrip("\n") + "\n"
    code, _, err = run("rules", "R1", "R2")
    assert code == 2 and err.startswith("usage: pokerdraw32") and "unrecognized arguments: R2" in err


def test_error_messages_rule_ids_can_be_looked_up() -> None:
    """Every rule id an error message cites resolves (e.g. eval's [R1.1])."""
    code, _, err = run("eval", "Ah Kd 7c 8s 6h")
    (cited,) = [part.split("]")[0] for part in err.split("[")[1:]]
    assert code == 1 and run("rules", cited)[0] == 0


def test_rules_to_a_narrow_encoding_replaces_what_it_cannot_write() -> None:
    """The book has typographic characters (× −); a stream in ASCII or cp1252 (Windows, redirected)
    gets '?' for them rather than an error."""
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="ascii")
    assert main(["rules", "R3.1"], stdout=out, stderr=io.StringIO()) == 0
    out.flush()
    assert raw.getvalue().decode("ascii").startswith("* R3.1 2 to 5 players are dealt in (32 ? 5?5 = 7 cards")


def test_a_rule_id_of_another_type_is_a_type_error() -> None:
    with pytest.raises(PokerDraw32TypeError, match=r"rule_id must be a str such as 'R3\.4', got 3\.4"):
        rule_text(3.4)  # type: ignore[arg-type]
