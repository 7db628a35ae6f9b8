"""The game state of one deal and its phase machine (RULES §III, §IV).

Seats are indexed ``0`` and ``1`` in Python and shown as 1 and 2 wherever a person or a
file sees them.  The state is the only holder of hidden information (both hands and the
stock order); anything that is not the engine reads it through :func:`gameweave.engine.view.seat_view`
(R21).

Decisions (the explicit phase enum):

=================  ==========================================================
``turn``           no live card from the opponent: turn the stock (start of a deal)
``take_or_turn``   a live card from the opponent is in the centre: meld it, or ``turn``
``meld_or_refuse`` a card just turned from the stock: meld it, or refuse (and force)
``throw``          after melding (or being forced): throw a hand card (and force)
=================  ==========================================================

Two ways in: :meth:`GameState.apply` is the fast unchecked path for simulation (the
action must come from :meth:`GameState.legal_actions`); :meth:`GameState.play` is the
checked path for people and the network (parses text, raises a typed error, leaves the
state unchanged on error).
"""

from __future__ import annotations

import random
from typing import Iterable, Sequence

from .actions import REFUSE, THROW, TURN, format_action, parse_action
from .cards import CARD_NAMES, FULL_MASK, RANK_MASKS, cards_of, format_cards, parse_cards
from .errors import IllegalActionError, UnparsableError
from .melds import meld_table
from .rules import GAMEWEAVE, Rules, find_profile

PH_TURN, PH_TAKE, PH_MELD, PH_THROW, PH_OVER = range(5)
"""Phase numbers; ``DECISIONS[phase]`` is the decision's name (``None`` once over)."""
DECISIONS: tuple[str | None, ...] = ("turn", "take_or_turn", "meld_or_refuse", "throw", None)

PLAYING, WON, TABLAS = "playing", "won", "tablas"
"""Values of :attr:`GameState.status`."""

HAND_SIZE = 10
"""Cards dealt to each seat (R8)."""
WIN_COUNT = 11
"""Melded cards that win a deal (R16)."""
STOCK_START = 20
"""Deck index of the top stock card (R8)."""

_RANK_OTHERS: tuple[int, ...] = tuple(RANK_MASKS[c >> 2] & ~(1 << c) for c in range(40))


def _low(mask: int) -> int:
    return mask & -mask


def validate_deck(deck: Sequence[int] | str) -> tuple[int, ...]:
    """Check a deck order (R8) and return it as a tuple of 40 card ints.

    Accepts 40 card ints or text of 40 cards.  Raises :class:`UnparsableError` if it is
    not a permutation of the 40-card pack (R1).
    """
    if isinstance(deck, str):
        cards = parse_cards(deck)
    else:
        cards = list(deck)
    if len(cards) != 40 or sorted(cards) != list(range(40)):
        seen = 0
        twice = 0
        for c in cards:
            if not isinstance(c, int) or not 0 <= c < 40:
                raise UnparsableError(f"a deck order holds cards 0..39, not {c!r}")
            twice |= seen & (1 << c)
            seen |= 1 << c
        missing = FULL_MASK & ~seen
        raise UnparsableError(
            f"a deck order is the 40 cards of the pack, each once (got {len(cards)} cards"
            + (f"; twice: {format_cards(twice)}" if twice else "")
            + (f"; missing: {format_cards(missing)}" if missing else "")
            + ")"
        )
    return tuple(cards)


def shuffled_deck(seed: int | str) -> tuple[int, ...]:
    """A deterministic deck order (R8) from ``seed`` (same seed, same deck, any machine).

    Uses a private :class:`random.Random` instance, never the global generator.  Not for
    fair play against people: the server draws decks from a cryptographic source.
    """
    deck = list(range(40))
    random.Random(seed).shuffle(deck)
    return tuple(deck)


class GameState:
    """One deal of Conquian under a rule profile (R8-R17).

    Build with :meth:`new` (from a deck order or a seed).  Attributes are public for the
    engine's own modules, bots' *simulations* and tests; everything else must go through
    :func:`~gameweave.engine.view.seat_view` (R21).

    Attributes:
        rules: the :class:`Rules` profile.
        deck: the 40-card deck order (tuple of card ints, R8).
        opener: seat index (0/1) that opened the deal (R9).
        hands: ``[mask0, mask1]`` — 40-bit hand masks.
        melds: ``[list0, list1]`` — each seat's melds as 40-bit masks, kept in §VII order
            (hand order of their lowest card); ``melds[s][n-1]`` is meld number ``n``.
        tcount: ``[n0, n1]`` — cards on each seat's table.
        stock_pos: deck index of the next stock card (20..40; 40 = stock empty).
        to_act: seat index to act, or -1 once the deal is over.
        phase: one of ``PH_TURN, PH_TAKE, PH_MELD, PH_THROW, PH_OVER``.
        card: the card in the centre (live card, or the card just turned), or -1.
        live_from: seat index that let the live card go, or -1 (none, or a turned card).
        dead: 40-bit mask of dead cards on the discard pile.
        status: ``"playing"``, ``"won"`` or ``"tablas"``.
        winner: seat index of the winner, or -1.
        history: list of applied action ints; ``actors`` the seat index of each.
    """

    __slots__ = (
        "rules", "deck", "opener", "hands", "melds", "tcount", "extall", "stock_pos",
        "to_act", "phase", "card", "live_from", "dead", "status", "winner", "history",
        "actors", "_ext", "_seq", "_cap",
    )

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(
        cls,
        deck: Sequence[int] | str | None = None,
        *,
        seed: int | str | None = None,
        opener: int = 0,
        rules: Rules | str = GAMEWEAVE,
    ) -> "GameState":
        """Deal a new deal (R8) from a deck order, or from ``seed`` (deterministic).

        Args:
            deck: 40 card ints or 40 cards as text, in R8 order (cards 1-20 dealt
                alternately starting with the opener; card 21 tops the stock).
            seed: used when ``deck`` is None; see :func:`shuffled_deck`.
            opener: seat index (0 or 1) that opens the deal (R9).
            rules: a :class:`Rules` or profile name (§V).

        Raises :class:`UnparsableError` for a bad deck, :class:`UnknownProfileError` for
        a profile that cannot be played, :class:`ValueError` for a bad opener.
        """
        rules = find_profile(rules)
        if deck is None:
            deck = shuffled_deck(0 if seed is None else seed)
        deck = validate_deck(deck)
        if opener not in (0, 1):
            raise ValueError(f"opener must be seat index 0 or 1, not {opener!r}")
        st = cls.__new__(cls)
        st.rules = rules
        tab = meld_table(rules.max_sequence)
        st._ext = tab.ext
        st._seq = tab.seq
        st._cap = 10 if rules.max_sequence is None else rules.max_sequence
        st.deck = deck
        st.opener = opener
        h = [0, 0]
        for i in range(STOCK_START):
            h[opener ^ (i & 1)] |= 1 << deck[i]
        st.hands = h
        st.melds = [[], []]
        st.tcount = [0, 0]
        st.extall = [0, 0]
        st.stock_pos = STOCK_START
        st.to_act = opener
        st.phase = PH_TURN
        st.card = -1
        st.live_from = -1
        st.dead = 0
        st.status = PLAYING
        st.winner = -1
        st.history = []
        st.actors = []
        return st

    def clone(self) -> "GameState":
        """An independent copy (the history list is copied too)."""
        st = GameState.__new__(GameState)
        st.rules = self.rules
        st._ext = self._ext
        st._seq = self._seq
        st._cap = self._cap
        st.deck = self.deck
        st.opener = self.opener
        st.hands = self.hands[:]
        st.melds = [self.melds[0][:], self.melds[1][:]]
        st.tcount = self.tcount[:]
        st.extall = self.extall[:]
        st.stock_pos = self.stock_pos
        st.to_act = self.to_act
        st.phase = self.phase
        st.card = self.card
        st.live_from = self.live_from
        st.dead = self.dead
        st.status = self.status
        st.winner = self.winner
        st.history = self.history[:]
        st.actors = self.actors[:]
        return st

    # ------------------------------------------------------------------ queries
    @property
    def decision(self) -> str | None:
        """The decision of the seat to act: ``turn``, ``take_or_turn``,
        ``meld_or_refuse``, ``throw``; ``None`` once the deal is over."""
        return DECISIONS[self.phase]

    @property
    def is_over(self) -> bool:
        """True once the deal is won (R16) or tablas (R17)."""
        return self.phase == PH_OVER

    @property
    def stock_count(self) -> int:
        """Cards left in the stock (0..20)."""
        return 40 - self.stock_pos

    def hand_count(self, seat: int) -> int:
        """Cards in seat's hand."""
        return self.hands[seat].bit_count()

    def table_mask(self, seat: int) -> int:
        """40-bit mask of every card on seat's table."""
        m = 0
        for x in self.melds[seat]:
            m |= x
        return m

    def meld_options(self, seat: int, card: int) -> list[int]:
        """Every ``meld`` action by which ``seat`` can meld ``card`` now (R12).

        Order: additions to the seat's melds (by meld number), the new set of three,
        the new set of four, then new sequences by lowest card then length.  A set of
        three built while holding three of the rank uses the first two in hand order.
        """
        ext = self._ext
        bit = 1 << card
        hand = self.hands[seat]
        out = [m | bit for m in self.melds[seat] if ext[m] & bit]
        same = hand & _RANK_OTHERS[card]
        if same and same & (same - 1):
            first = same & -same
            rest = same ^ first
            out.append(bit | first | (rest & -rest))
            if rest & (rest - 1):
                out.append(bit | same)
        lo = 0
        c = card - 4
        while c >= 0 and (hand >> c) & 1:
            lo += 1
            c -= 4
        hi = 0
        c = card + 4
        while c < 40 and (hand >> c) & 1:
            hi += 1
            c += 4
        if lo + hi >= 2:
            seq = self._seq
            cap = self._cap
            for i in range(lo, -1, -1):
                start = card - 4 * i
                for j in range(hi + 1):
                    length = i + j + 1
                    if 3 <= length <= cap:
                        out.append(seq[(start, length)])
        return out

    def force_targets(self, seat: int, card: int) -> list[int]:
        """Meld numbers (1-based, §VII) of ``seat``'s melds that ``card`` extends (R15)."""
        bit = 1 << card
        if not self.extall[seat] & bit:
            return []
        ext = self._ext
        return [i for i, m in enumerate(self.melds[seat], 1) if ext[m] & bit]

    def legal_actions(self) -> list[int]:
        """Every legal action now, as action ints, in a fixed order (empty once over).

        ``take_or_turn``: meld options then ``turn``.  ``meld_or_refuse``: meld options,
        ``refuse``, then ``refuse force n``.  ``throw``: for each hand card in hand
        order, ``throw c`` then ``throw c force n``.  ``turn``: ``[TURN]``.
        """
        ph = self.phase
        if ph == PH_TAKE:
            out = self.meld_options(self.to_act, self.card)
            out.append(TURN)
            return out
        if ph == PH_THROW:
            seat = self.to_act
            hand = self.hands[seat]
            opp_ext = self.extall[1 - seat]
            out = []
            while hand:
                low = hand & -hand
                hand ^= low
                c = low.bit_length() - 1
                a = THROW | (c << 8)
                out.append(a)
                if opp_ext & low:
                    for n in self.force_targets(1 - seat, c):
                        out.append(a | n)
            return out
        if ph == PH_MELD:
            seat = self.to_act
            card = self.card
            out = self.meld_options(seat, card)
            out.append(REFUSE)
            if self.extall[1 - seat] >> card & 1:
                for n in self.force_targets(1 - seat, card):
                    out.append(REFUSE | n)
            return out
        if ph == PH_TURN:
            return [TURN]
        return []

    # ------------------------------------------------------------------ transitions
    def apply(self, a: int) -> None:
        """Apply a legal action int, unchecked (the fast path for simulation).

        The action must be one of :meth:`legal_actions`; anything else corrupts the
        state.  Implements R10-R17: melding a taken card (R12) and winning at eleven
        (R16), refusing (R11), throwing (R13), forcing (R15) and tablas (R17).
        """
        seat = self.to_act
        self.history.append(a)
        self.actors.append(seat)
        kind = a >> 40
        if kind == 0:  # meld the centre card (R12)
            bit = 1 << self.card
            rest = a ^ bit
            hand = self.hands[seat]
            used = rest & hand
            melds = self.melds[seat]
            if used:
                self.hands[seat] = hand ^ used
                melds.append(a)
            else:
                melds[melds.index(rest)] = a
            ext = self._ext
            e = 0
            for m in melds:
                e |= ext[m]
            self.extall[seat] = e
            if len(melds) > 1:
                melds.sort(key=_low)
            t = self.tcount[seat] + 1 + used.bit_count()
            self.tcount[seat] = t
            self.card = -1
            self.live_from = -1
            if t >= WIN_COUNT:
                self._win(seat)
            else:
                self.phase = PH_THROW
        elif kind == 1:  # turn (R10.2); the live card, if any, dies
            if self.card >= 0:
                self.dead |= 1 << self.card
            if self.stock_pos >= 40:  # R17: nothing to turn
                self._tablas()
            else:
                self.card = self.deck[self.stock_pos]
                self.stock_pos += 1
                self.live_from = -1
                self.phase = PH_MELD
        else:
            if kind == 3:  # throw (R13)
                card = (a >> 8) & 0x3F
                self.hands[seat] ^= 1 << card
                self.card = card
            n = a & 0xFF
            if n:
                self._force(seat, n)
            else:  # the card goes live for the opponent (R11, R13)
                opp = 1 - seat
                self.live_from = seat
                self.to_act = opp
                self.phase = PH_TAKE
                if self.stock_pos >= 40 and not self.meld_options(opp, self.card):
                    self.dead |= 1 << self.card
                    self._tablas()  # R17: opponent would have to turn an empty stock

    def _force(self, seat: int, n: int) -> None:
        """R15: put the centre card on the opponent's meld number n; they throw next."""
        opp = 1 - seat
        bit = 1 << self.card
        melds = self.melds[opp]
        melds[n - 1] |= bit
        ext = self._ext
        e = 0
        for m in melds:
            e |= ext[m]
        self.extall[opp] = e
        if len(melds) > 1:
            melds.sort(key=_low)
        t = self.tcount[opp] + 1
        self.tcount[opp] = t
        self.card = -1
        self.live_from = -1
        self.to_act = opp
        if t >= WIN_COUNT:
            self._win(opp)  # R16: a forced card counts towards eleven
        else:
            self.phase = PH_THROW

    def _win(self, seat: int) -> None:
        self.status = WON
        self.winner = seat
        self.phase = PH_OVER
        self.to_act = -1
        self.card = -1
        self.live_from = -1

    def _tablas(self) -> None:
        self.status = TABLAS
        self.winner = -1
        self.phase = PH_OVER
        self.to_act = -1
        self.card = -1
        self.live_from = -1

    # ------------------------------------------------------------------ checked entry
    def play(self, action: str | int, seat: int | None = None) -> int:
        """Apply one action after checking it (the entry point for people and the network).

        Args:
            action: §VII text (any case, cards in any order) or an action int.
            seat: if given, the seat index that sends it; it must be the seat to act.

        Returns the applied action int.  Raises :class:`UnparsableError` if the text is
        not an action and :class:`IllegalActionError` if it is not legal now (including
        the wrong seat, or the deal being over).  On error the state is unchanged.
        """
        a = parse_action(action) if isinstance(action, str) else action
        if not isinstance(a, int) or isinstance(a, bool):
            raise UnparsableError(f"not an action: {action!r}")
        try:
            text = format_action(a)
        except ValueError as exc:
            raise UnparsableError(str(exc)) from None
        if self.phase == PH_OVER:
            raise IllegalActionError(f"{text!r}: the deal is over ({self.status})")
        if seat is not None and seat != self.to_act:
            raise IllegalActionError(
                f"{text!r}: it is seat {self.to_act + 1}'s turn, not seat {seat + 1}'s"
            )
        if a not in self.legal_actions():
            raise IllegalActionError(self._why_illegal(a, text))
        self.apply(a)
        return a

    def _why_illegal(self, a: int, text: str) -> str:
        seat = self.to_act
        opp = 1 - seat
        kind = a >> 40
        decision = DECISIONS[self.phase]
        who = f"seat {seat + 1}"
        if kind == 0:
            if self.phase not in (PH_TAKE, PH_MELD):
                return f"{text!r}: nothing to meld now; {who} must {decision}"
            card = self.card
            if not (a >> card) & 1:
                return f"{text!r}: a meld must contain the card in the centre, {CARD_NAMES[card]} (R12)"
            return (
                f"{text!r}: not one of the ways {who} can meld {CARD_NAMES[card]} "
                f"(R12; choices: {', '.join(format_action(x) for x in self.meld_options(seat, card)) or 'none'})"
            )
        if kind == 1:
            return f"{text!r}: {who} must {decision} now, not turn the stock"
        n = a & 0xFF
        if kind == 2 and self.phase != PH_MELD:
            return f"{text!r}: only a card just turned from the stock can be refused; {who} must {decision}"
        if kind == 3:
            if self.phase != PH_THROW:
                return f"{text!r}: {who} throws only after melding or being forced; now: {decision}"
            card = (a >> 8) & 0x3F
            if not (self.hands[seat] >> card) & 1:
                return f"{text!r}: {CARD_NAMES[card]} is not in {who}'s hand"
        else:
            card = self.card
        if n:
            if n > len(self.melds[opp]):
                return f"{text!r}: seat {opp + 1} has no meld {n} to force onto (R15)"
            return (
                f"{text!r}: {CARD_NAMES[card]} does not extend seat {opp + 1}'s meld {n}, "
                f"{format_cards(self.melds[opp][n - 1])} (R15)"
            )
        return f"{text!r}: not legal now"

    # ------------------------------------------------------------------ convenience
    def legal_texts(self) -> list[str]:
        """:meth:`legal_actions` in §VII notation."""
        return [format_action(a) for a in self.legal_actions()]

    def play_all(self, actions: Iterable[str | int]) -> "GameState":
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
