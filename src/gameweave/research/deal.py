"""The research state machine: one deal with explicit chance and dense action ids.

:class:`Deal` keeps the rules — legal ids, transitions, chance, returns, resampling — on
top of the engine's :class:`~gameweave.engine.GameState`; the encodings are the
observer's (:mod:`gameweave.research.observer`, as OpenSpiel's ``kuhn_poker.py`` keeps
the rules in the state and the encoding in an observer class), the ids and their names
:mod:`gameweave.research.ids`'.  Pure Python.

**Chance** (docs/RESEARCH.md): the deal is 20 chance events, each a card drawn uniformly
from the undealt cards (R8: alternately, the first to the opener); after it, each card
turned from the stock is a chance event, drawn uniformly from the unturned stock, applied
with :meth:`GameState.set_next_stock_card` and the engine's ``turn``.  The engine's deck
order beyond the stock position is a placeholder that no seat sees and chance overwrites.

**Sub-steps**: an R18 table is written as ``meld M`` steps then ``done``
(:attr:`Deal.pending_table`); a force with several possible targets as the force then
``onto M`` (:attr:`Deal.pending_force`).  Both are the acting seat's own, public to it.

**Hidden information** (R21): :meth:`Deal.resample` and :meth:`Deal.from_view` draw the
opponent's hand from what the seat's :class:`~gameweave.engine.SeatView` allows, with the
bots' inference (:func:`~gameweave.bots.determinize.impossible_cards`, R12).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..bots.determinize import impossible_cards
from ..engine import (
    FORCE, GAMEWEAVE, MELD, PH_OVER, REFUSE, TABLE, TURN, GameState, PublicEvent, SeatView, apply_public,
    find_profile, force_of, kind_of, meld_action, seat_view, state_from_view, table_action, table_of, thrown_card,
)
from ..engine.actions import FORCE_KIND, REFUSE_KIND, THROW_KIND, TURN_KIND
from .history import note
from .ids import (
    A_DONE, A_FORCE_BACK, A_MELD, A_ONTO, A_REFUSE, A_REFUSE_FORCE, A_THROW, A_THROW_FORCE, A_TURN,
    CHANCE, MELD_ID, MELDS, NUM_ACTIONS, PLAIN_THROWS, TERMINAL, action_name, first_ids, table_ids,
)

_MELD_KINDS = (MELD, TABLE)


def _unseen_of_deal(dealt: list[int]) -> list[int]:
    got = 0
    for c in dealt:
        got |= 1 << c
    return [c for c in range(40) if not got >> c & 1]


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
        events: the public events of the engine actions applied (R21), in order.
        public, hist: the same events as history masks (:func:`~gameweave.research.history.note`).
        encoding_base: per seat, the observer's scalar bits that stay the same for the whole
            deal (profile and opener), made by the observer when first asked; None before.
        stock_shuffled: True while the unturned stock is in a uniformly random order that
            no seat has seen (dealt by :meth:`play_chance`, or :meth:`from_view`), so a
            ``turn`` may turn its top card as the chance draw; False in a clone, so that
            clones played on with their own generators draw their own cards.
    """

    __slots__ = ("rules", "opener", "stake", "dealt", "state", "turning", "pending_table",
                 "pending_force", "history", "events", "public", "hist", "_legal_cache", "_view_cache", "_tables",
                 "_engine_legal", "encoding_base", "stock_shuffled")

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
        self.encoding_base: list[int] | None = None
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
        d.encoding_base = self.encoding_base
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
            self._tables = [table_ids(a) for a in self.engine_legal() if kind_of(a) in _MELD_KINDS]
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
            out = first_ids(self.engine_legal())
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
        note(self.public, self.hist, ev)
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
            self._engine(PLAIN_THROWS[aid - A_THROW])
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
            return [A_MELD + m for m in table_ids(action)] + [A_DONE]
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
        :func:`~gameweave.bots.determinize.impossible_cards`), built by the engine (:func:`~gameweave.engine.state_from_view`).
        The stock order is left to chance.  The new deal's :attr:`history` is its own:
        its first 20 outcomes are its :attr:`dealt` cards (the sampled opponent hand, never
        the true one), then this deal's later ids (public: actions and turned cards).
        Raises :class:`RuntimeError` if no consistent world is found in ``tries`` draws."""
        if self.state is None:
            d = self.clone()
            mine = set(self.dealt_to(seat))
            pool = [c for c in range(40) if c not in mine]
            rng.shuffle(pool)
            it = iter(pool)
            first = 0 if seat == self.opener else 1
            d.dealt = [c if (i & 1) == first else next(it) for i, c in enumerate(self.dealt)]
            d.history = d.dealt[:]  # while dealing, the history is the deal (issue 21: never the true cards)
            d._changed()
            return d
        view = self.view(seat)
        assert view is not None
        d = Deal.from_view(view, rng, self.stake, tries)
        # The sampled world's own deal, then the public rest (issue 21: the true opponent
        # hand must not stay in the first 20 chance outcomes; the turned cards are public).
        d.history = d.dealt + self.history[20:]
        d.turning = self.turning
        d.pending_table = self.pending_table
        # a force's targets are the opponent's melds (public); the engine actions are the same
        d.pending_force = self.pending_force
        return d

    @classmethod
    def from_view(cls, view: SeatView, rng: random.Random, stake: int = 1, tries: int = 200) -> Deal:
        """A deal consistent with ``view`` (R21): the opponent's hand drawn uniformly from
        the unseen cards the public history allows
        (:func:`~gameweave.bots.determinize.impossible_cards`, R12), the
        stock in random order, built by :func:`~gameweave.engine.state_from_view`.  Raises
        :class:`RuntimeError` if no consistent world is found in ``tries`` draws."""
        seat = view.seat
        opp = 1 - seat
        unseen = view.unseen()
        banned = impossible_cards(view)
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
                note(d.public, d.hist, ev)
            return d
        raise RuntimeError("no world consistent with the seat's view was found")



def _safe_name(aid: int) -> str:
    try:
        return action_name(aid)
    except ValueError:
        return "no such id"


RolloutPolicy = Callable[[Deal, random.Random], int]
"""A rollout policy: the next id (or chance outcome) of a deal, drawn with a generator."""


def random_playout(deal: Deal, rng: random.Random) -> Deal:
    """Play ``deal`` to its end with uniform chance and uniform legal ids; returns it."""
    while not deal.is_terminal():
        if deal.is_chance():
            deal.apply(rng.choice(deal.chance_outcomes())[0])
        else:
            deal.apply(rng.choice(deal.legal_actions()))
    return deal


__all__ = ["Deal", "RolloutPolicy", "random_playout"]
