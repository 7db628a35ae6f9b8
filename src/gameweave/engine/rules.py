"""Rule profiles as data (RULES §V).

A :class:`Rules` is a frozen value; the engine reads its options (through the flow it
selects, :func:`gameweave.engine.flow.flow_for`, and in :class:`~gameweave.engine.match.Match`)
and never branches on its name.  Presets are looked up case-insensitively with
:func:`find_profile`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import UnknownProfileError

FIRST_OPENERS = ("seat1", "random")
"""Values of :attr:`Rules.first_opener` (R9)."""
MATCH_FORMATS = ("tally", "first_to", "stakes")
"""Match formats (R20)."""
TABLAS_STAKES = ("double", "carry")
"""What tablas does to the next stake in a stakes match (R20)."""


@dataclass(frozen=True)
class Rules:
    """One rule profile (§V).

    Attributes:
        name: canonical profile name, e.g. ``"gameweave"``.
        max_sequence: longest legal sequence in cards (R6), or ``None`` for no cap.
        rearranging: melding chooses a new partition of the seat's whole table (R18).
        force_back: a refused turned card may be forced back onto its turner (R19).
        first_opener: ``"seat1"`` or ``"random"`` — who opens deal 1 of a match (R9).
        match: default match format, ``"tally"``, ``"first_to"`` or ``"stakes"`` (R20).
        first_to: default N for the ``"first_to"`` format (R20).
        stake: default base stake for the ``"stakes"`` format (R20).
        tablas_stake: ``"double"`` or ``"carry"`` for the stakes format (R20).
        description: one line for people.
    """

    name: str
    max_sequence: int | None = None
    rearranging: bool = False
    force_back: bool = False
    first_opener: str = "seat1"
    match: str = "tally"
    first_to: int = 3
    stake: int = 1
    tablas_stake: str = "double"
    description: str = ""


GAMEWEAVE = Rules(
    name="gameweave",
    description="No rearranging, no sequence cap, forcing; a running tally.",
)
"""The default profile (seed 000): no sequence cap, no rearranging, forcing allowed."""

ANGLO_AMERICAN = Rules(
    name="anglo-american",
    max_sequence=8,
    rearranging=True,
    force_back=True,
    first_opener="random",
    match="first_to",
    first_to=3,
    description="Rearranging, forcing back a refused card, sequences up to 8; first to 3.",
)
"""Seed 001 (Pagat's description): sequence cap 8, rearranging (R18), forcing back (R19)."""

CLASSIC = Rules(
    name="classic",
    max_sequence=8,
    rearranging=True,
    force_back=False,
    first_opener="random",
    match="stakes",
    tablas_stake="double",
    description="Rearranging, sequences up to 8; stakes, doubled after tablas.",
)
"""Seeds 002-004: sequence cap 8, rearranging (R18), stakes doubled after tablas (R20)."""

PROFILES: dict[str, Rules] = {
    "gameweave": GAMEWEAVE,
    "anglo-american": ANGLO_AMERICAN,
    "pagat": ANGLO_AMERICAN,
    "classic": CLASSIC,
}
"""Every known profile by lower-case name (``pagat`` is an alias, §V)."""

PROFILE_NAMES: tuple[str, ...] = ("gameweave", "anglo-american", "classic")
"""The canonical profile names, default first."""


def find_profile(name: str | Rules) -> Rules:
    """Look up a rule profile by name, case-insensitively (§V); ``pagat`` is an alias.

    A :class:`Rules` passes through unchanged.  Raises :class:`UnknownProfileError` for
    an unknown name.
    """
    if isinstance(name, Rules):
        return name
    rules = PROFILES.get(str(name).strip().lower())
    if rules is None:
        known = ", ".join(PROFILE_NAMES)
        raise UnknownProfileError(f"unknown rule profile {name!r} (known: {known}; pagat = anglo-american)")
    return rules
