// Replay of a finished match (lobby.views_history.replay): steps through the states the
// server rebuilt from the seed and the action log. Faces only; every text comes from the
// page (rp-config), in the player's language.

import { clearBest, connect, markBest, openingStep, stepOf } from "../js/replay-steps.js";
import { appliedSteps, bestAt, laidInTurn, rackFaces } from "./replay-best.js";

const root = document.getElementById("rp");
const cfg = JSON.parse(document.getElementById("rp-config").textContent);
const T = cfg.strings;
const cache = new Map();
const S = { hand: 0, data: null, i: 0, timer: null, applied: [] };
const W = document.getElementById("rp-best-words").dataset; // the better move's words (issue 31)

const $ = (sel, el = root) => el.querySelector(sel);
const $$ = (sel, el = root) => Array.from(el.querySelectorAll(sel));

function fmt(text, params) {
  return text.replace(/\{(\w+)\}/g, (m, key) => (key in params ? String(params[key]) : m));
}

function tileText(face) {
  if (face === "F") return T.fake_okey;
  return `${T.colours[face[0]] || face[0]} ${face.slice(1)}`;
}

function tileEl(face, extra = "") {
  const el = document.createElement("span");
  const fake = face === "F";
  el.className = `rp-tile ${fake ? "fake" : `c-${face[0]}`} ${extra}`.trim();
  if (S.data && face === S.data.okey) el.classList.add("okey");
  el.textContent = fake ? "♣" : face.slice(1);
  if (!fake) {
    // the colour-blind shape under the number, as on the table (red ●, yellow ▲, blue ■, black ◆)
    const mark = document.createElement("i");
    mark.className = "rp-mark";
    mark.setAttribute("aria-hidden", "true");
    el.append(mark);
  }
  el.dataset.face = face;
  el.title = tileText(face);
  el.setAttribute("aria-label", tileText(face));
  return el;
}

function groupsText(groups) {
  return (groups || []).map((g) => g.map(tileText).join(" ")).join(" · ");
}

function describe(a) {
  const d = S.data;
  const name = a.seat !== undefined && a.seat !== null ? d.seats[a.seat] : "";
  const got = a.got || [];
  let text;
  switch (a.type) {
    case "deal":
      text = fmt(T.deal, { name: d.seats[d.starter] });
      break;
    case "take_discard":
    case "draw":
      text = fmt(T[a.type], { name, tile: got.length ? tileText(got[0]) : "" });
      break;
    case "claim":
      text = fmt(T.claim, {
        name,
        tile: got.length ? tileText(got[0]) : "",
        penalty: got.length > 1 ? tileText(got[1]) : "",
      });
      break;
    case "open":
    case "new_groups":
    case "lay": // Kastet
      text = fmt(T[a.type], { name, groups: groupsText(a.groups) });
      break;
    case "timeout":
      // a timeout that discards a tile (KÜT, KDVli) says which; others (Kastet) do not
      text = fmt(a.tile ? T.timeout : T.timeout_plain, { name, tile: a.tile ? tileText(a.tile) : "" });
      break;
    case "lay_off":
    case "discard":
    case "finish": // KDVli
      text = fmt(T[a.type], { name, tile: a.tile ? tileText(a.tile) : "" });
      break;
    case "auto_lay_off":
    case "show_indicator": // KDVli
    case "undo":
    case "pass": // Kastet
    case "leave":
      text = fmt(T[a.type], { name });
      break;
    case "abandon":
      text = T.abandon;
      break;
    default:
      text = `${name}: ${a.type}`;
  }
  if (a.actor === "bot") text += ` ${T.bot}`;
  return text;
}

function render() {
  const d = S.data;
  if (!d) return;
  const step = d.steps[S.i];
  const s = step.s;
  const a = step.a;
  clearBest(root);
  $(".rp-title").textContent = `${fmt(T.step, { n: S.i + 1, total: d.steps.length })}${d.task ? ` · ${d.task}` : ""}`;
  $(".rp-indicator").replaceChildren(tileEl(d.indicator));
  $(".rp-okey").replaceChildren(tileEl(d.okey));
  $(".rp-deck").textContent = fmt(T.deck, { n: s.deck });
  const thrown = $(".rp-thrown");
  thrown.replaceChildren();
  if (s.thrown) {
    const label = document.createElement("span");
    label.className = "rp-label";
    label.textContent = `${T.thrown}${s.claimable ? ` (${T.claimable})` : ""}`;
    thrown.append(label, " ", tileEl(s.thrown));
  }
  $(".rp-step").textContent = fmt(T.step, { n: S.i + 1, total: d.steps.length });
  const slider = $(".rp-slider");
  slider.max = String(d.steps.length - 1);
  slider.value = String(S.i);
  $(".rp-action").textContent = describe(a);
  const fresh = new Set(a.seat !== undefined ? a.got || [] : []);
  for (const panel of $$(".rp-seat")) {
    const seat = Number(panel.dataset.seat);
    panel.classList.toggle("rp-turn", s.turn === seat);
    $(".rp-name", panel).textContent = d.seats[seat];
    const meta = [fmt(T.tiles, { n: s.counts[seat] })];
    // KDVli has no opening and no penalties (its snapshot leaves them out)
    if (s.opened && s.opened[seat]) meta.push(T.opened);
    if (s.penalties && s.penalties[seat]) meta.push(fmt(T.penalty, { n: s.penalties[seat] }));
    if (s.turn === seat) meta.push(T.turn);
    if (s.scores) meta.push(`${T.score}: ${s.scores[seat]}`);
    $(".rp-meta", panel).textContent = meta.join(" · ");
    const rack = $(".rp-rack", panel);
    rack.replaceChildren();
    const mark = seat === a.seat ? new Set(fresh) : new Set();
    for (const seg of s.racks[seat]) {
      const el = document.createElement("span");
      el.className = "rp-seg";
      for (const face of seg) {
        const isNew = mark.has(face);
        if (isNew) mark.delete(face);
        el.append(tileEl(face, isNew ? "new" : ""));
      }
      rack.append(el);
    }
    const pile = $(".rp-discards", panel);
    pile.replaceChildren(...s.discards[seat].map((f) => tileEl(f)));
  }
  const groups = $(".rp-groups");
  groups.replaceChildren();
  const table = s.table || [];
  if (!table.length) groups.textContent = T.no_groups;
  for (const g of table) {
    const el = document.createElement("span");
    el.className = "rp-group";
    const kind = T.kinds[g.kind] || g.kind;
    el.title = g.owner === null || g.owner === undefined ? kind : `${d.seats[g.owner]}: ${kind}`; // Kastet: no owner (S-A3)
    for (const face of g.tiles) el.append(tileEl(face));
    groups.append(el);
  }
  const scores = $(".rp-scores");
  scores.replaceChildren();
  if (s.over) {
    const p = document.createElement("p");
    p.textContent = `${T.hand_over} ${
      s.finisher !== null && s.finisher !== undefined
        ? fmt(T.finished_by, { name: d.seats[s.finisher] })
        : T.deck_ran_out
    }`;
    scores.append(p);
  }
  stepShown(S.applied[S.i], S.hand);
}

// --- the analysis's better move (issue 31): drawn on the seat's panel and rack ---------

function drawBest(decision) {
  const d = S.data;
  const panel = d && root.querySelector(`.rp-seat[data-seat="${decision.seat}"]`);
  if (!panel) return;
  const s = d.steps[S.i].s;
  const parts = bestAt(d.steps, S.i, decision);
  const box = markBest(document.createElement("div"));
  box.classList.add("rp-best", "analysis-best-drawn");
  const title = document.createElement("strong");
  title.textContent = fmt(W.title, { name: d.seats[decision.seat] });
  box.append(title);
  const line = (text, ...tiles) => {
    const el = document.createElement("span");
    el.className = "rp-best-part";
    el.append(text, ...tiles);
    box.append(el);
    return el;
  };
  if (parts.take && s.thrown) line(`${W.take} `, tileEl(s.thrown, "rp-best-tile"));
  for (const g of parts.groups) {
    const el = document.createElement("span");
    el.className = "rp-group";
    g.tiles.forEach((face, k) => el.append(tileEl(face, g.rack[k] ? "rp-best-tile" : "")));
    box.append(el);
  }
  for (const l of parts.layoffs) {
    const onto = (s.table || [])[l.group];
    line(`${W.layoff} `, tileEl(l.tile, "rp-best-tile"), ` → ${onto ? groupsText([onto.tiles]) : ""}`);
    const target = $$(".rp-groups .rp-group")[l.group];
    if (target) markBest(target, "+");
  }
  if (parts.auto) line(W.auto);
  if (parts.discard) line(`${parts.finish ? W.finish : W.discard} `, tileEl(parts.discard, "rp-best-tile"));
  if (parts.groups.some((g) => g.rack.includes(false))) line(W.from_rack);
  $("h3", panel).after(box);
  // the rack's own tiles the better move uses: ↓ thrown, ★ laid (outline and symbol)
  const tiles = $$(".rp-rack .rp-tile", panel);
  const mark = (face, symbol) => {
    const el = tiles.find((t) => t.dataset.face === face && !t.classList.contains("analysis-best"));
    if (el) markBest(el, symbol);
  };
  if (parts.discard) mark(parts.discard, "↓");
  // what the played turn has already laid is on the table now, not in the rack
  const laid = laidInTurn(d.steps, S.i, decision.seat);
  for (const face of rackFaces(parts)) {
    const k = laid.indexOf(face);
    if (k >= 0) laid.splice(k, 1);
    else mark(face, "★");
  }
}

const stepShown = connect({
  goto: (applied) => {
    if (!S.data) return false;
    const i = stepOf(S.applied, applied);
    if (i >= 0) {
      stop();
      go(i);
    }
    return true;
  },
  draw: drawBest,
  clear: () => clearBest(root),
});

function go(i) {
  if (!S.data) return;
  S.i = Math.max(0, Math.min(S.data.steps.length - 1, i));
  render();
}

function stop() {
  if (S.timer) clearInterval(S.timer);
  S.timer = null;
  $('[data-go="play"]').setAttribute("aria-pressed", "false");
}

function play() {
  if (S.timer) return stop();
  if (S.data && S.i >= S.data.steps.length - 1) go(0);
  $('[data-go="play"]').setAttribute("aria-pressed", "true");
  S.timer = setInterval(() => {
    if (!S.data || S.i >= S.data.steps.length - 1) return stop();
    go(S.i + 1);
  }, 900);
}

async function load(n, at = "first") {
  const hand = cfg.hands[n - 1];
  if (!hand) return;
  stop();
  S.hand = n;
  for (const b of $$(".rp-hands button")) {
    b.setAttribute("aria-current", String(Number(b.dataset.hand) === n));
  }
  $(".rp-download").href = hand.scenario;
  const url = new URL(window.location.href);
  url.searchParams.set("hand", String(n));
  window.history.replaceState(null, "", url);
  let data = cache.get(n);
  if (!data) {
    $(".rp-action").textContent = T.loading;
    try {
      const response = await fetch(hand.url, { headers: { Accept: "application/json" } });
      if (!response.ok) throw new Error(String(response.status));
      data = await response.json();
      cache.set(n, data);
    } catch {
      $(".rp-action").textContent = T.load_failed;
      return;
    }
  }
  if (S.hand !== n) return; // another hand was picked meanwhile
  S.data = data;
  S.applied = appliedSteps(data.steps);
  go(openingStep(S.applied, stepShown, at === "last" ? data.steps.length - 1 : 0));
}

root.addEventListener("click", (event) => {
  const button = event.target.closest("button");
  if (!button) return;
  if (button.dataset.hand) load(Number(button.dataset.hand));
  switch (button.dataset.go) {
    case "first":
      stop();
      go(0);
      break;
    case "prev":
      stop();
      if (S.i === 0 && S.hand > 1) load(S.hand - 1, "last");
      else go(S.i - 1);
      break;
    case "next":
      stop();
      if (S.data && S.i === S.data.steps.length - 1 && S.hand < cfg.hands.length) load(S.hand + 1);
      else go(S.i + 1);
      break;
    case "last":
      stop();
      if (S.data) go(S.data.steps.length - 1);
      break;
    case "play":
      play();
      break;
    default:
  }
});

$(".rp-slider").addEventListener("input", (event) => {
  stop();
  go(Number(event.target.value));
});

document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, select, textarea") || event.altKey || event.ctrlKey || event.metaKey) return;
  const keys = {
    ArrowRight: () => go(S.i + 1),
    ArrowLeft: () => go(S.i - 1),
    Home: () => go(0),
    End: () => S.data && go(S.data.steps.length - 1),
    PageDown: () => S.hand < cfg.hands.length && load(S.hand + 1),
    PageUp: () => S.hand > 1 && load(S.hand - 1),
  };
  if (keys[event.key]) {
    event.preventDefault();
    stop();
    keys[event.key]();
  }
});

load(cfg.first);
