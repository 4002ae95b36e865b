"""Merged values for the symbolic executor: state merging instead of forking.

The executor of :mod:`tricklaw.proofs.symbolic` forks on every truth value the code
asks for; a filter over ``k`` cards (``[c for c in hand if c >> 5 == lead] or hand``)
then gives ``2**k`` paths. The *merged copy* of the model
(:mod:`tricklaw.proofs.merge_rewrite`) calls the functions of this module where Python
would ask for a truth value inside an expression, and they keep the answer symbolic:

* :class:`GuardedList`: a sequence whose elements each carry a *guard* term (present
  exactly when the guard holds). A filtered comprehension over a guarded or a concrete
  sequence gives one (:func:`comp`); ``len``, ``sum``, ``any``, ``all``, membership and
  ``count`` of it are terms (ite-sums, disjunctions); ``tuple()``/``list()`` of it is
  itself; ``bool()`` of it forks once, on the disjunction of its guards; iterating it
  forks once per element whose guard is not constant (sound: each branch is a real
  case); ``len()`` by Python's protocol is a case split of the count. Anything else
  (indexing, hashing, equality, ordering) raises
  :class:`~tricklaw.proofs.symbolic.Unsupported`: never a made-up concrete answer.
* :func:`ite` (``a if c else b``), :func:`boolop` (``and``/``or``), :func:`not_`,
  :func:`contains` (``in``/``not in``): with a symbolic condition and both operands
  numbers or truth values, one ``ite``/``and``/``or`` term; otherwise Python's own
  evaluation, forking as the executor does.
* :func:`accumulate` (a ``for`` loop whose body only does ``name op= expression``):
  over a guarded list, each element's update merged as ``ite(guard, new, old)``
  (``old + ite(guard, x, 0)`` for ``old + x``);
* ``max``/``min`` of numbers with a symbolic one: an ``ite`` fold (:func:`call`);
  ``xs.count(x)`` of such numbers: an ite-sum (:func:`count`).

Soundness. With every value concrete each function does what Python does (the same
operands evaluated in the same order, the same result), so the merged copy computes
the model's own answers. Merging evaluates the operand Python would skip (the arm not
taken, the right side of a short-circuit, the elements after an ``any`` found one):
the model's rule functions are pure (a house rule), so this adds no effect; if such an
evaluation raises or asks for something unsupported, the merged value is given up and
the code forks exactly as Python would evaluate it. A merged set (a comprehension
``{...}`` with symbolic guards or elements) keeps its first occurrence of each value
(an element's guard says it is present and equals no earlier present element), so its
``len`` and membership are exact; it iterates in first-occurrence order, so code whose
result depends on a set's iteration order is not covered.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from tricklaw.proofs.symbolic import Sym, SymBool, Unsupported, _explorer, condition, term
from tricklaw.proofs.symbolic_terms import FALSE, TRUE, Term, const, make

Guarded = tuple[Any, Term]
"""An element and its guard."""


def truth(t: Term) -> Any:
    """``t`` as a Python bool when constant, else a :class:`SymBool`."""
    return bool(t[1]) if t[0] == "k" else SymBool(t)


def is_symbolic(x: Any) -> bool:
    """Whether ``x`` is a symbolic number or truth value."""
    return isinstance(x, Sym | SymBool)


def conj(a: Term, b: Term) -> Term:
    """``a and b``, folded when either is constant."""
    if a == TRUE or b == FALSE:
        return b
    if b == TRUE or a == FALSE:
        return a
    return make("and", a, b)


def disj(a: Term, b: Term) -> Term:
    """``a or b``, folded when either is constant."""
    if a == FALSE or b == TRUE:
        return b
    if b == FALSE or a == TRUE:
        return a
    return make("or", a, b)


def any_of(terms: Iterable[Term]) -> Term:
    """The disjunction of ``terms`` (false for none)."""
    out = FALSE
    for t in terms:
        out = disj(out, t)
    return out


def negation(t: Term) -> Term:
    """``not t``, folded when constant."""
    return const(not t[1]) if t[0] == "k" else make("not", t)


def equal(a: Any, b: Any) -> Term:
    """``a == b`` as a term, for numbers and truth values (concrete or symbolic)."""
    if is_symbolic(a) or is_symbolic(b):
        return make("==", term(a), term(b))
    if isinstance(a, bool | int) and isinstance(b, bool | int):
        return const(a == b)
    raise Unsupported(f"equality of {type(a).__name__} and {type(b).__name__} in a merged value")


def ite_value(guard: Term, yes: Any, no: Any) -> Any:
    """One value that is ``yes`` where ``guard`` holds and ``no`` elsewhere."""
    if guard == TRUE:
        return yes
    if guard == FALSE:
        return no
    if isinstance(yes, SymBool | bool) and isinstance(no, SymBool | bool):
        return SymBool(make("ite", guard, condition(yes), condition(no)))
    return Sym(make("ite", guard, term(yes), term(no)))


def _mergeable(x: Any) -> bool:
    return is_symbolic(x) or isinstance(x, bool | int)


class GuardedList:
    """A sequence whose elements are present only where their guards hold."""

    __slots__ = ("items",)

    def __init__(self, items: Iterable[Guarded]) -> None:
        self.items: tuple[Guarded, ...] = tuple((e, g) for e, g in items if g != FALSE)

    @staticmethod
    def of(elements: Iterable[Any], guards: Iterable[Term]) -> GuardedList:
        """The list of ``elements``, each present where its guard holds."""
        return GuardedList(zip(elements, guards, strict=True))

    def __repr__(self) -> str:
        return f"GuardedList({list(self.items)!r})"

    # --- terms ------------------------------------------------------------------------

    def nonempty(self) -> Term:
        """Some element is present."""
        return any_of(g for _, g in self.items)

    def size(self) -> Any:
        """How many elements are present (an int, or a :class:`Sym` ite-sum)."""
        return total(ite_value(g, 1, 0) for _, g in self.items)

    def has(self, x: Any) -> Term:
        """``x`` is a present element."""
        return any_of(conj(g, equal(e, x)) for e, g in self.items)

    def count(self, x: Any) -> Any:
        """How many present elements equal ``x`` (the method of tuples and lists)."""
        return total(ite_value(conj(g, equal(e, x)), 1, 0) for e, g in self.items)

    # --- Python's protocols: forks, never a silent concretisation ---------------------

    def __bool__(self) -> bool:
        return _decide(self.nonempty())

    def __iter__(self) -> Iterator[Any]:
        for e, g in self.items:
            if _decide(g):
                yield e

    def __len__(self) -> int:
        n = self.size()
        return n if isinstance(n, int) else _explorer().split(n.term)

    def __contains__(self, x: Any) -> bool:
        return _decide(self.has(x))

    def __add__(self, other: Any) -> GuardedList:
        return GuardedList((*self.items, *_guarded(other)))

    def __radd__(self, other: Any) -> GuardedList:
        return GuardedList((*_guarded(other), *self.items))

    def __getitem__(self, index: Any) -> Any:
        raise Unsupported("indexing a guarded list")

    def __eq__(self, other: object) -> bool:
        raise Unsupported("comparing a guarded list")

    def __hash__(self) -> int:
        raise Unsupported("hashing a guarded list")


def _decide(t: Term) -> bool:
    if t[0] == "k":
        return bool(t[1])
    return _explorer().decide(t)


def _guarded(xs: Any) -> tuple[Guarded, ...]:
    """The elements of ``xs`` with their guards (``TRUE`` for a plain iterable)."""
    if isinstance(xs, GuardedList):
        return xs.items
    return tuple((x, TRUE) for x in xs)


def total(values: Iterable[Any], start: Any = 0) -> Any:
    """``start + sum(values)``, in the order given (Python's ``sum``)."""
    out = start
    for v in values:
        out = out + v
    return out


def _plain(items: tuple[Guarded, ...]) -> bool:
    return all(g == TRUE for _, g in items)


def _truth(x: Any) -> Term:
    """The truth of a filter's value as a term (a guarded list or any other object is
    asked by Python's ``bool``, which may fork)."""
    if is_symbolic(x) or isinstance(x, bool | int):
        return condition(x)
    return TRUE if x else FALSE


def comp(
    kind: str,
    source: Any,
    element: Callable[[Any], Any],
    keep: Callable[[Any], Any] | None = None,
) -> Any:
    """``[element(x) for x in source if keep(x)]`` (``kind`` ``list``, ``gen`` or
    ``set``): a guarded list when a guard is symbolic, else what Python builds."""
    out: list[Guarded] = []
    for x, present in _guarded(source):
        g = present
        if keep is not None and g != FALSE:
            g = conj(g, _truth(keep(x)))
        if g != FALSE:
            out.append((element(x), g))
    if kind == "set":
        out = _first_occurrences(out)
    if _plain(tuple(out)):
        values = [e for e, _ in out]
        return set(values) if kind == "set" else values
    return GuardedList(out)


def _first_occurrences(items: list[Guarded]) -> list[Guarded]:
    """Each element present only when no earlier present element equals it."""
    if all(not is_symbolic(e) for e, _ in items):
        merged: dict[Any, Term] = {}
        for e, g in items:
            merged[e] = disj(merged.get(e, FALSE), g)
        return list(merged.items())
    out: list[Guarded] = []
    for i, (e, g) in enumerate(items):
        earlier = any_of(conj(h, equal(d, e)) for d, h in items[:i])
        out.append((e, conj(g, negation(earlier))))
    return out


_MERGED_CALLS = {"tuple", "list", "sum", "len", "any", "all", "set", "frozenset", "max", "min"}
"""The builtins the merged copy calls through :func:`call`."""


def call(fn: Any, *args: Any) -> Any:
    """``fn(*args)`` for the builtins ``tuple``, ``list``, ``sum``, ``len``, ``any``,
    ``all``, ``set``, ``frozenset``, ``max`` and ``min``, merged where an argument is a
    guarded list (or, for ``any``/``all``, a sequence of symbolic truth values)."""
    function: Callable[..., Any] = fn
    name = str(getattr(fn, "__name__", ""))
    builtin = name in _MERGED_CALLS and function is getattr(builtins, name)
    if builtin and name in ("max", "min"):
        return _extreme(function, name == "max", args)
    if not builtin or len(args) != 1:
        if builtin and name == "sum" and args and isinstance(args[0], GuardedList):
            return _sum(args[0], args[1] if len(args) > 1 else 0)
        return function(*args)
    xs = args[0]
    if name in ("any", "all") and not isinstance(xs, GuardedList):
        xs = list(xs)
        if not any(is_symbolic(x) for x in xs):
            return function(xs)
        xs = GuardedList((x, TRUE) for x in xs)
    if not isinstance(xs, GuardedList):
        return function(xs)
    if name in ("tuple", "list"):
        return xs
    if name in ("set", "frozenset"):
        items = tuple(_first_occurrences(list(xs.items)))
        return function(e for e, _ in items) if _plain(items) else GuardedList(items)
    if name == "sum":
        return _sum(xs, 0)
    if name == "len":
        return xs.size()
    if name == "any":
        return truth(any_of(conj(g, _truth(e)) for e, g in xs.items))
    # all: no present element is false
    return truth(negation(any_of(conj(g, negation(_truth(e))) for e, g in xs.items)))


def _extreme(function: Callable[..., Any], greatest: bool, args: tuple[Any, ...]) -> Any:
    """``max``/``min`` of numbers, one of them symbolic, as an ``ite`` fold (the value
    is the same whichever of equal candidates Python would return)."""
    values = list(args[0]) if len(args) == 1 and isinstance(args[0], list | tuple) else args
    if len(args) == 1 and not isinstance(args[0], list | tuple):
        return function(*args)
    if not values or not any(is_symbolic(v) for v in values):
        return function(*args)
    if not all(_mergeable(v) for v in values):
        return function(*args)
    best = values[0]
    for v in values[1:]:
        better = make("<", term(best), term(v)) if greatest else make("<", term(v), term(best))
        best = ite_value(better, v, best)
    return best


def count(container: Any, x: Any) -> Any:
    """``container.count(x)``: an ite-sum for a list or tuple of numbers where an element
    or ``x`` is symbolic (and for a guarded list), else the method itself."""
    if isinstance(container, GuardedList):
        return container.count(x)
    if (
        isinstance(container, list | tuple)
        and (is_symbolic(x) or any(is_symbolic(e) for e in container))
        and _mergeable(x)
        and all(_mergeable(e) for e in container)
    ):
        return total(ite_value(equal(e, x), 1, 0) for e in container)
    return container.count(x)


def _sum(xs: GuardedList, start: Any) -> Any:
    return total((ite_value(g, e, 0) for e, g in xs.items), start)


def _attempt(thunk: Callable[[], Any]) -> tuple[bool, Any]:
    """(True, the value) of ``thunk()``, or (False, None) when it raises (an exception
    or :class:`Unsupported`): the caller then falls back to Python's evaluation."""
    try:
        return True, thunk()
    except (Exception, Unsupported):
        return False, None


def ite(cond: Callable[[], Any], yes: Callable[[], Any], no: Callable[[], Any]) -> Any:
    """``yes() if cond() else no()``: one ``ite`` term when the condition is symbolic
    and both arms evaluate to numbers or truth values."""
    c = cond()
    if is_symbolic(c):
        ok_a, a = _attempt(yes)
        ok_b, b = _attempt(no)
        if ok_a and ok_b and _mergeable(a) and _mergeable(b):
            return ite_value(condition(c), a, b)
    return yes() if c else no()


def boolop(is_and: bool, *operands: Callable[[], Any]) -> Any:
    """``a and b and ...`` (or ``or``): one term when the operands are truth values and
    one is symbolic; otherwise Python's short-circuit evaluation."""
    first = operands[0]()
    rest = operands[1:]
    if not rest:
        return first
    if isinstance(first, SymBool):
        ok, tail = _attempt(lambda: boolop(is_and, *rest))
        if ok and isinstance(tail, SymBool | bool):
            op = conj if is_and else disj
            return truth(op(first.term, condition(tail)))
    if is_and:
        return boolop(is_and, *rest) if first else first
    return first if first else boolop(is_and, *rest)


def not_(x: Any) -> Any:
    """``not x``: a term for a symbolic truth value."""
    if isinstance(x, SymBool):
        return SymBool(make("not", x.term))
    if isinstance(x, Sym):
        return SymBool(make("==", x.term, const(0)))
    return not x


def contains(x: Any, container: Any, negate: bool = False) -> Any:
    """``x in container`` (``not in`` with ``negate``): a term when the container is a
    guarded list, or a tuple, list, set or frozenset holding a symbolic element, or
    ``x`` is symbolic and the container a tuple, list, set or frozenset of numbers."""
    if isinstance(container, GuardedList):
        t = container.has(x)
    elif isinstance(container, tuple | list | set | frozenset) and (
        is_symbolic(x) or any(is_symbolic(e) for e in container)
    ):
        if not all(_mergeable(e) for e in container) or not _mergeable(x):
            return (x not in container) if negate else (x in container)
        t = any_of(equal(e, x) for e in container)
    else:
        return (x not in container) if negate else (x in container)
    t = negation(t) if negate else t
    return truth(t)


def iterate(source: Any) -> Iterator[tuple[Any, Term]]:
    """The elements of ``source`` with their guards (for :func:`accumulate`)."""
    yield from _guarded(source)


def accumulate(guard: Term, new: Callable[[], Any], old: Any) -> Any:
    """One update of an accumulator in a merged loop: ``new()`` where ``guard`` holds,
    else ``old``; when the merged value cannot be formed, decide the guard (a fork)."""
    if guard == TRUE:
        return new()
    if guard == FALSE:
        return old
    ok, value = _attempt(new)
    if ok and _mergeable(value) and _mergeable(old):
        if isinstance(value, Sym) and value.term[0] in ("+", "-") and value.term[1] == term(old):
            # ite(g, old + x, old) is old + ite(g, x, 0): a flat sum, not a nested ite
            step = Sym(make("ite", guard, value.term[2], const(0)))
            return old + step if value.term[0] == "+" else old - step
        return ite_value(guard, value, old)
    return new() if _decide(guard) else old
