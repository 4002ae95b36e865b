// The page's interface. No rule of any game is written here: every answer (who takes a
// trick, may a card be played, a round's score, the deck of a table) comes from
// tricklaw.page.api, tricklaw's own Python model running in Pyodide.
import { loadPyodide } from "./pyodide/pyodide.mjs";

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...kids) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined) node.append(kid);
  return node;
};

const times = { start: performance.now(), ready: null, calls: [] };
window.tricklawTimes = times;
let api = null;
let config = { docs: "" };
let rulesets = [];
const state = {
  ruleset: "", players: 0, preset: "default", options: {}, context: {}, scoreContext: {},
  trick: [], hand: [], piles: [], target: "trick", colour: null,
};
let deck = [];      // [{letter, name, cards}]
let seats = 0;

function call(method, params) {
  const t0 = performance.now();
  const answer = JSON.parse(api.call(method, JSON.stringify(params)));
  times.calls.push({ method, ms: performance.now() - t0 });
  return answer;
}

const ruleset = () => rulesets.find((r) => r.id === state.ruleset);
const colourOf = (card) => deck.find((c) => c.letter === card[0]) || { name: "grey" };
const seatLabel = (i) => (i === 0 ? "leader" : `+${i}`);
const seatName = (i) => (i === 0 ? "the leader" : `seat +${i}`);
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

function drawCard(card, { label = "", win = false, onclick = null, cls = "" } = {}) {
  const colour = colourOf(card).name;
  const face = el("span", { class: `card c-${colour}${win ? " win" : ""} ${cls}` },
    el("span", { class: "letter" }, card[0]), el("span", { class: "value" }, card.slice(1)));
  const title = `${colour} ${card.slice(1)}${win ? ", takes the trick" : ""}`;
  const body = onclick
    ? el("button", { type: "button", class: "card-btn", "aria-label": title, onclick }, face)
    : el("span", { role: "img", "aria-label": title }, face);
  return el("figure", { class: "slot", "data-card": card }, body, label ? el("figcaption", {}, label) : null);
}

// --- the URL: the trick and the readings, shareable -----------------------------------

function writeUrl() {
  const q = new URLSearchParams();
  q.set("g", state.ruleset);
  q.set("n", state.players);
  if (state.preset) q.set("preset", state.preset);
  const r = ruleset();
  const base = presetOptions();
  for (const o of r.options) {
    const v = state.options[o.name];
    if (v !== undefined && v !== (base[o.name] ?? o.default)) q.set(`o.${o.name}`, v);
  }
  for (const [k, v] of Object.entries(state.context)) if (v) q.set(`c.${k}`, v);
  if (state.trick.length) q.set("t", state.trick.join(" "));
  if (state.hand.length) q.set("h", state.hand.join(" "));
  history.replaceState(null, "", `#${q.toString()}`);
}

function readUrl() {
  const q = new URLSearchParams(location.hash.slice(1));
  const known = rulesets.find((r) => r.id === q.get("g"));
  state.ruleset = known ? known.id : rulesets[0].id;
  const r = ruleset();
  const n = Number(q.get("n"));
  state.players = r.players.includes(n) ? n : r.players.includes(4) ? 4 : r.players[0];
  state.preset = r.presets.some((p) => p.name === q.get("preset")) ? q.get("preset") : "default";
  state.options = {};
  state.context = {};
  for (const [k, v] of q.entries()) {
    if (k.startsWith("o.")) state.options[k.slice(2)] = v;
    if (k.startsWith("c.")) state.context[k.slice(2)] = v;
  }
  state.trick = (q.get("t") || "").split(" ").filter(Boolean);
  state.hand = (q.get("h") || "").split(" ").filter(Boolean);
}

// --- the table ---------------------------------------------------------------------------

function presetOptions() {
  const p = ruleset().presets.find((x) => x.name === state.preset);
  return p ? p.options : {};
}

function readings() {
  // The readings in force: the preset's, then the player's own choices over them.
  return { ...presetOptions(), ...state.options };
}

// A trick context means something only under the readings its `when` names (Hund's sets
// only with designation-mode=sets: Ruleset.trick_context_when); only those are shown and sent.
function applies(c) {
  const chosen = readings();
  const defaultOf = (name) => (ruleset().options.find((o) => o.name === name) || {}).default;
  return Object.entries(c.when || {}).every(([k, v]) => String(chosen[k] ?? defaultOf(k)) === v);
}

function contextInForce() {
  const names = new Set(ruleset().context.filter(applies).map((c) => c.name));
  return Object.fromEntries(Object.entries(state.context).filter(([k]) => names.has(k)));
}

function setup() {
  const r = ruleset();
  const sel = $("ruleset");
  sel.replaceChildren(...rulesets.map((x) => el("option", { value: x.id, selected: x.id === r.id }, x.title)));
  $("players").replaceChildren(...r.players.map((n) => el("option", { value: n, selected: n === state.players }, `${n}`)));
  $("presets").replaceChildren(el("span", { class: "chips-label" }, "Preset:"),
    ...r.presets.map((p) => el("button", {
      type: "button", class: "chip", "aria-pressed": String(p.name === state.preset), title: p.summary,
      "data-preset": p.name,
      onclick: () => { state.preset = p.name; state.options = {}; refresh(); },
    }, p.title)));
  const chosen = readings();
  // Every option with readings: each dispute's (with its id) and the variants the texts
  // name (Hund's designation sets: without it the page could never judge under them).
  const changed = r.options.filter((o) => (chosen[o.name] ?? o.default) !== o.default).length;
  $("readings-count").textContent = changed ? `(${changed} not at the default)` : "(all at the default)";
  $("readings").replaceChildren(...r.options.map((o) => el("label", { class: "reading" },
    el("span", {}, `${o.title} `, ...(o.dispute ? [el("code", {}, o.dispute)] : [])),
    el("select", {
      "data-option": o.name,
      onchange: (e) => { state.options[o.name] = e.target.value; refresh(); },
    }, ...o.readings.map((x) => el("option", {
      value: x.value, selected: (chosen[o.name] ?? o.default) === x.value, title: x.summary,
    }, `${x.value}${x.value === o.default ? " (default)" : ""}`))))));
  $("context").replaceChildren(...r.context.filter(applies).map((c) => el("label", { class: "context" },
    el("span", {}, `${c.name}: ${c.help}`),
    el("input", {
      type: "text", value: state.context[c.name] || "", "data-context": c.name, autocomplete: "off",
      onchange: (e) => { state.context[c.name] = e.target.value.trim(); judge(); writeUrl(); },
    }))));
  $("score-context").replaceChildren(...r.score_context.map((c) => el("label", { class: "context" },
    el("span", {}, `${c.name}: ${c.help}`),
    el("input", {
      type: "text", value: state.scoreContext[c.name] || "", "data-score-context": c.name,
      onchange: (e) => { state.scoreContext[c.name] = e.target.value.trim(); },
    }))));
}

function loadTable() {
  const answer = call("table", { ruleset: state.ruleset, players: state.players, options: readings() });
  if (answer.error) { showError($("verdict"), answer.error); return; }
  deck = answer.result.deck;
  seats = answer.result.seats;
  if (state.piles.length !== seats) state.piles = Array.from({ length: seats }, () => []);
  if (!deck.some((c) => c.letter === state.colour)) state.colour = deck.find((c) => c.cards.length)?.letter;
}

function picker() {
  const targets = [["trick", "The trick"], ["hand", "My hand"],
    ...Array.from({ length: seats }, (_, i) => [`pile${i}`, `Pile of ${seatLabel(i)}`])];
  $("targets").replaceChildren(...targets.map(([key, text]) => el("button", {
    type: "button", class: "chip", role: "radio", "aria-checked": String(state.target === key),
    "data-target": key, onclick: () => { state.target = key; picker(); },
  }, text)));
  const used = new Set([...state.trick, ...state.hand, ...state.piles.flat()]);
  $("colours").replaceChildren(...deck.filter((c) => c.cards.length).map((c) => el("button", {
    type: "button", class: `colour c-${c.name}`, "aria-pressed": String(c.letter === state.colour),
    "data-colour": c.letter, onclick: () => { state.colour = c.letter; picker(); },
  }, c.name)));
  const colour = deck.find((c) => c.letter === state.colour);
  $("values").replaceChildren(...(colour ? colour.cards : []).map((card) => el("button", {
    type: "button", class: `value-btn c-${colour.name}`, "data-card": card, disabled: used.has(card),
    "aria-label": `${colour.name} ${card.slice(1)}`, onclick: () => tap(card),
  }, card.slice(1))));
}

function tap(card) {
  if (state.target === "trick") {
    if (state.trick.length >= seats) state.trick = [];
    state.trick.push(card);
  } else if (state.target === "hand") state.hand.push(card);
  else state.piles[Number(state.target.slice(4))].push(card);
  render();
  if (state.target === "trick" && state.trick.length === seats) {
    $("trick-box").scrollIntoView({ block: "start", behavior: "smooth" });
  }
}

// --- answers ---------------------------------------------------------------------------

function showError(box, message) {
  box.replaceChildren(el("p", { class: "error", role: "alert" }, message));
}

function clauseItem(c) {
  const lines = c.lines.map(([a, b]) => (a === b ? `line ${a}` : `lines ${a}-${b}`)).join(", ");
  const page = `${config.docs}generated/rulesets/${state.ruleset}.html#${c.id.includes("-D-") ? "dispute" : "clause"}-${c.id.toLowerCase()}`;
  return el("li", {},
    config.docs ? el("a", { href: page, class: "cid" }, c.id) : el("code", { class: "cid" }, c.id),
    ` ${c.summary} `, el("span", { class: "lines" }, `(${lines})`));
}

function resultRow(cards, result) {
  const takes = new Map();
  for (const [seat, got] of Object.entries(result.taken)) takes.set(Number(seat), got);
  return el("div", { class: "cards" }, ...cards.map((card, i) => {
    const got = takes.get(i);
    const label = `${seatLabel(i)}${got ? ` takes ${got.length}` : ""}`;
    return drawCard(card, { label, win: result.winner === i });
  }));
}

function headline(cards, result) {
  if (result.winner === null || result.winner === undefined) {
    return `Nobody takes it: ${result.aside.join(" ")} set aside`;
  }
  const parts = Object.entries(result.taken).map(([seat, got]) => `${seatName(Number(seat))} takes ${got.join(" ")}`);
  if (result.aside.length) parts.push(`out of play: ${result.aside.join(" ")}`);
  return `${capital(seatName(result.winner))} (${cards[result.winner]}) wins the trick${parts.length ? ": " : ""}${parts.join("; ")}`;
}

function judge() {
  const box = $("verdict");
  box.removeAttribute("data-report");
  if (state.trick.length < seats) {
    box.replaceChildren(el("p", { class: "hint" }, state.trick.length
      ? `${seats - state.trick.length} more card(s) to complete the trick.`
      : `Tap the ${seats} cards of the trick, lead first.`));
    return;
  }
  const answer = call("judge", {
    ruleset: state.ruleset, players: state.players, options: readings(), cards: state.trick, context: contextInForce(),
  });
  if (answer.error) { showError(box, answer.error); return; }
  const { report, clauses } = answer.result;
  box.setAttribute("data-report", JSON.stringify(report));
  const kids = [el("p", { class: "headline", id: "headline" }, headline(report.cards, report)),
    resultRow(report.cards, report)];
  for (const [k, v] of Object.entries(report.facts)) kids.push(el("p", { class: "fact" }, `${k.replaceAll("-", " ")}: ${v}`));
  const others = [];
  const r = ruleset();
  for (const [option, values] of Object.entries(report.readings)) {
    for (const [value, alt] of Object.entries(values)) {
      if (alt.same || value === String(report.options[option])) continue;
      const spec = r.options.find((o) => o.name === option);
      others.push(el("div", { class: "alt", "data-reading": `${option}=${value}` },
        el("p", {}, el("strong", {}, `${option}=${value}`), ` (${spec ? spec.dispute : ""}): `, headline(report.cards, alt)),
        resultRow(report.cards, alt)));
    }
  }
  kids.push(el("h3", {}, "Other readings"));
  kids.push(others.length ? el("div", {}, ...others) : el("p", {}, "No other reading changes who takes this trick."));
  const legal = report.legality_by_dispute;
  if (legal.length || report.impossible.length) {
    kids.push(el("h3", {}, "May each card be played?"));
    for (const d of legal) {
      kids.push(el("div", { class: "legal" },
        el("p", {}, el("code", {}, d.dispute), ` ${d.title}`),
        el("ul", {}, ...d.readings.map((x) => el("li", {}, el("strong", {}, `${d.option}=${x.value}`),
          x.default ? " (in force)" : "", `: ${x.groups.map((g) => g.said).join("; ")}`)))));
    }
    for (const entry of report.impossible) {
      kids.push(el("p", { class: "warn" }, `Under ${entry.option}=${entry.value} (${entry.dispute}) this trick cannot happen: `,
        entry.cards.map((c) => `${c.card} ${c.verdict === "not-in-deck" ? "is not in the deck" : "may never be played"}`).join(", ")));
    }
  }
  if (report.disputes.length) {
    kids.push(el("h3", {}, "Recorded disputes without a switch"));
    kids.push(el("ul", {}, ...report.disputes.map((d) => el("li", {}, el("code", {}, d.dispute), ` ${d.title} (read as: ${d.default})`))));
  }
  kids.push(el("h3", {}, "Decided by"));
  kids.push(el("ol", { class: "clauses" }, ...clauses.map(clauseItem)));
  box.replaceChildren(...kids);
}

function mayPlay(card) {
  const box = $("may");
  const answer = call("may_play", {
    ruleset: state.ruleset, players: state.players, options: readings(), hand: state.hand,
    trick: state.trick.length >= seats ? [] : state.trick, card,
  });
  if (answer.error) { showError(box, answer.error); return; }
  const a = answer.result;
  box.setAttribute("data-answer", JSON.stringify(a));
  box.replaceChildren(
    el("p", { class: `headline ${a.legal ? "yes" : "no"}` }, a.legal ? `Yes: ${a.card} may be played.` : `No: ${a.card} may not be played.`),
    el("p", {}, a.reason),
    el("p", { class: "hint" }, el("code", {}, a.clause.id), ` ${a.clause.summary}`),
    a.readings.length
      ? el("ul", {}, ...a.readings.map((x) => el("li", {}, el("strong", {}, `${x.option}=${x.value}`), ` (${x.dispute}): `,
        x.legal ? "yes, it may" : `no; playable: ${x.playable.join(" ")}`)))
      : el("p", {}, "Every reading gives the same answer."));
}

function scoreRound() {
  const box = $("scores");
  const answer = call("score", {
    ruleset: state.ruleset, players: state.players, options: readings(), piles: state.piles, context: state.scoreContext,
  });
  if (answer.error) { showError(box, answer.error); return; }
  box.setAttribute("data-scores", JSON.stringify(answer.result.scores));
  box.replaceChildren(el("table", {}, el("tbody", {}, ...answer.result.scores.map((s, i) =>
    el("tr", {}, el("th", { scope: "row" }, capital(seatName(i))), el("td", {}, `${s}`))))));
}

function render() {
  picker();
  $("may").replaceChildren();
  $("may").removeAttribute("data-answer");
  $("trick").hidden = state.trick.length >= seats;
  $("trick").replaceChildren(...state.trick.map((card, i) => drawCard(card, { label: seatLabel(i) })));
  $("hand").replaceChildren(...state.hand.map((card) => drawCard(card, { onclick: () => mayPlay(card) })));
  $("piles").replaceChildren(...state.piles.map((pile, i) => el("div", { class: "pile" },
    el("span", { class: "pile-label" }, `${seatLabel(i)}:`),
    el("div", { class: "cards small" }, ...pile.map((card) => drawCard(card))))));
  judge();
  writeUrl();
}

function refresh() {
  $("scores").replaceChildren();
  $("scores").removeAttribute("data-scores");
  setup();
  loadTable();
  render();
}

async function main() {
  try {
    config = await (await fetch("config.json")).json();
  } catch { /* no config: no clause links */ }
  const py = await loadPyodide({ indexURL: new URL("./pyodide/", location.href).href });
  times.pyodide = performance.now() - times.start;
  const zip = await (await fetch("tricklaw.zip")).arrayBuffer();
  py.unpackArchive(zip, "zip", { extractDir: "/home/pyodide/tricklaw-src" });
  py.runPython("import sys; sys.path.insert(0, '/home/pyodide/tricklaw-src')");
  api = py.pyimport("tricklaw.page.api");
  times.imported = performance.now() - times.start;
  rulesets = call("rulesets", {}).result;
  times.ready = performance.now() - times.start;
  readUrl();
  $("ruleset").addEventListener("change", (e) => {
    state.ruleset = e.target.value; const r = ruleset();
    state.players = r.players.includes(state.players) ? state.players : r.players[0];
    state.preset = "default"; state.options = {}; state.context = {}; state.trick = []; state.hand = []; state.piles = [];
    refresh();
  });
  $("players").addEventListener("change", (e) => { state.players = Number(e.target.value); state.trick = []; state.piles = []; refresh(); });
  $("undo").addEventListener("click", () => { state.trick.pop(); render(); });
  $("clear").addEventListener("click", () => { state.trick = []; render(); });
  $("share").addEventListener("click", async () => {
    writeUrl();
    try {
      if (navigator.share) await navigator.share({ title: "tricklaw: this trick", url: location.href });
      else await navigator.clipboard.writeText(location.href);
      $("status").textContent = "Link copied: it restores this trick and these readings.";
    } catch { $("status").textContent = location.href; }
  });
  $("score").addEventListener("click", scoreRound);
  window.addEventListener("hashchange", () => { readUrl(); refresh(); });
  refresh();
  $("status").textContent = `Ready (engine loaded in ${(times.ready / 1000).toFixed(1)} s).`;
  document.body.dataset.ready = "1";
  if ("serviceWorker" in navigator && location.protocol !== "file:") {
    navigator.serviceWorker.register("sw.js").catch(() => {});
  }
}

main().catch((err) => {
  $("status").textContent = `The rules engine did not load: ${err}`;
  document.body.dataset.ready = "error";
});
