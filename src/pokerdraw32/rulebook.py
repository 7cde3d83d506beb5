"""The rule book, ``RULES.md``, shipped inside the package: the whole of it, a section or one rule.

Error messages cite rules by id (``[R3.4]``); :func:`rule_text` (and ``pokerdraw32 rules R3.4``)
prints what the id says.  The package copy ``pokerdraw32/RULES.md`` is kept byte-identical to
the repository's ``RULES.md`` (tests/test_rulebook.py checks it).

>>> print(rule_text("R1.2"))
* R1.2 Suit order, highest first: hearts (h), diamonds (d), clubs (c), spades (s).
>>> rule_text("R3").splitlines()[0]
'## R3 Table, stakes, chips'
>>> rule_text("R99")
Traceback (most recent call last):
...
pokerdraw32.errors.PokerDraw32ValueError: unknown rule 'R99': give a section id (R1 to R11) or a rule id such as R3.4
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from .errors import PokerDraw32TypeError, PokerDraw32ValueError, shown

__all__ = ["rule_book", "rule_ids", "rule_text"]

_SECTION = re.compile(r"## (R[0-9]+)\b")
_RULE = re.compile(r"\* (R[0-9]+\.[0-9]+)\b")
_ID = re.compile(r"\[?\s*[Rr]([0-9]+)(?:\.([0-9]+))?\s*\]?")


@lru_cache(maxsize=1)
def rule_book() -> str:
    """The whole rule book, ``RULES.md``, as shipped in the package (read with :mod:`importlib.resources`)."""
    return resources.files(__package__).joinpath("RULES.md").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _index() -> dict[str, str]:
    """Every section id (``R3``) and rule id (``R3.4``) with its text, in book order."""
    lines = rule_book().splitlines()
    found: dict[str, str] = {}
    section: str | None = None
    start = 0
    for i, line in enumerate([*lines, "## end"]):
        if line.startswith("## "):
            if section is not None:
                found[section] = "\n".join(lines[start:i]).rstrip()
            m = _SECTION.match(line)
            section, start = (m.group(1), i) if m else (None, i)
            if section is not None:
                found[section] = ""              # its place in book order; its text when it ends
        m = _RULE.match(line)
        if m:
            end = i + 1                      # the rule's own lines: its sub-bullets and continuations are indented
            while end < len(lines) and lines[end][:1] in (" ", "\t") and lines[end].strip():
                end += 1
            found[m.group(1)] = "\n".join(lines[i:end])
    return found


def rule_ids() -> list[str]:
    """The section ids (``R1`` ...) and rule ids (``R1.1`` ...) of the rule book, in book order."""
    return list(_index())


def rule_text(rule_id: str | None = None) -> str:
    """The rule book (``None``), one section (``"R3"``: its heading, table and rules) or one rule
    (``"R3.4"``, with its sub-bullets).  Ids are matched case-insensitively, with or without the
    brackets error messages put around them (``"[R3.4]"``).

    :raises PokerDraw32ValueError: no such section or rule; the message says which ids exist.
    """
    if rule_id is None:
        return rule_book()
    if not isinstance(rule_id, str):
        raise PokerDraw32TypeError(f"rule_id must be a str such as 'R3.4', got {shown(rule_id)}")
    index = _index()
    sections = [k for k in index if "." not in k]
    valid = f"give a section id ({sections[0]} to {sections[-1]}) or a rule id such as R3.4"
    m = _ID.fullmatch(rule_id.strip())
    if m is None:
        raise PokerDraw32ValueError(f"{shown(rule_id)} is not a rule id: {valid}")
    key = f"R{int(m.group(1))}" + (f".{int(m.group(2))}" if m.group(2) is not None else "")
    if key in index:
        return index[key]
    section = f"R{int(m.group(1))}"
    rules = [k for k in index if k.startswith(section + ".")]
    if m.group(2) is not None and rules:
        raise PokerDraw32ValueError(f"unknown rule {shown(rule_id.strip())}: section {section} has {rules[0]} to "
                               f"{rules[-1]}; {valid}")
    raise PokerDraw32ValueError(f"unknown rule {shown(rule_id.strip())}: {valid}")
