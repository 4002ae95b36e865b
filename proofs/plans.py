"""The witness planners: for each ruleset, a round in which seat 0 makes the least or
the greatest score, as a :class:`~tricklaw.proofs.witnesses.Plan`.

Each planner reads the game's options (the reading a bound is proved under): the deck
it deals, the trick judge and the follow rule it lays tricks out with
(:func:`~tricklaw.proofs.witnesses.table_of`), and the scoring rule it aims at. The
plans are designed from the rules (and, for Sticheln, from the relaxation's optimum);
:func:`~tricklaw.proofs.witnesses.drive` replays them through the model, and only the
replayed score counts.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from tricklaw.model import actions
from tricklaw.model.cards import Card, colour_of, make_card, value_of
from tricklaw.model.rulesets import hund as hund_rules
from tricklaw.model.rulesets import the_last as last_rules
from tricklaw.model.rulesets.sticheln import HAND_SIZE as STICHELN_HAND
from tricklaw.model.state import Deal, Game
from tricklaw.model.trick import TrickResult
from tricklaw.proofs.witnesses import (
    SEAT,
    Accept,
    Judge,
    Plan,
    Table,
    TrickSpec,
    by_colour_desc,
    chunks,
    deck_shape,
    first_leader,
    judge_seat,
    lay_out,
    loses,
    mono_chunks,
    table_of,
    takes_nothing,
    wins,
)
from tricklaw.spec.errors import TricklawError

# --- Sticheln witnesses ------------------------------------------------------------------

PLAN_TRIES = 40
"""How many alternatives a plan tries at each choice it makes (Sticheln: the won and the
lost tricks; The Last: the points piles and the cuts into tricks)."""


def _sticheln_winnable(judge: Judge, cards: Sequence[Card]) -> bool:
    """Whether seat 0 can win a trick of ``cards``: leading it, or playing right after
    another seat's lead (so that it is the earliest of equal trumps, STI93-TRICK-6,
    STI-TRICK-3)."""
    pool = sorted(cards)
    for own in pool:
        rest = [c for c in pool if c != own]
        if judge((own, *rest)).winner == 0:
            return True
        for lead in rest:
            others = [c for c in rest if c != lead]
            if judge((lead, own, *others)).winner == 1:
                return True
    return False


def _pick_subsets(
    winnable: Callable[[Sequence[Card]], bool],
    pool: list[Card],
    required: list[Card],
    count: int,
    size: int,
) -> Iterator[list[list[Card]]]:
    """``count`` disjoint tricks of ``size`` cards from ``pool`` that seat 0 can win,
    together holding every card of ``required`` (in ``pool`` order)."""
    if count == 0:
        if not required:
            yield []
        return
    for combo in itertools.combinations(pool, size):
        if required and required[0] not in combo:
            continue
        if not winnable(combo):
            continue
        rest_pool = [c for c in pool if c not in combo]
        rest_required = [c for c in required if c not in combo]
        for more in _pick_subsets(winnable, rest_pool, rest_required, count - 1, size):
            yield [list(combo), *more]


def _sticheln_won(
    judge: Judge, others: list[Card], taken: list[Card], tricks: int, n: int
) -> Iterator[list[list[Card]]]:
    """Compositions of the tricks seat 0 wins: the misery cards ``taken`` (highest first)
    in mono-colour tricks, the few left over with fillers of other colours (zeros first,
    which are never trumps, STI93-TRICK-2 / STI-TRICK-4), and mono-colour tricks of other
    colours for the rest; mixed tricks of the cards left over where those run short."""

    def winnable(cards: Sequence[Card]) -> bool:
        return _sticheln_winnable(judge, cards)

    misery_full, misery_rest = chunks(taken, n)
    low = sorted(others, key=lambda c: (value_of(c), c))[: 2 * n]
    pool = misery_rest + sorted(low, key=lambda c: (value_of(c) != 0, c))
    fillers = _pick_subsets(winnable, pool, misery_rest, 1 if misery_rest else 0, n)
    for filler in itertools.islice(fillers, 4):
        used = {c for trick in filler for c in trick}
        mono, rest = mono_chunks([c for c in others if c not in used], n)
        need = tricks - len(misery_full) - len(filler)
        if need <= len(mono):
            yield misery_full + filler + mono[:need]
            continue
        spare = sorted(rest, key=lambda c: (value_of(c) == 0, -value_of(c), c))
        for extra in itertools.islice(_pick_subsets(winnable, spare, [], need - len(mono), n), 8):
            yield misery_full + filler + mono + extra


def _sticheln_lost(
    left: list[Card], lost: int, n: int, dealt_all: bool
) -> Iterator[tuple[list[list[Card]], tuple[Card, ...], list[Card]]]:
    """Ways to play the cards seat 0 does not win: (lost tricks, the other seats' picks,
    cards set aside). A deck dealt out (``dealt_all``) loses every card: mono-colour tricks,
    and the cards left over between the picks and mixed tricks. A larger deck (``deck=full``
    with fewer than six players, STI93-D-DECK) deals only what the plan needs: ``lost``
    mono-colour tricks, ``n - 1`` picks, and the rest set aside."""
    mono, leftover = mono_chunks(left, n)
    if not dealt_all:
        if lost <= len(mono):
            rest = [c for c in left if all(c not in t for t in mono[:lost])]
            yield mono[:lost], tuple(rest[: n - 1]), rest[n - 1 :]
        return
    leftover.sort(key=lambda c: (-value_of(c), c))
    for picks in itertools.islice(itertools.combinations(leftover, n - 1), PLAN_TRIES):
        mixed, spare = chunks([c for c in leftover if c not in picks], n)
        if not spare:
            yield mono + mixed, picks, []


def sticheln_plan(game: Game, hint: Mapping[str, Any]) -> Plan | None:
    """A Sticheln round realising the relaxation's optimum ``hint``: seat 0 picks the
    misery card of value ``pick``, wins ``tricks`` tricks holding the misery cards
    ``taken`` and ``others`` cards of other colours, and takes nothing from the others.

    The won and lost tricks are composed (``_sticheln_won``, ``_sticheln_lost``)
    and laid out in an order the search finds, under the game's trick judge and follow
    rule: tricks seat 0 can only win by trumping come after a trick another seat won, and
    a trick with cards off the lead colour comes once the seats playing them can have
    none of it (dispute ``follow``, STI93-D-FOLLOW)."""
    n = game.players
    table = table_of(game)
    deck = list(game.ruleset.deck(n, game.options))
    colours, _ = deck_shape(game.ruleset, game)
    misery = colours[0]
    pick = make_card(misery, hint["pick"])
    taken = [make_card(misery, v) for v in sorted(hint["taken"], reverse=True)]
    others = [c for c in deck if colour_of(c) != misery]
    tricks = hint["tricks"]
    lost_count = STICHELN_HAND - 1 - tricks
    dealt_all = len(deck) == STICHELN_HAND * n
    for won in itertools.islice(_sticheln_won(table.judge, others, taken, tricks, n), PLAN_TRIES):
        won_cards = {c for trick in won for c in trick}
        left = [c for c in deck if c != pick and c not in won_cards]
        for lost, others_picks, aside in _sticheln_lost(left, lost_count, n, dealt_all):
            plan = _sticheln_layout(
                game, table, won, lost, picks=(pick, *others_picks), aside=aside
            )
            if plan is not None:
                return plan
    return None


def _sticheln_layout(
    game: Game,
    table: Table,
    won: list[list[Card]],
    lost: list[list[Card]],
    *,
    picks: Sequence[Card],
    aside: Sequence[Card],
) -> Plan | None:
    specs = [TrickSpec(tuple(t), wins(SEAT)) for t in won]
    specs += [TrickSpec(tuple(t), takes_nothing(SEAT)) for t in lost]
    tricks = lay_out(table, specs, first_leader=first_leader(game), ordered=False)
    if tricks is None:
        return None
    chosen = dict(enumerate(picks))
    hands = tuple(tuple(sorted([chosen[s], *[t[s] for t in tricks]])) for s in range(game.seats))
    piles = (("aside", tuple(sorted(aside))),) if aside else ()
    return Plan(Deal(hands, piles), tricks, chosen)


# --- lowhigh witnesses -------------------------------------------------------------------


def lowhigh_plan(game: Game, maximize: bool) -> Plan:
    """A lowhigh round of mono-colour tricks (everyone follows the lead colour; each
    colour holds ``3n`` values, three tricks of ``n``; no trick has one value throughout,
    so dispute ``same-card`` never comes up).

    Greatest: in each colour seat 0 plays the lowest card of two tricks whose highest
    cards are the colour's top two values, so it gains exactly those two cards (LH-TRICK-4)
    and scores their sum; in the third trick it plays a middle card and gains nothing.
    Least: seat 0 plays a middle card in every trick and gains nothing."""
    n = game.players
    specs: list[TrickSpec] = []
    for cards in by_colour_desc(game.ruleset.deck(n, game.options)).values():
        asc = sorted(cards)
        if not maximize:
            specs += [
                TrickSpec(tuple(asc[i : i + n]), takes_nothing(SEAT)) for i in range(0, 3 * n, n)
            ]
            continue
        top, second = asc[-1], asc[-2]
        first = (top, asc[0], *asc[2:n])
        other = (second, asc[1], *asc[n : 2 * n - 2])
        middle = tuple(c for c in asc if c not in first and c not in other)
        specs += [
            TrickSpec(first, _gains_exactly(SEAT, (top,))),
            TrickSpec(other, _gains_exactly(SEAT, (second,))),
            TrickSpec(middle, takes_nothing(SEAT)),
        ]
    tricks = lay_out(table_of(game), specs, first_leader=first_leader(game), ordered=True)
    if tricks is None:
        raise TricklawError("no layout for the lowhigh plan")
    hands = tuple(tuple(sorted(t[s] for t in tricks)) for s in range(n))
    return Plan(Deal(hands), tricks)


def _gains_exactly(seat: int, cards: tuple[Card, ...]) -> Accept:
    return lambda _winner, taken: tuple(sorted(taken.get(seat, ()))) == tuple(sorted(cards))


# --- The Last witnesses ------------------------------------------------------------------


def _compositions(total: int, parts: int, cap: int) -> Iterator[tuple[int, ...]]:
    """Every way to write ``total`` as ``parts`` numbers in ``0..cap``."""
    if parts == 1:
        if 0 <= total <= cap:
            yield (total,)
        return
    for first in range(min(total, cap) + 1):
        for rest in _compositions(total - first, parts - 1, cap):
            yield (first, *rest)


def _last_points(game: Game, maximize: bool) -> Iterator[list[Card]]:
    """Candidate points piles, top first. Greatest penalty: the highest cards where they
    can count (the ``H`` turned up; under ``unused-points=last-winner`` the whole pile,
    LAST-D-UNUSED), which of several equal values tried in turn, then fillers, each
    colour's highest remaining cards. Least: any numbers of cards per colour."""
    deck = list(game.ruleset.deck(game.players, game.options))
    hand = last_rules.HAND_SIZE[game.players]
    size = len(deck) - game.seats * hand
    counted = size if game.rules.unused_to_last_winner else hand
    colours = sorted({colour_of(c) for c in deck})
    if not maximize:
        for counts in _compositions(size, len(colours), 12):
            by_colour = by_colour_desc(deck)
            yield [
                c for colour, n in zip(colours, counts, strict=True) for c in by_colour[colour][:n]
            ]
        return
    ranked = sorted(deck, key=lambda c: -value_of(c))
    edge = value_of(ranked[counted - 1])
    sure = [c for c in deck if value_of(c) > edge]
    ties = [c for c in deck if value_of(c) == edge]
    for chosen in itertools.combinations(ties, counted - len(sure)):
        turned = sure + list(chosen)
        rest = by_colour_desc([c for c in deck if c not in turned])
        for counts in _compositions(size - counted, len(colours), 12):
            if any(
                n > len(rest.get(colour, [])) for colour, n in zip(colours, counts, strict=True)
            ):
                continue
            fill = [c for colour, n in zip(colours, counts, strict=True) for c in rest[colour][:n]]
            yield turned + fill


def _last_tricks(
    table: Table, cards: list[Card], seats: int, maximize: bool
) -> Iterator[list[list[Card]]]:
    """Ways to cut the cards played into tricks: mono-colour tricks (everyone can follow,
    LAST-PLAY-2/3, under either ``last-play`` reading) and the few left over as one more
    trick. For the greatest penalty seat 0 leads and wins every trick, which a trick of
    several colours allows only if its last card has the leader's colour (LAST-TRICK-2):
    the cards left over are then regrouped with one or two mono-colour tricks into
    tricks of that shape."""
    mono, leftover = mono_chunks(cards, seats)
    if len(leftover) in (0, seats) and not (maximize and len({colour_of(c) for c in leftover}) > 1):
        yield [*mono, *([leftover] if leftover else [])]
    if not maximize or not leftover:
        return

    def winnable(trick: Sequence[Card]) -> bool:
        return any(table.judge(perm).winner == 0 for perm in itertools.permutations(trick))

    for dissolved in (1, 2):
        for picked in itertools.combinations(range(len(mono)), dissolved):
            pool = leftover + [c for i in picked for c in mono[i]]
            kept = [t for i, t in enumerate(mono) if i not in picked]
            count = len(pool) // seats
            for mixed in itertools.islice(_pick_subsets(winnable, pool, [], count, seats), 4):
                yield kept + mixed


def last_plan(game: Game, maximize: bool) -> Plan | None:
    """A round of The Last, seat 0 leading the first trick.

    Greatest penalty: the points pile holds the highest cards (``_last_points``);
    seat 0 wins every trick, the last one included (so that under
    ``unused-points=last-winner`` the cards never turned up are his too), holding the
    highest card of the winning colour (LAST-TRICK-2/3), and keeps every points card
    face down. Least: seat 0 never holds the winning card and lays nothing down. The
    tricks are cut as ``_last_tricks`` says and laid out in an order where every
    card is legal. With two players the ghost (seat 2) gets its pile in the order of its
    plays: its top card is always one it may play, so both ``ghost-play`` readings play
    it."""
    seats = game.seats
    table = table_of(game)
    accept = wins(SEAT) if maximize else loses(SEAT)
    deck = list(game.ruleset.deck(game.players, game.options))
    for points in itertools.islice(_last_points(game, maximize), PLAN_TRIES):
        played = [c for c in deck if c not in points]
        for cut in itertools.islice(_last_tricks(table, played, seats, maximize), PLAN_TRIES):
            specs = [TrickSpec(tuple(c), accept) for c in cut]
            tricks = lay_out(table, specs, first_leader=SEAT, ordered=False)
            if tricks is None:
                continue
            hands = [tuple(sorted(t[s] for t in tricks)) for s in range(game.players)]
            piles: list[tuple[str, tuple[Card, ...]]] = []
            if game.players == 2:
                hands.append(())
                piles.append(("ghost", tuple(t[last_rules.GHOST] for t in tricks)))
            piles.append(("points", tuple(points)))
            return Plan(Deal(tuple(hands), tuple(piles), first_leader=SEAT), tricks)
    return None


# --- Hund witnesses ----------------------------------------------------------------------

TRUMP_SUIT, PLUS_SUIT, HUND_SUIT, MINUS_SUIT, LEAD_SUIT = range(5)
"""The suits the Hund plans give the powers (in power order: red Trump, ..., purple Lead):
each suit's first trick, in this order, holds the first card that assigns it a power."""
DESIGNATION = 5
"""The designated number of the Hund witnesses' round in the base game (round 1 may draw
any of 1-5; under ``designation=ascending`` it is 1)."""


def _hund_designation(game: Game) -> tuple[int | None, tuple[Card, ...]]:
    """The witness round's designated number (base game), or its designation sets
    (``designation-mode=sets``, HUND-OPT-2): suit ``i`` names the ``i``-th lowest value,
    so the five sets have different suits and values."""
    rules: hund_rules.Rules = game.rules
    if not rules.sets:
        return (1 if rules.ascending else DESIGNATION), ()
    values = list(hund_rules.HUND_RULESET.values(game.players, rules))
    return None, tuple(make_card(suit, values[suit]) for suit in range(5))


def _hund_matches(game: Game, number: int | None, sets: tuple[Card, ...]) -> Callable[[Card], bool]:
    """Whether a card assigns a power in the witness round (HUND-DESIG-1, HUND-OPT-2)."""
    powers = hund_rules.Powers("", number, sets, (), -1, -1, ())
    return lambda card: hund_rules.matches(card, powers, game.rules)


def _hund_groups(
    game: Game, suit: int, first: Card, matches: Callable[[Card], bool]
) -> list[list[Card]]:
    """The suit's cards as mono-suit tricks of one card a seat: the first holds ``first``
    (a card that assigns the suit its power) and the highest cards that assign nothing,
    so that it assigns one power only (``set-repeat=stack`` could stack more); the rest
    follow from the highest down, the last trick ascending."""
    seats = game.seats
    values = hund_rules.HUND_RULESET.values(game.players, game.rules)
    desc = [make_card(suit, v) for v in sorted(values, reverse=True) if v != value_of(first)]
    fill = sorted(desc, key=lambda c: (matches(c), -value_of(c)))[: seats - 1]
    rest = [c for c in desc if c not in fill]
    groups = [[first, *fill], *chunks(rest, seats)[0]]
    groups[-1] = sorted(groups[-1])
    return groups


def _hund_award(game: Game) -> str:
    """How the greatest-score plan earns seat 0 the Hund award (HUND-FACT-3): ``between``
    the most and the fewest Hund cards, which takes three seats compared; with two (the
    virtual player ignored, HUND-D-VIRTUALHUND) a ``tie`` scores under
    ``hund-tie=scores`` (HUND-D-HUNDTIE), and otherwise no award is possible."""
    rules: hund_rules.Rules = game.rules
    compared = game.seats - (1 if game.players == 2 and not rules.virtual_in_hund else 0)
    if compared >= 3 or rules.hund_tie_excludes:
        return "between"
    return "tie"


def _hund_winners(virtual: int | None) -> tuple[Accept, Accept]:
    """Trick outcomes the Hund plans accept: some player wins (never the virtual
    player, so that it never leads), and some player other than seat 0 wins."""
    barred = (None,) if virtual is None else (None, virtual)

    def anyone(winner: int | None, _taken: Mapping[int, tuple[Card, ...]]) -> bool:
        return winner not in barred

    def other(winner: int | None, _taken: Mapping[int, tuple[Card, ...]]) -> bool:
        return winner not in (SEAT, *barred)

    return anyone, other


def _hund_specs(
    groups: Mapping[int, list[list[Card]]], maximize: bool, award: str, virtual: int | None
) -> list[TrickSpec] | None:
    """The tricks of a Hund plan, each suit's first trick first (in power order).

    Least: seat 0 wins every Minus and every Hund trick and no Plus trick: ``-S``, and
    its Hund count is the unique most, which scores under neither ``hund-tie`` reading.
    Greatest: seat 0 wins every Plus trick and no Minus card. For the award ``between``,
    seat 1 wins the Hund tricks but the last, then (having won the last Minus trick)
    leads a Hund card to a trick which seat 0, void in Hund, trumps, taking ``s-1`` Hund
    cards; seat 0 leads its lowest trump to the last trick and loses it with the last
    Hund card: seat 0 has ``s-1`` Hund cards, seat 1 at least ``s``, the others at most
    one. For a ``tie``, seats 0 and 1 win the same number of Hund tricks. The virtual
    player never wins a trick."""
    anyone, other = _hund_winners(virtual)

    def specs(suit: int, accept: Accept, picked: slice) -> list[TrickSpec]:
        return [TrickSpec(tuple(g), accept) for g in groups[suit][picked]]

    first = [slice(0, 1), slice(1, None)]
    trump, hund, minus = groups[TRUMP_SUIT], groups[HUND_SUIT], groups[MINUS_SUIT]
    if not maximize:
        rule = {TRUMP_SUIT: anyone, PLUS_SUIT: other, HUND_SUIT: wins(SEAT)}
        rule |= {MINUS_SUIT: wins(SEAT), LEAD_SUIT: anyone}
        return [spec for part in first for s in range(5) for spec in specs(s, rule[s], part)]
    head = [
        *specs(TRUMP_SUIT, anyone, first[0]),
        *specs(PLUS_SUIT, wins(SEAT), first[0]),
        *specs(HUND_SUIT, wins(1), first[0]),
        *specs(MINUS_SUIT, other, first[0]),
        *specs(LEAD_SUIT, anyone, first[0]),
        *specs(PLUS_SUIT, wins(SEAT), first[1]),
        *specs(LEAD_SUIT, anyone, first[1]),
    ]
    if award == "tie":
        if len(hund) % 2:
            return None
        split = [TrickSpec(tuple(g), wins(i % 2)) for i, g in enumerate(hund[1:])]
        rest = [*specs(TRUMP_SUIT, anyone, first[1]), *specs(MINUS_SUIT, other, first[1])]
        return [*head, *split, *rest]
    last_trumps, last_hunds = trump[-1], hund[-1]
    return [
        *head,
        *specs(HUND_SUIT, wins(1), slice(1, -1)),
        *specs(TRUMP_SUIT, anyone, slice(1, -1)),
        *specs(MINUS_SUIT, other, slice(1, -1)),
        TrickSpec(tuple(minus[-1]), wins(1)),
        TrickSpec((*last_hunds[1:], last_trumps[-1]), wins(SEAT), {SEAT: last_trumps[-1]}),
        TrickSpec((*last_trumps[:-1], last_hunds[0]), other, {SEAT: last_trumps[0]}),
    ]


def _hund_stacked_specs(game: Game, maximize: bool) -> list[TrickSpec] | None:
    """The tricks of a Hund plan for designation sets matched by value whose repeats
    stack (HUND-D-SETMATCH, HUND-D-SETREPEAT) when a suit has too few cards that match
    no set for a mono-suit trick with one matching card: six cards a suit, three seats,
    five of the six values matching. A mono-suit trick then hands its suit two powers,
    so the opening is mixed instead (``A``..``E`` the five suits, ``top`` each suit's
    card that matches nothing, ``m1 > m2 > ...`` its matching ones):

    * ``A top, A m1, A m2``: Trump, then Plus, to ``A``;
    * ``B m1, B top, D top``: Hund to ``B`` (the seat playing ``D top`` holds no ``B``);
    * ``C m1, C top, E top``: Minus to ``C`` (likewise void in ``C``);
    * then ``A``'s other three cards, ``B`` and ``C``'s other four each with a card of
      ``D`` / ``E`` from the void seat, and ``D``, ``E``'s last three cards each.

    Greatest: seat 0 takes every ``A`` card (Plus, and trumps), two of the six ``B``
    cards against seat 1's four (the award), no ``C`` card. Least: every ``C`` and
    every ``B`` card (the unique most Hund cards), no ``A`` card."""
    if game.seats != 3:
        return None
    values = sorted(hund_rules.HUND_RULESET.values(game.players, game.rules), reverse=True)
    a, b, c, d, e = ([make_card(suit, v) for v in values] for suit in range(5))
    anyone, other = _hund_winners(hund_rules.VIRTUAL if game.players == 2 else None)
    hund_to = (wins(1), wins(1), wins(SEAT)) if maximize else (wins(SEAT),) * 3
    plus_to, minus_to = (wins(SEAT), other) if maximize else (other, wins(SEAT))
    return [
        TrickSpec((a[0], a[1], a[2]), plus_to),
        TrickSpec((b[1], b[0], d[0]), hund_to[0]),
        TrickSpec((c[1], c[0], e[0]), minus_to),
        TrickSpec((a[3], a[4], a[5]), plus_to),
        TrickSpec((b[4], b[5], e[1]), hund_to[2]),
        TrickSpec((b[2], b[3], d[1]), hund_to[1]),
        TrickSpec((c[2], c[3], d[2]), minus_to),
        TrickSpec((c[4], c[5], e[2]), minus_to),
        TrickSpec((d[3], d[4], d[5]), anyone),
        TrickSpec((e[3], e[4], e[5]), anyone),
    ]


def _hund_judges(
    game: Game, specs: Sequence[TrickSpec], number: int | None, sets: tuple[Card, ...]
) -> list[TrickSpec]:
    """``specs`` with each trick judged by the model under the powers held before it
    (the plan's order), its own cards assigning powers as they fall (dispute
    ``trump-timing``, HUND-D-TRUMPTIMING)."""
    letters = game.ruleset.palette.letters
    base = {"designation": str(number)} if number is not None else {}
    if sets:
        base = {"sets": ",".join(game.ruleset.palette.format_all(sets))}
    holders: tuple[int, ...] = ()
    out = []
    for spec in specs:
        context = {**base, "powers": ",".join(letters[h] for h in holders)}

        def judge(cards: tuple[Card, ...], context: dict[str, str] = context) -> TrickResult:
            return game.ruleset.judge_trick(game, cards, context)

        out.append(TrickSpec(spec.cards, spec.accept, spec.pins, judge))
        powers = hund_rules.Powers("", number, sets, holders, -1, -1, ())
        for card in sorted(spec.cards):
            if hund_rules.matches(card, powers, game.rules):
                holders = hund_rules.assign(holders, card, game.rules)
                powers = hund_rules.Powers("", number, sets, holders, -1, -1, ())
    return out


def hund_plan(game: Game, maximize: bool) -> Plan | None:
    """A Hund round in which red, yellow, green, blue and purple take the powers Trump,
    Plus, Hund, Minus and Lead in turn (HUND-DESIG-1/2; with designation sets, one set a
    suit, HUND-OPT-2): each suit's cards form mono-suit tricks (``_hund_groups``),
    played as ``_hund_specs`` says, under the game's deck (``values``,
    ``more-cards``), trick judge and follow rule.

    With two players the virtual player (seat 2) gets columns under which its fixed rule
    plays the plan's cards (:func:`virtual_columns`)."""
    number, sets = _hund_designation(game)
    matches = _hund_matches(game, number, sets)
    firsts = sets or tuple(make_card(suit, number or 0) for suit in range(5))
    groups = {suit: _hund_groups(game, suit, firsts[suit], matches) for suit in range(5)}
    virtual = hund_rules.VIRTUAL if game.players == 2 else None
    if any(sum(map(matches, g[0])) > 1 for g in groups.values()) and game.rules.set_repeat_stack:
        specs = _hund_stacked_specs(game, maximize)
    else:
        specs = _hund_specs(groups, maximize, _hund_award(game), virtual)
    if specs is None:
        return None
    specs = _hund_judges(game, specs, number, sets)
    tricks = lay_out(table_of(game), specs, first_leader=SEAT, ordered=True)
    if tricks is None:
        return None
    hands = [tuple(sorted(t[s] for t in tricks)) for s in range(game.players)]
    piles: tuple[tuple[str, tuple[Card, ...]], ...] = ()
    if virtual is not None:
        rows = _virtual_rows(game, specs, tricks)
        if rows is None:
            return None
        hands.append(())
        piles = (("virtual-down", rows[0]), ("virtual-up", rows[1]))
    extras = (("designation", number),) if number is not None else ()
    opening = tuple(actions.designate(card) for card in sets)
    return Plan(Deal(tuple(hands), piles, extras=extras), tricks, opening=opening)


def _virtual_rows(
    game: Game, specs: Sequence[TrickSpec], tricks: Sequence[Mapping[int, Card]]
) -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
    """The virtual player's face-down and face-up rows for the laid-out ``tricks``."""
    virtual = hund_rules.VIRTUAL
    table = table_of(game)
    leaders = [SEAT]
    for spec, trick in zip(specs, tricks, strict=True):
        winner = judge_seat(spec.judge or table.judge, trick, leaders[-1], game.seats)
        leaders.append(leaders[-1] if winner is None else winner)
    plays = [t[virtual] for t in tricks]
    leads = [
        None if leaders[i] == virtual else colour_of(t[leaders[i]]) for i, t in enumerate(tricks)
    ]
    size = len(plays)
    downs = size // 2 if game.rules.extra_up else size - size // 2
    return virtual_columns(plays, leads, downs)


# --- the virtual player's columns ------------------------------------------------------


def virtual_columns(
    plays: Sequence[Card], leads: Sequence[int | None], downs: int
) -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
    """Rows (face-down, face-up; column ``i`` is the ``i``-th face-up card on the ``i``-th
    face-down one, HUND-TWO-2) under which the virtual player's fixed rule plays
    ``plays[t]`` in trick ``t`` whose lead suit is ``leads[t]`` (None: it leads), or None.

    The rule (HUND-TWO-4..6): the leftmost face-up card of the lead suit, else the
    leftmost face-up card; after each trick a face-down card with nothing on it turns up.
    A column with one card only (an odd hand, dispute ``virtual-odd``) is the rightmost.

    A depth-first search over the plays in order: each card goes face up into a new
    column (seen from the start), or face down under a column whose face-up card is
    already played (seen from the trick after), or into the single column. A card seen
    in an earlier trick ``τ`` must not have been the rule's choice there: it puts the
    column played from at ``τ`` left of its own (or, when it is of a suit the virtual
    player did not follow, rules the layout out). The columns are then ordered by those
    constraints."""
    size = len(plays)
    pairs = min(size - downs, downs)
    single_kind = "down" if downs > size - downs else ("up" if downs < size - downs else "")
    single = pairs  # the single column's index: it is the rightmost
    column: dict[int, int] = {}  # play index -> its column
    roles: dict[int, str] = {}  # play index -> "up", "down" or "single"
    up_time: dict[int, int] = {}  # pair column -> when its face-up card is played
    filled: set[int] = set()  # pair columns whose face-down card is placed
    before: set[tuple[int, int]] = set()

    def reaches(a: int, b: int) -> bool:
        seen, todo = {a}, [a]
        while todo:
            x = todo.pop()
            if x == b:
                return True
            for p, q in before:
                if p == x and q not in seen:
                    seen.add(q)
                    todo.append(q)
        return False

    def constrain(card: Card, col: int, seen_from: int, t: int) -> list[tuple[int, int]] | None:
        added: list[tuple[int, int]] = []
        for tau in range(seen_from, t):
            lead, mine = leads[tau], column[tau]
            followed = lead is not None and colour_of(plays[tau]) == lead
            if followed and colour_of(card) != lead:
                continue
            bad = (lead is not None and not followed and colour_of(card) == lead) or mine == single
            if bad or mine == col or reaches(col, mine):
                before.difference_update(added)
                return None
            if (mine, col) not in before:
                before.add((mine, col))
                added.append((mine, col))
        return added

    def search(t: int) -> bool:
        single_left = bool(single_kind) and "single" not in roles.values()
        needed = 2 * (pairs - len(up_time)) + len(up_time) - len(filled) + single_left
        if needed != size - t:
            return False
        if t == size:
            return True
        options = [("up", len(up_time), 0)] if len(up_time) < pairs else []
        options += [("down", c, up_time[c] + 1) for c in sorted(up_time) if c not in filled]
        if single_left and (single_kind == "up" or t >= 1):
            options.append(("single", single, 0 if single_kind == "up" else 1))
        for role, col, seen_from in options:
            added = constrain(plays[t], col, seen_from, t)
            if added is None:
                continue
            column[t], roles[t] = col, role
            if role == "up":
                up_time[col] = t
            if role == "down":
                filled.add(col)
            if search(t + 1):
                return True
            del column[t], roles[t]
            if role == "up":
                del up_time[col]
            if role == "down":
                filled.discard(col)
            before.difference_update(added)
        return False

    if not search(0):
        return None
    order = _topological(pairs, {(a, b) for a, b in before if single not in (a, b)})
    if order is None:
        return None
    up_row = {col: plays[t] for t, col in column.items() if roles[t] == "up"}
    down_row = {col: plays[t] for t, col in column.items() if roles[t] == "down"}
    single_card = [plays[t] for t, role in roles.items() if role == "single"]
    down = tuple(down_row[c] for c in order) + (tuple(single_card) if single_kind == "down" else ())
    up = tuple(up_row[c] for c in order) + (tuple(single_card) if single_kind == "up" else ())
    return down, up


def _topological(size: int, before: set[tuple[int, int]]) -> list[int] | None:
    order: list[int] = []
    left = set(range(size))
    while left:
        free = sorted(c for c in left if not any((o, c) in before for o in left))
        if not free:
            return None
        order.append(free[0])
        left.remove(free[0])
    return order
