"""The declared limits on what callers send, and the checks every edge shares.

The API's schemas and body parser (api/), the command line and any later
edge (mail) go through these same checks, because the use cases of the
Matches facade (service/matches.py and the use-case objects it wires)
call them before anything reaches the domain or the event store: a rule here
holds by construction, not per endpoint. docs/api.md ("Limits and checks")
states every limit.

- Player names are normalised to Unicode NFC, then must be 1 to
  MAX_NAME_CHARS characters, every one printable (no control, format,
  surrogate, private-use or unassigned character, no separator but the
  ASCII space), without a space at either end.
- Movement numbers are 1 to MAX_MOVEMENT, so that a movement, and the one
  after it, fit every 32-bit column of the read models.
- Durations (a match's `deadline_seconds`, a deadline extension, and every
  config field named `*_seconds`) are at most MAX_SECONDS: a year and a day.
- JSON given by a caller (a config, a starting state, an order's JSON form,
  a request body) nests at most MAX_JSON_DEPTH levels, holds integers within
  +-MAX_JSON_INT (2^53 - 1, what every JSON reader keeps exactly), finite
  numbers only, and no lone surrogate (text that is not Unicode) nor control
  character but tab and line breaks in its text (keys included).
- Text that is stored (names, ids, reasons, a post's fields, a mail's
  identifying headers) is Unicode without a lone surrogate and without a
  control character (C0 U+0000-U+001F, DEL, C1 U+0080-U+009F): PostgreSQL
  cannot store a NUL, and no view can show the others. Tab, line feed and
  carriage return pass in text that may hold lines (an order, a post's body,
  a dispute, a reason); right-to-left and zero-width characters pass in free
  text (they are Unicode a view can render) but not in names.
- A dispute cites at most MAX_CITES event versions (integers) and its text, like a
  ruling's reason, is at most MAX_DISPUTE_CHARS characters of Unicode (an empty one
  is the domain's to refuse: InvalidDisputeError).
- An order, as text or as its JSON form, is at most its game's
  `max_order_chars` characters (MAX_ORDER_CHARS unless the game says more,
  never more than LONGEST_ORDER_CHARS; its JSON form is measured as compact
  JSON); order text holds no control character but tab, line feed and
  carriage return.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from domain.errors import DrtsError
from domain.match import MAX_DEADLINE_SECONDS
from domain.rules.contract import DEFAULT_MAX_ORDER_CHARS

MAX_NAME_CHARS = 64
MAX_MOVEMENT = 1_000_000
MAX_SECONDS = MAX_DEADLINE_SECONDS  # a year and a day
MAX_SEATS = 64
MAX_JSON_DEPTH = 32
PARSE_DEPTH = 256  # json.loads recurses this deep safely; deeper text is refused unparsed
MAX_JSON_INT = 2**53 - 1
MAX_ORDER_CHARS = DEFAULT_MAX_ORDER_CHARS  # unless a game says more (Shades' bot replies)
LONGEST_ORDER_CHARS = 60_000  # what any game may take: under the 64 KiB body limit
MAX_KEY_CHARS = 200  # an Idempotency-Key
MAX_DISPUTE_CHARS = 4_000  # a dispute's text, a ruling's reason
MAX_REASON_CHARS = 1_000  # a referee's reason for an action, an extension, a reissue
MAX_CITES = 20  # the event versions one dispute cites
MAX_POSITION = 2**31 - 1  # event versions and step numbers asked for in a query
RULESET_NAME = r"^[a-z][a-z0-9_]{0,63}$"  # how every ruleset is named in the registry

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")
_ORDER_WHITESPACE = frozenset("\t\n\r")
LINE_BREAKS = _ORDER_WHITESPACE  # the control characters text of lines may hold


class LimitError(DrtsError, ValueError):
    """Raised when a value a caller sent is outside the declared limits; names the field
    and what is allowed."""

    code = "validation_error"

    def __init__(self, field: str, allowed: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}; allowed: {allowed}")
        self.field, self.allowed, self.problem = field, allowed, problem

    @property
    def reason(self) -> str:
        """Returns what is wrong and what is allowed, and where within the field when the
        fault is deeper than the field itself (`config.board[2]: ...`)."""
        where = f"{self.field}: " if re.search(r"[.\[]", self.field) else ""
        return f"{where}{self.problem}; allowed: {self.allowed}"

    @property
    def details(self) -> dict[str, str]:
        """Returns the field and what it allows, for the API's error details."""
        return {"field": self.field, "allowed": self.allowed}


# -- names ----------------------------------------------------------------------------------

NAME_RULE = (
    f"1 to {MAX_NAME_CHARS} printable characters (NFC), no control or format "
    "character, no space at either end"
)


def player_name(name: str, field: str = "name") -> str:
    """Returns the name normalised to NFC; raises LimitError naming what is wrong."""
    if not isinstance(name, str):
        raise LimitError(field, NAME_RULE, f"a name is text, got {type(name).__name__}")
    if has_lone_surrogate(name):
        raise LimitError(field, NAME_RULE, "it holds a lone surrogate (not Unicode text)")
    normal = unicodedata.normalize("NFC", name)
    if not 1 <= len(normal) <= MAX_NAME_CHARS:
        raise LimitError(field, NAME_RULE, f"it has {len(normal)} characters")
    bad = next((char for char in normal if not char.isprintable()), None)
    if bad is not None:
        raise LimitError(field, NAME_RULE, f"it holds {_describe(bad)}")
    if normal != normal.strip():
        raise LimitError(field, NAME_RULE, "it starts or ends with a space")
    return normal


def text_rule(max_chars: int, lines: bool = False, min_chars: int = 1) -> str:
    """Returns what stored text may be, for an error message."""
    but = "but tab and line breaks" if lines else "(one line)"
    return f"text of {min_chars} to {max_chars} characters, no control character {but}"


def check_text(
    text: Any, field: str, max_chars: int, *, lines: bool = False, min_chars: int = 1
) -> str:
    """Returns the text if it has `min_chars` to `max_chars` characters of Unicode without
    a control character (tab, line feed and carriage return pass where `lines`); raises
    LimitError naming the field and the first bad character."""
    allowed = text_rule(max_chars, lines, min_chars)
    if not isinstance(text, str) or not min_chars <= len(text) <= max_chars:
        raise LimitError(field, allowed, f"got {_shown(text)}")
    if has_lone_surrogate(text):
        raise LimitError(field, allowed, "it holds a lone surrogate (not Unicode text)")
    bad = control_character(text, lines)
    if bad is not None:
        raise LimitError(field, allowed, f"it holds {_describe(bad)}")
    return text


def control_character(text: str, lines: bool = False) -> str | None:
    """Returns the first control character of the text (C0, DEL, C1), tab and line breaks
    aside where `lines`; None if it holds none."""
    for char in text:
        if unicodedata.category(char) == "Cc" and not (lines and char in LINE_BREAKS):
            return char
    return None


def check_dispute_text(text: Any, field: str = "text") -> str:
    """Returns a dispute's text (or a ruling's reason) of at most MAX_DISPUTE_CHARS
    characters of Unicode; raises LimitError. An empty one passes: the domain refuses it
    as a dispute without a text (InvalidDisputeError)."""
    return text if text == "" else check_text(text, field, MAX_DISPUTE_CHARS, lines=True)


def check_reason(reason: Any, field: str = "reason") -> str | None:
    """Returns a referee's reason (None passes: none given), text of lines of at most
    MAX_REASON_CHARS characters; raises LimitError."""
    return None if reason is None else check_text(reason, field, MAX_REASON_CHARS, lines=True)


def check_cites(cites: Any, field: str = "cites") -> list[int]:
    """Returns the event versions a dispute cites: a list of at most MAX_CITES integers
    (whether the log holds them is the domain's check); raises LimitError."""
    allowed = f"a list of at most {MAX_CITES} event versions"
    if not isinstance(cites, list | tuple) or len(cites) > MAX_CITES:
        raise LimitError(field, allowed, f"got {_shown(cites)}")
    return [
        check_range(v, f"{field}[{i}]", -MAX_JSON_INT, MAX_JSON_INT) for i, v in enumerate(cites)
    ]


def check_ruleset_name(name: str, field: str = "ruleset") -> str:
    """Returns a ruleset name as a filter takes it (lower-case letters, digits, _; at most
    64); raises LimitError. Whether such a ruleset exists is the registry's answer."""
    if not (isinstance(name, str) and re.fullmatch(RULESET_NAME, name)):
        raise LimitError(field, "a ruleset name: a-z, 0-9 and _, at most 64", f"got {_shown(name)}")
    return name


def check_choice(value: str, field: str, choices: tuple[str, ...]) -> str:
    """Returns the value if it is one of `choices`; raises LimitError."""
    if value not in choices:
        raise LimitError(field, f"one of {', '.join(choices)}", f"got {_shown(value)}")
    return value


# -- numbers --------------------------------------------------------------------------------


def check_range(value: Any, field: str, low: int, high: int) -> int:
    """Returns the integer if it lies in low..high; raises LimitError otherwise (bools and
    floats included)."""
    allowed = f"an integer from {low} to {high}"
    if isinstance(value, bool) or not isinstance(value, int):
        raise LimitError(field, allowed, f"got {_shown(value)}")
    if not low <= value <= high:
        raise LimitError(field, allowed, f"got {_shown(value)}")
    return value


def check_movement(movement: Any, field: str = "movement") -> int:
    """Returns a movement number in 1..MAX_MOVEMENT; raises LimitError otherwise."""
    return check_range(movement, field, 1, MAX_MOVEMENT)


def check_seconds(seconds: Any, field: str = "seconds") -> float:
    """Returns a duration in seconds, above 0 and at most MAX_SECONDS; raises LimitError."""
    allowed = f"a number of seconds above 0 and at most {MAX_SECONDS}"
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise LimitError(field, allowed, f"got {_shown(seconds)}")
    if not (math.isfinite(seconds) and 0 < seconds <= MAX_SECONDS):
        raise LimitError(field, allowed, f"got {_shown(seconds)}")
    return seconds


# -- JSON -----------------------------------------------------------------------------------

JSON_RULE = (
    f"JSON nested at most {MAX_JSON_DEPTH} levels, integers within +-{MAX_JSON_INT}, "
    "finite numbers, Unicode text of printable characters (no control character but tab "
    "and line breaks)"
)


def check_json(value: Any, field: str) -> Any:
    """Returns a decoded JSON value within the JSON limits; raises LimitError naming the
    first fault and where it is (`field.key[index]`; a bad key at its object). Walked
    without recursion, so any depth is safe to check."""
    stack: list[tuple[Any, int, str]] = [(value, 1, field)]
    while stack:
        item, depth, path = stack.pop()
        if isinstance(item, dict | list) and depth > MAX_JSON_DEPTH:
            raise LimitError(path, JSON_RULE, f"it nests deeper than {MAX_JSON_DEPTH} levels")
        if isinstance(item, dict):
            for key, child in item.items():
                _check_scalar(key, path)
                stack.append((child, depth + 1, f"{path}.{key}"))
        elif isinstance(item, list):
            stack.extend((child, depth + 1, f"{path}[{i}]") for i, child in enumerate(item))
        else:
            _check_scalar(item, path)
    return value


def check_json_text(text: str, field: str) -> None:
    """Raises LimitError if JSON text nests deeper than MAX_JSON_DEPTH (checked on the text,
    before any parser recurses into it)."""
    if nesting_depth(text) > MAX_JSON_DEPTH:
        raise LimitError(field, JSON_RULE, f"it nests deeper than {MAX_JSON_DEPTH} levels")


def parse_json(text: str, field: str) -> Any:
    """Returns the value of JSON text a caller gave (a file, an argument, a body); raises
    LimitError for text nested past PARSE_DEPTH (measured on the text, before json.loads
    recurses: a RecursionError otherwise) and ValueError for text that is not JSON. The
    value is then the use case's to hold to MAX_JSON_DEPTH (`check_json`)."""
    if nesting_depth(text) > PARSE_DEPTH:
        raise LimitError(
            field,
            f"JSON nested at most {PARSE_DEPTH} levels",
            f"it nests deeper than {PARSE_DEPTH} levels",
        )
    return json.loads(text)


def json_int(digits: str) -> int:
    """Returns a JSON integer literal's value (json.loads' `parse_int`); raises LimitError
    beyond +-MAX_JSON_INT, before converting a long run of digits."""
    if len(digits.lstrip("-")) > len(str(MAX_JSON_INT)) or abs(int(digits)) > MAX_JSON_INT:
        raise LimitError("json", JSON_RULE, f"the integer {digits[:20]}... is out of range")
    return int(digits)


def nesting_depth(text: str) -> int:
    """Returns how deep the brackets of a JSON text nest, ignoring those inside strings."""
    depth = deepest = 0
    for bracket in _BRACKET.finditer(_STRING.sub("", text)):
        depth += 1 if bracket.group() in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def has_lone_surrogate(text: str) -> bool:
    """Returns whether the text holds a surrogate code point (not encodable as UTF-8)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


# -- what the use cases take ----------------------------------------------------------------


def order_rule(max_chars: int) -> str:
    """Returns what an order may be, for an error message."""
    return (
        f"the game's order text or its JSON form, at most {max_chars} characters, "
        "no control character but tab and line breaks"
    )


def check_order(order: Any, field: str = "order", max_chars: int = MAX_ORDER_CHARS) -> None:
    """Raises LimitError unless the order (text, or its JSON form) is within the limits:
    at most `max_chars` characters (the game's `max_order_chars`)."""
    rule = order_rule(max_chars)
    if isinstance(order, str):
        if len(order) > max_chars:
            raise LimitError(field, rule, f"it has {len(order)} characters")
        if has_lone_surrogate(order):
            raise LimitError(field, rule, "it holds a lone surrogate (not Unicode text)")
        bad = next((c for c in order if _is_control(c) and c not in _ORDER_WHITESPACE), None)
        if bad is not None:
            raise LimitError(field, rule, f"it holds {_describe(bad)}")
        if order.lstrip()[:1] in ("{", "["):  # an order's JSON form, sent as text
            check_json_text(order, field)
        return
    if isinstance(order, Mapping):
        check_json(dict(order), field)
        size = len(json.dumps(order, separators=(",", ":"), ensure_ascii=False))
        if size > max_chars:
            raise LimitError(field, rule, f"its JSON form has {size} characters")
        return
    raise LimitError(field, rule, f"got {type(order).__name__}")


def check_config(config: Mapping[str, Any], field: str = "config") -> Mapping[str, Any]:
    """Returns the config if it is JSON within the limits; raises LimitError. The ruleset's
    typed config fields check each option's type and range (every integer is bounded,
    every `*_seconds` at most MAX_SECONDS: the conformance suite holds every game to it)."""
    check_json(dict(config), field)
    return config


# -- private --------------------------------------------------------------------------------


def _check_scalar(value: Any, field: str) -> None:
    if isinstance(value, str):
        if has_lone_surrogate(value):
            raise LimitError(field, JSON_RULE, "it holds a lone surrogate (not Unicode text)")
        bad = control_character(value, lines=True)
        if bad is not None:
            raise LimitError(field, JSON_RULE, f"it holds {_describe(bad)}")
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int):
        if abs(value) > MAX_JSON_INT:
            raise LimitError(field, JSON_RULE, f"the integer {_shown(value)} is out of range")
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise LimitError(field, JSON_RULE, f"the number {value} is not finite")
    else:
        raise LimitError(field, JSON_RULE, f"{type(value).__name__} is not JSON")


def _shown(value: Any) -> str:
    """Returns a short repr (a huge integer by its size: its digits would not print)."""
    if isinstance(value, int) and value.bit_length() > 64:
        return f"an integer of {value.bit_length()} bits"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _is_control(char: str) -> bool:
    return unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co")


def _describe(char: str) -> str:
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" ({name})" if name else "")
