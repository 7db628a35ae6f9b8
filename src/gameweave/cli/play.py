"""``gameweave play``: one person against a bot, a whole match, in the terminal (Rich).

Everything shown to the person comes from their seat's view (R21): their hand in hand
order (R4), both tables with numbered melds (§VII) and "N of 11 melded" with a badge when a
seat is one card from eleven (R16), the card in the centre and who let it go, the dead
cards by suit, the stock count, the match tally and stakes balance (R20), what just
happened in plain words (``h`` shows the deal's whole public history), and every legal
action as a numbered choice (built by :mod:`gameweave.tables.choices`, as on the page).
A move that publicly hands the opponent the deal asks for a confirmation first.  The bot,
named as on the page ("Intermediate bot" by default), decides from its own view only.  At the end of a
deal the opponent's hand is shown; the finished deals are saved as a match record
(§VII).  Keyboard only: a number (or an action in §VII notation, e.g. ``throw Ks``),
``?`` or ``help`` for the rules (from ``tables/help.json``), ``q`` to leave; Ctrl-C or end
of input leave cleanly.

Every profile plays (``--rules``, §V): each meld choice says what it changes on the table,
as the page's meld buttons do (``"6♦ joins 4♦ 5♦"``, ``"Splits ... into ..."``; R12, R18:
:func:`~gameweave.tables.words.describe_change`), with the whole new table where melds are
rearranged and some kept as they were; a forced card waits for the
person's ``meld`` decision (R18e), and anglo-american offers forcing back (R19).  When
there are many tables to choose from (up to 128, R18b) the common ones (one new meld, one
meld added to) are listed and the person may type the hand cards to add instead, then
pick among the few tables that use exactly those.  The match follows the profile and the
options the page offers (R20: ``--format``, ``--target``, ``--stake``, ``--tablas-stake``),
and "what just happened" is told from the view's public events, never from text.

This module is the command and its options; the table lives in :mod:`.terminal` by
region (``screen``, ``asker``, ``deal``, ``match``, ``record``) and every choice and event
is told by the narrator, :mod:`gameweave.tables.words`.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from ..engine import Match, Rules, SeatView
from ..tables import TableError, check_name, check_new_match, choice_of
from ..tables.words import describe_choice, describe_event, typed_notation
from .app import RULES_HELP, app
from .common import error, language_or_exit, options_or_exit, profile_or_exit
from .terminal import screen
from .terminal.asker import Asker
from .terminal.match import Plan, Seating, play_match, show_intro
from .terminal.record import record_path, record_problem
from .terminal.screen import Terminal, bot_name, plain_cards, plain_look, prints_suits, rich_look

BOT_NAMES = "random, greedy, search, search-v1, noisy (greedy with random slips) or a level name"
LANG = ["en"]
"""The language of this run (``--lang``, else the locale): every word printed comes from
the catalog in it (``terminal.*``, ``words.*``, ``term.*``, ``help.*``)."""
SYMBOLS = [True]
"""Whether this run writes suits as the page does (``A♦``, in every language) or, on a
console that cannot print them, as the §VII letters (``Ad``); typed input takes both."""


@app.command()
def play(
    bot: str | None = typer.Option(None, "--bot", help="Opponent: " + BOT_NAMES + " (default: the intermediate level, as on the page)."),
    rules: str = typer.Option("gameweave", "--rules", help=RULES_HELP),
    fmt: str | None = typer.Option(None, "--format", help="Match format: first_to, tally or stakes (stakes in "
                                                          "classic only). Default: the profile's."),
    target: int | None = typer.Option(None, "--target", min=1, max=99, help="N of a first-to-N match."),
    stake: int | None = typer.Option(None, "--stake", min=1, help="Base stake of a stakes match."),
    tablas_stake: str | None = typer.Option(None, "--tablas-stake",
                                            help="In a stakes match, what tablas does to the next stake: "
                                                 "double or carry."),
    deals: int | None = typer.Option(None, "--deals", min=1, help="Play this many deals. Default 3 (or the whole first-to match)."),
    to: int | None = typer.Option(None, "--to", min=1, help="Play until one seat has won this many deals (--format first_to --target N)."),
    seed: int | None = typer.Option(None, "--seed", help="Seed for the deals and the bot (default: random)."),
    seat: int = typer.Option(1, "--seat", min=1, max=2, help="Your seat, 1 or 2."),
    option: list[str] | None = typer.Option(None, "--option", help="Match option key=value (R20), e.g. tablas_stake=carry."),
    record: Path | None = typer.Option(None, "--record", dir_okay=False,
                                       help="Save the finished deals as a match record here (default: a new "
                                            "file in the data directory's records folder, named at the end)."),
    no_record: bool = typer.Option(False, "--no-record", help="Save no record."),
    test_decks: Path | None = typer.Option(
        None, "--test-decks", exists=True, dir_okay=False,
        help="Deal the deck orders of this file first (one 40-card deck a line, as for serve --test-decks), "
             "to replay a position; then shuffled deals.",
    ),
    lang: str | None = typer.Option(None, "--lang", help="Language: es or en (default: from the locale, "
                                                        "LANGUAGE / LC_ALL / LC_MESSAGES / LANG)."),
    name: str | None = typer.Option(None, "--name", help="Your name at the table (1-24 characters)."),
    level: str | None = typer.Option(None, "--level", help="Opponent by level instead of --bot: "
                                                          "random, beginner, casual, intermediate or master "
                                                          "(the page's levels)."),
) -> None:
    """Play a match against a bot in the terminal: type a choice's number each turn.

    Type ? or help at any choice for the rules of the profile in play, a glossary and
    tips; h for the deal's public history; hint for each choice's win chance; q to leave."""
    from ..bots import make_bot

    con = Console(highlight=False)
    SYMBOLS[0] = prints_suits(con)
    LANG[0] = language_or_exit(lang)
    tty = Terminal(con, LANG[0], SYMBOLS[0])
    try:
        you = check_name(name)
    except TableError:
        error("--name must be 1 to 24 characters with no control characters", 2)
    if deals is not None and to is not None:
        error("give --deals or --to, not both", 2)
    bot = _opponent(bot, level)
    profile = profile_or_exit(rules)
    assert profile is not None
    opts = _match_options(profile, fmt, target, stake, tablas_stake, to, option)
    fixed = _fixed_decks(test_decks)
    save_to = None if no_record else record_path(record)
    if save_to is not None and (problem := record_problem(save_to)):
        error(f"--record: {problem}", 2)  # said now, not after the match
    try:
        opponent = make_bot(bot, seed=seed)
    except ValueError as exc:
        error(str(exc), 2)
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 30)
    rng = random.Random(seed)
    first = rng.randrange(2) if profile.first_opener == "random" else 0
    match = Match(rules=profile, format=opts["match"], target=opts["target"], stake=opts["stake"],
                  tablas_stake=opts["tablas_stake"], first_opener=first)
    if deals is None and match.format != "first_to":
        deals = 3
    who = Seating(me=seat - 1, you=you or "", bot=opponent, label=bot_name(bot.strip().lower(), tty.lang))
    plan = Plan(deals=deals, seed=seed, rng=rng, fixed=fixed)
    show_intro(tty, profile, match, who, plan)
    code = play_match(tty, match, who, plan, save_to)
    if code:
        raise typer.Exit(code)


def _opponent(bot: str | None, level: str | None) -> str:
    """The bot to play: ``--bot`` or ``--level`` (not both; default the ``intermediate``
    level, the page's default opponent, named as there).  A level that
    is none of the levels is one error line and exit status 2."""
    if level is not None and bot is not None:
        error("give --bot or --level, not both", 2)
    if level is None:
        return bot or "intermediate"
    from ..bots import level_names

    levels = ["random", *level_names()]  # the page's levels: Random is the random bot
    if level.strip().lower() not in levels:
        error(f"--level must be one of {', '.join(levels)}, not {level!r}", 2)
    return level.strip().lower()


def _match_options(profile: Rules, fmt: str | None, target: int | None, stake: int | None,
                   tablas_stake: str | None, to: int | None, option: list[str] | None) -> dict[str, Any]:
    """The match's options (R20) from ``--format``, ``--target`` (or ``--to N``),
    ``--stake``, ``--tablas-stake`` and ``--option``; one the profile does not offer is
    one error line and exit status 2."""
    from ..engine import OptionError

    if to is not None:
        if fmt not in (None, "first_to") or target is not None:
            error("--to N is --format first_to --target N: give one of them", 2)
        fmt, target = "first_to", to
    try:
        opts = check_new_match(profile, fmt, target, stake, tablas_stake)
    except OptionError as exc:
        error(str(exc), 2)
    if option:
        opts = options_or_exit(profile, [f"{k}={v}" for k, v in opts.items()] + list(option))
    return opts


def _fixed_decks(test_decks: Path | None) -> list[tuple[int, ...]]:
    """The deck orders of ``--test-decks`` (none without it); a bad file is one error line."""
    from ..tables import TestDeckError, read_test_decks

    if test_decks is None:
        return []
    try:
        return read_test_decks(test_decks)
    except TestDeckError as exc:
        error(exc.message, 2)
    raise AssertionError  # pragma: no cover


# ---------------------------------------------------------------------------- the names tests use
def choice_text(view: SeatView, action: int, opp_name: str | None = None) -> str:
    """The terminal's words (Rich markup) for one of the viewer's legal actions, in this
    run's language, as the choices list says them: :func:`~gameweave.tables.words.describe_choice`
    of its :class:`~gameweave.tables.Choice`, a meld by what it changes (``changes=True``)."""
    return describe_choice(choice_of(view, action), view, LANG[0], opp=opp_name, look=rich_look(SYMBOLS[0]),
                           changes=True)


def event_text(before: SeatView, action: int, after: SeatView, me: int, opp_name: str | None = None) -> str:
    """The words for the action just applied (the last event of ``after``), from seat
    ``me``'s point of view, in this run's language (``before`` and ``action`` are not
    needed: the event says it all)."""
    return describe_event(after.history[-1], me, LANG[0], opp=opp_name, ends=after.status,
                          look=plain_look(SYMBOLS[0]))


def _plain(mask: int) -> str:
    """A mask's cards as this run writes them, no markup."""
    return plain_cards(mask, SYMBOLS[0])


def dead_grid(dead: int) -> str:
    """The dead cards by suit, as this run writes them (:func:`.terminal.screen.dead_grid`)."""
    return screen.dead_grid(dead, SYMBOLS[0])


def _notation(text: str) -> str:
    """Typed words in §VII notation, in this run's language (:func:`~gameweave.tables.words.typed_notation`)."""
    return typed_notation(text, LANG[0])


_prints_suits = prints_suits

__all__ = ["Asker", "LANG", "SYMBOLS", "choice_text", "dead_grid", "event_text", "play"]
