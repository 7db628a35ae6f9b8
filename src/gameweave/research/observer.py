"""The research observer: a seat's tensors and action mask for a :class:`~gameweave.research.deal.Deal`.

The rules live in the deal; the encoding lives here (the split of OpenSpiel's
``kuhn_poker.py``, whose ``KuhnPokerObserver`` fills a tensor from a state for a player).
Layout: docs/RESEARCH.md — :data:`CARD_PLANES`, then :data:`SCALARS`, then (information
state only) :data:`~gameweave.research.history.HISTORY_PLANES`.  numpy is imported when a
tensor is first made.

- :func:`encode_array` is the reference: it reads the seat's
  :class:`~gameweave.engine.SeatView` and the seat's own pending sub-step, nothing else.
- :class:`SeatEncoder` is the environments' fast path: the same array from the fields
  :func:`~gameweave.engine.seat_view` copies for the seat, without building the view (a
  test checks the two agree at every step).

**Hidden information** (R21): every encoding is made from what the seat may see.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine import DECISIONS, PH_OVER, PH_TAKE, PHASE_OF, SeatView, kind_of
from ..engine.actions import REFUSE_KIND
from .deal import Deal
from .history import HISTORY_PLANES
from .ids import MELDS, NUM_ACTIONS

if TYPE_CHECKING:
    import numpy as np

CARD_PLANES = (
    "hand", "own_table", "opponent_table", "dead", "centre", "forced", "pending",
)
"""The 40-card planes of the observation tensor, in order (docs/RESEARCH.md)."""
SCALARS = (
    "to_act_is_me", *(f"decision_{d or 'over'}" for d in DECISIONS[:PH_OVER + 1]), "building_table", "choosing_target",
    "centre_from_opponent", "centre_from_me", "centre_turned", "refused",
    "stock_count", "my_hand_count", "opponent_hand_count", "my_table_count",
    "opponent_table_count", "i_opened", "dealing", "rearranging", "force_back", "capped",
)
"""The scalar fields after the planes (counts divided by 20, 10, 11; flags 0/1); the six
``decision_*`` flags follow the engine's decisions (:data:`~gameweave.engine.DECISIONS`
up to ``PH_OVER``, ``None`` written ``over``; a research deal is never closed undecided)."""
OBS_SIZE = 40 * len(CARD_PLANES) + len(SCALARS)
INFO_SIZE = OBS_SIZE + 40 * len(HISTORY_PLANES)


def encode_array(deal: Deal, seat: int, info: bool) -> np.ndarray:
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
        sc[1 + PHASE_OF[view.decision]] = 1.0  # decision_* follow DECISIONS
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
    bases = deal.encoding_base
    if bases is None:  # per seat, the 0/1 scalars that stay the same for the whole deal
        rules = deal.rules
        bases = []
        for s in (0, 1):
            base = (deal.opener == s) << 18 | rules.rearranging << 20 | rules.force_back << 21
            base |= (rules.max_sequence is not None) << 22
            bases.append(base << _SC_AT)
        deal.encoding_base = bases
    # the decision flag of the phase: the flags follow DECISIONS, indexed by phase
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


_BYTE_BITS: list[np.ndarray] = []


def _byte_bits() -> np.ndarray:
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
        self._lmv = memoryview(self._lbuf)  # type: ignore[arg-type]

    def mask(self, deal: Deal) -> np.ndarray:
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

    def encode(self, deal: Deal) -> np.ndarray:
        """The seat's tensor for ``deal`` now (a new float32 array)."""
        import numpy as np

        big, counts = _bits(deal, self.seat, self.info)
        size = self._size
        raw = np.frombuffer(big.to_bytes((size + 7) >> 3, "little"), np.uint8)
        out = _byte_bits().take(raw, axis=0).reshape(-1)[:size]  # 8 floats per byte
        out[_COUNTS_FROM:_COUNTS_TO] = counts
        return out


def legal_mask(deal: Deal, seat: int) -> np.ndarray:
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


__all__ = [
    "CARD_PLANES", "HISTORY_PLANES", "INFO_SIZE", "OBS_SIZE", "SCALARS", "SeatEncoder", "encode",
    "encode_array", "legal_mask",
]
