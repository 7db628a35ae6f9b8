"""The Conquian rules engine (RULES.md: the gameweave, anglo-american and classic profiles).

Pure and deterministic: standard library only, no I/O, no clocks, no global randomness.
Deterministic from (profile, deck order, opener, actions).

Quick start::

    from gameweave.engine import GameState, seat_view
    st = GameState.new(seed=7)          # deal from a seed, seat index 0 opens
    st.legal_texts()                    # ['turn']
    st.play("turn")                     # checked apply from §VII text
    view = seat_view(st, 0)             # what seat 1 may see (R21)
    st = GameState.new(seed=7, rules="classic")   # a profile that rearranges (R18)
"""

from .actions import (
    FORCE, FORCE_ANY, MELD, REFUSE, TABLE, TABLE_SEPARATOR, TURN, Action, Decoded, decode, force_of,
    format_action, format_table, is_forcing, is_meld, kind_of, meld_action, meld_cards, parse_action,
    refuse_action, table_action, table_of, throw_action, thrown_card,
)
from .cards import (
    CARD_NAMES, FULL_MASK, RANK_MASKS, RANK_OTHERS, RANKS, SUIT_MASKS, SUITS, Card, Mask, Seat,
    card_name, cards_of, format_cards, lowest_bit, make_card, mask_names, mask_of, parse_card,
    parse_cards,
)
from .errors import (
    GameweaveError, IllegalActionError, OptionError, UnknownProfileError, UnparsableError,
)
from .flow import RearrangeFlow, SingleMeldFlow, flow_for
from .match import Match, match_options
from .melds import MeldTable, meld_table
from .record import GameRecord, MatchRecord, ReplayError, load_records, parse_json, read_record, snapshot
from .rules import (
    ANGLO_AMERICAN, CLASSIC, GAMEWEAVE, MATCH_FORMATS, PROFILE_NAMES, PROFILES, TABLAS_STAKES,
    Rules, find_profile,
)
from .state import (
    DECISIONS, PH_CLOSED, PH_FORCED, PH_OVER, PH_TAKE, PH_THROW, PH_TURN, PH_TURNED, PHASE_OF, PLAYING,
    TABLAS, WIN_COUNT, WON, GameState, shuffled_deck, validate_deck,
)
from .view import (
    PublicEvent, PublicView, SeatView, SpectatorView, apply_public, public_history, seat_view, spectator_view,
    state_from_view,
)

__all__ = [
    "ANGLO_AMERICAN", "CARD_NAMES", "CLASSIC", "DECISIONS", "FORCE", "FORCE_ANY", "FULL_MASK",
    "GAMEWEAVE", "MATCH_FORMATS", "MELD", "PHASE_OF", "PH_CLOSED", "PH_FORCED", "PH_OVER", "PH_TAKE",
    "PH_THROW", "PH_TURN", "PH_TURNED", "PLAYING", "PROFILES", "PROFILE_NAMES", "RANKS",
    "RANK_MASKS", "RANK_OTHERS", "REFUSE", "SUITS", "SUIT_MASKS", "TABLAS", "TABLAS_STAKES", "TABLE", "TABLE_SEPARATOR", "TURN",
    "WIN_COUNT", "WON", "Action", "Card", "Decoded", "GameRecord", "GameState", "GameweaveError",
    "IllegalActionError", "Mask", "Match", "MatchRecord", "MeldTable", "OptionError",
    "PublicEvent", "PublicView", "RearrangeFlow", "ReplayError", "Rules", "Seat", "SeatView", "SingleMeldFlow", "SpectatorView",
    "UnknownProfileError", "UnparsableError", "card_name", "cards_of", "decode", "find_profile",
    "flow_for", "force_of", "apply_public", "format_action", "format_cards", "format_table", "is_forcing", "is_meld", "kind_of", "lowest_bit",
    "load_records", "parse_json", "make_card", "mask_names", "mask_of", "match_options", "meld_action",
    "meld_cards", "meld_table", "parse_action", "parse_card", "parse_cards", "public_history",
    "read_record", "refuse_action", "seat_view", "shuffled_deck", "snapshot", "spectator_view",
    "state_from_view", "table_action",
    "table_of", "throw_action", "thrown_card", "validate_deck",
]
