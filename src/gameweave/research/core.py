"""The research core: explicit chance, a dense action id space and seat encodings.

This module is shared by the OpenSpiel game, the PettingZoo and the Gymnasium
environments.  It needs numpy only for the tensors (:func:`observation_tensor`,
:func:`information_state_tensor`); the state machine itself is pure Python on top of the
engine's :class:`~gameweave.engine.GameState`.

**Chance** (docs/RESEARCH.md): the deal is 20 chance events, each a card drawn uniformly
from the undealt cards (R8: alternately, the first to the opener); after it, each card
turned from the stock is a chance event, drawn uniformly from the unturned stock, applied
with :meth:`GameState.set_next_stock_card` and the engine's ``turn``.  The engine's deck
order beyond the stock position is a placeholder that no seat sees and chance overwrites.

**Actions**: one fixed, dense id space for every profile (:data:`NUM_ACTIONS` ids, table in
docs/RESEARCH.md).  A force names its target meld by its cards (a meld id), never by a meld
number; an R18 table is built by several ``meld M`` steps, each putting one meld of the
new table down in ascending meld-id order, closed by ``done`` — so each table is exactly
one sequence of ids and an id means the same in every state.

**Hidden information** (R21): every encoding is made from the seat's
:class:`~gameweave.engine.SeatView` and the seat's own pending sub-step, nothing else.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..engine import (
    FORCE, GAMEWEAVE, apply_public, PH_OVER, PH_TAKE, REFUSE, TURN, GameState, PublicEvent, SeatView, find_profile, force_of, format_action,
    kind_of, meld_action, meld_table, refuse_action, seat_view, state_from_view, table_action, table_of, throw_action,
    thrown_card,
)
from ..engine.actions import FORCE_KIND, MELD, REFUSE_KIND, TABLE, THROW_KIND, TURN_KIND
from ..engine.cards import CARD_NAMES, FULL_MASK, RANK_MASKS, format_cards

# ---------------------------------------------------------------- the action id space
MELDS: tuple[int, ...] = meld_table(None).melds
"""The 194 melds of the pack (uncapped meld table, R5/R6); a meld id is its index."""
MELD_ID: dict[int, int] = {m: i for i, m in enumerate(MELDS)}
NUM_MELDS = len(MELDS)

A_TURN = 0
"""``turn`` (R10.2, R17)."""
A_REFUSE = 1
"""``refuse`` the turned card, no force (R11)."""
A_REFUSE_FORCE = 2
"""``refuse`` and force it onto the opponent (R15, R18e); the target follows if several fit."""
A_FORCE_BACK = 3
"""``force`` a refused turned card back onto its turner (R19, anglo-american)."""
A_DONE = 4
"""Close an R18 table being built with ``meld M`` steps."""
A_THROW = 5
"""``A_THROW + c``: throw card ``c`` (0..39), no force (R13)."""
A_THROW_FORCE = A_THROW + 40
"""``A_THROW_FORCE + c``: throw card ``c`` and force it (R15); the target follows if several fit."""
A_MELD = A_THROW_FORCE + 40
"""``A_MELD + m``: meld id ``m`` is a meld of the seat's table after melding the card: the
whole resulting meld in gameweave (R12); one meld of the new table under R18."""
A_ONTO = A_MELD + NUM_MELDS
"""``A_ONTO + m``: the force goes onto the opponent's meld whose cards are meld id ``m`` (R15)."""
NUM_ACTIONS = A_ONTO + NUM_MELDS
"""Distinct player action ids (473)."""
NUM_CHANCE_OUTCOMES = 40
"""Chance outcomes are card ints 0..39."""
MAX_GAME_LENGTH = 400
"""An upper bound on transitions (chance included) of one deal, for OpenSpiel."""

CHANCE = -1
TERMINAL = -4
"""``Deal.current_player()`` values besides seats 0/1 (OpenSpiel's conventions)."""


def meld_text(m: int) -> str:
    """Cards of a meld mask, in hand order (R4)."""
    return format_cards(m)


def action_name(aid: int) -> str:
    """Text of a dense action id, e.g. ``'throw Ks force'``, ``'meld 4h 5h 6h'``,
    ``'onto Jc Qc Kc'``.  Raises :class:`ValueError` outside ``0..NUM_ACTIONS-1``."""
    if not 0 <= aid < NUM_ACTIONS:
        raise ValueError(f"not an action id: {aid!r}")
    if aid == A_TURN:
        return "turn"
    if aid == A_REFUSE:
        return "refuse"
    if aid == A_REFUSE_FORCE:
        return "refuse force"
    if aid == A_FORCE_BACK:
        return "force"
    if aid == A_DONE:
        return "done"
    if aid < A_THROW_FORCE:
        return f"throw {CARD_NAMES[aid - A_THROW]}"
    if aid < A_MELD:
        return f"throw {CARD_NAMES[aid - A_THROW_FORCE]} force"
    if aid < A_ONTO:
        return f"meld {meld_text(MELDS[aid - A_MELD])}"
    return f"onto {meld_text(MELDS[aid - A_ONTO])}"


def _table_ids(action: int) -> tuple[int, ...]:
    """The meld ids of an engine ``meld`` action's result, ascending (memoised: a pure
    function of the action int)."""
    got = _TABLE_IDS.get(action)
    if got is None:
        got = _TABLE_IDS[action] = tuple(sorted(MELD_ID[m] for m in table_of(action)))
    return got


_TABLE_IDS: dict[int, tuple[int, ...]] = {}
_MELD_KINDS = (MELD, TABLE)


def _unseen_of_deal(dealt: list[int]) -> list[int]:
    got = 0
    for c in dealt:
        got |= 1 << c
    return [c for c in range(40) if not got >> c & 1]


def _note(public: list[int], hist: list[int], ev: PublicEvent) -> None:
    """Add one public event to the history masks (``public[6 * seat + plane]``, the
    :data:`HISTORY_PLANES` order per seat) and to ``hist`` (per seat, the same twelve
    planes as one int, the seat's own six first: bit ``40 * plane + card``): only what
    the event shows (R21)."""
    seat = ev.seat
    base = 6 * seat
    k = kind_of(ev.action)
    card = ev.card
    adds = 0  # the event's six planes, bit 40 * plane + card
    if k == TURN_KIND:
        if card >= 0:
            public[base] |= 1 << card
            adds = 1 << card
        if ev.died >= 0:
            public[base + 3] |= 1 << ev.died
            adds |= 1 << (120 + ev.died)
    elif k == REFUSE_KIND:
        public[base + 1] |= 1 << card
        adds = 1 << (40 + card)
    elif k == THROW_KIND:
        public[base + 2] |= 1 << card
        adds = 1 << (80 + card)
    elif k == MELD or k == TABLE:
        public[base + 4] |= ev.from_hand
        adds = ev.from_hand << 160
    if ev.forced and k != MELD and k != TABLE:
        public[base + 5] |= 1 << card
        adds |= 1 << (200 + card)
    hist[seat] |= adds
    hist[1 - seat] |= adds << 240


def _first_id(a: int) -> int:
    """The dense id that starts writing the engine action ``a`` (its only id, or the first
    ``meld M`` of an R18 table, or a force before its target): a pure function of ``a``."""
    k = kind_of(a)
    if k == TURN_KIND:
        return A_TURN
    if k == MELD:
        return A_MELD + MELD_ID[table_of(a)[0]]
    if k == TABLE:
        return A_MELD + _table_ids(a)[0]
    if k == REFUSE_KIND:
        return A_REFUSE_FORCE if force_of(a) else A_REFUSE
    if k == THROW_KIND:
        return (A_THROW_FORCE if force_of(a) else A_THROW) + thrown_card(a)
    return A_FORCE_BACK


_PLAIN_THROWS: tuple[int, ...] = tuple(throw_action(c) for c in range(40))
"""The engine's plain ``throw c`` action per card (R13)."""
_FIRST_ID: dict[int, int] = {}
"""Memo of :func:`_first_id` (engine action ints repeat across deals)."""


class Deal:
    """One deal with explicit chance and dense action ids (see the module docstring).

    Attributes:
        rules: the profile (:class:`~gameweave.engine.Rules`); ``opener`` seat 0/1 (R9);
            ``stake`` what a won deal is worth (R20; returns are ``±stake``, 0 for tablas).
        dealt: the cards dealt so far, in deal order (R8); ``state`` the engine state once
            all 20 are dealt, else None.
        turning: True while a chance event must choose the card a ``turn`` turns.
        pending_table: meld ids already put down in an R18 table being built.
        pending_force: ``(card, {meld id: engine action})`` while a force's target is chosen.
        history: every applied id, chance outcomes included (OpenSpiel's history).
        stock_shuffled: True while the unturned stock is in a uniformly random order that
            no seat has seen (dealt by :meth:`play_chance`, or :meth:`from_view`), so a
            ``turn`` may turn its top card as the chance draw; False in a clone, so that
            clones played on with their own generators draw their own cards.
    """

    __slots__ = ("rules", "opener", "stake", "dealt", "state", "turning", "pending_table",
                 "pending_force", "history", "events", "public", "hist", "_legal_cache", "_view_cache", "_tables",
                 "_engine_legal", "_sc_base", "stock_shuffled")

    def __init__(self, rules: object = GAMEWEAVE, opener: int = 0, stake: int = 1):
        self.rules = find_profile(rules)  # type: ignore[arg-type]
        if opener not in (0, 1):
            raise ValueError(f"opener must be seat index 0 or 1, not {opener!r}")
        self.opener = opener
        self.stake = stake
        self.dealt: list[int] = []
        self.state: GameState | None = None
        self.turning = False
        self.pending_table: tuple[int, ...] = ()
        self.pending_force: tuple[int, dict[int, int]] | None = None
        self.history: list[int] = []
        self.events: list[PublicEvent] = []
        self.public: list[int] = [0] * 12
        self.hist: list[int] = [0, 0]
        self._legal_cache: list[int] | None = None
        self._view_cache: dict[int, SeatView] | None = None
        self._tables: list[tuple[int, ...]] | None = None
        self._engine_legal: list[int] | None = None
        self._sc_base: list[list[float]] | None = None
        self.stock_shuffled = False

    # ------------------------------------------------------------ copying
    def clone(self) -> Deal:
        """An independent copy (cheap: the engine state's own :meth:`GameState.clone`)."""
        d = Deal.__new__(Deal)
        d.rules = self.rules
        d.opener = self.opener
        d.stake = self.stake
        d.dealt = self.dealt[:]
        d.state = self.state.clone() if self.state is not None else None
        d.turning = self.turning
        d.pending_table = self.pending_table
        d.pending_force = self.pending_force
        d.history = self.history[:]
        d.events = self.events[:]
        d.public = self.public[:]
        d.hist = self.hist[:]
        d._legal_cache = self._legal_cache
        d._view_cache = dict(self._view_cache) if self._view_cache else None
        d._tables = self._tables
        d._engine_legal = self._engine_legal
        d._sc_base = self._sc_base
        d.stock_shuffled = False  # a clone draws its own turned cards (play_chance with its rng)
        return d

    # ------------------------------------------------------------ queries
    def is_chance(self) -> bool:
        """True while chance acts: the deal (R8) or the card a ``turn`` turns."""
        return self.state is None or self.turning

    def is_terminal(self) -> bool:
        """True once the deal is won (R16) or tablas (R17)."""
        return self.state is not None and self.state.phase == PH_OVER

    def current_player(self) -> int:
        """Seat 0/1 to act, :data:`CHANCE` or :data:`TERMINAL`."""
        st = self.state
        if st is None or self.turning:
            return CHANCE
        return TERMINAL if st.phase == PH_OVER else st.to_act

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``[(card, probability), ...]``, ascending cards, uniform (R8 shuffle)."""
        if self.state is None:
            cards = _unseen_of_deal(self.dealt)
        elif self.turning:
            cards = sorted(self.state.deck[self.state.stock_pos:])
        else:
            return []
        p = 1.0 / len(cards)
        return [(c, p) for c in cards]

    def play_chance(self, rng: random.Random) -> None:
        """Let chance act until a seat is to act or the deal is over, drawing each outcome
        uniformly (R8) with ``rng`` — the same distribution as :meth:`chance_outcomes`,
        without building it.

        The rest of the deal is one shuffle, which also orders the stock uniformly; while
        the stock is in such an order (:attr:`stock_shuffled`), turning its top card *is*
        a uniform draw from the unturned stock (nothing any seat saw depends on the order
        of the unturned cards, R21), so no card is moved.  Otherwise (a deal dealt by
        explicit chance outcomes, whose stock order is a sorted placeholder) a uniformly
        drawn card is brought to the top (:meth:`GameState.set_next_stock_card`)."""
        if self.state is None:  # apply()'s deal branch for the rest of the deal, at once
            pool = _unseen_of_deal(self.dealt)
            rng.shuffle(pool)
            k = 20 - len(self.dealt)
            rest = pool[:k]
            self.history += rest
            self.dealt += rest
            self.state = GameState.new(self.dealt + pool[k:], opener=self.opener, rules=self.rules)
            self.stock_shuffled = True
            self._changed()
        if self.turning:  # apply()'s chance branch, inlined: the card is in the stock
            st = self.state
            assert st is not None
            pos = st.stock_pos
            if self.stock_shuffled:
                card = st.deck[pos]
            else:
                card = st.deck[pos + int(rng.random() * (40 - pos))]
                st.set_next_stock_card(card)
            self.history.append(card)
            self.turning = False
            self._engine(TURN)
            self._legal_cache = None
            self._view_cache = None

    def returns(self) -> list[float]:
        """``[r0, r1]``: ``±stake`` to the winner/loser (R16, R20), 0 for tablas or unfinished."""
        st = self.state
        if st is None or st.phase != PH_OVER or st.winner < 0:
            return [0.0, 0.0]
        r = [-float(self.stake), -float(self.stake)]
        r[st.winner] = float(self.stake)
        return r

    def view(self, seat: int) -> SeatView | None:
        """The seat's :class:`SeatView` (R21), cached per step; None during the deal."""
        if self.state is None:
            return None
        cache = self._view_cache
        if cache is None:
            cache = self._view_cache = {}
        v = cache.get(seat)
        if v is None:
            st = self.state
            v = seat_view(st, seat, tuple(self.events), self.engine_legal() if st.to_act == seat else None)
            cache[seat] = v
        return v

    def dealt_to(self, seat: int) -> list[int]:
        """The cards dealt to ``seat`` so far (R8: the opener gets cards 1, 3, 5, ...)."""
        first = 0 if seat == self.opener else 1
        return self.dealt[first::2]

    # ------------------------------------------------------------ legal actions
    def engine_legal(self) -> list[int]:
        """The engine's legal actions now (cached until the engine state changes)."""
        got = self._engine_legal
        if got is None:
            st = self.state
            assert st is not None
            got = self._engine_legal = st.legal_actions()
        return got

    def _meld_tables(self) -> list[tuple[int, ...]]:
        if self._tables is None:
            st = self.state
            assert st is not None
            self._tables = [_table_ids(a) for a in self.engine_legal() if kind_of(a) in _MELD_KINDS]
        return self._tables

    def legal_actions(self) -> list[int]:
        """The legal action ids of the seat to act, ascending; ``[]`` at chance/terminal."""
        got = self._legal_cache
        if got is not None:
            return got
        st = self.state
        if st is None or self.turning or st.phase == PH_OVER:
            return []
        if self.pending_force is not None:
            out = sorted(A_ONTO + m for m in self.pending_force[1])
        elif self.pending_table:
            k = len(self.pending_table)
            ids = set()
            for t in self._meld_tables():
                if t[:k] == self.pending_table:
                    ids.add(A_DONE if len(t) == k else A_MELD + t[k])
            out = sorted(ids)
        else:
            engine = self.engine_legal()
            try:
                out = sorted(set(map(_FIRST_ID.__getitem__, engine)))
            except KeyError:  # an engine action not met before: memoise, then map
                for a in engine:
                    if a not in _FIRST_ID:
                        _FIRST_ID[a] = _first_id(a)
                out = sorted(set(map(_FIRST_ID.__getitem__, engine)))
        self._legal_cache = out
        return out

    def action_mask(self) -> list[int]:
        """0/1 per action id (:data:`NUM_ACTIONS`), 1 for the legal ones."""
        mask = [0] * NUM_ACTIONS
        for a in self.legal_actions():
            mask[a] = 1
        return mask

    # ------------------------------------------------------------ transitions
    def _changed(self) -> None:
        self._legal_cache = None
        self._view_cache = None

    def _engine(self, action: int) -> None:
        st = self.state
        assert st is not None
        ev = apply_public(st, action)  # the engine applies it and says what it showed (R21)
        self.events.append(ev)
        _note(self.public, self.hist, ev)
        self._tables = None
        self._engine_legal = None
        self.pending_table = ()
        self.pending_force = None

    def _force_targets(self, kind: int, card: int) -> dict[int, int]:
        """{target meld id: engine action} for the forces of a refused/thrown card (R15).
        Gameweave names a meld number; it is turned into the meld's cards here.  Under
        R18e a force names no meld: the single entry has key -1."""
        st = self.state
        assert st is not None
        opp_melds = st.melds[1 - st.to_act]
        out: dict[int, int] = {}
        for a in self.engine_legal():
            if kind_of(a) != kind or not force_of(a):
                continue
            if kind == THROW_KIND and thrown_card(a) != card:
                continue
            n = force_of(a)
            key = MELD_ID[opp_melds[n - 1]] if 1 <= n <= len(opp_melds) else -1
            out[key] = a
        return out

    def apply(self, aid: int) -> None:
        """Apply a legal action id (or chance outcome).  Raises :class:`ValueError` for an
        id that is not legal now; the deal is then unchanged."""
        if self.is_chance():
            if self.state is None:
                if not (isinstance(aid, int) and 0 <= aid < 40) or aid in self.dealt:
                    raise ValueError(f"chance outcome {aid!r} is not possible now")
                self.history.append(aid)
                self.dealt.append(aid)
                if len(self.dealt) == 20:
                    deck = self.dealt + _unseen_of_deal(self.dealt)
                    self.state = GameState.new(deck, opener=self.opener, rules=self.rules)
            else:
                try:
                    self.state.set_next_stock_card(aid)
                except ValueError:
                    raise ValueError(f"chance outcome {aid!r} is not possible now") from None
                self.history.append(aid)
                self.turning = False
                self._engine(TURN)
            self._changed()
            return
        legal = self._legal_cache
        if legal is None:
            legal = self.legal_actions()
        if aid not in legal:
            raise ValueError(f"action id {aid!r} ({_safe_name(aid)}) is not legal now")
        self.history.append(aid)
        st = self.state
        assert st is not None
        if A_THROW <= aid < A_THROW_FORCE:  # the most frequent id first
            self._engine(_PLAIN_THROWS[aid - A_THROW])
        elif aid == A_TURN:
            if st.stock_pos < 40:
                self.turning = True  # chance turns the card; the live card dies then (R10.1)
            else:
                self._engine(TURN)  # R17: tablas
        elif aid == A_REFUSE:
            self._engine(REFUSE)
        elif A_MELD <= aid < A_ONTO:
            m = aid - A_MELD
            if not self.rules.rearranging:
                self._engine(meld_action(MELDS[m]))
            else:
                self.pending_table = self.pending_table + (m,)
                self._meld_tables()
        elif aid == A_FORCE_BACK:
            self._engine(FORCE)
        elif aid == A_REFUSE_FORCE or A_THROW_FORCE <= aid < A_MELD:
            if aid == A_REFUSE_FORCE:
                targets = self._force_targets(REFUSE_KIND, st.card)
                card = st.card
            else:
                card = aid - A_THROW_FORCE
                targets = self._force_targets(THROW_KIND, card)
            if len(targets) == 1:
                self._engine(next(iter(targets.values())))
            else:
                self.pending_force = (card, targets)
        elif aid >= A_ONTO:
            assert self.pending_force is not None
            self._engine(self.pending_force[1][aid - A_ONTO])
        elif aid == A_DONE:
            self._engine(table_action([MELDS[m] for m in self.pending_table]))
        self._legal_cache = None
        self._view_cache = None

    # ------------------------------------------------------------ engine actions
    def ids_of(self, action: int) -> list[int]:
        """The dense ids that write the engine ``action`` (legal now) in this deal: one
        id, or ``meld M`` steps and ``done`` for an R18 table, or a force and its target
        (when several melds fit).  Chance comes after an ``A_TURN`` that turns a card."""
        st = self.state
        assert st is not None
        k = kind_of(action)
        if k == TURN_KIND:
            return [A_TURN]
        if k == FORCE_KIND:
            return [A_FORCE_BACK]
        if k == MELD:
            return [A_MELD + MELD_ID[table_of(action)[0]]]
        if k == TABLE:
            return [A_MELD + m for m in _table_ids(action)] + [A_DONE]
        n = force_of(action)
        if k == REFUSE_KIND:
            if not n:
                return [A_REFUSE]
            first, targets = A_REFUSE_FORCE, self._force_targets(REFUSE_KIND, st.card)
        else:
            c = thrown_card(action)
            if not n:
                return [A_THROW + c]
            first, targets = A_THROW_FORCE + c, self._force_targets(THROW_KIND, c)
        if len(targets) == 1:
            return [first]
        return [first] + [A_ONTO + m for m, a in targets.items() if a == action]

    def last_engine_action(self) -> int:
        """The engine action applied last (for bots that answer with one), or -1."""
        st = self.state
        return st.history[-1] if st is not None and st.history else -1

    # ------------------------------------------------------------ resampling (R21)
    def resample(self, seat: int, rng: random.Random, tries: int = 200) -> Deal:
        """A deal that ``seat`` cannot tell from this one: same public history, same hand
        and pending step for ``seat``, the opponent's hand drawn uniformly from the cards
        ``seat`` has not seen that the public history allows (R12 set-of-three proof:
        :func:`excluded_from_hand`), built by the engine (:func:`~gameweave.engine.state_from_view`).
        The stock order is left to chance.  Raises :class:`RuntimeError` if no consistent
        world is found in ``tries`` draws."""
        if self.state is None:
            d = self.clone()
            mine = set(self.dealt_to(seat))
            pool = [c for c in range(40) if c not in mine]
            rng.shuffle(pool)
            it = iter(pool)
            first = 0 if seat == self.opener else 1
            d.dealt = [c if (i & 1) == first else next(it) for i, c in enumerate(self.dealt)]
            d._changed()
            return d
        view = self.view(seat)
        assert view is not None
        d = Deal.from_view(view, rng, self.stake, tries)
        d.history = self.history[:]
        d.turning = self.turning
        d.pending_table = self.pending_table
        # a force's targets are the opponent's melds (public); the engine actions are the same
        d.pending_force = self.pending_force
        return d

    @classmethod
    def from_view(cls, view: SeatView, rng: random.Random, stake: int = 1, tries: int = 200) -> Deal:
        """A deal consistent with ``view`` (R21): the opponent's hand drawn uniformly from
        the unseen cards the public history allows (:func:`excluded_from_hand`, R12), the
        stock in random order, built by :func:`~gameweave.engine.state_from_view`.  Raises
        :class:`RuntimeError` if no consistent world is found in ``tries`` draws."""
        seat = view.seat
        opp = 1 - seat
        unseen = view.unseen()
        banned = excluded_from_hand(view)
        allowed = [c for c in range(40) if (unseen & ~banned) >> c & 1]
        k = view.hand_counts[opp]
        for _ in range(tries):
            rng.shuffle(allowed)
            hand = 0
            for c in allowed[:k]:
                hand |= 1 << c
            stock = [c for c in range(40) if (unseen & ~hand) >> c & 1]
            rng.shuffle(stock)
            try:
                st = state_from_view(view, hand, stock)
            except ValueError:
                continue  # e.g. R17: the live card must be meldable for the game to go on
            if seat_view(st, seat) != view:
                continue
            d = cls(view.rules, view.opener, stake)
            d.dealt = list(st.deck[:20])
            d.state = st
            d.stock_shuffled = True  # the unseen stock was shuffled above
            d._view_cache = {seat: view}
            d.events = list(view.history)
            for ev in d.events:
                _note(d.public, d.hist, ev)
            return d
        raise RuntimeError("no world consistent with the seat's view was found")


def throw_action_plain(card: int) -> int:
    """The engine's ``throw card`` action with no force (R13)."""
    return _PLAIN_THROWS[card]


def _safe_name(aid: int) -> str:
    try:
        return action_name(aid)
    except ValueError:
        return "no such id"


def excluded_from_hand(view: SeatView) -> int:
    """Cards the public history proves are not in the opponent's hand (R12).

    In the gameweave profile a set of three built while holding three of the rank uses
    the first two in hand order (R4), so when the opponent built a set of three with hand
    cards whose higher one is ``h``, no other card of that rank below ``h`` was in their
    hand — and a hand never gains cards, so it is not there now.  Returns a 40-bit mask.
    """
    if view.rearranging:
        return 0
    opp = 1 - view.seat
    out = 0
    for e in view.history:
        if e.seat != opp or kind_of(e.action) != MELD or not e.from_hand:
            continue
        m = e.meld
        if m.bit_count() != 3 or e.from_hand.bit_count() != 2:
            continue
        rank = e.card >> 2
        if m & ~RANK_MASKS[rank]:
            continue  # a sequence
        high = e.from_hand.bit_length() - 1
        below = RANK_MASKS[rank] & ((1 << high) - 1) & ~m
        out |= below
    return out & FULL_MASK


# ---------------------------------------------------------------- encodings
DECISION_NAMES = ("turn", "take_or_turn", "meld_or_refuse", "throw", "meld", None)
CARD_PLANES = (
    "hand", "own_table", "opponent_table", "dead", "centre", "forced", "pending",
)
"""The 40-card planes of the observation tensor, in order (docs/RESEARCH.md)."""
SCALARS = (
    "to_act_is_me", "decision_turn", "decision_take_or_turn", "decision_meld_or_refuse",
    "decision_throw", "decision_meld", "decision_over", "building_table", "choosing_target",
    "centre_from_opponent", "centre_from_me", "centre_turned", "refused",
    "stock_count", "my_hand_count", "opponent_hand_count", "my_table_count",
    "opponent_table_count", "i_opened", "dealing", "rearranging", "force_back", "capped",
)
"""The scalar fields after the planes (counts divided by 20, 10, 11; flags 0/1)."""
HISTORY_PLANES = tuple(
    f"{who}_{what}" for who in ("my", "opponent")
    for what in ("turned", "refused", "thrown", "let_die", "melded_from_hand", "forced_on_other")
)
"""The 40-card planes the information state adds (public history, both seats)."""
OBS_SIZE = 40 * len(CARD_PLANES) + len(SCALARS)
INFO_SIZE = OBS_SIZE + 40 * len(HISTORY_PLANES)


def encode_array(deal: Deal, seat: int, info: bool):  # -> numpy.ndarray
    """The seat's observation (:data:`OBS_SIZE` floats) or, with ``info``, information
    state (:data:`INFO_SIZE`), as a float32 numpy array (layout: docs/RESEARCH.md).

    Reads only the seat's view (R21) — its history planes summarise ``view.history``,
    kept step by step in :attr:`Deal.public` — the seat's own dealt cards during the deal,
    and the seat's own pending step."""
    import numpy as np

    sc = [0.0] * len(SCALARS)
    rules = deal.rules
    sc[20] = float(rules.rearranging)
    sc[21] = float(rules.force_back)
    sc[22] = float(rules.max_sequence is not None)
    sc[18] = float(deal.opener == seat)
    masks = [0] * (len(CARD_PLANES) + (len(HISTORY_PLANES) if info else 0))
    view = deal.view(seat)
    if view is None:  # the deal: only the seat's own cards so far
        mine = 0
        for c in deal.dealt_to(seat):
            mine |= 1 << c
        masks[0] = mine
        sc[19] = 1.0
        sc[14] = mine.bit_count() / 10
    else:
        masks[0] = view.hand
        own = opp_t = 0
        for m in view.melds[seat]:
            own |= m
        for m in view.melds[1 - seat]:
            opp_t |= m
        masks[1] = own
        masks[2] = opp_t
        masks[3] = view.dead
        if view.centre >= 0:
            masks[4] = 1 << view.centre
        if view.forced >= 0:
            masks[5] = 1 << view.forced
        me_to_act = view.to_act == seat and not deal.turning
        if me_to_act:
            if deal.pending_table:
                pend = 0
                for m in deal.pending_table:
                    pend |= MELDS[m]
                masks[6] = pend
                sc[7] = 1.0
            elif deal.pending_force is not None:
                masks[6] = 1 << deal.pending_force[0]
                sc[8] = 1.0
        sc[0] = float(me_to_act)
        sc[1 + DECISION_NAMES.index(view.decision)] = 1.0
        if view.centre >= 0:
            if view.live_from == 1 - seat:
                sc[9] = 1.0
            elif view.live_from == seat:
                sc[10] = 1.0
            else:
                sc[11] = 1.0
        sc[12] = float(view.decision == "take_or_turn" and _refused(view))
        sc[13] = view.stock_count / 20
        sc[14] = view.hand_counts[seat] / 10
        sc[15] = view.hand_counts[1 - seat] / 10
        sc[16] = view.table_counts[seat] / 11
        sc[17] = view.table_counts[1 - seat] / 11
        if info:
            pub = deal.public
            mine_at = 6 * seat
            theirs_at = 6 * (1 - seat)
            masks[7:13] = pub[mine_at:mine_at + 6]
            masks[13:19] = pub[theirs_at:theirs_at + 6]
    # each 40-bit mask is 5 little-endian bytes = its 40 card bits, in card order
    raw = b"".join([m.to_bytes(5, "little") for m in masks])
    planes = np.unpackbits(np.frombuffer(raw, np.uint8), bitorder="little")
    out = np.empty(INFO_SIZE if info else OBS_SIZE, np.float32)
    n = 40 * len(CARD_PLANES)
    out[:n] = planes[:n]
    out[n:OBS_SIZE] = sc
    if info:
        out[OBS_SIZE:] = planes[n:]
    return out


_N_PLANES = len(CARD_PLANES)
_SC_AT = 40 * _N_PLANES
_COUNTS_FROM = _SC_AT + SCALARS.index("stock_count")
_COUNTS_TO = _SC_AT + SCALARS.index("opponent_table_count") + 1
_COUNT_AT = range(_COUNTS_FROM, _COUNTS_TO)
"""Entries of the five count scalars; every other scalar is 0/1."""


def _bits(deal: Deal, seat: int, info: bool) -> tuple[int, list[float]]:
    """:func:`encode_array`'s tensor as one int and five counts: bit ``i`` is tensor
    entry ``i`` for the card planes and the 0/1 scalars; the five count scalars
    (``stock_count`` .. ``opponent_table_count``, entries 293..297) are returned apart.

    Read straight from the public fields of the engine state and the seat's own hand —
    the fields :func:`~gameweave.engine.seat_view` copies for ``seat``, without building
    the frozen view (R21: nothing of the opponent's hand but its size, nothing of the
    stock but its size; a test checks the result against :func:`encode_array` at every
    step) — and the history planes kept from the public events (:attr:`Deal.hist`).
    During the deal it takes :func:`encode_array`'s path."""
    st = deal.state
    if st is None:
        arr = encode_array(deal, seat, info)
        big = 0
        for c in deal.dealt_to(seat):
            big |= 1 << c
        for j in range(len(SCALARS)):
            if _SC_AT + j not in _COUNT_AT and arr[_SC_AT + j]:
                big |= 1 << (_SC_AT + j)
        return big, [float(x) for x in arr[_COUNTS_FROM:_COUNTS_TO]]
    opp = 1 - seat
    centre = st.card
    forced = st.forced
    phase = st.phase
    hand = st.hands[seat]
    tc = st.table_cards
    bases = deal._sc_base
    if bases is None:  # per seat, the 0/1 scalars that stay the same for the whole deal
        rules = deal.rules
        bases = []
        for s in (0, 1):
            base = (deal.opener == s) << 18 | rules.rearranging << 20 | rules.force_back << 21
            base |= (rules.max_sequence is not None) << 22
            bases.append(base << _SC_AT)
        deal._sc_base = bases
    big = bases[seat] | hand | tc[seat] << 40 | tc[opp] << 80 | st.dead << 120 | 1 << (_SC_AT + 1 + phase)
    if centre >= 0:
        lf = st.live_from
        big |= 1 << (160 + centre) | 1 << (_SC_AT + (9 if lf == opp else 10 if lf == seat else 11))
    if forced >= 0:
        big |= 1 << (200 + forced)
    if st.to_act == seat and not deal.turning:
        if deal.pending_table:
            pend = 0
            for m in deal.pending_table:
                pend |= MELDS[m]
            big |= pend << 240 | 1 << (_SC_AT + 7)
        elif deal.pending_force is not None:
            big |= 1 << (240 + deal.pending_force[0]) | 1 << (_SC_AT + 8)
        big |= 1 << _SC_AT
    if phase == PH_TAKE and deal.events:
        last = deal.events[-1]
        if kind_of(last.action) == REFUSE_KIND and not last.forced:
            big |= 1 << (_SC_AT + 12)
    if info:
        big |= deal.hist[seat] << OBS_SIZE
    counts = [(40 - st.stock_pos) / 20, hand.bit_count() / 10,
              st.hands[opp].bit_count() / 10,  # its size only, as the view's hand_counts
              st.table_counts[seat] / 11, st.table_counts[opp] / 11]
    return big, counts


_BYTE_BITS: list[object] = []


def _byte_bits():  # -> numpy.ndarray
    """(256, 8) float32: the 8 bits of each byte value, lowest bit first (made once)."""
    if not _BYTE_BITS:
        import numpy as np

        _BYTE_BITS.append(np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1,
                                        bitorder="little").astype(np.float32))
    return _BYTE_BITS[0]


class SeatEncoder:
    """One seat's tensors for an environment: :meth:`encode` and :meth:`mask`.

    :meth:`encode` gives exactly :func:`encode_array`'s array (layout: docs/RESEARCH.md)
    without building a :class:`SeatView`: the card planes come from :func:`_bits` (the
    seat's view fields only, R21) as one int, unpacked by numpy in one call.  Each call
    returns a new array (the caller may keep it).

    Args:
        seat: 0 or 1.  ``info``: the information state (True) or the observation.
    """

    __slots__ = ("seat", "info", "_size", "_legal", "_lbuf", "_lmv")

    def __init__(self, seat: int, info: bool = True):
        import numpy as np

        self.seat = seat
        self.info = info
        self._size = INFO_SIZE if info else OBS_SIZE
        self._legal: list[int] = []
        self._lbuf = np.zeros(NUM_ACTIONS, np.int8)
        self._lmv = memoryview(self._lbuf)

    def mask(self, deal: Deal):  # -> numpy.ndarray
        """:func:`legal_mask` for this seat (a new int8 array), from a kept buffer in
        which only the ids that stopped or started being legal are rewritten."""
        legal = deal.legal_actions() if deal.current_player() == self.seat else []
        was = self._legal
        if legal is not was:
            mv = self._lmv
            for a in was:
                mv[a] = 0
            for a in legal:
                mv[a] = 1
            self._legal = legal
        return self._lbuf.copy()

    def encode(self, deal: Deal):  # -> numpy.ndarray
        """The seat's tensor for ``deal`` now (a new float32 array)."""
        import numpy as np

        big, counts = _bits(deal, self.seat, self.info)
        size = self._size
        raw = np.frombuffer(big.to_bytes((size + 7) >> 3, "little"), np.uint8)
        out = _byte_bits().take(raw, axis=0).reshape(-1)[:size]  # 8 floats per byte
        out[_COUNTS_FROM:_COUNTS_TO] = counts
        return out


def legal_mask(deal: Deal, seat: int):  # -> numpy.ndarray
    """int8 0/1 per action id (:data:`NUM_ACTIONS`): the legal ids if ``seat`` is to act,
    else all 0."""
    import numpy as np

    b = bytearray(NUM_ACTIONS)
    if deal.current_player() == seat:
        for a in deal.legal_actions():
            b[a] = 1
    return np.frombuffer(b, np.int8)


def encode(deal: Deal, seat: int, buf: object, info: bool) -> None:
    """Write :func:`encode_array` into ``buf`` (a list or array of the right size)."""
    arr = encode_array(deal, seat, info)
    if isinstance(buf, list):
        buf[:] = arr.tolist()
    else:
        buf[:] = arr  # type: ignore[index]


def _refused(view: SeatView) -> bool:
    """True if the centre card is a turned card its turner refused (R11, R19)."""
    if not view.history:
        return False
    last = view.history[-1]
    return kind_of(last.action) == REFUSE_KIND and not last.forced


def observation_string(deal: Deal, seat: int) -> str:
    """What the seat sees now, as text (R21): its hand, both tables, the centre, counts,
    the decision and its own pending step."""
    view = deal.view(seat)
    if view is None:
        mine = 0
        for c in deal.dealt_to(seat):
            mine |= 1 << c
        return f"seat {seat + 1} dealing: hand {format_cards(mine) or '-'}; {len(deal.dealt)}/20 dealt"
    parts = [f"seat {seat + 1}", f"hand {format_cards(view.hand) or '-'}"]
    for s in (seat, 1 - seat):
        who = "mine" if s == seat else "theirs"
        parts.append(f"{who} " + (" / ".join(format_cards(m) for m in view.melds[s]) or "-"))
    parts.append(f"centre {CARD_NAMES[view.centre] if view.centre >= 0 else '-'}"
                 + (f" from seat {view.live_from + 1}" if view.live_from >= 0 else ""))
    if view.forced >= 0:
        parts.append(f"forced {CARD_NAMES[view.forced]}")
    parts.append(f"dead {format_cards(view.dead) or '-'}")
    parts.append(f"stock {view.stock_count}; hands {view.hand_counts[0]}/{view.hand_counts[1]}")
    if deal.turning:
        parts.append("turning")
    elif view.to_act >= 0:
        parts.append(f"seat {view.to_act + 1} to {view.decision}")
    else:
        parts.append(view.status + (f" seat {view.winner + 1}" if view.winner >= 0 else ""))
    if view.to_act == seat and not deal.turning:
        if deal.pending_table:
            parts.append("building " + " / ".join(meld_text(MELDS[m]) for m in deal.pending_table))
        elif deal.pending_force is not None:
            parts.append(f"forcing {CARD_NAMES[deal.pending_force[0]]}")
    return "; ".join(parts)


def information_state_string(deal: Deal, seat: int) -> str:
    """The seat's information state as text: the observation plus the whole public
    history in order (perfect recall of everything public, R21)."""
    view = deal.view(seat)
    obs = observation_string(deal, seat)
    if view is None:
        return obs
    hist = " | ".join(f"{e.seat + 1}:{format_action(e.action)}"
                      + (f"={CARD_NAMES[e.card]}" if kind_of(e.action) == TURN_KIND and e.card >= 0 else "")
                      for e in view.history)
    return f"{obs}; history {hist}"


def render(deal: Deal, seat: int | None = None) -> str:
    """Text for people: a seat's observation, or (``seat=None``) what a spectator may see —
    both tables, the centre, the counts, the last actions, and no hand until the deal is
    over (R21)."""
    if seat is not None:
        return observation_string(deal, seat)
    view = deal.view(0)
    if view is None:
        return f"dealing: {len(deal.dealt)}/20 cards dealt"
    text = observation_string(deal, 0).split("; ", 2)[2]  # drop "seat 1; hand ..."
    text = text.replace("mine ", "seat 1 melds ", 1).replace("theirs ", "seat 2 melds ", 1)
    last = " | ".join(f"{e.seat + 1}:{format_action(e.action)}" for e in view.history[-4:])
    lines = [text, f"last: {last or '-'}"]
    if view.opponent_hand is not None:
        lines.append(f"hands at the end: seat 1 {format_cards(view.hand) or '-'}; "
                     f"seat 2 {format_cards(view.opponent_hand) or '-'}")
    return "\n".join(lines)


RolloutPolicy = Callable[[Deal, random.Random], int]


def random_playout(deal: Deal, rng: random.Random) -> Deal:
    """Play ``deal`` to its end with uniform chance and uniform legal ids; returns it."""
    while not deal.is_terminal():
        if deal.is_chance():
            deal.apply(rng.choice(deal.chance_outcomes())[0])
        else:
            deal.apply(rng.choice(deal.legal_actions()))
    return deal


__all__ = [
    "A_DONE", "A_FORCE_BACK", "A_MELD", "A_ONTO", "A_REFUSE", "A_REFUSE_FORCE", "A_THROW",
    "A_THROW_FORCE", "A_TURN", "CARD_PLANES", "CHANCE", "Deal", "HISTORY_PLANES", "INFO_SIZE",
    "MELDS", "NUM_ACTIONS", "OBS_SIZE", "SCALARS", "SeatEncoder", "TERMINAL", "action_name", "encode",
    "excluded_from_hand", "information_state_string", "legal_mask", "observation_string", "random_playout",
    "refuse_action", "render",
]
