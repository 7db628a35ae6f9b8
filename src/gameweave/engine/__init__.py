"""The Conquian rules engine (RULES.md, gameweave profile).

Pure and deterministic: standard library only, no I/O, no clocks, no global randomness.
Deterministic from (profile, deck order, opener, actions).

Quick start::

    from gameweave.engine import GameState, seat_view
    st = GameState.new(seed=7)          # deal from a seed, seat index 0 opens
    st.legal_texts()                    # ['turn']
    st.play("turn")                     # checked apply from §VII text
    view = seat_view(st, 0)             # what seat 1 may see (R21)
"""

from .actions import (
    REFUSE, THROW, TURN, Decoded, action_kind, decode, format_action, meld_action,
    parse_action, refuse_action, throw_action,
)
from .cards import (
    CARD_NAMES, FULL_MASK, RANK_MASKS, RANKS, SUIT_MASKS, SUITS, card_list, card_name,
    cards_of, format_cards, lowest_card, make_card, mask_names, mask_of, parse_card,
    parse_cards, rank_of, suit_of,
)
from .errors import GameweaveError, IllegalActionError, UnknownProfileError, UnparsableError
from .match import MATCH_FORMATS, Match
from .melds import MeldTable, meld_table
from .record import GameRecord, ReplayError, load_records, snapshot
from .rules import ANGLO_AMERICAN, CLASSIC, GAMEWEAVE, PROFILES, Rules, find_profile
from .state import (
    DECISIONS, PH_MELD, PH_OVER, PH_TAKE, PH_THROW, PH_TURN, PLAYING, TABLAS, WON,
    GameState, shuffled_deck, validate_deck,
)
from .view import PublicEvent, SeatView, public_history, seat_view

__all__ = [name for name in dir() if not name.startswith("_")]
