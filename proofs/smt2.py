"""One solver query as an SMT-LIB 2 script that any solver can check again (and, by
:func:`tree_script`, a whole model = clauses proof as one incremental script).

:func:`script` writes tracked assertions (:class:`~tricklaw.proofs.solver.Tracked`) as
``(assert (! FORMULA :named CLAUSE-ID))`` (``CLAUSE-ID#k`` for a clause's k-th further
assertion), with ``(set-option :produce-unsat-cores true)``, the logic (``QF_LIA`` where
the query is quantifier-free linear integer arithmetic, ``QF_UFLIA`` where it declares
functions too, else ``ALL``), the declarations
of its constants and functions, ``(check-sat)``, and ``(get-unsat-core)`` when Z3's
answer was unsat.

Z3-only constructs are written in standard SMT-LIB first (:class:`Standardiser`), each by an
equivalent definition, so that a second solver (cvc5) reads the same question:

* pseudo-boolean constraints (``(_ pbeq ...)``, ``pble``, ``pbge``, ``at-most``,
  ``at-least``) become sums of ``ite``;
* Z3's set operations on arrays (``union``, ``subset``, ...), a mapped array (``(_ map f)``) or a
  ``lambda`` becomes a fresh array
  constant and the quantified definition of its every element (a definitional extension:
  satisfiable exactly when the original is).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import z3

NAMED_PREFIX = "smt2!"
"""The prefix of the constants :class:`Standardiser` introduces."""

_SETS: dict[int, Callable[[list[z3.BoolRef]], z3.BoolRef]] = {
    z3.Z3_OP_SET_UNION: lambda xs: z3.Or(*xs),
    z3.Z3_OP_SET_INTERSECT: lambda xs: z3.And(*xs),
    z3.Z3_OP_SET_DIFFERENCE: lambda xs: z3.And(xs[0], z3.Not(xs[1])),
    z3.Z3_OP_SET_COMPLEMENT: lambda xs: z3.Not(xs[0]),
}
"""Z3's set operations (sets are arrays to booleans), element by element."""
_UNIT: dict[int, Callable[[z3.Context], z3.ExprRef]] = {
    z3.Z3_OP_AND: lambda ctx: z3.BoolVal(True, ctx),
    z3.Z3_OP_OR: lambda ctx: z3.BoolVal(False, ctx),
    z3.Z3_OP_ADD: lambda ctx: z3.IntVal(0, ctx),
    z3.Z3_OP_MUL: lambda ctx: z3.IntVal(1, ctx),
}
"""Operators SMT-LIB applies to two or more arguments, with what Z3's nullary ones mean
(Z3 writes ``And()`` as a bare ``and`` and ``Sum([x])`` as ``(+ x)``)."""
_PB = {z3.Z3_OP_PB_EQ, z3.Z3_OP_PB_LE, z3.Z3_OP_PB_GE, z3.Z3_OP_PB_AT_MOST, z3.Z3_OP_PB_AT_LEAST}


class Standardiser:
    """Rewrites formulas into standard SMT-LIB, collecting the definitions it adds."""

    def __init__(self) -> None:
        self.definitions: list[z3.BoolRef] = []
        self._memo: dict[int, z3.ExprRef] = {}

    def __call__(self, e: z3.ExprRef) -> z3.ExprRef:
        key = e.get_id()
        if key not in self._memo:
            self._memo[key] = self._rewrite(e)
        return self._memo[key]

    def _fresh(self, sort: z3.SortRef) -> z3.ExprRef:
        return z3.Const(f"{NAMED_PREFIX}{len(self.definitions)}", sort)

    def _rewrite(self, e: z3.ExprRef) -> z3.ExprRef:
        if z3.is_quantifier(e):
            if e.is_lambda():
                return self._lambda(e)
            if _has_z3_only(e.body()):
                raise ValueError(f"a Z3-only construct under a quantifier: {e}")
            return e
        if not z3.is_app(e):
            return e
        kind = e.decl().kind()
        children = [self(c) for c in e.children()]
        if kind in _PB:
            return _pseudo_boolean(e, children)
        if kind in _UNIT and len(children) < 2:
            return children[0] if children else _UNIT[kind](e.ctx)
        if kind == z3.Z3_OP_ARRAY_MAP:
            return self._map(e, children, z3.get_map_func(e))
        if kind in _SETS:
            return self._map(e, children, _SETS[kind])
        if kind == z3.Z3_OP_SET_SUBSET:
            x = z3.Const(f"{NAMED_PREFIX}x", e.children()[0].sort().domain())
            small, large = (z3.Select(c, x) for c in children)
            return z3.ForAll([x], z3.Implies(small, large))
        if not children or all(a.eq(b) for a, b in zip(children, e.children(), strict=True)):
            return e
        return e.decl()(*children)

    def _define(self, array: z3.ExprRef, element: z3.ExprRef, x: z3.ExprRef) -> z3.ExprRef:
        self.definitions.append(z3.ForAll([x], z3.Select(array, x) == element))
        return array

    def _map(self, e: z3.ExprRef, children: list[z3.ExprRef], f: Any) -> z3.ExprRef:
        """The array ``e``, whose elements are ``f`` of the ``children``'s elements."""
        sort = e.sort()
        x = z3.Const(f"{NAMED_PREFIX}x", sort.domain())
        elements = [z3.Select(c, x) for c in children]
        element = f(*elements) if isinstance(f, z3.FuncDeclRef) else f(elements)
        return self._define(self._fresh(sort), element, x)

    def _lambda(self, e: z3.QuantifierRef) -> z3.ExprRef:
        if e.num_vars() != 1 or _has_z3_only(e.body()):
            raise ValueError(f"a lambda this writer cannot define: {e}")
        x = z3.Const(f"{NAMED_PREFIX}x", e.var_sort(0))
        fresh = self._fresh(e.sort())
        return self._define(fresh, z3.substitute_vars(e.body(), x), x)


def _pseudo_boolean(e: z3.ExprRef, children: list[z3.ExprRef]) -> z3.BoolRef:
    decl, kind = e.decl(), e.decl().kind()
    ctx = decl.ctx_ref()
    k = z3.Z3_get_decl_int_parameter(ctx, decl.ast, 0)
    if kind in (z3.Z3_OP_PB_AT_MOST, z3.Z3_OP_PB_AT_LEAST):
        weights = [1] * len(children)
    else:
        weights = [z3.Z3_get_decl_int_parameter(ctx, decl.ast, i + 1) for i in range(len(children))]
    total = z3.Sum([z3.If(c, w, 0) for c, w in zip(children, weights, strict=True)])
    if kind == z3.Z3_OP_PB_EQ:
        return total == k
    if kind in (z3.Z3_OP_PB_LE, z3.Z3_OP_PB_AT_MOST):
        return total <= k
    return total >= k


def _walk(roots: Iterable[z3.ExprRef]) -> Iterable[z3.ExprRef]:
    """Every sub-term of ``roots`` once (quantifier bodies included)."""
    seen: set[int] = set()
    stack = list(roots)
    while stack:
        e = stack.pop()
        if e.get_id() in seen:
            continue
        seen.add(e.get_id())
        yield e
        if z3.is_quantifier(e):
            stack.append(e.body())
        elif z3.is_app(e):
            stack.extend(e.children())


def _has_z3_only(e: z3.ExprRef) -> bool:
    z3_only = _PB | _SETS.keys() | {z3.Z3_OP_ARRAY_MAP, z3.Z3_OP_SET_SUBSET}
    return any(
        (z3.is_app(t) and t.decl().kind() in z3_only) or (z3.is_quantifier(t) and t.is_lambda())
        for t in _walk([e])
    )


NULLARY = re.compile(r"\(declare-fun (\|[^|]*\||\S+) \(\) (Int|Bool)\)$")
"""A declaration of an integer or Boolean constant, as Z3 writes it."""


def logic(formulas: Sequence[z3.ExprRef], declared: Sequence[str]) -> str:
    """``QF_LIA`` when the formulas are quantifier-free linear integer arithmetic over the
    integer and Boolean constants ``declared`` (the script's declaration lines),
    ``QF_UFLIA`` when functions are declared too, else ``ALL``. Z3's ``is-qflia`` probe
    decides the arithmetic, on the formulas as its ``simplify`` tactic states them: the
    probe alone refuses a subtraction or a negation (``x - y``, ``(- 1)``), and a script
    declared ``ALL`` that is linear arithmetic takes cvc5 up to a hundred times longer
    (18 s against 0.19 s for a score proof of Hund with 5 players). A query that
    ``simplify`` settles (to false) passes the probe whatever it holds, functions too
    (the edition diff's ``held_at``): the declarations tell those apart. A term that
    ``simplify`` removed and the logic forbids would make cvc5 refuse the script: an
    error, never a silent pass."""
    ctx = formulas[0].ctx if formulas else None
    goal = z3.Goal(ctx=ctx)
    goal.add(*formulas)
    probe = z3.Probe("is-qflia", ctx)
    linear = probe(goal) == 1.0 or all(
        probe(g) == 1.0 for g in z3.Tactic("simplify", ctx)(goal)
    )
    if not linear or any(not line.startswith("(declare-fun ") for line in declared):
        return "ALL"
    return "QF_LIA" if all(NULLARY.match(line) for line in declared) else "QF_UFLIA"


def declarations(formulas: Sequence[z3.ExprRef]) -> list[str]:
    """The declarations of the constants and functions of ``formulas``, as Z3 writes
    them (every line of its script before the first assertion)."""
    solver = z3.Solver(ctx=formulas[0].ctx) if formulas else z3.Solver()
    solver.add(*formulas)
    lines = []
    for line in solver.sexpr().splitlines():
        if line.startswith("(assert"):
            break
        lines.append(line)
    return lines


def symbol(name: str) -> str:
    """``name`` as an SMT-LIB symbol: bare when it is a simple symbol, else ``|quoted|``."""
    simple = all(ch.isalnum() or ch in "~!@$%^&*_-+=<>.?/" for ch in name)
    if name and simple and not name[0].isdigit():
        return name
    return "|" + name.replace("|", "/").replace("\\", "/") + "|"


Z3_ONLY = re.compile(
    r"\(_ (?:pbeq|pble|pbge|at-most|at-least|map)\b|\b(?:lambda|union|intersection|setminus|"
    r"complement|subset)\b"
)
"""What, in Z3's text of a formula, may be a Z3-only construct (:class:`Standardiser`
then rewrites the formula; a false alarm only costs that time)."""

_TOKEN = re.compile(r"\(|\)|\|[^|]*\||[^\s()|]+")


def restated(text: str) -> str:
    """Z3's ``text`` of a formula with each ``and``/``or``/``+``/``*`` of fewer than two
    arguments restated as SMT-LIB has it (one argument: that argument; none: the unit,
    ``true``, ``false``, ``0`` or ``1``), and a bare ``and``/``or`` (Z3's text of a nullary
    one) as ``true``/``false``: the same formula, which a second solver reads. ``text``
    itself when there is nothing to restate.

    A scan of the text's tokens, not a walk of the formula: Z3's Python API costs about
    0.4 ms a node, and the largest formulas (a proof's whole encoding, shared by its
    thousands of branches) have hundreds of thousands; the scan takes about a microsecond a
    token. Quoted symbols (``|...|``) are single tokens, so a name is never mistaken for
    an operator. A formula with a Z3-only construct (:data:`Z3_ONLY`) goes through
    :class:`Standardiser` instead, which also restates these."""
    out: list[str] = []
    frames: list[list[Any]] = []  # [operator, arguments, index in out of "(", of 1st arg]
    end = 0
    changed = False
    for match in _TOKEN.finditer(text):
        token = match.group()
        out.append(text[end : match.start()])
        end = match.end()
        if token == "(":
            if frames:
                frames[-1][1] += 1
            frames.append([None, 0, len(out), 0])
            out.append(token)
        elif token == ")":
            op, args, start, first = frames.pop()
            if op in _VARIADIC and args < 2:
                argument = "".join(out[first:]).strip() if args else _UNIT_TEXT[op]
                del out[start:]
                out.append(argument)
                changed = True
            else:
                out.append(token)
        elif frames and frames[-1][0] is None and frames[-1][1] == 0:
            frames[-1][0] = token
            out.append(token)
            frames[-1][3] = len(out)
        else:
            if token in ("and", "or"):
                token = _UNIT_TEXT[token]
                changed = True
            if frames:
                frames[-1][1] += 1
            out.append(token)
    if not changed:
        return text
    out.append(text[end:])
    return "".join(out)


_UNIT_TEXT = {"and": "true", "or": "false", "+": "0", "*": "1"}
"""What SMT-LIB writes for each of :data:`_VARIADIC` applied to nothing."""


_VARIADIC = frozenset({"and", "or", "+", "*"})


def script(
    named: Sequence[tuple[str, z3.BoolRef]],
    answer: str,
    comments: Sequence[str] = (),
    cache: dict[int, tuple[z3.ExprRef, str]] | None = None,
) -> str:
    """The SMT-LIB 2 script of the query "these named assertions", whose Z3 ``answer``
    (``sat``, ``unsat`` or ``unknown``) it records in ``:status``. ``cache`` keeps the
    text of formulas already written (by Z3's id; the formula is kept alive with it)."""
    rewrite = Standardiser()
    formulas, texts = [], []
    for _, formula in named:
        if cache is not None and formula.get_id() in cache:
            formulas.append(formula)
            texts.append(cache[formula.get_id()][1])
            continue
        text = formula.sexpr()
        if Z3_ONLY.search(text):
            standard = rewrite(formula)
            text = standard.sexpr() if not standard.eq(formula) else text
        else:
            standard, text = formula, restated(text)
            if cache is not None:
                cache[formula.get_id()] = (formula, text)
        formulas.append(standard)
        texts.append(text)
    definitions = list(rewrite.definitions)
    body = [*definitions, *formulas]
    lines = [f"; {c}" for c in comments]
    lines += [
        "(set-option :produce-unsat-cores true)",
        f"(set-info :status {answer})",
    ]
    declared = declarations(body)
    lines += [f"(set-logic {logic(body, declared)})", *declared]
    lines += [f"(assert {d.sexpr()})" for d in definitions]
    for (name, _), text in zip(named, texts, strict=True):
        lines.append(f"(assert (! {text} :named {symbol(name)}))")
    lines.append("(check-sat)")
    if answer == "unsat":
        lines.append("(get-unsat-core)")
    lines.append("(exit)")
    return "\n".join(lines) + "\n"


Command = tuple[str, z3.BoolRef | None]
"""One command of an incremental script (:func:`tree_script`): ``("push", None)``,
``("pop", None)``, ``("check", None)``, ``("assert", formula)``, ``("assert-not",
formula)`` (written ``(assert (not F))`` with the very text of ``F``, so that a reader can
match the two sides of a decision), or ``("claim", formula)`` (an assertion named
:data:`CLAIM`, the claim a leaf's ``check-sat`` refutes)."""

CLAIM = "claim:outputs-differ"
"""The name of every leaf claim of a :func:`tree_script`."""


def one_line(text: str) -> str:
    """Z3's text of a formula on one line (its symbols hold no white space)."""
    return " ".join(text.split())


def tree_script(
    named: Sequence[tuple[str, z3.BoolRef]],
    commands: Sequence[Command],
    answer: str,
    comments: Sequence[str] = (),
) -> str:
    """An incremental SMT-LIB 2 script: the ``named`` assertions (``CLAUSE-ID`` names), then
    ``commands``, one a line (``(push 1)``, ``(pop 1)``, ``(check-sat)``, ``(assert F)``,
    ``(assert (not F))``, ``(assert (! F :named |claim:outputs-differ|))``). ``answer`` is
    Z3's answer to the last ``check-sat``; every earlier one was ``unsat``. The formulas
    must be free of Z3-only constructs (the equivalence proofs' are: linear integer terms)."""
    formulas = [f for _, f in named] + [f for _, f in commands if f is not None]
    texts: dict[int, str] = {}
    rewrite = Standardiser()
    head, printed = _printed([f for _, f in named])
    for f, text in zip([f for _, f in named], printed, strict=True):
        texts[f.get_id()] = text
    for f in formulas:
        if f.get_id() not in texts:
            texts[f.get_id()] = f.sexpr()
    for key, printed_text in texts.items():
        text = printed_text
        if Z3_ONLY.search(text):  # a pseudo-boolean is restated (a set would fail below)
            f = next(g for g in formulas if g.get_id() == key)
            text = rewrite(f).sexpr()
        texts[key] = one_line(restated(text))
    if rewrite.definitions:
        raise ValueError("a Z3-only construct that needs a definition, in a tree script")
    lines = [f"; {c}" for c in comments]
    lines += [f"(set-info :status {answer})", f"(set-logic {logic(formulas, head)})", *head]
    lines += [f"(assert (! {texts[f.get_id()]} :named {symbol(n)}))" for n, f in named]
    claim = symbol(CLAIM)
    for kind, formula in commands:
        if kind in ("push", "pop"):
            lines.append(f"({kind} 1)")
        elif kind == "check":
            lines.append("(check-sat)")
        elif formula is not None:
            text = texts[formula.get_id()]
            if kind == "claim":
                text = f"(! {text} :named {claim})"
            elif kind == "assert-not":
                text = f"(not {text})"
            lines.append(f"(assert {text})")
    lines.append("(exit)")
    return "\n".join(lines) + "\n"



def _printed(formulas: Sequence[z3.BoolRef]) -> tuple[list[str], list[str]]:
    """Z3's script of ``formulas`` (printed once): its declarations, and each formula's
    text. The declarations are those of the background: the decisions and claims of a
    tree script speak of its inputs and outputs, which the background constrains (a
    constant missing from them is a parse error for the second solver, never a pass)."""
    solver = z3.Solver(ctx=formulas[0].ctx) if formulas else z3.Solver()
    solver.add(*formulas)
    commands = [m.group(1).strip() for m in _TOP.finditer(_top_level(solver.sexpr()))]
    head = [c for c in commands if not c.startswith("(assert")]
    body = [c[len("(assert") : -1].strip() for c in commands if c.startswith("(assert")]
    if len(body) != len(formulas):  # Z3 merged or split assertions: print each alone
        body = [f.sexpr() for f in formulas]
    return head, body


_TOP = re.compile(r"\x00([^\x00]*)")


def _top_level(text: str) -> str:
    """``text`` with a NUL before each top-level s-expression (quoted symbols and
    comments respected, comments dropped), for :data:`_TOP` to split."""
    out, depth = [], 0
    for match in _SCAN.finditer(text):
        token = match.group()
        if token[0] == ";":
            continue
        if token == "(":
            if depth == 0:
                out.append("\x00")
            depth += 1
        elif token == ")":
            depth -= 1
        out.append(token)
    return "".join(out)


_SCAN = re.compile(r"\|[^|]*\|?|;[^\n]*|[()]|[^()|;]+")
"""The pieces of a script :func:`_top_level` tells apart: a quoted symbol, a comment (to
the line's end), a parenthesis, and any run of other characters."""
