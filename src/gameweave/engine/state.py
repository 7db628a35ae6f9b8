"""The game state of one deal and its phase machine (RULES §III, §IV).

Seats are indexed ``0`` and ``1`` in Python and shown as 1 and 2 wherever a person or a
file sees them.  The state is the only holder of hidden information (both hands and the
stock order); anything that is not the engine reads it through
:func:`gameweave.engine.view.seat_view` (R21).

Decisions (the explicit phase enum, :mod:`gameweave.engine.decisions`), each with its own
legal-actions function:

=================  ==========================================================
``turn``           no live card from the opponent: turn the stock (start of a deal)
``take_or_turn``   a live card from the opponent is in the centre: meld it, force it
                   back (R19), or ``turn``
``meld_or_refuse`` a card just turned from the stock: meld it, or refuse (and force)
``throw``          after melding (or being forced): throw a hand card (and force)
``meld``           a card has been forced on the seat (R18e): choose its new table
=================  ==========================================================

Where profiles differ, the state calls the profile's flow (:mod:`gameweave.engine.flow`).

Two ways in: :meth:`GameState.apply` is the fast unchecked path for simulation (the
action must come from :meth:`GameState.legal_actions`); :meth:`GameState.play` is the
checked path for people and the network (parses text, raises a typed error, leaves the
state unchanged on error).  Two ways out that are no action of the deal: a seat
resigns it (:meth:`GameState.concede`, R20), or its match is closed while it is played
(:meth:`GameState.close`).
"""

from __future__ import annotations

from typing import Any
from collections.abc import Iterable, Sequence

from .actions import (
    CARD_MASK, FORCE, FORCE_ANY, FORCE_KIND, KIND_MASK, PAYLOAD_SHIFT, REFUSE, REFUSE_KIND,
    THROW_FORCE_SHIFT, THROW_KIND, TURN, TURN_KIND, Action, format_action, parse_action, refuse_action,
)
from .cards import Mask, Seat
from .decisions import (
    DECISIONS, PH_CLOSED, PH_FORCED, PH_OVER, PH_TAKE, PH_THROW, PH_TURN, PH_TURNED, PHASE_OF, PLAYING,
    TABLAS, WIN_COUNT, WON,
)
from .deck import HAND_SIZE, STOCK_START, dealt_hands, shuffled_deck, validate_deck
from .errors import IllegalActionError, UnparsableError
from .flow import Flow, flow_for
from .reasons import why_illegal
from .rules import GAMEWEAVE, Rules, find_profile


class GameState:
    """One deal of Conquian under a rule profile (R8-R20).

    Build with :meth:`new` (from a deck order or a seed) or, for a bot's sampled world,
    :func:`~gameweave.engine.view.state_from_view`.  Attributes are public for the
    engine's own modules, bots' *simulations* and tests; everything else must go through
    :func:`~gameweave.engine.view.seat_view` (R21).

    Attributes:
        rules: the :class:`Rules` profile; ``flow`` the profile's melding hooks
            (:mod:`gameweave.engine.flow`).
        deck: the 40-card deck order (tuple of card ints, R8).
        opener: seat index (0/1) that opened the deal (R9).
        hands: ``[mask0, mask1]`` — 40-bit hand masks.
        melds: ``[list0, list1]`` — each seat's melds as 40-bit masks, kept in §VII order
            (hand order of their lowest card); ``melds[s][n-1]`` is meld number ``n``.
        table_cards: ``[m0, m1]`` — mask of every card on each seat's table.
        table_counts: ``[n0, n1]`` — cards on each seat's table.
        extensions: ``[e0, e1]`` — per seat, the mask of cards that extend one of its
            melds (R15).
        stock_pos: deck index of the next stock card (20..40; 40 = stock empty).
        to_act: seat index to act, or -1 once the deal is over.
        phase: one of ``PH_TURN, PH_TAKE, PH_TURNED, PH_THROW, PH_FORCED, PH_OVER``, or
            ``PH_CLOSED`` once closed undecided (:meth:`close`).
        card: the card in the centre (live card, or the card just turned), or -1.
        live_from: seat index that let the live card go, or -1 (none, or a turned card).
        refused: True while the live card is a turned card its turner refused (R19).
        forced: the card forced on the seat to act, waiting for its ``meld`` (R18e), or -1.
        dead: 40-bit mask of dead cards on the discard pile.
        status: ``"playing"``, ``"won"`` or ``"tablas"``.
        winner: seat index of the winner, or -1.
        history: list of applied action ints; ``actors`` the seat index of each.
    """

    __slots__ = (
        "rules", "flow", "deck", "opener", "hands", "melds", "table_cards", "table_counts", "extensions",
        "stock_pos", "to_act", "phase", "card", "live_from", "refused", "forced", "dead",
        "status", "winner", "history", "actors",
    )

    rules: Rules
    flow: Flow
    deck: tuple[int, ...]
    opener: Seat
    hands: list[Mask]
    melds: list[list[Mask]]
    table_cards: list[Mask]
    table_counts: list[int]
    extensions: list[Mask]
    stock_pos: int
    to_act: Seat
    phase: int
    card: int
    live_from: Seat
    refused: bool
    forced: int
    dead: Mask
    status: str
    winner: Seat
    history: list[Action]
    actors: list[Seat]

    # ------------------------------------------------------------------ construction
    @classmethod
    def _blank(cls, rules: Rules, deck: tuple[int, ...], opener: Seat) -> GameState:
        """The state before the first action of a deal (R8): the only constructor."""
        st = cls.__new__(cls)
        st.rules = rules
        st.flow = flow_for(rules)
        st.deck = deck
        st.opener = opener
        st.hands = dealt_hands(deck, opener)
        st.melds = [[], []]
        st.table_cards = [0, 0]
        st.table_counts = [0, 0]
        st.extensions = [0, 0]
        st.stock_pos = STOCK_START
        st.to_act = opener
        st.phase = PH_TURN
        st.card = -1
        st.live_from = -1
        st.refused = False
        st.forced = -1
        st.dead = 0
        st.status = PLAYING
        st.winner = -1
        st.history = []
        st.actors = []
        return st

    @classmethod
    def new(
        cls,
        deck: Sequence[int] | str | None = None,
        *,
        seed: int | str | None = None,
        opener: int = 0,
        rules: Rules | str = GAMEWEAVE,
    ) -> GameState:
        """Deal a new deal (R8) from a deck order, or from ``seed`` (deterministic).

        Args:
            deck: 40 card ints or 40 cards as text, in R8 order (cards 1-20 dealt
                alternately starting with the opener; card 21 tops the stock).
            seed: used when ``deck`` is None; see :func:`shuffled_deck`.
            opener: seat index (0 or 1) that opens the deal (R9).
            rules: a :class:`Rules` or profile name (§V).

        Raises :class:`UnparsableError` for a bad deck, :class:`UnknownProfileError` for
        an unknown profile, :class:`ValueError` for a bad opener.
        """
        rules = find_profile(rules)
        if deck is None:
            deck = shuffled_deck(0 if seed is None else seed)
        deck = validate_deck(deck)
        if opener not in (0, 1) or isinstance(opener, bool):
            raise ValueError(f"opener must be seat index 0 or 1, not {opener!r}")
        return cls._blank(rules, deck, opener)

    def at_start(self) -> GameState:
        """A new state of the same deal before its first action (same profile, deck order
        and opener, R8): where its record (§VII) and its public history replay from."""
        return GameState._blank(self.rules, self.deck, self.opener)

    def clone(self) -> GameState:
        """An independent copy (the history list is copied too)."""
        st = GameState.__new__(GameState)
        st.rules = self.rules
        st.flow = self.flow
        st.deck = self.deck
        st.opener = self.opener
        st.hands = self.hands[:]
        st.melds = [self.melds[0][:], self.melds[1][:]]
        st.table_cards = self.table_cards[:]
        st.table_counts = self.table_counts[:]
        st.extensions = self.extensions[:]
        st.stock_pos = self.stock_pos
        st.to_act = self.to_act
        st.phase = self.phase
        st.card = self.card
        st.live_from = self.live_from
        st.refused = self.refused
        st.forced = self.forced
        st.dead = self.dead
        st.status = self.status
        st.winner = self.winner
        st.history = self.history[:]
        st.actors = self.actors[:]
        return st

    __copy__ = clone

    def __deepcopy__(self, memo: dict[int, Any]) -> GameState:
        return self.clone()

    # ------------------------------------------------------------------ queries
    @property
    def decision(self) -> str | None:
        """The decision of the seat to act: ``turn``, ``take_or_turn``,
        ``meld_or_refuse``, ``throw``, ``meld``; ``None`` once the deal is over or closed
        (:meth:`close`)."""
        return DECISIONS[self.phase]

    @property
    def is_over(self) -> bool:
        """True once the deal is won (R16), tablas (R17) or resigned (R20, :meth:`concede`)."""
        return self.phase == PH_OVER

    @property
    def stock_count(self) -> int:
        """Cards left in the stock (0..20)."""
        return 40 - self.stock_pos

    def hand_count(self, seat: Seat) -> int:
        """Cards in seat's hand."""
        return self.hands[seat].bit_count()

    def table_mask(self, seat: Seat) -> Mask:
        """40-bit mask of every card on seat's table."""
        return self.table_cards[seat]

    def meld_options(self, seat: Seat, card: int) -> list[Action]:
        """Every ``meld`` action by which ``seat`` can meld ``card`` now (R12, or R18
        where the profile rearranges)."""
        return self.flow.meld_options(self, seat, card)

    def force_targets(self, seat: Seat, card: int) -> list[int]:
        """The forces by which ``card`` can be put on ``seat``: meld numbers (gameweave,
        R15) or ``[FORCE_ANY]`` (R18e); empty if it cannot be forced."""
        return self.flow.force_values(self, seat, card)

    def can_force_back(self) -> bool:
        """True if the seat to act may ``force`` the live card back onto its turner (R19)."""
        return (
            self.refused
            and self.rules.force_back
            and self.flow.force_values(self, self.live_from, self.card) != []
        )

    # ------------------------------------------------------------------ legal, per decision
    def _legal_turn(self) -> list[Action]:
        return [TURN]

    def _legal_take(self) -> list[Action]:
        # R10.1 / R18d: meld the live card; R19: force it back; or turn
        out = self.flow.meld_options(self, self.to_act, self.card)
        if self.refused and self.rules.force_back and self.can_force_back():
            out.append(FORCE)
        out.append(TURN)
        return out

    def _legal_turned(self) -> list[Action]:
        # R10.2 / R11 / R15: meld the turned card, refuse it, or refuse and force it
        seat = self.to_act
        card = self.card
        out = self.flow.meld_options(self, seat, card)
        out.append(REFUSE)
        for n in self.flow.force_values(self, 1 - seat, card):
            out.append(refuse_action(n))
        return out

    def _legal_throw(self) -> list[Action]:
        # R13 / R15: throw a hand card, or throw and force it
        seat = self.to_act
        hand = self.hands[seat]
        flow = self.flow
        opp = 1 - seat
        numbered = flow.numbered_force
        opp_ext = self.extensions[opp]
        out = []
        if not numbered:  # R18e: one pass over the hand for the cards that can be forced
            forceable = flow.force_mask(self, opp, hand)
            force = FORCE_ANY << THROW_FORCE_SHIFT
            while hand:
                low = hand & -hand
                hand ^= low
                a = (low.bit_length() - 1) << PAYLOAD_SHIFT | THROW_KIND
                out.append(a)
                if forceable & low:
                    out.append(a | force)
            return out
        while hand:
            low = hand & -hand
            hand ^= low
            c = low.bit_length() - 1
            a = c << PAYLOAD_SHIFT | THROW_KIND
            out.append(a)
            if not opp_ext & low:
                continue
            for n in flow.force_values(self, opp, c):
                out.append(a | n << THROW_FORCE_SHIFT)
        return out

    def _legal_forced(self) -> list[Action]:
        # R18e: the forced seat writes one meld action for the forced card
        return self.flow.meld_options(self, self.to_act, self.forced)

    def _legal_over(self) -> list[Action]:
        return []

    def legal_actions(self) -> list[Action]:
        """Every legal action now, as action ints, in a fixed order (empty once over or
        closed).

        ``take_or_turn``: meld options, ``force`` (R19), then ``turn``.
        ``meld_or_refuse``: meld options, ``refuse``, then ``refuse force …``.
        ``throw``: for each hand card in hand order, ``throw c`` then its forces.
        ``meld``: the tables that hold the forced card (R18e).  ``turn``: ``[TURN]``.
        """
        ph = self.phase
        if ph == PH_TURN:
            return [TURN]
        return _LEGAL[ph](self)

    # ------------------------------------------------------------------ transitions
    def apply(self, a: Action) -> None:
        """Apply a legal action int, unchecked (the fast path for simulation).

        .. warning:: the action must be one of :meth:`legal_actions`; anything else
           corrupts the state.

        Implements R10-R19, by action kind, the most frequent first: turning (R10.2) and
        tablas (R17); refusing (R11) and throwing (R13), each perhaps forcing (R15,
        R18e); forcing back (R19, :meth:`_force`); melding a taken or forced card (R12,
        R18) and winning at eleven (R16, R18f).
        """
        seat = self.to_act
        self.history.append(a)
        self.actors.append(seat)
        k = a & KIND_MASK  # the codec's layout, inlined on the hot path
        if k == TURN_KIND:  # R10.2: the live card, if any, dies and the top card is turned
            card = self.card
            if card >= 0:
                self.dead |= 1 << card
            self.refused = False
            pos = self.stock_pos
            if pos >= 40:  # R17: nothing to turn
                self._tablas()
            else:
                self.card = self.deck[pos]
                self.stock_pos = pos + 1
                self.live_from = -1
                self.phase = PH_TURNED
        elif k == REFUSE_KIND or k == THROW_KIND:  # R11, R13: the centre card leaves the seat
            if k == THROW_KIND:
                card = a >> PAYLOAD_SHIFT & CARD_MASK
                self.hands[seat] ^= 1 << card
                self.card = card
                force = a >> THROW_FORCE_SHIFT
            else:
                card = self.card
                force = a >> PAYLOAD_SHIFT
            opp = 1 - seat
            if force:  # R15, R18e: onto the opponent
                self.refused = False
                self._force(opp, card, force)
                return
            refused = k == REFUSE_KIND
            self.live_from = seat
            self.to_act = opp
            self.phase = PH_TAKE
            self.refused = refused
            if self.stock_pos >= 40 and not self.flow.can_meld(self, opp, card) and not (
                refused and self.rules.force_back and self.can_force_back()
            ):  # R17: the opponent could only turn an empty stock
                self.dead |= 1 << card
                self._tablas()
        elif k == FORCE_KIND:  # R19: the refused card goes back onto its turner
            self.refused = False
            self._force(self.live_from, self.card, 1)
        else:  # MELD, TABLE — R12 / R18: meld the live, turned or forced card
            if self.phase == PH_FORCED:
                card = self.forced
                self.forced = -1
            else:
                card = self.card
            # inlined, as this whole branch (one step in ten is a meld)
            melds, ext, cards, count, from_hand = self.flow.meld_change(self, seat, a, card)
            self.melds[seat] = melds
            self.extensions[seat] = ext
            self.table_cards[seat] = cards
            self.table_counts[seat] = count
            if from_hand:
                self.hands[seat] ^= from_hand
            self.card = -1
            self.live_from = -1
            self.refused = False
            if count >= WIN_COUNT:  # R16: eleven on the table win
                self._win(seat)
            else:
                self.phase = PH_THROW

    def _force(self, target: Seat, card: int, force: int) -> None:
        """R15/R19: put ``card`` on ``target``: at once on a numbered meld (gameweave)
        or as a waiting forced card for its ``meld`` decision (R18e)."""
        self.card = -1
        self.live_from = -1
        self.to_act = target
        change = self.flow.force_change(self, target, card, force)
        if change is None:
            self.forced = card
            self.phase = PH_FORCED
            return
        melds, ext, cards, count, _ = change  # a force brings no hand card
        self.melds[target] = melds
        self.extensions[target] = ext
        self.table_cards[target] = cards
        self.table_counts[target] = count
        if count >= WIN_COUNT:
            self._win(target)  # R16: a forced card counts towards eleven
        else:
            self.phase = PH_THROW

    def _win(self, seat: Seat) -> None:
        self._end(WON, seat)

    def _tablas(self) -> None:
        self._end(TABLAS, -1)

    def _end(self, status: str, winner: Seat) -> None:
        self.status = status
        self.winner = winner
        self.phase = PH_OVER
        self.to_act = -1
        self.card = -1
        self.live_from = -1
        self.refused = False

    # ------------------------------------------------------------------ ends outside play
    def concede(self, seat: Seat) -> None:
        """Seat ``seat`` resigns the deal: it is over, won by the other seat (R20: a deal
        resigned counts as won by the other seat).

        Nobody acts and no action is legal; views reveal the hands as at any deal end
        (R21).  The cards stay where they lie, the centre card too.  A resignation is no
        §VII action: the history, and so the deal's record, stay its actions (the table
        records who resigned).  Raises :class:`ValueError` for a bad seat and
        :class:`IllegalActionError` (``deal_over``) once the deal is over or closed.
        """
        if seat not in (0, 1) or isinstance(seat, bool):
            raise ValueError(f"seat must be 0 or 1, not {seat!r}")
        self._check_open()
        self.status = WON
        self.winner = 1 - seat
        self.phase = PH_OVER
        self.to_act = -1

    def close(self) -> None:
        """Close the deal undecided: its match ended while it was played (a match closed
        for having no move for too long, R20).

        Nobody acts and no action is legal, nobody wins (``status`` stays ``playing``)
        and nothing is revealed: the deal never ended, so the hands and the stock stay
        hidden (R21).  Not an action: the history and the record are unchanged.  Raises
        :class:`IllegalActionError` (``deal_over``) once the deal is over or closed.
        """
        self._check_open()
        self.phase = PH_CLOSED
        self.to_act = -1

    def _check_open(self) -> None:
        if self.phase >= PH_OVER:
            what = "closed" if self.phase == PH_CLOSED else f"over ({self.status})"
            raise IllegalActionError(f"the deal is {what}", reason="deal_over")

    # ------------------------------------------------------------------ checked entry
    def parse(self, text: str) -> Action:
        """Parse §VII text under this deal's profile (see :func:`parse_action`)."""
        return parse_action(text, self.rules)

    def format(self, action: Action) -> str:
        """Canonical §VII text of an action (see :func:`format_action`)."""
        return format_action(action)

    def play(self, action: str | int, seat: int | None = None) -> Action:
        """Apply one action after checking it (the entry point for people and the network).

        Args:
            action: §VII text (any case, cards in any order) or an action int.
            seat: if given, the seat index that sends it; it must be the seat to act.

        Returns the applied action int.  Raises :class:`UnparsableError` if the text is
        not an action of this profile and :class:`IllegalActionError` if it is not legal
        now (including the wrong seat, or the deal being over).  On error the state is
        unchanged.
        """
        a = self.parse(action) if isinstance(action, str) else action
        if not isinstance(a, int) or isinstance(a, bool):
            raise UnparsableError(f"not an action: {action!r}")
        try:
            format_action(a)
        except ValueError as exc:
            raise UnparsableError(str(exc)) from None
        self._check_open()
        if seat is not None and seat != self.to_act:
            raise IllegalActionError(
                f"it is seat {self.to_act + 1}'s turn, not seat {seat + 1}'s", reason="not_your_turn"
            )
        if a not in self.legal_actions():
            reason, message = self.why_illegal(a)
            raise IllegalActionError(message, reason=reason)
        self.apply(a)
        return a

    def why_illegal(self, a: Action) -> tuple[str, str]:
        """``(reason code, message)`` saying why ``a`` is not legal now (call it only for an
        action not in :meth:`legal_actions`): codes ``wrong_decision``, ``not_a_choice``, … as
        :class:`IllegalActionError` carries them (PROTOCOL §4.2); the message names no action
        (:func:`gameweave.engine.reasons.why_illegal`)."""
        return why_illegal(self, a)

    # ------------------------------------------------------------------ explicit chance
    def set_next_stock_card(self, card: int) -> None:
        """Make the unturned stock card ``card`` the next one a ``turn`` turns (R8, R10.2).

        For interfaces that model each card turned from the stock as an explicit chance
        event (``gameweave.research``): the chosen card swaps places with the top of the
        stock.  Only the order of the unturned stock changes, which no seat sees (R21), so
        every view, the public history and the replay of the deal stay the same.  Raises
        :class:`ValueError` if ``card`` is not in the unturned stock.
        """
        pos = self.stock_pos
        deck = self.deck
        if not isinstance(card, int) or card not in deck[pos:]:
            raise ValueError(f"{card!r} is not a card of the unturned stock")
        i = deck.index(card, pos)
        if i != pos:
            order = list(deck)
            order[pos], order[i] = order[i], order[pos]
            self.deck = tuple(order)

    # ------------------------------------------------------------------ convenience
    def legal_texts(self) -> list[str]:
        """:meth:`legal_actions` in §VII notation."""
        return [format_action(a) for a in self.legal_actions()]

    def play_all(self, actions: Iterable[str | int]) -> GameState:
        """Apply a sequence of actions with :meth:`play`; returns self.

        Raises as :meth:`play` on the first bad action (earlier ones stay applied).
        """
        for act in actions:
            self.play(act)
        return self

    def __repr__(self) -> str:
        return (
            f"<GameState {self.rules.name} {self.status} to_act={self.to_act + 1 if self.to_act >= 0 else None} "
            f"decision={self.decision} stock={self.stock_count}>"
        )


_LEGAL = (
    GameState._legal_turn, GameState._legal_take, GameState._legal_turned,
    GameState._legal_throw, GameState._legal_forced, GameState._legal_over, GameState._legal_over,
)
"""Per-decision legal-action functions, indexed by phase (OpenSpiel gin_rummy style)."""




__all__ = [
    "DECISIONS", "HAND_SIZE", "PHASE_OF", "PH_CLOSED", "PH_FORCED", "PH_OVER", "PH_TAKE", "PH_THROW",
    "PH_TURN", "PH_TURNED", "PLAYING", "STOCK_START", "TABLAS", "WIN_COUNT", "WON", "GameState",
    "shuffled_deck", "validate_deck",
]
