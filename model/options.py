"""Ruleset options: the switches that select a reading of a dispute, and house parameters.

Every point where a rule text contradicts itself, is silent, or differs from
another edition is a named dispute in ``spec/`` with an option that selects
each reading (``--option follow=must-follow``). Options that are not disputes
(the number of rounds, a target total) are parameters the text leaves to the
players. Either kind is an :class:`OptionSpec`; a chosen set is an
:class:`Options`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from mypy_extensions import mypyc_attr

from tricklaw.spec.errors import OptionError

DIGITS_LIMIT = 30
"""The longest whole-number option value read as a number: a longer one (thousands of
digits, which Python refuses to convert) is out of every option's range."""

OptionValue = str | int


# Compiled with mypyc where the build allows (setup.py); an interpreted ruleset (Sticheln,
# the tests' example game) subclasses it too.
@mypyc_attr(allow_interpreted_subclasses=True)
class CompiledRules:
    """A ruleset's options compiled for its hot path (``Ruleset.compile``, read as
    ``Game.rules``): each ruleset's ``Rules`` subclasses this, and its module reads them
    typed through ``rules_of(game)``."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option of a ruleset.

    ``choices`` lists the allowed values of a text option; an integer option
    has ``choices == ()`` and the inclusive bounds ``minimum``/``maximum``.
    ``dispute`` is the id of the dispute whose readings the choices are, or
    ``None`` for a plain parameter. ``affects_trick`` says whether the option
    can change who takes a single trick (the ``trick`` command compares readings
    of those). ``acts_with`` names the other options' values without which this
    option changes nothing (a sub-option of another rule), empty when it always acts.
    ``stand_ins`` gives, for a reading that names no one value (The Last's ``rounds``
    reading ``N``: any agreed number), the value that plays it where a game must be
    chosen (the impact study, the disputes register). ``sets_length`` says that the
    option is the number of rounds in a game: games under two of its values differ in
    length by design, so a study compares their tricks and round scores over the rounds
    both play.
    """

    name: str
    default: OptionValue
    help: str
    choices: tuple[str, ...] = ()
    minimum: int = 0
    maximum: int = 10**6
    dispute: str | None = None
    affects_trick: bool = False
    acts_with: tuple[tuple[str, OptionValue], ...] = ()
    stand_ins: tuple[tuple[str, OptionValue], ...] = ()
    sets_length: bool = False

    @property
    def is_integer(self) -> bool:
        """Whether the option takes a whole number rather than one of ``choices``."""
        return not self.choices

    def coerce(self, raw: OptionValue, ruleset: str) -> OptionValue:
        """``raw`` checked and converted to this option's type."""
        if self.is_integer:
            if len(str(raw)) > DIGITS_LIMIT:
                raise OptionError(
                    f"{ruleset}: option {self.name}={raw} is outside {self.minimum}..{self.maximum}"
                )
            try:
                number = int(raw)
            except (TypeError, ValueError):  # not a number's text (null, a list, ...)
                raise OptionError(
                    f"{ruleset}: option {self.name} takes a whole number, not {raw!r}"
                ) from None
            if not self.minimum <= number <= self.maximum:
                raise OptionError(
                    f"{ruleset}: option {self.name}={number} is outside "
                    f"{self.minimum}..{self.maximum}"
                )
            return number
        text = str(raw)
        if text not in self.choices:
            raise OptionError(
                f"{ruleset}: option {self.name} has no reading {text!r} "
                f"(readings: {', '.join(self.choices)})"
            )
        return text


@dataclass(frozen=True, slots=True)
class Options:
    """A complete, validated choice of every option of one ruleset."""

    items: tuple[tuple[str, OptionValue], ...]

    def __getitem__(self, name: str) -> OptionValue:
        for key, value in self.items:
            if key == name:
                return value
        raise KeyError(name)

    def text(self, name: str) -> str:
        """The value of a text option."""
        return str(self[name])

    def number(self, name: str) -> int:
        """The value of an integer option."""
        value = self[name]
        assert isinstance(value, int)
        return value

    def as_dict(self) -> dict[str, OptionValue]:
        """The options as a plain dictionary (name -> value)."""
        return dict(self.items)

    def with_value(self, name: str, value: OptionValue) -> Options:
        """A copy with option ``name`` set to ``value`` (not re-validated)."""
        return Options(tuple((k, value if k == name else v) for k, v in self.items))


def resolve_options(
    ruleset: str, specs: Iterable[OptionSpec], chosen: Mapping[str, object]
) -> Options:
    """Every option of ``specs``: the ``chosen`` value where given, else the default.

    Raises :class:`~tricklaw.spec.errors.OptionError` for an unknown name or a bad value.
    ``chosen`` may come from JSON (a header, a declaration, a request), so its values are
    taken as any object and checked here: the compiled model (mypyc) would raise
    ``TypeError`` on a value that is neither a name nor a number.
    """
    if not isinstance(chosen, Mapping):  # JSON's number or list where an object belongs
        raise OptionError(f"{ruleset}: the options are {chosen!r}, not names and values")
    spec_list = list(specs)
    known = {s.name for s in spec_list}
    given: dict[str, OptionValue] = {}
    for name, raw in chosen.items():
        if name not in known:
            listed = ", ".join(sorted(known)) or "none"
            raise OptionError(f"{ruleset}: unknown option {name!r} (options: {listed})")
        if not isinstance(raw, (str, int)):
            raise OptionError(f"{ruleset}: option {name} takes a name or a number, not {raw!r}")
        given[name] = raw
    return Options(
        tuple(
            (s.name, s.coerce(given[s.name], ruleset) if s.name in given else s.default)
            for s in spec_list
        )
    )


def parse_option_args(args: Iterable[str]) -> dict[str, str]:
    """``["k=v", ...]`` from the command line as a dictionary."""
    out: dict[str, str] = {}
    for arg in args:
        name, sep, value = arg.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise OptionError(f"option {arg!r} is not of the form name=value")
        if name.strip() in out:
            raise OptionError(f"option {name.strip()!r} is given twice")
        out[name.strip()] = value.strip()
    return out
