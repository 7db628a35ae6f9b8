"""The narrator: a seat's choices and the deal's public events in plain words, in the
reader's language (issue 18: one narrator per language, in Python).

Every sentence is a catalog message (``words.*`` in ``gameweave/i18n/locale``), filled
from structured data only: a :class:`~gameweave.tables.choices.Choice` (kind, card,
force, melds, uses, gives_eleven) and the seat's :class:`~gameweave.engine.SeatView`
for a choice; a :class:`~gameweave.engine.PublicEvent` for a step of the history.
Nothing here re-decodes action text, and nothing reads more than the seat's view (R21).
The terminal (``gameweave play``), ``gameweave replay`` and ``gameweave analyze`` all
speak through it; the page keeps a JavaScript narrator of its own (``web/words.js``).

* :func:`describe_choice` -- one legal action of the viewer, e.g. ``"meld 6♦, with 6♣
  from your hand -> your table [3♥ 4♥ 5♥] [6♣ 6♦ 6♥]"`` (R12, R18, R15, R18e, R19).
* :func:`describe_event` -- one public event, from a seat's point of view (``"Player 2
  forced 7♠ onto your meld 4♠ 5♠ 6♠"``) or, with ``me=None``, as the record's
  third-person log (``"seat 2: meld 2c 3c 4c (melds 4c; 2c 3c from hand)"``).
* :func:`history_lines` -- a whole public history, the last event told with how the
  deal ended (R16, R17).
* :func:`typed_notation` -- a line a person typed with a verb of the game in their
  language (``descartar K♠``) put into the §VII verbs the engine's codec reads.
* :func:`describe_change` -- what a meld changes on a table (``"6♦ joins 4♦ 5♦"``), as
  the page's meld buttons say it.
* :func:`is_set`, :func:`seat_name`, :func:`decision_words`, :func:`say`.

How cards and emphasis are written is the surface's business: a :class:`Look` says it
(suit symbols for people, :data:`SYMBOLS`; the §VII letters, :data:`LETTERS`; the
terminal adds colours).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..engine import RANK_MASKS, RANKS, TABLE, TABLE_SEPARATOR, PublicEvent, SeatView, format_cards, kind_of
from ..engine.actions import KIND_NAMES
from ..engine.cards import SUIT_SYMBOLS, cards_of, lowest_bit, rank_of, suit_of
from ..engine.state import WIN_COUNT
from ..i18n import DEFAULT_LANGUAGE, translate
from .choices import Choice

CardText = Callable[[int], str]
"""How a surface writes a mask of cards (in hand order, R4), e.g. ``"A♦ 2♦"``."""


def _as_is(text: str) -> str:
    return text


def symbol_cards(mask: int) -> str:
    """A mask's cards in hand order (R4) as people read them: the rank letter (R3) and
    the suit symbol, space-separated, e.g. ``"A♣ A♦ A♠"`` (the page writes them so)."""
    return " ".join(RANKS[rank_of(c)] + SUIT_SYMBOLS[suit_of(c)] for c in cards_of(mask))


@dataclass(frozen=True)
class Look:
    """How a surface writes what the narrator says.

    Attributes:
        cards: a mask of cards -> text (:func:`symbol_cards`, or §VII
            :func:`~gameweave.engine.format_cards`; the terminal adds colour markup).
        good: the mark of a note that helps the viewer (``"(eleven: you win, R16)"``).
        bad: the mark of a warning (``"(gives Player 2 eleven: they win, R16)"``).
    """

    cards: CardText = symbol_cards
    good: Callable[[str], str] = _as_is
    bad: Callable[[str], str] = _as_is

    def card(self, card: int) -> str:
        """One card (0..39) as :attr:`cards` writes it."""
        return self.cards(1 << card)

    def table(self, melds: Sequence[int]) -> str:
        """A table as text, melds apart by the §VII table separator (``"3♥ 4♥ 5♥ / 6♣ 6♦ 6♥"``)."""
        return TABLE_SEPARATOR.join(self.cards(m) for m in melds)


SYMBOLS = Look()
"""Cards with suit symbols, no emphasis: what a person reads."""
LETTERS = Look(cards=format_cards)
"""Cards in §VII letters (``"Ac Ad"``): the record's log (``gameweave replay``)."""


def say(key: str, lang: str = DEFAULT_LANGUAGE, **params: object) -> str:
    """The narrator's message ``words.<key>`` in ``lang`` with ``{name}`` parameters filled.
    Raises :class:`~gameweave.i18n.UnknownLanguage` for a language the table does not speak."""
    return translate(f"words.{key}", lang, **params)


def seat_name(seat: int, lang: str = DEFAULT_LANGUAGE) -> str:
    """The default name of seat index ``seat`` (0/1): ``"Player 2"`` / ``"Jugador 2"``."""
    return say("player_n", lang, n=seat + 1)


def decision_words(decision: str | None, lang: str = DEFAULT_LANGUAGE) -> str:
    """A decision's name (``engine.DECISIONS``) in words: ``take_or_turn`` -> ``"take or
    turn"`` / ``"tomar o voltear"``; ``""`` for None (the deal is over)."""
    return say(f"decision.{decision}", lang) if decision else ""


def is_set(meld: int) -> bool:
    """True if the meld (a card mask) is a set, cards of one rank (R5); False for a
    sequence (R6).  The one place in Python that tells them apart."""
    return meld & ~RANK_MASKS[rank_of(lowest_bit(meld).bit_length() - 1)] == 0


# ---------------------------------------------------------------------------- choices
def describe_choice(choice: Choice, view: SeatView, lang: str = DEFAULT_LANGUAGE, *, opp: str | None = None,
                    look: Look = SYMBOLS, notes: bool = True, changes: bool = False) -> str:
    """Plain words for one of the viewer's legal actions, from its :class:`Choice` and
    the viewer's view only (R21).  A ``meld`` shows the resulting meld (R12), a ``table``
    the whole new table and the hand cards it uses (R18); a force names the target meld
    (R15) or says the opponent must meld the card into their table (R18e); ``force``
    forces a refused turned card back (R19).  With ``changes`` a meld or table is said
    as the page's meld buttons say it, by what it changes (:func:`describe_change`,
    ``"6♦ joins 4♦ 5♦"``), followed where melds are rearranged (R18) and some are kept
    by the whole new table (``"6♦ joins 4♦ 5♦ -> your table [A♣ A♥ A♠] [4♦ 5♦ 6♦]"``).  A move that publicly gives
    the opponent eleven ends with a warning (R16), one that melds the viewer's eleventh
    card with a note that it wins (``notes=False`` leaves both out).  ``opp`` names the
    opponent (default :func:`seat_name`).  Raises :class:`KeyError` for a kind the
    narrator does not know."""
    name = opp or seat_name(view.opponent, lang)
    if changes and choice.is_meld:
        text = _change_choice(choice, view, lang, look)
    else:
        text = _CHOICE_WORDS[choice.kind](choice, view, name, lang, look)
    if not notes:
        return text
    if choice.is_meld and sum(m.bit_count() for m in choice.melds) >= WIN_COUNT:
        text += " " + look.good(say("choice.win_you", lang))
    if choice.gives_eleven:
        text += " " + look.bad(say("choice.gives_eleven", lang, opp=name))
    return text


def _brackets(melds: Sequence[int], lang: str, look: Look) -> str:
    """A table as bracketed melds, ``[3♥ 4♥ 5♥] [6♣ 6♦ 6♥]``."""
    return " ".join(f"[{look.cards(m)}]" for m in melds) if melds else say("no_melds", lang)


def _table_choice(c: Choice, view: SeatView, opp: str, lang: str, look: Look) -> str:
    extra = say("choice.with_from_hand", lang, cards=look.cards(c.uses)) if c.uses else ""
    return say("choice.table", lang, card=look.card(c.card), extra=extra, table=_brackets(c.melds, lang, look))


def _meld_choice(c: Choice, view: SeatView, opp: str, lang: str, look: Look) -> str:
    bit = 1 << c.card
    result = next((m for m in c.melds if m & bit), bit)
    rest = result & ~bit
    mine = view.melds[view.seat]
    if not c.uses and rest in mine:
        return say("choice.onto", lang, card=look.card(c.card), n=mine.index(rest) + 1, cards=look.cards(result))
    kind = translate("term.set" if is_set(result) else "term.sequence", lang)
    return say("choice.new", lang, card=look.card(c.card), rest=look.cards(rest), kind=kind,
               cards=look.cards(result))


def _change_choice(c: Choice, view: SeatView, lang: str, look: Look) -> str:
    """A meld or table choice by what it changes on the viewer's table (R12, R18); where
    melds are rearranged and some are kept as they were (the words do not name them),
    the whole new table follows."""
    before = view.melds[view.seat]
    change = describe_change(before, c.melds, lang, look=look)
    if (c.kind == "table" or view.rearranging) and any(m in before for m in c.melds):
        return say("choice.change_table", lang, change=change, table=_brackets(c.melds, lang, look))
    return change


def _turn_choice(c: Choice, view: SeatView, opp: str, lang: str, look: Look) -> str:
    if view.centre >= 0 and view.live_from == view.opponent:
        return say("choice.turn_let_die", lang, card=look.card(view.centre))
    return say("choice.turn_top", lang)


def _force_back_choice(c: Choice, view: SeatView, opp: str, lang: str, look: Look) -> str:
    return say("choice.force_back", lang, card=look.card(c.card), opp=opp)


def _let_go_choice(c: Choice, view: SeatView, opp: str, lang: str, look: Look) -> str:
    """``refuse`` and ``throw``: the card goes live (R13, R14), or is forced (R15, R18e)."""
    verb = translate(f"term.{c.kind}", lang)
    card = look.card(c.card)
    if c.force:
        theirs = view.melds[view.opponent]
        if view.rearranging or c.force not in theirs:
            return say("choice.force_any", lang, verb=verb, card=card, opp=opp, table=_brackets(theirs, lang, look))
        return say("choice.force_onto", lang, verb=verb, card=card, opp=opp, n=theirs.index(c.force) + 1,
                   target=look.cards(c.force), result=look.cards(c.force | 1 << c.card))
    if c.kind == "refuse":
        return say("choice.refuse_live", lang, card=card, opp=opp)
    return say("choice.throw", lang, card=card)


def _melds_words(melds: Sequence[int], lang: str, look: Look) -> str:
    """Melds one after another: ``"3♠ 4♠ 5♠ and 6♠ 7♠ J♠"``."""
    out = look.cards(melds[0])
    for m in melds[1:]:
        out = say("change.and", lang, a=out, b=look.cards(m))
    return out


def describe_change(before: Sequence[int], after: Sequence[int], lang: str = DEFAULT_LANGUAGE, *,
                    look: Look = SYMBOLS) -> str:
    """What a meld changes on a seat's table, from its melds ``before`` to its melds
    ``after`` (card masks; R12, R18): one part per changed meld, ``"6♦ joins 4♦ 5♦"`` (a
    meld grown), ``"splits 3♠ 4♠ 5♠ 6♠ into 3♠ 4♠ 5♠ and 6♠ 7♠ J♠"``, ``"new set 7♣ 7♦
    7♥"``; melds kept as they were are not named.  Parts are joined by ``" · "``, the
    first letter capitalised; ``""`` when nothing changes.  The page's ``changeWords``
    (web/words.js) says the same from the same catalog keys (``words.change.*``)."""
    old = [m for m in before if m not in after]
    fresh = [m for m in after if m not in before]
    told: set[int] = set()
    parts = []
    for m in old:
        into = [n for n in fresh if n & m]
        if len(into) < 2:
            continue
        parts.append(say("change.splits", lang, meld=look.cards(m), parts=_melds_words(into, lang, look)))
        told.update(into)
    for n in fresh:
        if n in told:
            continue
        whole = [m for m in old if m & ~n == 0]
        added = n
        for m in whole:
            added &= ~m
        if not whole:
            kind = "change.new_set" if is_set(n) else "change.new_sequence"
            parts.append(say(kind, lang, cards=look.cards(n)))
        elif not added:
            parts.append(say("change.merges", lang, melds=_melds_words(whole, lang, look)))
        else:
            form = "one" if added.bit_count() == 1 else "other"
            parts.append(say(f"change.joins.{form}", lang, cards=look.cards(added), meld=_melds_words(whole, lang, look)))
    return _cap(" · ".join(parts))


_CHOICE_WORDS: dict[str, Callable[[Choice, SeatView, str, str, Look], str]] = {
    "table": _table_choice, "meld": _meld_choice, "turn": _turn_choice, "force": _force_back_choice,
    "refuse": _let_go_choice, "throw": _let_go_choice,
}


# ---------------------------------------------------------------------------- events
def describe_event(event: PublicEvent, me: int | None, lang: str = DEFAULT_LANGUAGE, *, opp: str | None = None,
                   ends: str = "", look: Look = SYMBOLS) -> str:
    """Plain words for one public event (R21), from its fields only.

    ``me`` is the seat index (0/1) it is told to: ``"You refused 4♠"`` when ``me``
    acted, ``"Greedy bot refused 4♠"`` when the other seat did (``opp`` names it,
    default :func:`seat_name`).  ``me=None`` tells it as the record's third-person log,
    the §VII action with notes (``"seat 2: meld 2c 3c 4c (melds 4c; 2c 3c from hand)"``).
    ``ends`` is ``"won"`` or ``"tablas"`` when this event ended the deal so (R16, R17);
    the deal's status after it may be passed as is for the last event."""
    if me is None:
        return _log_line(event, lang, ends, look)
    side = "me" if event.seat == me else "other"
    name = opp or seat_name(1 - me, lang)
    return _TOLD[event.kind](_Telling(event, side, name, lang, ends, look))


def history_lines(events: Sequence[PublicEvent], status: str, me: int | None, lang: str = DEFAULT_LANGUAGE, *,
                  opp: str | None = None, look: Look = SYMBOLS) -> list[str]:
    """:func:`describe_event` for each event of a public history in order; the last is
    told with how the deal ended, ``status`` being the deal's status after it."""
    last = len(events) - 1
    return [describe_event(ev, me, lang, opp=opp, ends=status if i == last else "", look=look)
            for i, ev in enumerate(events)]


@dataclass(frozen=True)
class _Telling:
    """One event told to a seat: ``side`` is ``me`` (the seat acted) or ``other``."""

    ev: PublicEvent
    side: str
    who: str
    lang: str
    ends: str
    look: Look

    def say(self, key: str, **params: object) -> str:
        """``words.event.<key>.<side>``, with ``who`` (the other seat's name) filled."""
        return say(f"event.{key}.{self.side}", self.lang, who=self.who, **params)

    @property
    def card(self) -> str:
        return self.look.card(self.ev.card) if self.ev.card >= 0 else ""


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _told_meld(t: _Telling) -> str:
    ev, look = t.ev, t.look
    if kind_of(ev.action) == TABLE:
        what = f"{t.say('forced_card')} ({t.card})" if ev.forced else t.card
        s = t.say("meld_table", what=what)
        if ev.from_hand:
            s += t.say("from_hand", cards=look.cards(ev.from_hand))
        s += t.say("table_now", table=look.table(ev.table))
    elif ev.from_hand:
        s = t.say("meld_new", card=t.card, meld=look.cards(ev.meld))
    else:
        s = t.say("meld_onto", card=t.card, meld=look.cards(ev.meld & ~(1 << ev.card)))
    return s + (t.say("reached_eleven") if t.ends == "won" else "")


def _told_turn(t: _Telling) -> str:
    pre = t.say("let_die", card=t.look.card(t.ev.died)) if t.ev.died >= 0 else ""
    if t.ev.card < 0:
        return _cap(t.say("turn_empty", pre=pre))
    return _cap(t.say("turned", pre=pre, card=t.card))


def _told_force_back(t: _Telling) -> str:
    return t.say("force_back", card=t.card, opp=t.who)


def _told_let_go(t: _Telling) -> str:
    """``refuse`` and ``throw``: gone live, forced onto a meld (R15) or on the seat (R18e)."""
    ev, verb = t.ev, ("refused" if t.ev.kind == "refuse" else "threw")
    if not ev.forced:
        s = t.say(verb, card=t.card)
        return s + (say("event.tablas", t.lang) if t.ends == "tablas" else "")
    if not ev.meld:
        return t.say(f"{verb}_forced_on", card=t.card, opp=t.who)
    target = t.look.cards(ev.meld & ~(1 << ev.card))
    if t.side == "me":
        s = t.say(f"{verb}_forced", card=t.card, opp=t.who, meld=target)
    else:
        s = t.say("forced_onto", card=t.card, meld=target)
        if ev.kind == "refuse":
            s += say("event.refused_turned", t.lang)
    return s + (t.say("eleven_for", opp=t.who) if t.ends == "won" else "")


_TOLD: dict[str, Callable[[_Telling], str]] = {
    "meld": _told_meld, "turn": _told_turn, "force": _told_force_back, "refuse": _told_let_go,
    "throw": _told_let_go,
}


def _log_line(ev: PublicEvent, lang: str, ends: str, look: Look) -> str:
    """The record's third-person log line of one event (``gameweave replay``)."""
    seat = say("log.seat", lang, n=ev.seat + 1)
    other = say("log.seat", lang, n=2 - ev.seat)
    card = look.card(ev.card) if ev.card >= 0 else ""
    if ev.kind == "turn":
        dies = say("log.dies", lang, card=look.card(ev.died)) if ev.died >= 0 else ""
        if ev.card < 0 or ends == "tablas":
            return say("log.turn_empty", lang, seat=seat, dies=dies)
        return say("log.turn", lang, seat=seat, card=card, dies=dies)
    notes = []
    if ev.kind == "meld":
        notes.append(say("log.melds_forced" if ev.forced else "log.melds", lang, card=card))
        if ev.from_hand:
            notes.append(say("log.from_hand", lang, cards=look.cards(ev.from_hand)))
        if len(ev.table) > 1:
            notes.append(say("log.table", lang, table=look.table(ev.table)))
    elif ev.kind == "force":
        notes.append(say("log.force_back", lang, card=card, other=other))
    elif ev.forced:
        key = "log.forced_onto" if ev.meld else "log.forced_on"
        notes.append(say(key, lang, card=card, other=other, meld=look.cards(ev.meld)))
    elif ev.kind == "refuse":
        notes.append(say("log.live", lang, card=card, other=other))
    if ends in ("won", "tablas"):
        notes.append(say(f"log.{ends}", lang))
    step = say("log.step", lang, seat=seat, action=ev.text)
    return step + (say("log.notes", lang, notes=say("log.note_separator", lang).join(notes)) if notes else "")


# ---------------------------------------------------------------------------- typed words
def typed_notation(text: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """A typed line with its leading verb of the game in ``lang`` (``descartar K♠``,
    ``bajar 6♦``, ``voltear del monte``; ``words.typed.<verb>``, ``|`` between the
    forms) written with the §VII verb instead (``throw K♠``), for the engine's codec to
    read; anything else comes back as typed (the §VII verbs work in every language)."""
    forms = [(form.strip().lower(), verb) for verb in dict.fromkeys(KIND_NAMES)
             for form in say(f"typed.{verb}", lang).split("|") if form.strip()]
    low = text.strip().lower()
    for form, verb in sorted(forms, key=lambda fv: -len(fv[0])):
        if low == form or low.startswith(form + " "):
            return verb + text.strip()[len(form):]
    return text


__all__ = [
    "LETTERS", "SYMBOLS", "CardText", "Look", "decision_words", "describe_choice", "describe_event", "history_lines",
    "describe_change", "is_set", "say", "seat_name", "symbol_cards", "typed_notation",
]
