"""Reading untrusted JSON text: the one guard every reader of a record, log, case or
vector file goes through.

:func:`loads` parses JSON text like ``json.loads``, but every way hostile text can
break a reader becomes a :class:`JsonTextError` (a :class:`TricklawError`, so the command
line prints one line and exits 2) naming the problem: text that is not JSON, a number of
more digits than Python converts (4,300), and nesting
deeper than :data:`MAX_DEPTH` (the parser itself stops near 1,000 levels with a
``RecursionError``, and later steps that walk the value, such as a schema's message,
would stop there too). :func:`decode` turns bytes into text, naming the first byte that
is not UTF-8; :func:`read_text` reads a file with both guards.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Final

from tricklaw.spec.errors import TricklawError

MAX_DEPTH: Final = 100
"""The deepest nesting of arrays and objects a reader accepts (a record nests 6 deep)."""


class JsonTextError(TricklawError):
    """Text that is not acceptable JSON; the message says why (and where, for syntax)."""


def loads(text: str | bytes) -> Any:
    """The JSON value of ``text``; raises :class:`JsonTextError` for anything else."""
    if isinstance(text, bytes):
        text = decode(text)
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise JsonTextError(
            f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None
    except RecursionError:
        raise JsonTextError(f"not valid JSON: nested deeper than {MAX_DEPTH} levels") from None
    except ValueError:  # the only other: an integer of more digits than Python converts
        raise JsonTextError(
            f"not valid JSON: a number has more than {sys.get_int_max_str_digits()} digits"
        ) from None
    check_depth(text, value)
    return value


def check_depth(text: str, value: Any) -> None:
    """Raise :class:`JsonTextError` if ``value`` (parsed from ``text``) nests deeper than
    :data:`MAX_DEPTH`. Text with fewer brackets than that is not walked at all."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    if type(value) is not dict and type(value) is not list:
        return
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise JsonTextError(f"not valid JSON: nested deeper than {MAX_DEPTH} levels")
        items = node.values() if type(node) is dict else node
        for item in items:
            if type(item) is dict or type(item) is list:
                stack.append((item, depth + 1))


def decode(data: bytes) -> str:
    """``data`` as UTF-8 text (a leading byte order mark is dropped); raises
    :class:`JsonTextError` naming the first byte that is not UTF-8."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise JsonTextError(f"not UTF-8 text: byte {exc.start} ({exc.reason})") from None


def read_text(path: str) -> str:
    """The UTF-8 text of the file ``path``; raises :class:`JsonTextError` for a file that
    cannot be read or is not UTF-8."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise JsonTextError(f"cannot read {path}: {exc.strerror}") from None
    return decode(data)
