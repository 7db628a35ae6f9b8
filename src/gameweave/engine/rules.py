"""Rule profiles as data (RULES §V).

A :class:`Rules` is a frozen value; the engine reads its options and never branches on
its name.  Presets are looked up case-insensitively with :func:`find_profile`.  Only
profiles whose ``playable`` flag is set can start a deal today; the others are described
fully so that adding their flow (R18 rearranging, R19 forcing back) needs no change to
the shape of this module.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import UnknownProfileError


@dataclass(frozen=True)
class Rules:
    """One rule profile (§V).

    Attributes:
        name: canonical profile name, e.g. ``"gameweave"``.
        max_sequence: longest legal sequence in cards (R6), or ``None`` for no cap.
        rearranging: melding may re-partition the seat's whole table (R18).
        force_back: a refused turned card may be forced back onto its turner (R19).
        first_opener: ``"seat1"`` or ``"random"`` — who opens deal 1 of a match (R9).
        match: default match format, ``"tally"``, ``"first_to"`` or ``"stakes"`` (R20).
        first_to: N for the ``"first_to"`` format (R20).
        tablas_stake: ``"double"`` or ``"carry"`` for the stakes format (R20), else ``None``.
        playable: whether the engine can play this profile today.
    """

    name: str
    max_sequence: int | None = None
    rearranging: bool = False
    force_back: bool = False
    first_opener: str = "seat1"
    match: str = "tally"
    first_to: int = 3
    tablas_stake: str | None = None
    playable: bool = True


GAMEWEAVE = Rules(name="gameweave")
"""The default profile (seed 000): no sequence cap, no rearranging, forcing allowed."""

ANGLO_AMERICAN = Rules(
    name="anglo-american",
    max_sequence=8,
    rearranging=True,
    force_back=True,
    first_opener="random",
    match="first_to",
    first_to=3,
    playable=False,
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
    playable=False,
)
"""Seeds 002-004: sequence cap 8, rearranging (R18), stakes (R20)."""

PROFILES: dict[str, Rules] = {
    "gameweave": GAMEWEAVE,
    "anglo-american": ANGLO_AMERICAN,
    "pagat": ANGLO_AMERICAN,
    "classic": CLASSIC,
}
"""Every known profile by lower-case name (``pagat`` is an alias, §V)."""


def find_profile(name: str | Rules, *, playable_only: bool = True) -> Rules:
    """Look up a rule profile by name, case-insensitively (§V).

    A :class:`Rules` passes through unchanged.  Raises :class:`UnknownProfileError` for
    an unknown name, and — unless ``playable_only`` is false — for a known profile that
    the engine cannot play yet (``anglo-american``, ``classic``).
    """
    if isinstance(name, Rules):
        rules = name
    else:
        rules = PROFILES.get(str(name).strip().lower())
        if rules is None:
            known = ", ".join(sorted(PROFILES))
            raise UnknownProfileError(f"unknown rule profile {name!r} (known: {known})")
    if playable_only and not rules.playable:
        raise UnknownProfileError(
            f"rule profile {rules.name!r} is described in RULES §V but not playable yet; "
            "use 'gameweave'"
        )
    return rules
