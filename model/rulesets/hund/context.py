"""Hund's trick context read and checked: what a trick judged on its own needs to know
(``trick --context``, the oracle's ``judge``, the trick vectors); and the powers a judged
trick's facts name, read back as a context (:func:`powers_named`).

A context names the suits already holding powers (``powers=R,Y``, in power order, first =
Trump; HUND-DESIG-2, HUND-POWER-1) and the round's designated number (``designation=3``,
HUND-DESIG-1) or, with ``designation-mode=sets``, its designation sets as cards
(``sets=R3,Y5``, HUND-OPT-2). :func:`read_context` refuses every context no round of the
game can reach, naming the field and the clause: an unknown suit, more powers than there
are (five), a suit holding two powers where the rules never give it a second (only
``set-repeat=stack`` does, HUND-D-SETREPEAT), a designated number that is not one of the
designation cards 1-5, a number with designation sets or sets without them, a set that is
no card of the deck, two sets of one value, or of one suit under ``set-suits=distinct``
(HUND-D-SETSUITS), more sets than powers.
"""

from __future__ import annotations

from collections.abc import Mapping

from tricklaw.model.cards import Card, Palette
from tricklaw.model.rulesets.hund.options import Rules
from tricklaw.model.rulesets.hund.rules import BASE_DESIGNATIONS, POWERS
from tricklaw.spec.errors import CardError, OptionError

Context = tuple[int | None, tuple[Card, ...], tuple[int, ...]]
"""A context read: the designated number (None when not given), the designation sets as
cards, and the suit holding each power so far, in power order."""


def read_context(context: Mapping[str, str], palette: Palette) -> Context:
    """``context`` (``powers``, ``designation``, ``sets``: text) read, with the checks that
    hold under every reading of the options (the model runs this when it judges, also
    under readings other than the one a context was written for: a number it ignores with
    sets, sets it ignores without them); raises :class:`OptionError` naming the field."""
    return (
        _designation(context),
        tuple(_set_cards(context, palette)),
        _powers(context.get("powers", ""), palette),
    )


def check_context(
    context: Mapping[str, str], rules: Rules, palette: Palette, deck: frozenset[Card]
) -> None:
    """Raise :class:`OptionError` naming the field unless ``context`` is one a round of a
    game under ``rules`` (its ``deck``) can reach (the input checks of ``trick --context``
    and of the oracle's ``judge``)."""
    _, sets, holders = read_context(context, palette)
    if "designation" in context and rules.sets:
        raise OptionError(
            "hund trick context designation: with designation-mode=sets a round has no "
            "designated number; give sets=... [HUND-OPT-2]"
        )
    if "sets" in context and not rules.sets:
        raise OptionError(
            "hund trick context sets: designation sets need --option designation-mode=sets; "
            "the base game designates one number (designation=...) [HUND-OPT-2]"
        )
    if len(set(holders)) < len(holders) and not (rules.sets and rules.set_repeat_stack):
        raise OptionError(
            "hund trick context powers: a suit is named twice; a suit takes a second power "
            "only with designation-mode=sets and set-repeat=stack [HUND-DESIG-2, HUND-D-SETREPEAT]"
        )
    for index, card in enumerate(sets):
        name = palette.format(card)
        if card not in deck:
            raise OptionError(
                f"hund trick context sets: {name} is not a card of the deck in use [HUND-OPT-2]"
            )
        if any(c & 31 == card & 31 for c in sets[:index]):
            raise OptionError(
                f"hund trick context sets: two sets name the value {card & 31}; each set "
                "takes a value of its own [HUND-OPT-2]"
            )
        if rules.set_suits_distinct and any(c >> 5 == card >> 5 for c in sets[:index]):
            raise OptionError(
                f"hund trick context sets: two sets name the suit {name[0]}; with "
                "set-suits=distinct each set takes a suit of its own [HUND-D-SETSUITS]"
            )


def _powers(text: str, palette: Palette) -> tuple[int, ...]:
    names = [x.strip().upper() for x in text.split(",") if x.strip()]
    if len(names) > len(POWERS):
        raise OptionError(
            f"hund trick context powers: {len(names)} suits named, but there are "
            f"{len(POWERS)} powers ({', '.join(POWERS)}) [HUND-DESIG-2]"
        )
    for name in names:
        if name not in palette.letters:
            known = ", ".join(palette.letters)
            raise OptionError(
                f"hund trick context powers: {name!r} is not a suit letter (suits: {known})"
            )
    return tuple(palette.letters.index(name) for name in names)


def _designation(context: Mapping[str, str]) -> int | None:
    if "designation" not in context:
        return None
    text = context["designation"].strip()
    numbers = ", ".join(map(str, BASE_DESIGNATIONS))
    if not (text.isascii() and text.isdigit() and len(text) <= 2):
        raise OptionError(
            f"hund trick context designation: {text!r} is not a designation card "
            f"({numbers}) [HUND-DESIG-1]"
        )
    number = int(text)
    if number not in BASE_DESIGNATIONS:
        raise OptionError(
            f"hund trick context designation: {number} is not a designation card "
            f"({numbers}) [HUND-DESIG-1]"
        )
    return number


def _set_cards(context: Mapping[str, str], palette: Palette) -> list[Card]:
    texts = [x for x in context.get("sets", "").split(",") if x.strip()]
    if len(texts) > len(POWERS):
        raise OptionError(
            f"hund trick context sets: {len(texts)} sets, but a round has {len(POWERS)} "
            "[HUND-OPT-2]"
        )
    try:
        return palette.parse_all(texts)
    except CardError as exc:
        raise OptionError(f"hund trick context sets: {exc}") from None


def powers_named(text: str, palette: Palette) -> str:
    """The powers a judged trick's ``powers`` fact names (``trump=Red, plus=Yellow``, or
    ``none``), as a context names them: the suits' letters in power order (``R,Y``); a
    fact not of that form is returned as it is (it names no context)."""
    if text == "none":
        return ""
    letters = dict(zip(palette.names, palette.letters, strict=True))
    named = [part.partition("=") for part in text.split(", ")]
    if [power for power, _, _ in named] != list(POWERS[: len(named)]) or any(
        name not in letters for _, _, name in named
    ):
        return text
    return ",".join(letters[name] for _, _, name in named)
