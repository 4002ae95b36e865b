"""A small path-enumerating symbolic executor for the model's pure rule functions.

The model's own Python code is run with proxy integers (:class:`Sym`) that wrap Z3
terms. Whenever the code needs a truth value of a symbolic condition (``if``, ``and``,
``any``, ``max``, ``in``, ``tuple.index`` ...), :meth:`Explorer.decide` *forks*: both
branches are explored when both are feasible under the path condition and the domain
(checked with Z3), the function being re-run from the start with the recorded prefix
of decisions (the idea CrossHair uses). Each complete run gives a :class:`Path`: its
path condition and its result, with :class:`Sym` values inside.

Soundness of the proxies (nothing is silently made concrete):

* ``+ - *``, unary minus, ``abs``, comparisons, ``bool``: exact Z3 terms;
* ``x & (2**k - 1)``, ``x >> k``, ``x // d``, ``x % d`` for concrete ``k >= 0`` and
  ``d > 0``: Z3's integer ``mod``/``div`` by a positive constant are Python's floor
  semantics exactly (so also for negative ``x``);
* ``int(x)``, ``operator.index(x)`` (indexing a table with ``x``) and ``hash(x)``: a
  **case split** over the values ``x`` can take under the path condition (each value a
  branch ``x == k``, the rest ``x != k``), so every value is explored;
* anything else (other bit operations, float conversion, ``x`` in a string format,
  more than :data:`VALUE_SPLIT_LIMIT` values in a case split) raises
  :class:`Unsupported`, and the path is reported as **not covered** with its
  condition, never given a made-up result.

A path on which the code raises any other exception is a path whose result is that
exception (the caller decides: the model raising on a valid input is a disagreement).

State merging: run on the *merged copy* of the model
(:mod:`tricklaw.proofs.merge_rewrite`), the code asks for fewer truth values: filters,
conditionals and sums become guarded lists and ``ite`` terms
(:mod:`tricklaw.proofs.merged`), which fork only where Python's protocols demand a
concrete answer, through :meth:`Explorer.decide` and :meth:`Explorer.split` as above.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import z3

from tricklaw.proofs import z3_direct
from tricklaw.proofs.symbolic_terms import TRUE, Term, const, evaluate, make, to_z3

VALUE_SPLIT_LIMIT = 64
"""At most this many values in one case split (``int``, ``index``, ``hash``)."""


class Unsupported(BaseException):
    """An operation the proxies cannot follow soundly (a BaseException, so that the
    model's own ``except Exception`` cannot swallow it)."""


@dataclass(frozen=True, slots=True)
class Step:
    """One decision on a path: the branch taken, and for a case split the value."""

    taken: bool
    value: int | None = None


@dataclass(frozen=True, slots=True)
class Path:
    """One complete run: the conditions it decided (each with the branch taken), and
    its result, or the exception the code raised, or why it could not be followed."""

    steps: tuple[tuple[Term, bool], ...]
    result: Any = None
    error: str = ""
    """The exception the code raised on this path (``repr``), if any."""
    unsupported: str = ""
    """Why the path could not be followed (then it is not covered)."""

    @property
    def condition(self) -> z3.BoolRef:
        """The path condition, as one Z3 formula."""
        return z3.And(*[to_z3(c if taken else make("not", c)) for c, taken in self.steps])


@dataclass
class Exploration:
    """Every path of one function over one domain, and what exploring them cost."""

    paths: list[Path] = field(default_factory=list)
    checks: int = 0
    seconds: float = 0.0
    complete: bool = True
    """False when the explorer's ``max_paths`` stopped the enumeration."""

    @property
    def covered(self) -> list[Path]:
        """The paths that ran to a result or an exception."""
        return [p for p in self.paths if not p.unsupported]

    @property
    def uncovered(self) -> list[Path]:
        """The paths the executor could not follow."""
        return [p for p in self.paths if p.unsupported]


def term(x: Any) -> Term:
    """``x`` (an int, a bool, a :class:`Sym` or :class:`SymBool`) as an integer term."""
    if isinstance(x, Sym):
        return x.term
    if isinstance(x, SymBool):
        return make("ite", x.term, const(1), const(0))
    if isinstance(x, bool | int):
        return const(int(x))
    raise Unsupported(f"no integer term for {type(x).__name__}")


def condition(x: Any) -> Term:
    """``x`` as a truth-valued term (Python's truthiness of a number: not zero)."""
    if isinstance(x, SymBool):
        return x.term
    if isinstance(x, Sym):
        return make("!=", x.term, const(0))
    if isinstance(x, bool | int):
        return const(bool(x))
    raise Unsupported(f"no truth value for {type(x).__name__}")


def _operand(x: Any) -> Term | None:
    if isinstance(x, Sym | SymBool | bool | int):
        return term(x)
    return None


def z3_value(x: Any) -> Any:
    """A result value (int, bool, None, :class:`Sym`, :class:`SymBool`) as a Z3 integer
    expression, or None for ``None``."""
    if x is None:
        return None
    return to_z3(term(x))


class Explorer:
    """Runs a function over symbolic inputs until every feasible path is known.

    Concolic bookkeeping: each run carries a concrete input satisfying the domain and
    its path condition so far. At a fork the branch that input takes is feasible
    without asking Z3; only the other branch is checked, and when it is feasible Z3's
    model is kept as the concrete input of that branch's later run.

    A condition already decided on the run (the same term, or its negation; ``a == b``
    for a fact ``a != b``) is not a new
    fork: its value is the one decided (the path condition implies it), so code that
    tests one condition twice does not double its paths. ``facts`` are conditions true
    on the whole domain (two cards of a trick differ): Z3 proves once that the domain
    implies them (else they are not used), and then they are decided on every run
    without a fork."""

    def __init__(
        self,
        domain: Sequence[z3.BoolRef],
        inputs: Sequence[str],
        max_paths: int = 50_000,
        facts: Sequence[Term] = (),
    ) -> None:
        self.domain = list(domain)
        self.inputs = list(inputs)
        """The names of the integer variables the symbolic inputs are built from."""
        self.max_paths = max_paths
        self._solver = z3.Solver()
        self._solver.add(*self.domain)
        self._prefix: list[Step] = []
        self._trace: list[Step] = []
        self._conds: list[Term] = []
        self._scoped: list[Term] = []
        self._env: dict[str, int] = {}
        self._pending: list[tuple[list[Step], dict[str, int]]] = []
        self._decided: dict[Term, bool] = {}
        self._variables = [to_z3(("v", n)) for n in self.inputs]
        self._values = z3_direct.ModelValues(self._variables)
        self._facts = list(facts)
        self._known: dict[Term, bool] = {}
        self.checks = 0

    # --- the forks ------------------------------------------------------------------

    def _other_side(self, cond: Term) -> dict[str, int] | None:
        """A concrete input taking this path and ``cond``, or None when there is none.
        (The solver calls go straight to Z3's C API, :mod:`~tricklaw.proofs.z3_direct`.)"""
        self.checks += 1
        extra = len(self._scoped) - len(self._trace)
        if extra > 0:  # scopes of the run before, past what this run has decided
            z3_direct.pop(self._solver, extra)
            del self._scoped[len(self._trace) :]
        z3_direct.push(self._solver)
        z3_direct.add(self._solver, to_z3(cond))
        answer = self._solver.check()
        env = None
        if answer == z3.sat:
            env = dict(zip(self.inputs, self._values.read(self._solver), strict=True))
        reason = self._solver.reason_unknown() if answer == z3.unknown else ""
        z3_direct.pop(self._solver)
        if answer == z3.unknown:
            raise Unsupported(f"Z3 could not decide a branch: {reason}")
        return env

    def _take(self, cond: Term, step: Step) -> None:
        """Record the decision; the solver keeps one scope per decision of the path, and
        a run reuses the scopes of the decisions it shares with the run before."""
        position = len(self._trace)
        self._trace.append(step)
        self._conds.append(cond)
        chosen = cond if step.taken else make("not", cond)
        self._decided[cond] = step.taken
        self._decided[make("not", cond)] = not step.taken
        if position < len(self._scoped) and self._scoped[position] == chosen:
            return
        if position < len(self._scoped):
            z3_direct.pop(self._solver, len(self._scoped) - position)
            del self._scoped[position:]
        z3_direct.push(self._solver)
        z3_direct.add(self._solver, to_z3(chosen))
        self._scoped.append(chosen)

    def decide(self, cond: Term, value: int | None = None) -> bool:
        """The truth value of ``cond`` on this path, forking when both are feasible."""
        if cond[0] == "k":
            return bool(cond[1])
        known = self._decided.get(cond)
        if known is not None:
            return known
        position = len(self._trace)
        if position < len(self._prefix):
            step = self._prefix[position]
            self._take(cond, step)
            return step.taken
        taken = bool(evaluate(cond, self._env))
        other = make("not", cond) if taken else cond
        env = self._other_side(other)
        if env is not None:
            self._pending.append(([*self._trace, Step(not taken, value)], env))
        self._take(cond, Step(taken, value))
        return taken

    def split(self, t: Term) -> int:
        """A value of ``t`` on this path: one branch per value ``t`` can take."""
        if t[0] == "k":
            return int(t[1])
        for _ in range(VALUE_SPLIT_LIMIT):
            position = len(self._trace)
            if position < len(self._prefix):
                recorded = self._prefix[position].value
                if recorded is None:
                    raise Unsupported("the replayed decisions do not match the run")
                k = recorded
            else:
                k = int(evaluate(t, self._env))  # the value the concrete input gives
            if self.decide(make("==", t, const(k)), k):
                return k
        raise Unsupported(f"more than {VALUE_SPLIT_LIMIT} values in a case split")

    # --- the runs -------------------------------------------------------------------

    def explore(self, run: Callable[[], Any]) -> Exploration:
        """Every path of ``run`` (which builds its symbolic inputs and calls the code)."""
        out = Exploration()
        start = time.perf_counter()
        if self._facts:
            self._known = self._proved_facts()
        first = self._other_side(TRUE)
        self._pending = [] if first is None else [([], first)]
        while self._pending:
            if len(out.paths) >= self.max_paths:
                out.complete = False
                break
            self._prefix, self._env = self._pending.pop()
            self._trace, self._conds, self._decided = [], [], dict(self._known)
            _ACTIVE.append(self)
            try:
                result = run()
                path = Path(self._steps(), result=result)
            except Unsupported as exc:
                path = Path(self._steps(), unsupported=str(exc))
            except Exception as exc:  # the code's own exception is this path's result
                path = Path(self._steps(), error=repr(exc))
            finally:
                _ACTIVE.pop()
            out.paths.append(path)
        if self._scoped:
            self._solver.pop(len(self._scoped))
            self._scoped = []
        forget_symbolic_keys()
        out.checks = self.checks
        out.seconds = time.perf_counter() - start
        return out

    def _proved_facts(self) -> dict[Term, bool]:
        """The facts (and their negations) as decided conditions, when the domain implies
        them all (one Z3 check); else none."""
        self.checks += 1
        claim = z3.Not(z3.And(*[to_z3(f) for f in self._facts]))
        if self._solver.check(claim) != z3.unsat:
            return {}
        known = {f: True for f in self._facts}
        known.update({make("not", f): False for f in self._facts})
        known.update({("==", *f[1:]): False for f in self._facts if f[0] == "!="})
        return known

    def _steps(self) -> tuple[tuple[Term, bool], ...]:
        return tuple((c, s.taken) for c, s in zip(self._conds, self._trace, strict=True))


def forget_symbolic_keys() -> None:
    """Empty every ``functools`` cache of the model's packages (``tricklaw`` and the plain
    copy of :mod:`tricklaw.proofs.plain`): the explored code may have called a cached
    helper with a :class:`Sym`, whose key would stay in the cache, and a later concrete
    call with an equal hash would compare with it outside any exploration."""
    for name, module in list(sys.modules.items()):
        if "tricklaw" not in name.split(".")[0]:
            continue
        for value in list(vars(module).values()):
            members = vars(value).values() if isinstance(value, type) else (value,)
            for member in members:
                clear = getattr(member, "cache_clear", None)
                if callable(clear):
                    clear()


_ACTIVE: list[Explorer] = []
"""The explorers running (innermost last): the one a symbolic value's fork goes to."""


def _explorer() -> Explorer:
    if not _ACTIVE:
        raise Unsupported("a symbolic value was used outside an exploration")
    return _ACTIVE[-1]


class SymBool:
    """A symbolic truth value; ``bool()`` of it forks."""

    __slots__ = ("term",)

    def __init__(self, t: Term) -> None:
        self.term = t

    def __repr__(self) -> str:
        return f"SymBool({self.term})"

    def __bool__(self) -> bool:
        return _explorer().decide(self.term)

    def __index__(self) -> int:
        return 1 if bool(self) else 0

    __int__ = __index__

    def __hash__(self) -> int:
        return hash(bool(self))

    def __eq__(self, other: object) -> Any:
        if isinstance(other, SymBool | bool):
            return SymBool(make("==", term(self), term(other)))
        return Sym(term(self)) == other

    def __ne__(self, other: object) -> Any:
        if isinstance(other, SymBool | bool):
            return SymBool(make("!=", term(self), term(other)))
        return Sym(term(self)) != other

    def __and__(self, other: Any) -> Any:
        if isinstance(other, SymBool | bool):
            return SymBool(make("and", self.term, condition(other)))
        return Sym(term(self)) & other

    __rand__ = __and__

    def __or__(self, other: Any) -> Any:
        if isinstance(other, SymBool | bool):
            return SymBool(make("or", self.term, condition(other)))
        raise Unsupported("bitwise or of a truth value and a number")

    __ror__ = __or__

    def __invert__(self) -> Any:
        return ~Sym(term(self))

    def __add__(self, other: Any) -> Any:
        return Sym(term(self)) + other

    def __radd__(self, other: Any) -> Any:
        return other + Sym(term(self))


def _cmp(op: str, swap: bool = False) -> Callable[[Sym, Any], Any]:
    def compare(self: Sym, other: Any) -> Any:
        o = _operand(other)
        if o is None:
            return NotImplemented
        return SymBool(make(op, o, self.term) if swap else make(op, self.term, o))

    return compare


def _arith(op: str, swap: bool = False) -> Callable[[Sym, Any], Any]:
    def combine(self: Sym, other: Any) -> Any:
        o = _operand(other)
        if o is None:
            return NotImplemented
        return Sym(make(op, o, self.term) if swap else make(op, self.term, o))

    return combine


class Sym:
    """A symbolic integer. ``parts = (high, low, k)`` records that the term equals
    ``high * 2**k + low`` with ``0 <= low < 2**k`` on the whole domain (a card:
    colour and value), so ``x >> k`` and ``x & (2**k - 1)`` give the parts."""

    __slots__ = ("parts", "term")

    def __init__(self, t: Term, parts: tuple[Term, Term, int] | None = None) -> None:
        self.term = t
        self.parts = parts

    def __repr__(self) -> str:
        return f"Sym({self.term})"

    # --- concrete views: case splits ---------------------------------------------------

    def __bool__(self) -> bool:
        return _explorer().decide(make("!=", self.term, const(0)))

    def __index__(self) -> int:
        return _explorer().split(self.term)

    __int__ = __index__

    def __hash__(self) -> int:
        return hash(self.__index__())

    def __float__(self) -> float:
        raise Unsupported("float() of a symbolic integer")

    def __format__(self, spec: str) -> str:
        raise Unsupported("a symbolic integer formatted as text")

    # --- comparisons and arithmetic ------------------------------------------------------

    def __eq__(self, other: object) -> Any:
        o = _operand(other)
        return False if o is None else SymBool(make("==", self.term, o))

    def __ne__(self, other: object) -> Any:
        o = _operand(other)
        return True if o is None else SymBool(make("!=", self.term, o))

    __lt__ = _cmp("<")
    __le__ = _cmp("<=")
    __gt__ = _cmp("<", swap=True)
    __ge__ = _cmp("<=", swap=True)
    __add__ = _arith("+")
    __radd__ = _arith("+", swap=True)
    __sub__ = _arith("-")
    __rsub__ = _arith("-", swap=True)
    __mul__ = _arith("*")
    __rmul__ = _arith("*", swap=True)

    def __neg__(self) -> Sym:
        return Sym(make("neg", self.term))

    def __pos__(self) -> Sym:
        return self

    def __abs__(self) -> Sym:
        return Sym(make("ite", make("<", self.term, const(0)), make("neg", self.term), self.term))

    @staticmethod
    def _positive(other: Any, what: str) -> int:
        if isinstance(other, int) and not isinstance(other, bool) and other > 0:
            return other
        raise Unsupported(f"{what} by {other!r} (only by a concrete positive integer)")

    def __floordiv__(self, other: Any) -> Sym:
        return Sym(make("div", self.term, const(self._positive(other, "floor division"))))

    def __mod__(self, other: Any) -> Sym:
        return Sym(make("mod", self.term, const(self._positive(other, "remainder"))))

    def __rshift__(self, other: Any) -> Sym:
        if not isinstance(other, int) or isinstance(other, bool) or other < 0:
            raise Unsupported("a shift by a symbolic or negative amount")
        if self.parts is not None and self.parts[2] == other:
            return Sym(self.parts[0])
        return Sym(make("div", self.term, const(1 << other))) if other else self

    def __and__(self, other: Any) -> Sym:
        if not isinstance(other, int) or isinstance(other, bool) or other < 0:
            raise Unsupported("bitwise and with a symbolic or negative mask")
        if other & (other + 1):
            raise Unsupported(f"bitwise and with {other} (only masks 2**k - 1)")
        if self.parts is not None and other == (1 << self.parts[2]) - 1:
            return Sym(self.parts[1])
        return Sym(make("mod", self.term, const(other + 1)))

    __rand__ = __and__

    def __or__(self, other: Any) -> Sym:
        raise Unsupported("bitwise or, xor or left shift of a symbolic integer")

    __ror__ = __or__
    __xor__ = __or__
    __rxor__ = __or__
    __lshift__ = __or__

    def __invert__(self) -> Sym:
        return Sym(make("-", make("neg", self.term), const(1)))


def variable(name: str) -> Sym:
    """The symbolic integer variable ``name`` (a Z3 ``Int`` of that name)."""
    return Sym(("v", name))


def card(colour: str, value: str, bits: int = 5) -> Sym:
    """A symbolic card ``colour << bits | value`` from the integer variables named
    ``colour`` and ``value``; the caller guarantees (by the domain) that
    ``0 <= value < 2**bits``."""
    high, low = ("v", colour), ("v", value)
    return Sym(make("+", make("*", high, const(1 << bits)), low), (high, low, bits))


def decision_tree(
    paths: Sequence[Path], leaf: Callable[[Path], Any], unknown: Callable[[], Any]
) -> Any:
    """One Z3 term for the code's result on every input: the paths' decisions as nested
    ``If``s, ``leaf(path)`` at each path's end. A branch no path took (Z3 found it
    infeasible while exploring), and a path whose ``leaf`` is None (not covered, or an
    exception), get ``unknown()``, a fresh unconstrained variable: a proof that the
    term equals something on the whole domain therefore also re-proves that those
    branches are unreachable, and never rests on the executor's word."""
    trie: dict[Any, Any] = {}
    for path in paths:
        node = trie
        for cond, taken in path.steps:
            node.setdefault("cond", cond)
            if node["cond"] != cond:
                raise ValueError("two paths decide different conditions after one prefix")
            node = node.setdefault(taken, {})
        node["leaf"] = path

    def build(node: dict[Any, Any]) -> Any:
        if "leaf" in node:
            value = leaf(node["leaf"])
            return unknown() if value is None else value
        if "cond" not in node:
            return unknown()
        yes = build(node[True]) if True in node else unknown()
        no = build(node[False]) if False in node else unknown()
        return z3.If(to_z3(node["cond"]), yes, no)

    return build(trie)
