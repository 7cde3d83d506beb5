"""The rules object: stakes, betting structure and every option of RULES.md, immutable.

>>> r = Rules()                      # the classic preset (R4.2 over blind on)
>>> r.sb, r.bb, r.ob, r.structure.value, r.parole
(1, 2, 4, 'no-limit', True)
>>> Rules.preset("two-blind").over_blind, Rules.preset("two-blind").reshuffle_folded
(False, True)
>>> Rules(sb=5, bb=2)
Traceback (most recent call last):
...
pokerdraw32.errors.RulesError: big blind bb=2 is smaller than the small blind sb=5 [R3.2]
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import Enum

from .errors import MAX_CHIPS, RulesError, integer, shown

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (about 10 ms) at run time
if TYPE_CHECKING:
    from typing import Any, Literal

__all__ = ["CLASSIC", "PRESETS", "TWO_BLIND", "Rules", "SecondRoundFirst", "Structure"]


class Structure(Enum):
    """Betting structure (R3.4)."""

    NO_LIMIT = "no-limit"
    POT_LIMIT = "pot-limit"
    FIXED_LIMIT = "fixed-limit"


class SecondRoundFirst(Enum):
    """Who opens the second betting round (R7.1) and shows first without a bet (R9.3)."""

    AFTER_LARGEST_BLIND = "after_largest_blind"
    AFTER_BUTTON = "after_button"


def _check_chips(name: str, value: object) -> int:
    chips = integer(value)   # a plain int, checked and used (R3.2)
    if chips is None:
        raise RulesError(f"{name}={shown(value)} is not an integer number of chips [R3.2]")
    if chips <= 0:
        raise RulesError(f"{name}={shown(chips)} must be a positive number of chips [R3.2]")
    if chips > MAX_CHIPS:
        raise RulesError(f"{name}={shown(chips)} is beyond the largest amount of chips ({MAX_CHIPS}) [R3.2]")
    return chips


def _check_option_names(changes: dict[str, Any]) -> None:
    known = {f.name for f in dataclasses.fields(Rules)}
    for key in changes:
        if key not in known:
            raise RulesError(f"unknown rules option {key!r}; the options are {', '.join(sorted(known))}")


@dataclass(frozen=True)
class Rules:
    """Immutable rules of a 32-Card Draw table. All amounts are integer chips.

    Construct with keywords; unset blinds take their RULES.md defaults; build variants with
    :meth:`replace`, or start from a preset with :meth:`preset`.  Contradictory or
    out-of-range settings raise :class:`~pokerdraw32.errors.RulesError`.
    """

    sb: int = 1
    """Small blind in chips (R3.2)."""
    bb: int | None = None
    """Big blind in chips; default ``2 * sb`` (R3.2)."""
    ob: int | None = None
    """Over blind in chips; default ``2 * bb`` (R3.2). Only posted with 4-5 players and ``over_blind`` (R4.2)."""
    structure: Structure = Structure.NO_LIMIT
    """Betting structure (R3.4); a string such as ``"pot-limit"`` is accepted."""
    cap: int | None = 4
    """Fixed-limit: most bets per round, the blind counting as the first in round one; ``None`` = no cap (R3.4)."""
    over_blind: bool = True
    """Post the over blind when 4 or 5 players are dealt in (R4.2). classic: on; two-blind: off."""
    heads_up_button_posts_small: bool = False
    """Heads-up, the button posts the small blind instead of the big one (R4.3)."""
    suit_tiebreak: bool = True
    """Break exact rank ties by suit (R2.4); off: such hands split the pot (R9.4)."""
    reshuffle_folded: bool = False
    """Folded hands join the discard pile reshuffled when the stub runs out (R6.2). classic: off; two-blind: on."""
    second_round_first: SecondRoundFirst = SecondRoundFirst.AFTER_LARGEST_BLIND
    """Who opens the second round and shows first (R7.1, R9.3)."""
    parole: bool = True
    """Allow the Parole split by agreement in the second round (R8)."""
    muck_losers: bool = True
    """A player who cannot win any pot may muck at showdown (R9.3)."""
    name: str = field(default="classic", compare=False)
    """Preset this object was built from (informational)."""

    def __post_init__(self) -> None:
        sb = _check_chips("sb", self.sb)
        object.__setattr__(self, "sb", sb)
        if not isinstance(self.name, str):
            raise RulesError(f"name={shown(self.name)} must be a string")
        bb = sb * 2 if self.bb is None else _check_chips("bb", self.bb)
        if self.bb is None and bb > MAX_CHIPS:
            raise RulesError(f"sb={sb} makes the default big blind bb=2*sb={bb}, beyond the largest amount of chips "
                             f"({MAX_CHIPS}): lower sb [R3.2]")
        if bb < sb:
            raise RulesError(f"big blind bb={bb} is smaller than the small blind sb={sb} [R3.2]")
        if self.ob is None:
            ob = bb * 2
            if ob > MAX_CHIPS:
                raise RulesError(f"bb={bb} makes the default over blind ob=2*bb={ob}, beyond the largest amount of "
                                 f"chips ({MAX_CHIPS}): lower sb or bb [R3.2]")
        else:
            ob = _check_chips("ob", self.ob)
            if not self.over_blind:
                raise RulesError(f"ob={ob} is set but option over_blind is off [R4.2]")
            if ob < bb:
                raise RulesError(f"over blind ob={ob} is smaller than the big blind bb={bb} [R3.2]")
        object.__setattr__(self, "bb", bb)
        object.__setattr__(self, "ob", ob)
        try:
            object.__setattr__(self, "structure", Structure(self.structure))
        except ValueError:
            raise RulesError(f"unknown structure {self.structure!r}: use no-limit, pot-limit or fixed-limit "
                             "[R3.4]") from None
        try:
            object.__setattr__(self, "second_round_first", SecondRoundFirst(self.second_round_first))
        except ValueError:
            raise RulesError(f"unknown second_round_first {self.second_round_first!r}: use "
                             "after_largest_blind or after_button [R7.1]") from None
        if self.structure is Structure.FIXED_LIMIT:
            largest = ob if self.over_blind else bb
            if 2 * largest > MAX_CHIPS:
                raise RulesError(f"fixed-limit second-round bet 2*L={2 * largest} (L={largest}) is beyond the largest "
                                 f"amount of chips ({MAX_CHIPS}) [R3.4, R7.2]")
        if self.cap is not None:
            cap = integer(self.cap)
            if cap is None or not 1 <= cap <= 1000:
                raise RulesError(f"cap={shown(self.cap)} must be an int from 1 to 1000, or None [R3.4]")
            object.__setattr__(self, "cap", cap)
            if self.cap != 4 and self.structure is not Structure.FIXED_LIMIT:
                raise RulesError(f"cap={self.cap} only applies to fixed-limit, not {self.structure.value} [R3.4]")
        elif self.structure is not Structure.FIXED_LIMIT:
            raise RulesError(f"cap=None only applies to fixed-limit, not {self.structure.value} [R3.4]")
        for opt in ("over_blind", "heads_up_button_posts_small", "suit_tiebreak", "reshuffle_folded",
                    "parole", "muck_losers"):
            if not isinstance(getattr(self, opt), bool):
                raise RulesError(f"option {opt}={shown(getattr(self, opt))} must be True or False")
        # the blinds by number of players, worked out once (a hand asks for them several times)
        object.__setattr__(self, "_blinds_by_players", {
            count: (sb, bb, ob) if count >= 4 and self.over_blind else (sb, bb) for count in range(2, 6)})

    # --- derived amounts -------------------------------------------------------------
    @property
    def big_blind(self) -> int:
        """``bb`` as a plain int (for type checkers)."""
        assert self.bb is not None
        return self.bb

    @property
    def over_blind_amount(self) -> int:
        """``ob`` as a plain int (for type checkers)."""
        assert self.ob is not None
        return self.ob

    def blinds(self, players: int) -> tuple[int, ...]:
        """The blinds posted with ``players`` dealt in, in posting order (R4.2).

        >>> Rules().blinds(3), Rules().blinds(4), Rules.preset("two-blind").blinds(5)
        ((1, 2), (1, 2, 4), (1, 2))
        """
        found = self._blinds_by_players.get(players) if type(players) is int else None  # type: ignore[attr-defined]
        if found is not None:
            return found  # type: ignore[no-any-return]
        count = integer(players)
        if count is None or not 2 <= count <= 5:
            raise RulesError(f"a hand needs 2 to 5 players, got {shown(players)} [R3.1]")
        return self._blinds_by_players[count]  # type: ignore[attr-defined,no-any-return]

    def largest_blind(self, players: int) -> int:
        """L, the largest blind with ``players`` dealt in (R3.3)."""
        return self.blinds(players)[-1]

    # --- construction helpers -----------------------------------------------------------
    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed, validated again.

        Changing ``sb`` or ``bb`` re-derives the unset defaults only if they are passed
        as ``None``.  Without the over blind (R4.2) ``ob`` is re-derived too, so that
        ``TWO_BLIND.replace(...)`` and ``replace(over_blind=False)`` work.
        """
        if "ob" not in changes and not changes.get("over_blind", self.over_blind):
            changes["ob"] = None   # the stored ob was derived; passing it back would be refused
        _check_option_names(changes)
        return dataclasses.replace(self, **changes)

    @classmethod
    def preset(cls, name: Literal["classic", "two-blind"] | str = "classic", **changes: Any) -> Rules:
        """The named preset (``"classic"`` or ``"two-blind"``) with optional changes.

        :raises RulesError: unknown preset name or invalid changes.
        """
        base = PRESETS.get(name) if isinstance(name, str) else None
        if base is None:
            raise RulesError(f"unknown preset {shown(name)}: use one of {', '.join(PRESETS)}")
        _check_option_names(changes)
        kwargs = {f.name: getattr(base, f.name) for f in dataclasses.fields(base)}
        kwargs["bb"] = kwargs["ob"] = None  # re-derived from sb unless given in changes
        kwargs.update(changes)
        return cls(**kwargs)

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> Rules:
        """Rebuild Rules from :meth:`options` output (e.g. read back from JSON).

        >>> r = Rules.preset("two-blind", structure="pot-limit")
        >>> Rules.from_options(r.options()) == r
        True

        :raises RulesError: not a dict, an unknown option name or an invalid value.
        """
        if not isinstance(options, dict):
            raise RulesError(f"rules options must be a dict, got {shown(options)}")
        changes = dict(options)
        _check_option_names(changes)
        if not changes.get("over_blind", True):
            changes.pop("ob", None)   # derived, not set, when the over blind is off (R4.2)
        return cls(**changes)

    def options(self) -> dict[str, object]:
        """All fields as plain JSON-friendly data."""
        out: dict[str, object] = {}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            out[f.name] = v.value if isinstance(v, Enum) else v
        return out


CLASSIC = Rules(name="classic")
"""Sources 001/004: three blinds, folded hands stay dead (R4.2, R6.2)."""

TWO_BLIND = Rules(over_blind=False, reshuffle_folded=True, name="two-blind")
"""Sources 000/002/003: two blinds, folded hands reshuffled into the discard pile (R4.2, R6.2)."""

PRESETS: dict[str, Rules] = {"classic": CLASSIC, "two-blind": TWO_BLIND}
