// Kastet — the game table (kastet.md; vanilla JS module, no build step).
//
// The server is the authority: after every change it sends this seat a "state" frame
// {type, version, layout, match, me, hand} — or what changed, which ../js/frames.js turns
// into that frame (issue 22) — (game/frames.py; the hand is
// game/engine/kastet/views.py) and this module renders it.  The player edits a private
// draft of the run area (S-L8): tiles are dragged (mouse and touch through Pointer
// Events) or picked and placed (tap or keyboard) from the rack or from ANY table group
// into another group, a new group or — once the 26 slots are full — a new pair (S-L5).
// Invalid groups are marked at once by a local mirror of the engine's check
// (game/engine/kastet/groups.py: check_draft); *Aç* sends the whole draft as one lay
// and the server's answer is the truth.  *Geri Al* resets the draft, or undoes the
// turn's last accepted lay (S-U1).  The rack's own order is the seat's private
// "arrange" action (GAME.private_kinds).  Every word comes from #ks-strings.

import { esc, fmt, localMove, plainName as plain, tileHTML as okeyTile, tileName as okeyName } from "../okey/tiles.js";
import { pairValues, readGroup } from "./groups.js";
import { tableKit } from "../okey/table-kit.js";

const root = document.getElementById("kt");
const T = JSON.parse(document.getElementById("ks-strings").textContent);
const POS = ["south", "east", "north", "west"]; // me, me+1 (on my right), me+2, me+3
const PRIVATE = new Set(["arrange"]);
const ROW = 12; // S-X4: two rows of 12 cells
const CELLS = 24;
const SLOTS = 26; // S-A1

const matchId = Number(root.dataset.match);
const board = root.querySelector(".kt-board");

const S = { version: -1, layout: 0, match: null, hand: null, me: null, offset: 0, lastFrameAt: 0, picked: null, drag: null, deferred: false, draft: null, passAfter: false, deckDragEnd: 0 };
const net = { inflight: null }; // the one move in flight (the socket itself: ../js/match-socket.js)
// the shared parts of the tile tables: names, presence, status, toasts, drag end, clock
const { $, $$, playing, seatName, presence, setStatus, toast, pointerDrag, tick: clockTick, openSocket, scoreTable, finalTable, teamsLine, showClosed } = tableKit({
  root, S, T, statusText: () => statusText(), render: () => render(),
});
const tick = () => clockTick("ks");

// --- helpers -------------------------------------------------------------------------------

const okeyFace = () => (S.hand ? S.hand.okey : null);
const tileHTML = (face, value) => okeyTile(face, okeyFace(), value);
const tileName = (face, value) => okeyName(T, face, okeyFace(), value);
const plainName = (face) => plain(T, face);
const seatAt = (offset) => ((S.me ?? 0) + offset) % 4;
const can = (key) => Boolean(S.hand && S.hand.can && S.hand.can[key]);
const rackCells = () => (S.hand && S.hand.rack ? S.hand.rack.cells : []);
const myTurn = () => S.me !== null && S.hand && !S.hand.over && S.hand.turn === S.me;

// --- the socket (one place: frames in, actions out) ----------------------------------------
// ../js/match-socket.js owns connecting, back-off, close codes, ping, sync and the change
// frames (issue 22); this table only says what a frame, an error and a close mean here.

const sock = openSocket(matchId, net, { onFrame: (frame) => onState(frame), onError: (msg) => onError(msg) });
const sendRaw = (message) => sock.send(message);
const requestSync = (minGap) => sock.requestSync(minGap);

// What a draft is drawn on: the table, the turn and the rack's tiles (not their order).
function tableSig(h) {
  if (!h) return "";
  const rack = h.rack ? h.rack.cells.filter(Boolean).map((c) => c.id).sort() : [];
  return JSON.stringify([h.hand_no, h.turn, h.over, h.laid_this_turn, h.table.map((g) => g.tiles.map((t) => t.id)), h.pairs.length, rack]);
}

function onState(msg) {
  if (typeof msg.version !== "number" || msg.version < S.version) return; // an older frame
  const layout = typeof msg.layout === "number" ? msg.layout : 0;
  if (msg.version === S.version && layout < S.layout) return; // an older layout frame
  const gap = S.version >= 0 && msg.version > S.version + 1;
  const accepted = net.inflight && (msg.version > net.inflight.at || layout > S.layout);
  const before = tableSig(S.hand);
  S.version = msg.version;
  S.layout = layout;
  S.match = msg.match;
  S.hand = msg.hand;
  S.me = msg.me;
  S.lastFrameAt = Date.now();
  if (msg.match && typeof msg.match.server_time === "number") S.offset = msg.match.server_time - Date.now();
  // The table moved (a lay accepted, an undo, a draw, a timeout, the next turn): the
  // draft is rebuilt from the table as it is (S-N7: an unsent draft is dropped).  A frame
  // that changes none of that (a seat's presence, the rack's own order) keeps it.
  if (tableSig(S.hand) !== before) S.draft = null;
  if (S.picked && !findTile(S.picked)) S.picked = null;
  if (gap) requestSync();
  document.dispatchEvent(new CustomEvent("kut:frame", { detail: msg }));
  if (accepted) finishInflight();
  // S-L8: Pas with a pending draft sends it first and passes only once it is accepted.
  if (S.passAfter && accepted) {
    S.passAfter = false;
    if (myTurn() && S.hand.laid_this_turn && can("pass")) act({ type: "pass" });
  }
  if (S.drag && S.drag.started) S.deferred = true;
  else render();
}

function onError(msg) {
  const code = msg.code || "";
  finishInflight();
  S.passAfter = false;
  root.dataset.errors = String(Number(root.dataset.errors || 0) + 1);
  root.dataset.lastError = code;
  if (code === "replaced" || code === "stale_version") return;
  toast((T.errors && T.errors[code]) || msg.message || code, "error");
  render(); // the draft stays for correction, its invalid groups marked (S-L8)
}

function act(action) {
  if (S.me === null || !sock.isOpen()) return false;
  if (PRIVATE.has(action.type)) {
    sendRaw({ type: "action", action }); // private: no shared version
    return true;
  }
  if (net.inflight) return false; // one move at a time: the next frame decides the next
  net.inflight = { at: S.version, timer: setTimeout(finishInflight, 5000) };
  sendRaw({ type: "action", action, version: S.version });
  return true;
}

function finishInflight() {
  if (net.inflight) clearTimeout(net.inflight.timer);
  net.inflight = null;
}

// --- the draft (S-L8) -----------------------------------------------------------------------

function baseGroups() {
  return (S.hand ? S.hand.table : []).map((g) => g.tiles.map((t) => ({ id: t.id, face: t.face, rack: false })));
}

function groups() {
  return S.draft ? S.draft.groups : baseGroups();
}

function newPairs() {
  return S.draft ? S.draft.pairs : [];
}

function draftIds() {
  const ids = new Set();
  for (const g of groups()) for (const t of g) if (t.rack) ids.add(t.id);
  for (const p of newPairs()) for (const t of p) ids.add(t.id);
  return ids;
}

// The draft differs from the table (table tiles moved, or rack tiles added).
function dirty() {
  return Boolean(S.draft);
}

const shape = (gs) => JSON.stringify(gs.map((g) => g.map((t) => t.id)));

// Where a tile is now: {where: "rack", i} | {where: "group", g, k} | {where: "pair", p, k}.
function findTile(id) {
  const gs = groups();
  for (let g = 0; g < gs.length; g++) {
    const k = gs[g].findIndex((t) => t.id === id);
    if (k >= 0) return { where: "group", g, k, tile: gs[g][k] };
  }
  const ps = newPairs();
  for (let p = 0; p < ps.length; p++) {
    const k = ps[p].findIndex((t) => t.id === id);
    if (k >= 0) return { where: "pair", p, k, tile: ps[p][k] };
  }
  const i = rackCells().findIndex((c) => c && c.id === id);
  if (i >= 0) return { where: "rack", i, tile: { id, face: rackCells()[i].face, rack: true } };
  return null;
}

function ensureDraft() {
  if (!S.draft) S.draft = { groups: baseGroups(), pairs: [] };
  return S.draft;
}

function tidy() {
  const d = S.draft;
  d.groups = d.groups.filter((g) => g.length);
  d.pairs = d.pairs.filter((p) => p.length);
  if (!d.pairs.length && shape(d.groups) === shape(baseGroups())) S.draft = null; // back as it was
}

// Which draft groups and pairs are valid (the engine's check_draft, by faces).
function checkDraft() {
  const okey = okeyFace();
  return {
    groups: groups().map((g) => readGroup(g.map((t) => t.face), okey) !== null),
    pairs: newPairs().map((p) => pairValues(p.map((t) => t.face), okey) !== null),
  };
}

// Move one tile (by id) to a target: {kind: "group", g, k} | {kind: "new"} |
// {kind: "newpair"} | {kind: "pair", p} | {kind: "rack", i}.
function moveTo(id, target) {
  const from = findTile(id);
  if (!from || !S.hand || S.hand.over || S.me === null) return;
  if (target.kind === "rack") {
    if (from.where === "rack") {
      arrangeRack(id, target.i);
      return;
    }
    if (!from.tile.rack) {
      toast(T.table_tile_stays, "info"); // S-A4: a table tile never returns to a rack
      return;
    }
    removeFromDraft(from);
    tidy();
    render();
    return;
  }
  if (!can("lay")) {
    toast(T.errors.not_your_turn, "info");
    return;
  }
  if ((target.kind === "newpair" || target.kind === "pair") && !from.tile.rack) {
    toast(T.pair_rack_only, "info"); // S-L5: new pairs are made of rack tiles only
    return;
  }
  const d = ensureDraft();
  if ((target.kind === "newpair" || target.kind === "pair") && d.groups.length !== SLOTS) {
    toast(T.pairs_need_26, "info");
    return;
  }
  const alone = from.where === "group" && d.groups[from.g].length === 1;
  if (target.kind === "new" && d.groups.length >= SLOTS && !alone) {
    toast(T.errors.too_many_groups, "info"); // S-A1: 26 slots
    return;
  }
  const tile = { ...from.tile };
  let k = target.k;
  if (target.kind === "group" && from.where === "group" && from.g === target.g && from.k < k) k -= 1;
  removeFromDraft(from);
  if (target.kind === "group") d.groups[target.g].splice(Math.max(0, Math.min(k, d.groups[target.g].length)), 0, tile);
  else if (target.kind === "new") d.groups.push([tile]);
  else if (target.kind === "pair") d.pairs[target.p].push(tile);
  else d.pairs.push([tile]);
  tidy();
  render();
}

function removeFromDraft(from) {
  if (from.where === "rack") return; // the rack shows it missing while it is in the draft
  const d = ensureDraft();
  if (from.where === "group") d.groups[from.g].splice(from.k, 1);
  else d.pairs[from.p].splice(from.k, 1);
}

function resetDraft() {
  S.draft = null;
  S.picked = null;
  render();
}

function sendDraft() {
  if (!dirty() || !can("lay")) return false;
  const check = checkDraft();
  if (check.groups.includes(false) || check.pairs.includes(false)) toast(T.draft_invalid, "error");
  // The server's answer is the truth (S-L1): the whole layout goes, by tile ids.
  return act({
    type: "lay",
    table: groups().map((g) => g.map((t) => t.id)),
    pairs: newPairs().map((p) => p.map((t) => t.id)),
  });
}

// The rack's own order (S-X4): KÜT's shifting (../okey/tiles.js) on two rows of 12.
function arrangeRack(id, to) {
  // A copy: the frame held is also the base the next change frame applies to (frames.js).
  const cells = rackCells().slice();
  if (to < 0 || to >= CELLS || !localMove(cells, id, to, ROW)) return;
  S.hand = { ...S.hand, rack: { ...S.hand.rack, cells } };
  render();
  act({ type: "arrange", cells: cells.map((c) => (c ? c.id : null)) });
}

// --- rendering -------------------------------------------------------------------------------

function statusText() {
  const h = S.hand;
  if (!h || !playing() || h.over) return "";
  if (S.picked) {
    const at = findTile(S.picked);
    if (at) return fmt(T.selected, { tile: tileName(at.tile.face) });
  }
  if (myTurn()) {
    if (dirty()) return checkDraft().groups.includes(false) ? T.draft_invalid : T.draft_dirty;
    if (h.laid_this_turn) return T.your_turn_laid;
    if (!can("draw")) return T.your_turn_full;
    return T.your_turn_lay;
  }
  return fmt(T.turn_of, { name: seatName(h.turn) });
}

function phase() {
  if (!myTurn()) return "wait";
  return S.hand.laid_this_turn ? "laid" : "play";
}

function render() {
  const h = S.hand;
  const m = S.match;
  root.dataset.version = String(S.version);
  root.dataset.layout = String(S.layout);
  root.dataset.status = m ? m.status : "";
  root.dataset.hand = h ? String(h.hand_no) : "";
  root.dataset.phase = h ? phase() : "";
  root.dataset.dirty = dirty() ? "1" : "0";
  root.classList.toggle("is-ready", Boolean(h));
  root.classList.toggle("is-watcher", S.me === null);
  root.classList.toggle("is-my-turn", Boolean(myTurn()));
  board.setAttribute("aria-busy", h ? "false" : "true");
  const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement.dataset.key : null;
  if (m && h) {
    renderBar();
    renderSeats();
    renderCenter();
    renderTable();
    renderRack();
    renderButtons();
  }
  renderOverlay();
  const mine = m && S.me !== null ? m.seats[S.me] : null;
  $(".ks-away").hidden = !(mine && mine.away && !mine.left && (m.status === "playing" || m.status === "between"));
  if (!$(".kt-status").dataset.sticky) setStatus();
  document.title = myTurn() ? `● ${T.your_turn} · Kastet` : "Kastet";
  if (focused) {
    const el = $(`[data-key="${CSS.escape(focused)}"]`);
    if (el) el.focus({ preventScroll: true });
  }
  tick();
}

function renderBar() {
  const h = S.hand;
  const hm = h.match || {};
  $(".ks-hand-no").textContent = fmt(T.hand_of, { n: h.hand_no, total: hm.hands || "" });
}

function totals() {
  return (S.hand.match && S.hand.match.totals) || S.match.totals;
}

function renderSeats() {
  const h = S.hand;
  const tot = totals();
  for (let offset = 0; offset < 4; offset++) {
    const seat = seatAt(offset);
    const el = $(`.kt-seat[data-pos="${POS[offset]}"]`);
    const info = h.seats[seat];
    const [presKey, presText] = presence(seat);
    const name = seatName(seat) + (seat === S.me ? ` (${T.you})` : "");
    const tiles = fmt(T.tiles_count, { n: info.count }); // S-V1: every rack's tile count
    const turn = !h.over && playing() && h.turn === seat;
    const bits = [presText];
    if (turn) bits.push(seat === S.me ? T.your_turn : fmt(T.turn_of, { name: seatName(seat) }));
    el.dataset.seat = String(seat);
    el.dataset.count = String(info.count);
    el.setAttribute("aria-label", fmt(T.seat_card, { name, tiles, status: bits.join(", ") }));
    el.innerHTML =
      `<div class="kt-card${turn ? " is-turn" : ""}">` +
      `<span class="kt-ring" aria-hidden="true"></span>` +
      `<span class="kt-name" aria-hidden="true"><span class="kt-presence is-${presKey}" title="${esc(presText)}"></span>${esc(name)}</span>` +
      `<span class="kt-meta" aria-hidden="true"><span class="kt-count">${esc(tiles)}</span></span>` +
      `<span class="kt-total" aria-hidden="true">${esc(fmt(T.total, { n: tot[seat] }))}</span>` +
      `<span class="kt-timer" aria-hidden="true"></span></div>`;
  }
}

function renderCenter() {
  const h = S.hand;
  const ind = $(".ks-indicator");
  ind.innerHTML = `<span class="kt-label">${esc(T.indicator)}</span>${okeyTile(h.indicator, null)}<span class="kt-okey-is">${esc(fmt(T.okey_is, { tile: plainName(h.okey) }))}</span>`;
  ind.setAttribute("aria-label", `${T.indicator}: ${plainName(h.indicator)}. ${fmt(T.okey_is, { tile: plainName(h.okey) })}`);
  ind.setAttribute("role", "img");
  const deck = $(".kt-deck");
  const deckText = fmt(T.deck, { n: h.deck_count });
  const live = can("draw") && !dirty();
  deck.innerHTML = `<span class="kt-back" aria-hidden="true"></span><span class="kt-deck-count" aria-hidden="true">${h.deck_count}</span>`;
  deck.disabled = !live;
  deck.classList.toggle("is-live", live);
  deck.dataset.count = String(h.deck_count);
  deck.setAttribute("aria-label", live ? `${deckText}. ${T.draw}` : h.deck_count ? deckText : T.deck_empty_label);
}

function tileButton(t, value, attrs, cls) {
  const picked = t.id === S.picked;
  return (
    `<button type="button" class="ks-tile${t.rack && dirty() ? " is-new" : ""}${picked ? " is-picked" : ""}${cls ? ` ${cls}` : ""}" data-id="${esc(t.id)}" data-face="${esc(t.face)}" data-key="t-${esc(t.id)}" ${attrs}` +
    ` aria-pressed="${picked ? "true" : "false"}" aria-label="${esc(S.picked && !picked ? fmt(T.insert_before, { tile: tileName(t.face, value) }) : tileName(t.face, value))}">${tileHTML(t.face, value)}</button>`
  );
}

function renderTable() {
  const okey = okeyFace();
  const gs = groups();
  const check = checkDraft();
  const live = can("lay");
  $(".ks-slots").textContent = fmt(T.slots_used, { n: gs.length, total: SLOTS });
  let html = "";
  gs.forEach((g, gi) => {
    const values = readGroup(g.map((t) => t.face), okey);
    const ok = check.groups[gi];
    const names = g.map((t, k) => tileName(t.face, values ? values[k] : null)).join(", ");
    html +=
      `<div class="ks-group${ok ? "" : " is-invalid"}" data-drop="group" data-g="${gi}" role="group" aria-label="${esc(fmt(T.group_label, { n: gi + 1, tiles: names }) + (ok ? "" : ` (${T.group_invalid})`))}">` +
      g.map((t, k) => tileButton(t, values ? values[k] : null, `data-drop="gtile" data-g="${gi}" data-k="${k}"`, "")).join("") +
      (live ? `<button type="button" class="ks-end" data-drop="gend" data-g="${gi}" data-key="end-${gi}" aria-label="${esc(fmt(T.append_to, { n: gi + 1 }))}">+</button>` : "") +
      `</div>`;
  });
  if (live && gs.length < SLOTS) html += `<button type="button" class="ks-new" data-drop="new" data-key="new" aria-label="${esc(T.new_group)}"><span aria-hidden="true">+</span> ${esc(T.new_group)}</button>`;
  $(".ks-groups").innerHTML = html;
  // S-A2, S-L5, S-L6: the pair area: frozen pairs, then this draft's new pairs
  let pairs = "";
  for (const p of S.hand.pairs) {
    pairs += `<div class="ks-pair is-frozen" role="img" aria-label="${esc(p.tiles.map((t, k) => tileName(t.face, p.values[k])).join(", ") + ". " + T.pairs_frozen)}">${p.tiles.map((t, k) => tileHTML(t.face, p.values[k])).join("")}</div>`;
  }
  newPairs().forEach((p, pi) => {
    const ok = check.pairs[pi];
    pairs += `<div class="ks-pair is-draft${ok ? "" : " is-invalid"}" data-drop="pair" data-p="${pi}">${p.map((t) => tileButton(t, null, `data-drop="pair" data-p="${pi}"`, "")).join("")}</div>`;
  });
  const open = gs.length === SLOTS;
  if (live && open) pairs += `<button type="button" class="ks-new ks-new-pair" data-drop="newpair" data-key="newpair" aria-label="${esc(T.new_pair)}">+ ${esc(T.new_pair)}</button>`;
  else if (!S.hand.pairs.length) pairs += `<p class="ks-pairs-closed">${esc(T.pairs_closed)}</p>`;
  $(".ks-pair-list").innerHTML = pairs;
  $(".ks-pairs").classList.toggle("is-open", open);
}

function renderRack() {
  const rackEl = $(".kt-rack");
  const rack = S.hand.rack;
  if (!rack) {
    rackEl.innerHTML = "";
    return;
  }
  rackEl.setAttribute("aria-label", T.rack);
  const away = draftIds();
  let html = "";
  for (let r = 0; r < 2; r++) {
    html += `<div class="kt-row" data-row="${r}">`;
    for (let c = 0; c < ROW; c++) {
      const i = r * ROW + c;
      const cell = rack.cells[i];
      const tile = cell && !away.has(cell.id) ? cell : null; // in the draft: shown on the table
      const picked = tile && tile.id === S.picked;
      const label = tile ? tileName(tile.face) : fmt(T.empty_cell, { n: i + 1 });
      html +=
        `<button type="button" class="kt-cell${tile ? " has-tile" : ""}${picked ? " is-picked" : ""}" data-i="${i}" data-drop="cell" data-key="c-${i}"` +
        `${tile ? ` data-id="${esc(tile.id)}" data-face="${esc(tile.face)}"` : ""} aria-label="${esc(label)}"` +
        `${tile ? ` aria-pressed="${picked ? "true" : "false"}"` : ""}>${tile ? tileHTML(tile.face) : ""}</button>`;
    }
    html += "</div>";
  }
  rackEl.innerHTML = html;
}

function renderButtons() {
  const h = S.hand;
  const seated = S.me !== null;
  const d = dirty();
  const enable = {
    open: seated && can("lay") && d,
    undo: seated && myTurn() && (d || can("undo")),
    pass: seated && myTurn() && (d || can("pass")),
    leave: seated && S.match && (S.match.status === "playing" || S.match.status === "between"),
  };
  for (const [action, on] of Object.entries(enable)) {
    const button = $(`.kt-btn[data-action="${action}"]`);
    if (button) button.disabled = !on;
  }
  $(".ks-btn-open").classList.toggle("is-live", enable.open);
  $(".ks-btn-pass").classList.toggle("is-live", Boolean(h && h.laid_this_turn && myTurn()));
}

// --- end of a hand (S-M4, S-V3) and of the match (S-M5) ------------------------------------

function revealHTML(h) {
  if (!h.racks_shown) return "";
  let out = `<p class="ks-cap">${esc(T.left_in_rack)}</p>`;
  for (const seat of [0, 1, 2, 3].map(seatAt)) {
    const fin = h.finisher === seat;
    out +=
      `<div class="ks-rack-line${fin ? " is-finisher" : ""}${seat === S.me ? " is-me" : ""}" data-seat="${seat}">` +
      `<strong>${esc(seatName(seat))}</strong> <span class="ks-left">${h.racks_shown[seat].map((f) => tileHTML(f)).join("")}</span></div>`;
  }
  return out;
}

function renderOverlay() {
  const overlay = $(".kt-overlay");
  const m = S.match;
  const h = S.hand;
  const title = $("#kt-overlay-title");
  const sub = $(".kt-overlay-sub");
  const scores = $(".kt-scores");
  const reveal = $(".ks-reveal");
  const finalActions = $(".kt-final-actions");
  if (!m || !h) {
    overlay.hidden = true;
    return;
  }
  const tot = totals();
  const hm = h.match || {};
  if (m.status === "finished") {
    overlay.hidden = false;
    overlay.dataset.kind = "final";
    title.textContent = T.match_over;
    const names = (m.winners || []).map(seatName).join(", ");
    sub.innerHTML = `<strong class="kt-winners">${esc(fmt(m.winners.length > 1 ? T.winners : T.winner, { names }))}</strong> ${esc(T.lowest_wins)}${esc(teamsLine(hm.team_totals))}`;
    const hands = (hm.hand_scores || []).map((row, i) => ({ head: fmt(T.hand_of, { n: i + 1, total: hm.hands }), scores: row }));
    scores.innerHTML = finalTable({ order: [0, 1, 2, 3].map(seatAt), winners: m.winners, hands, totals: tot, cls: "ks-final-table" });
    reveal.innerHTML = revealHTML(h);
    $(".kt-countdown").textContent = "";
    finalActions.hidden = false;
    return;
  }
  if (m.status === "abandoned" || m.status === "aborted") {
    showClosed(".ks-reveal");
    return;
  }
  if (h.over) {
    overlay.hidden = false;
    overlay.dataset.kind = h.blocked ? "blocked" : "hand";
    title.textContent = fmt(T.hand_over, { n: h.hand_no });
    sub.textContent = (h.blocked ? T.blocked : fmt(T.finished_by, { name: seatName(h.finisher) })) + teamsLine(h.team_scores); // S-S5
    const cells = (s) => `<td class="kt-sum">${h.scores[s]}</td><td class="kt-sum">${tot[s]}</td>`;
    scores.innerHTML = scoreTable({ order: [0, 1, 2, 3].map(seatAt), heads: [T.col_hand, T.col_total], cells, winner: (s) => h.finisher === s });
    reveal.innerHTML = revealHTML(h);
    finalActions.hidden = true;
    return;
  }
  overlay.hidden = true;
  overlay.dataset.kind = "";
}

// --- the clock: the move countdown (S-N6), the 10-second pause (S-M4), the watchdog ---------

setInterval(tick, 250);

// --- toasts --------------------------------------------------------------------------------

// --- targets: what a drop or a second tap on an element means -------------------------------

function targetOf(el, x) {
  if (!el) return null;
  const kind = el.dataset.drop;
  if (kind === "cell") return { kind: "rack", i: Number(el.dataset.i) };
  if (kind === "rack") return { kind: "rack", i: -1 };
  if (kind === "gtile") {
    let k = Number(el.dataset.k);
    if (x !== undefined) {
      const r = el.getBoundingClientRect();
      if (x > r.left + r.width / 2) k += 1; // the right half of a tile: after it
    }
    return { kind: "group", g: Number(el.dataset.g), k };
  }
  if (kind === "gend") return { kind: "group", g: Number(el.dataset.g), k: 1e9 };
  if (kind === "group") {
    const g = Number(el.dataset.g);
    return { kind: "group", g, k: x !== undefined ? insertAt(el, x) : 1e9 };
  }
  if (kind === "new") return { kind: "new" };
  if (kind === "newpair") return { kind: "newpair" };
  if (kind === "pair") return { kind: "pair", p: Number(el.dataset.p) };
  return null;
}

function insertAt(groupEl, x) {
  const tiles = $$(".ks-tile", groupEl);
  for (let k = 0; k < tiles.length; k++) {
    const r = tiles[k].getBoundingClientRect();
    if (x < r.left + r.width / 2) return k;
  }
  return tiles.length;
}

function drop(id, target) {
  if (!target) return;
  if (target.kind === "rack" && target.i < 0) {
    const from = findTile(id);
    if (from && from.where !== "rack") moveTo(id, target);
    return;
  }
  moveTo(id, target);
}

// A tap (or Enter): pick a tile, put the picked tile down, or pick another.
function tap(el) {
  const id = el.dataset.id || null;
  if (!S.picked) {
    if (id && movable(id)) S.picked = id;
    render();
    return;
  }
  if (id === S.picked) {
    S.picked = null;
    render();
    return;
  }
  const picked = S.picked;
  const target = targetOf(el);
  if (!target) return;
  if (id && el.dataset.drop === "cell") {
    // another rack tile: a rack tile moves there; a drafted tile returns to the rack
    S.picked = null;
    moveTo(picked, target);
    return;
  }
  S.picked = null;
  moveTo(picked, target);
}

function movable(id) {
  const at = findTile(id);
  if (!at) return false;
  if (at.where === "rack") return true;
  return can("lay");
}

// --- pointer: drag and drop (mouse and touch) ------------------------------------------------

pointerDrag({
  grab(event) {
    const el = event.target.closest("[data-drop], .kt-deck");
    if (!el || !root.contains(el)) return null;
    // S-N2: the deck is tapped (a click: pressed("draw")) or dragged onto the rack to draw
    const deck = el.classList.contains("kt-deck");
    if (deck && (!can("draw") || dirty())) return null;
    return { el, id: deck ? null : el.dataset.id || null, deck };
  },
  mayLift: (drag) => Boolean(drag.id || drag.deck),
  lift(drag) {
    if (!drag.deck && !movable(drag.id)) return null;
    const tile = drag.el.querySelector(drag.deck ? ".kt-back" : ".kt-tile");
    return tile ? [tile, drag.el] : null;
  },
  tap(drag) {
    if (!drag.deck) tap(drag.el); // the deck's own click draws
  },
  drop(drag, el, event) {
    S.picked = null;
    const target = targetOf(el, event.clientX);
    if (drag.deck) {
      S.deckDragEnd = Date.now();
      if (target && target.kind === "rack") pressed("draw"); // S-N2: the deck dropped on the rack
      return;
    }
    drop(drag.id, target);
  },
});

// --- clicks and keys --------------------------------------------------------------------------

const leaveDialog = $(".kt-leave-dialog");

function pressed(action) {
  switch (action) {
    case "draw":
      if (can("draw") && !dirty()) act({ type: "draw" });
      break;
    case "open":
      sendDraft();
      break;
    case "undo":
      if (dirty()) resetDraft(); // the draft first (S-L8) …
      else if (can("undo")) act({ type: "undo" }); // … then the turn's lays, one by one (S-U1)
      break;
    case "pass":
      if (dirty()) {
        if (sendDraft()) S.passAfter = true;
      } else if (can("pass")) act({ type: "pass" });
      break;
    case "back":
      sendRaw({ type: "action", action: { type: "back" } }); // S-N7: the player plays again
      break;
    case "leave":
      leaveDialog.showModal();
      break;
    case "stay":
      leaveDialog.close();
      break;
    default:
      break;
  }
}

root.addEventListener("click", (event) => {
  const drop = event.target.closest("[data-drop]");
  if (drop && drop.dataset.drop !== "rack") {
    // pointer taps are handled on pointerup; a keyboard "click" has detail 0
    if (event.detail === 0) tap(drop);
    return;
  }
  const el = event.target.closest("[data-action]");
  if (!el || el.disabled) return;
  // the click that ends a drag of the deck is not a tap: the drop decided (S-N2)
  if (el.classList.contains("kt-deck") && Date.now() - S.deckDragEnd < 500) return;
  pressed(el.dataset.action);
});

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target.closest && target.closest("dialog, input, select, textarea, .kt-lang")) return;
  if (!S.hand || S.me === null) return;
  const lower = event.key.length === 1 ? event.key.toLocaleLowerCase("en") : event.key;
  if (event.key === "Escape" && S.picked) {
    S.picked = null;
    render();
  } else if (lower === "d" && can("draw")) {
    pressed("draw");
  }
});

// --- start ----------------------------------------------------------------------------------

setStatus(T.connecting);
sock.start();
