"""What one seat, or a spectator, may see (RULES R21) — the only way out of a state for
non-engine code — and the way back in for a bot's sampled world.

One public view, two readers: :class:`PublicView` holds what anyone may see (both seats'
melds, the card in the centre and who let it go, the public history — every card turned,
thrown or refused, and every meld —, the stock and hand counts, whose turn it is and what
they decide); :class:`SeatView` adds the seat's own hand and, only for the seat to act,
the legal actions (:func:`seat_view`); :class:`SpectatorView` adds nothing until the deal
ends (:func:`spectator_view`).  Neither holds the opponent's hand or the stock order while
the deal is being played; once it is over the hands are shown (``opponent_hand``,
``hands``).  A deal resigned (:meth:`~gameweave.engine.state.GameState.concede`, R20) is
over like any other; one closed undecided (:meth:`~gameweave.engine.state.GameState.close`)
shows nobody to act and reveals nothing.

Two states that differ only in the opponent's hand or in the order of the unturned stock
give equal views (a property test checks it).  :func:`state_from_view` builds a full
state consistent with a seat's view (OpenSpiel's observer reads a state; this is its
inverse for a sampled world).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from .actions import (
    CARD_MASK, FORCE_KIND, KIND_MASK, KIND_NAMES, MELD, PAYLOAD_SHIFT, REFUSE_KIND, TABLE, THROW_FORCE_SHIFT,
    THROW_KIND, TURN_KIND, Action, format_action, kind_of, table_of,
)
from .cards import CARD_NAMES, FULL_MASK, Mask, Seat, cards_of, mask_names
from .deck import HAND_SIZE, deck_of
from .decisions import DECISIONS, PH_FORCED, PH_OVER, PHASE_OF
from .state import GameState


@dataclass(frozen=True)
class PublicEvent:
    """One step of the public history (R21), as data: no caller parses action text.

    Attributes:
        seat: the seat (0/1) that acted.
        action: the action int (see :mod:`gameweave.engine.actions`).
        card: the card the step made visible or moved: the card turned by ``turn``, the
            card melded, refused, thrown or forced back; -1 for a ``turn`` of an empty
            stock (tablas).
        died: for a ``turn``, the live card that died by it, else -1.
        forced: True if the step put the card on the other seat (a forcing ``refuse``
            or ``throw``, R15; a ``force`` back, R19); for a ``meld``, True if it melds
            a card forced on the seat (R18e).
        meld: the meld the card lies in after the step: for a ``meld``, the actor's
            meld holding the card; for a gameweave force, the target's meld it joined
            (R15); else 0.
        table: for a ``meld``, the actor's whole table after it; for a gameweave
            force, the target's table after it; else ``()``.
        from_hand: the hand cards a ``meld`` brought to the table (R12, R18a), else 0.
    """

    seat: Seat
    action: Action
    card: int
    died: int = -1
    forced: bool = False
    meld: Mask = 0
    table: tuple[Mask, ...] = ()
    from_hand: Mask = 0

    @property
    def kind(self) -> str:
        """``turn``, ``meld``, ``refuse``, ``throw`` or ``force``."""
        return KIND_NAMES[kind_of(self.action)]

    @property
    def text(self) -> str:
        """The §VII text of the action."""
        return format_action(self.action)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: seats 1/2, cards and melds as canonical names."""
        return {
            "seat": self.seat + 1,
            "action": self.text,
            "kind": self.kind,
            "card": CARD_NAMES[self.card] if self.card >= 0 else None,
            "died": CARD_NAMES[self.died] if self.died >= 0 else None,
            "forced": self.forced,
            "meld": mask_names(self.meld) if self.meld else None,
            "table": [mask_names(m) for m in self.table] if self.table else None,
            "from_hand": mask_names(self.from_hand),
        }


_V = TypeVar("_V")
_new_object = object.__new__
_set_field = object.__setattr__


def _made(cls: type[_V], fields: dict[str, Any]) -> _V:
    """An instance of the frozen dataclass ``cls`` with ``fields`` (every field, by name),
    made in one step instead of one ``__setattr__`` per field; it stays frozen."""
    obj: _V = _new_object(cls)
    _set_field(obj, "__dict__", fields)
    return obj


def _event(seat: Seat, action: Action, card: int, died: int, forced: bool, meld: Mask,
           table: tuple[Mask, ...], from_hand: Mask) -> PublicEvent:
    """A :class:`PublicEvent` equal to ``PublicEvent(seat, action, ...)``, made in one
    step (the frozen dataclass's ``__init__`` sets its eight fields one by one, which
    is a third of :func:`apply_public`'s own time); it stays frozen."""
    ev: PublicEvent = _new_object(PublicEvent)
    _set_field(ev, "__dict__", {
        "seat": seat, "action": action, "card": card, "died": died, "forced": forced,
        "meld": meld, "table": table, "from_hand": from_hand,
    })
    return ev


@dataclass(frozen=True, kw_only=True)
class PublicView:
    """What anyone may see of a deal (R21): the part a seat and a spectator share.
    Masks are 40-bit ints; seats are indexes 0/1.

    Attributes:
        rules: profile name.
        opener: seat that opened the deal (R9).
        status: ``"playing"``, ``"won"`` or ``"tablas"``; ``winner`` seat or -1.
        to_act: seat to act, or -1 when over (or closed); ``decision`` its decision name
            or None.
        melds: ``(melds of seat 0, melds of seat 1)``, each a tuple of masks in §VII order.
        centre: the face-up card in the centre (live or just turned), or -1.
        live_from: seat that let the centre card go, or -1 (none, or just turned).
        stock_count: cards left in the stock; ``hand_counts``: cards in each hand.
        dead: mask of dead cards on the discard pile.
        history: tuple of :class:`PublicEvent`.
        table_counts: cards on each seat's table.
        forced: the card forced on the seat to act, waiting for its ``meld`` (R18e), or -1.
        rearranging, force_back, max_sequence: the profile's options (§V).
    """

    rules: str
    opener: int
    status: str
    winner: int
    to_act: int
    decision: str | None
    melds: tuple[tuple[int, ...], tuple[int, ...]]
    centre: int
    live_from: int
    stock_count: int
    hand_counts: tuple[int, int]
    dead: int
    history: tuple[PublicEvent, ...]
    table_counts: tuple[int, int] = (0, 0)
    forced: int = -1
    rearranging: bool = False
    force_back: bool = False
    max_sequence: int | None = None

    @property
    def table(self) -> int:
        """Mask of every card on both tables."""
        m = 0
        for side in self.melds:
            for x in side:
                m |= x
        return m

    def to_dict(self, history: Any = None) -> dict[str, Any]:
        """JSON-ready form: cards and actions in canonical text, seats numbered 1 and 2.

        ``history``, if given, must be the events of :attr:`history` in their
        :meth:`PublicEvent.to_dict` form — a list of dicts, or whatever the caller's JSON
        encoder writes as that list (a table sending the view at every step keeps them
        encoded, saving making them again); it is put in as it is.

        Keys, in this order: ``seat``, ``rules``, ``opener``, ``status``, ``winner``,
        ``to_act``, ``decision``, ``hand``, ``melds`` (``{"1": [...], "2": [...]}``),
        ``live``, ``live_from``, ``stock``, ``hand_counts``, ``dead``, ``history``, the
        reader's own keys (``legal``, ``opponent_hand`` and, for a spectator,
        ``hands``), ``table_counts``, ``forced``, ``rearranging``, ``force_back``,
        ``max_sequence``.  For no reader: ``seat`` None, ``hand`` and ``legal`` empty,
        ``opponent_hand`` None."""
        seat, hand, own = self._reader_part()
        return {
            "seat": seat,
            "rules": self.rules,
            "opener": self.opener + 1,
            "status": self.status,
            "winner": _seat_no(self.winner),
            "to_act": _seat_no(self.to_act),
            "decision": self.decision,
            "hand": hand,
            "melds": {str(s + 1): [mask_names(m) for m in self.melds[s]] for s in (0, 1)},
            "live": CARD_NAMES[self.centre] if self.centre >= 0 else None,
            "live_from": _seat_no(self.live_from),
            "stock": self.stock_count,
            "hand_counts": {"1": self.hand_counts[0], "2": self.hand_counts[1]},
            "dead": mask_names(self.dead),
            "history": [e.to_dict() for e in self.history] if history is None else history,
            **own,
            "table_counts": {"1": self.table_counts[0], "2": self.table_counts[1]},
            "forced": CARD_NAMES[self.forced] if self.forced >= 0 else None,
            "rearranging": self.rearranging,
            "force_back": self.force_back,
            "max_sequence": self.max_sequence,
        }

    def _reader_part(self) -> tuple[int | None, list[str], dict[str, Any]]:
        """The reader's part of :meth:`to_dict`: its seat number, its hand and the keys
        written after ``history``."""
        return None, [], {"legal": [], "opponent_hand": None}


def _seat_no(s: int) -> int | None:
    return s + 1 if s >= 0 else None


@dataclass(frozen=True, kw_only=True)
class SeatView(PublicView):
    """A seat's view of a deal (R21): the :class:`PublicView` plus what the seat holds.

    Attributes (besides the public ones):
        seat: the viewing seat.
        hand: the viewer's hand.
        legal: the viewer's legal actions (ints) if it is to act, else ``()``.
        opponent_hand: the opponent's hand mask once the deal is over, else ``None``.
    """

    seat: int
    hand: int
    legal: tuple[int, ...]
    opponent_hand: int | None

    @property
    def opponent(self) -> int:
        """The other seat's index."""
        return 1 - self.seat

    def unseen(self) -> int:
        """Mask of the cards this seat cannot see: the opponent's hand plus the stock."""
        seen = self.hand | self.table | self.dead
        if self.centre >= 0:
            seen |= 1 << self.centre
        if self.forced >= 0:
            seen |= 1 << self.forced
        return FULL_MASK & ~seen

    def _reader_part(self) -> tuple[int | None, list[str], dict[str, Any]]:
        opp = self.opponent_hand
        return self.seat + 1, mask_names(self.hand), {
            "legal": [format_action(a) for a in self.legal],
            "opponent_hand": None if opp is None else mask_names(opp),
        }


@dataclass(frozen=True, kw_only=True)
class SpectatorView(PublicView):
    """A third party's view of a deal (R21 for someone holding no seat): the
    :class:`PublicView` and nothing else.  Never a hand and never legal actions while
    the deal is being played; once it is over both hands are shown (``hands``, the
    reveal).  Its :meth:`to_dict` has the shape of :meth:`SeatView.to_dict` with ``seat``
    None, ``hand`` and ``legal`` empty and ``opponent_hand`` None, and ``hands``
    (``{"1": [...], "2": [...]}`` once the deal is over, else None)."""

    hands: tuple[int, int] | None

    def _reader_part(self) -> tuple[int | None, list[str], dict[str, Any]]:
        hands = self.hands
        return None, [], {
            "legal": [], "opponent_hand": None,
            "hands": None if hands is None else {"1": mask_names(hands[0]), "2": mask_names(hands[1])},
        }


def apply_public(st: GameState, a: Action) -> PublicEvent:
    """Apply the legal action ``a`` to ``st`` and return its :class:`PublicEvent` (R21).

    The one place that says what a step shows: :func:`public_history` replays a deal
    with it, and a caller that keeps its own history (``gameweave.research``) applies each
    action through it instead of replaying the whole deal for every view.
    """
    seat = st.to_act
    k = a & KIND_MASK  # the codec's layout (actions.py), inlined on the hot path
    centre = st.card
    if k == TURN_KIND:
        card = st.deck[st.stock_pos] if st.stock_pos < 40 else -1
        st.apply(a)
        return _event(seat, a, card, centre, False, 0, (), 0)
    if k == MELD or k == TABLE:
        forced = st.phase == PH_FORCED
        card = st.forced if forced else centre
        before = st.hands[seat]
        st.apply(a)
        meld = 0
        for m in table_of(a):
            if m >> card & 1:
                meld = m
        return _event(seat, a, card, -1, forced, meld, tuple(st.melds[seat]), before & ~st.hands[seat])
    if k == THROW_KIND:
        card = a >> PAYLOAD_SHIFT & CARD_MASK
        force = a >> THROW_FORCE_SHIFT
    else:  # refuse, force back: the centre card
        card = centre
        force = a >> PAYLOAD_SHIFT if k == REFUSE_KIND else 0
    if k == FORCE_KIND:  # R19: the card goes back onto its turner, who melds it (R18e) or has it added
        st.apply(a)
        return _event(seat, a, card, -1, True, 0, (), 0)
    if force:  # R15 / R18e
        target = 1 - seat
        meld = st.flow.forced_meld(tuple(st.melds[target]), card, force)
        st.apply(a)
        return _event(seat, a, card, -1, True, meld, tuple(st.melds[target]) if meld else (), 0)
    st.apply(a)
    return _event(seat, a, card, -1, False, 0, (), 0)


def public_history(state: GameState) -> tuple[PublicEvent, ...]:
    """The public history of a deal (R21) as :class:`PublicEvent` data.

    Rebuilt by replaying the deal's actions from its first state (:func:`apply_public`),
    so each event can say what the step did to the tables; everything it holds was shown
    face up.
    """
    st = state.at_start()
    return tuple(apply_public(st, a) for a in state.history)


def _public_part(state: GameState, history: tuple[PublicEvent, ...] | None) -> dict[str, Any]:
    """The :class:`PublicView` fields of ``state``, by name (the one builder of them)."""
    rules = state.rules
    hands = state.hands
    return {
        "rules": rules.name,
        "opener": state.opener,
        "status": state.status,
        "winner": state.winner,
        "to_act": state.to_act,
        "decision": DECISIONS[state.phase],
        "melds": (tuple(state.melds[0]), tuple(state.melds[1])),
        "centre": state.card,
        "live_from": state.live_from,
        "stock_count": 40 - state.stock_pos,
        "hand_counts": (hands[0].bit_count(), hands[1].bit_count()),
        "dead": state.dead,
        "history": public_history(state) if history is None else history,
        "table_counts": (state.table_counts[0], state.table_counts[1]),
        "forced": state.forced,
        "rearranging": rules.rearranging,
        "force_back": rules.force_back,
        "max_sequence": rules.max_sequence,
    }


def seat_view(state: GameState, seat: int, history: tuple[PublicEvent, ...] | None = None,
              legal: Sequence[Action] | None = None) -> SeatView:
    """The view of ``seat`` (0 or 1) of ``state`` (R21).  Raises ValueError for a bad seat.

    ``history``, if given, must be the deal's public history as :func:`apply_public`
    returned it step by step (a caller that keeps it saves the replay); by default it is
    rebuilt with :func:`public_history`.  ``legal``, if given, must be
    ``state.legal_actions()`` (a caller that has them saves the second enumeration); it
    is used only when ``seat`` is to act.
    """
    if seat not in (0, 1):
        raise ValueError(f"seat must be 0 or 1, not {seat!r}")
    fields = _public_part(state, history)
    fields["seat"] = seat
    fields["hand"] = state.hands[seat]
    fields["legal"] = tuple(state.legal_actions() if legal is None else legal) if state.to_act == seat else ()
    fields["opponent_hand"] = state.hands[1 - seat] if state.phase == PH_OVER else None
    return _made(SeatView, fields)


def spectator_view(state: GameState, history: tuple[PublicEvent, ...] | None = None) -> SpectatorView:
    """The view of a spectator of ``state`` (R21 for a third party): public facts only
    while the deal is played, both hands once it is over.  ``history`` as for
    :func:`seat_view`."""
    fields = _public_part(state, history)
    fields["hands"] = (state.hands[0], state.hands[1]) if state.phase == PH_OVER else None
    return _made(SpectatorView, fields)


def state_from_view(view: SeatView, opponent_hand: Mask, stock: Sequence[int]) -> GameState:
    """A full state consistent with a seat's view (a bot's sampled world, R21).

    Args:
        view: a :class:`SeatView` of a deal being played.
        opponent_hand: the opponent's hand (40-bit mask) in this world.
        stock: the unturned stock in this world, top card first.

    ``opponent_hand`` and ``stock`` must together be exactly ``view.unseen()``, with
    ``view.hand_counts[opponent]`` cards in the hand and ``view.stock_count`` in the
    stock.  The world's deck deals each seat the cards it held at the start (its hand
    now, plus the hand cards it has thrown or melded, all public), then the turned
    cards in the order they were turned, then ``stock``; the view's history is
    replayed on it, so the world's record replays and its view for the seat equals
    ``view``.  Raises :class:`ValueError` if the cards do not fit the view.
    """
    seat = view.seat
    opp = 1 - seat
    stock = tuple(stock)
    smask = 0
    for c in stock:
        smask |= 1 << c
    if (
        opponent_hand & smask
        or opponent_hand | smask != view.unseen()
        or len(stock) != view.stock_count
        or opponent_hand.bit_count() != view.hand_counts[opp]
    ):
        raise ValueError("the opponent's hand and the stock must be the unseen cards, in the view's counts")
    start = [0, 0]
    start[seat] = view.hand
    start[opp] = opponent_hand
    turned = []
    for e in view.history:
        if e.from_hand:
            start[e.seat] |= e.from_hand
        k = kind_of(e.action)
        if k == THROW_KIND:
            start[e.seat] |= 1 << e.card
        elif k == TURN_KIND and e.card >= 0:
            turned.append(e.card)
    first = view.opener
    a = list(cards_of(start[first]))
    b = list(cards_of(start[1 - first]))
    if len(a) != HAND_SIZE or len(b) != HAND_SIZE:
        raise ValueError("the view's history does not add up to two hands of ten")
    st = GameState.new(deck_of(a, b, turned + list(stock)), opener=first, rules=view.rules)
    for e in view.history:
        st.apply(e.action)
    if st.hands[seat] != view.hand or st.phase != PHASE_OF[view.decision]:
        raise ValueError("the view's history does not replay to the view")
    return st


__all__ = [
    "PublicEvent", "PublicView", "SeatView", "SpectatorView", "apply_public", "public_history", "seat_view",
    "spectator_view", "state_from_view",
]
