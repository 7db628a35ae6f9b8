"""Game records (RULES §VII): load, save, replay, and the full-information snapshot.

A record is ``{"rules": "gameweave", "deck": "<40 cards, R8 order>", "opener": 1,
"actions": ["turn", ...]}``.  Replaying it is deterministic: same record, same state.
A record holds the whole deck, so it is for finished deals, referees and tests; a seat
sees a deal in progress only through :func:`~gameweave.engine.view.seat_view` (R21).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Iterator

from .actions import format_action
from .cards import CARD_NAMES, mask_names
from .errors import GameweaveError, OptionError, UnparsableError
from .match import Match, match_options
from .rules import find_profile
from .state import DECISIONS, GameState, validate_deck


class ReplayError(GameweaveError):
    """An action of a record that cannot be applied.

    Attributes: ``step`` (1-based index of the action), ``action`` (its text) and
    ``cause`` (the :class:`UnparsableError` or :class:`IllegalActionError`).
    """

    def __init__(self, step: int, action: str, cause: GameweaveError):
        super().__init__(f"step {step}: {action!r}: {cause}", reason=cause.reason)
        self.step = step
        self.deal: int | None = None
        self.action = action
        self.cause = cause


@dataclass
class GameRecord:
    """One deal as data (§VII).

    Attributes:
        rules: profile name.
        deck: 40 card ints in R8 order.
        opener: seat index 0/1 that opened (written as 1/2 in JSON).
        actions: action texts in canonical §VII form.
    """

    rules: str
    deck: tuple[int, ...]
    opener: int = 0
    actions: list[str] = field(default_factory=list)

    # -------------------------------------------------------------- conversion
    @classmethod
    def from_state(cls, state: GameState) -> GameRecord:
        """The record of a state's deal so far."""
        return cls(
            rules=state.rules.name,
            deck=state.deck,
            opener=state.opener,
            actions=[format_action(a) for a in state.history],
        )

    def to_dict(self) -> dict[str, Any]:
        """The §VII JSON object."""
        return {
            "rules": self.rules,
            "deck": " ".join(CARD_NAMES[c] for c in self.deck),
            "opener": self.opener + 1,
            "actions": list(self.actions),
        }

    def to_json(self) -> str:
        """The record as one line of JSON."""
        return json.dumps(self.to_dict(), ensure_ascii=False)

    @classmethod
    def from_dict(cls, obj: Any) -> GameRecord:
        """Read a §VII JSON object.  Raises :class:`UnparsableError` if malformed
        (missing keys, a bad deck, an opener other than 1 or 2, non-text actions,
        an unknown profile)."""
        if not isinstance(obj, dict):
            raise UnparsableError("a game record is a JSON object")
        if "record" in obj and isinstance(obj["record"], dict) and "deck" not in obj:
            obj = obj["record"]  # the table's download: {"record": ..., "salt", ...}
        missing = [k for k in ("deck", "actions") if k not in obj]
        if missing:
            raise UnparsableError(f"a game record needs {', '.join(missing)}")
        rules = obj.get("rules", "gameweave")
        if not isinstance(rules, str):
            raise UnparsableError("'rules' must be a profile name")
        rules = find_profile(rules).name
        deck_field = obj["deck"]
        if isinstance(deck_field, list):
            deck_field = " ".join(str(x) for x in deck_field)
        if not isinstance(deck_field, str):
            raise UnparsableError("'deck' must be 40 cards as text")
        deck = validate_deck(deck_field)
        opener = obj.get("opener", 1)
        if opener not in (1, 2) or isinstance(opener, bool):
            raise UnparsableError("'opener' must be 1 or 2")
        actions = obj["actions"]
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise UnparsableError("'actions' must be a list of action texts")
        return cls(rules=rules, deck=deck, opener=opener - 1, actions=list(actions))

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """Parse one record from JSON text.  Raises :class:`UnparsableError`."""
        return cls.from_dict(parse_json(text))

    # -------------------------------------------------------------- replay
    def start(self) -> GameState:
        """The state before the first action."""
        return GameState.new(self.deck, opener=self.opener, rules=self.rules)

    def replay(self) -> GameState:
        """Apply every action with checks; returns the final state.

        Raises :class:`ReplayError` naming the first bad step.
        """
        state = self.start()
        for _ in self.steps(state):
            pass
        return state

    def steps(self, state: GameState | None = None) -> Iterator[tuple[int, str, GameState]]:
        """Apply the actions one by one, yielding ``(step, action_text, state_before)``
        *before* each is applied (the same state object, mutated after the yield).

        Raises :class:`ReplayError` at the first action that is unparsable or illegal.
        """
        if state is None:
            state = self.start()
        for i, text in enumerate(self.actions, 1):
            yield i, text, state
            try:
                state.play(text)
            except GameweaveError as exc:
                raise ReplayError(i, text, exc) from None


@dataclass
class MatchRecord:
    """A whole match as data (§VII): the profile, the first opener, the options and the
    deals, each a :class:`GameRecord` whose opener follows from the first by R9.

    Attributes: ``rules`` (profile name), ``first_opener`` (seat index 0/1), ``options``
    (the full R20 option set, see :func:`~gameweave.engine.match.match_options`),
    ``deals`` (list of :class:`GameRecord`).
    """

    rules: str
    first_opener: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    deals: list[GameRecord] = field(default_factory=list)

    @classmethod
    def from_dict(cls, obj: Any) -> MatchRecord:
        """Read a §VII match record.  Raises :class:`UnparsableError` if malformed
        (the first opener, a deal's opener against R9, a deal of another profile) and
        :class:`OptionError` for a bad option value."""
        if not isinstance(obj, dict):
            raise UnparsableError("a match record is a JSON object")
        rules = obj.get("rules", "gameweave")
        if not isinstance(rules, str):
            raise UnparsableError("'rules' must be a profile name")
        profile = find_profile(rules)
        first = obj.get("first_opener", 1)
        if first not in (1, 2) or isinstance(first, bool):
            raise UnparsableError("'first_opener' must be 1 or 2")
        opts = obj.get("options", {})
        if not isinstance(opts, dict):
            raise UnparsableError("'options' must be an object")
        options = match_options(profile, opts)
        deals_obj = obj.get("deals")
        if not isinstance(deals_obj, list):
            raise UnparsableError("a match record needs 'deals', a list of deal records")
        deals = []
        for i, d in enumerate(deals_obj, 1):
            if isinstance(d, dict):
                d = {"rules": profile.name, "opener": ((first - 1) ^ ((i - 1) & 1)) + 1, **d}
            try:
                rec = GameRecord.from_dict(d)
            except UnparsableError as exc:
                raise UnparsableError(f"deal {i}: {exc}") from None
            if rec.rules != profile.name:
                raise UnparsableError(f"deal {i} is {_a(rec.rules)} deal in {_a(profile.name)} match")
            want = (first - 1) ^ ((i - 1) & 1)
            if rec.opener != want:
                raise UnparsableError(f"deal {i}: seat {want + 1} opens it (R9), not seat {rec.opener + 1}")
            deals.append(rec)
        return cls(rules=profile.name, first_opener=first - 1, options=options, deals=deals)

    def to_dict(self) -> dict[str, Any]:
        """The §VII JSON object."""
        return {
            "rules": self.rules,
            "first_opener": self.first_opener + 1,
            "options": dict(self.options),
            "deals": [d.to_dict() for d in self.deals],
        }

    def replay(self) -> tuple[Match, list[GameState]]:
        """Replay every deal and count it (R20).  Returns the match and each deal's final
        state.  Raises :class:`ReplayError` (with ``deal`` set) at the first bad step and
        :class:`UnparsableError` for an unfinished deal that is not the last, or a deal
        after the match has ended (first to N)."""
        match = Match(rules=find_profile(self.rules), format=self.options.get("match", ""),
                      target=self.options.get("target", 0), stake=self.options.get("stake", 0),
                      tablas_stake=self.options.get("tablas_stake", ""),
                      first_opener=self.first_opener)
        finals = []
        for i, rec in enumerate(self.deals, 1):
            if match.is_over:
                raise UnparsableError(f"deal {i}: the match was already over (R20)")
            try:
                st = rec.replay()
            except ReplayError as exc:
                exc.deal = i
                raise
            finals.append(st)
            if st.is_over:
                match.count(st)
            elif i < len(self.deals):
                raise UnparsableError(f"deal {i} is not finished, but another deal follows it")
        return match, finals


def _a(name: str) -> str:
    return ("an " if name[0] in "aeiou" else "a ") + name


def read_record(obj: Any) -> GameRecord | MatchRecord:
    """A deal record, a match record, or the table's download of a deal (§VII), from a
    JSON object.  Raises :class:`UnparsableError` or :class:`OptionError`."""
    if isinstance(obj, dict) and "deals" in obj:
        return MatchRecord.from_dict(obj)
    return GameRecord.from_dict(obj)


def json_objects(text: str) -> list[Any]:
    """A file's JSON values: one value, the items of a JSON array, or JSON lines (one
    value per non-empty line).  A line that is not JSON becomes an
    :class:`UnparsableError` item, so one bad line does not hide the others."""
    stripped = text.strip()
    if not stripped:
        return []
    try:
        whole = parse_json(stripped)
    except UnparsableError:
        pass
    else:
        return whole if isinstance(whole, list) else [whole]
    out: list[Any] = []
    for line in stripped.splitlines():
        if line.strip():
            try:
                out.append(parse_json(line))
            except UnparsableError as exc:
                out.append(exc)
    return out


def load_records(text: str) -> list[Any]:
    """Split a file's text into records (see :func:`json_objects`).

    Returns a list whose items are a :class:`GameRecord`, a :class:`MatchRecord`, or an
    :class:`UnparsableError` / :class:`OptionError` for a record that could not be read
    (so one bad record does not hide the others).
    """
    return [o if isinstance(o, GameweaveError) else _record_or_error(lambda o=o: read_record(o))
            for o in json_objects(text)]


class _Constant(ValueError):
    """``NaN``, ``Infinity`` or ``-Infinity`` in the text (Python reads them; JSON has none)."""


def _no_constant(name: str) -> Any:
    raise _Constant(f"{name} is not a JSON value")


def parse_json(text: str) -> Any:
    """One JSON value from ``text``, strictly (RFC 8259): ``NaN``, ``Infinity`` and
    ``-Infinity`` are refused (reason ``json_constant``), as is nesting deeper than the
    interpreter's recursion limit.  Raises :class:`UnparsableError` saying why (with the
    line and column where the text stops being JSON; reason ``not_json``)."""
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise UnparsableError(f"not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})",
                              reason="not_json") from None
    except RecursionError:
        raise UnparsableError("not JSON: nested too deep", reason="not_json") from None
    except _Constant as exc:
        raise UnparsableError(f"not JSON: {exc}", reason="json_constant") from None
    except ValueError as exc:  # an integer over the interpreter's digit limit
        raise UnparsableError(f"not JSON: {exc}", reason="not_json") from None




def _record_or_error(make: Any) -> Any:
    try:
        return make()
    except GameweaveError as exc:
        if isinstance(exc, (UnparsableError, OptionError)):
            return exc
        return UnparsableError(str(exc))


def snapshot(state: GameState) -> dict[str, Any]:
    """Full-information JSON of a state, as ``gameweave replay --json`` prints it.

    Shows both hands — for a record's owner, a referee or a test, never for a seat
    (R21).  Keys: ``status, winner, to_act, decision, live, live_from, stock, seats,
    legal``; seats numbered "1"/"2"; cards, melds and actions canonical (R3, R4, §VII).
    While a turned card awaits ``meld_or_refuse`` it is shown as ``live`` with
    ``live_from`` null (nobody let it go yet).
    """
    return {
        "status": state.status,
        "winner": state.winner + 1 if state.winner >= 0 else None,
        "to_act": state.to_act + 1 if state.to_act >= 0 else None,
        "decision": DECISIONS[state.phase],
        "live": CARD_NAMES[state.card] if state.card >= 0 else None,
        "live_from": state.live_from + 1 if state.live_from >= 0 else None,
        "stock": state.stock_count,
        "seats": {
            str(s + 1): {
                "hand": mask_names(state.hands[s]),
                "melds": [mask_names(m) for m in state.melds[s]],
            }
            for s in (0, 1)
        },
        "legal": [format_action(a) for a in state.legal_actions()],
    }


__all__ = ["GameRecord", "MatchRecord", "ReplayError", "json_objects", "load_records", "parse_json", "read_record", "snapshot"]
