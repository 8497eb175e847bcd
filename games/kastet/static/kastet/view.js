// Kastet's table drawn from the frame it holds and the player's draft (./draft.js): the
// top bar, the seats, the centre, the run area of 26 slots with its groups and the pair
// area (S-A1, S-A2), the rack, the buttons and the end-of-hand / final overlay with every
// rack shown (S-M4, S-V3).  `t` is the table (./table.js).

import { esc, fmt, plainName as plain, tileHTML as okeyTile, tileName as okeyName } from "../okey/tiles.js";
import { ROW, SLOTS } from "./draft.js";
import { readGroup } from "./groups.js";

const POS = ["south", "east", "north", "west"]; // me, me+1 (on my right), me+2, me+3

export function kastetView(t) {
  const { root, board, S, T, $, playing, seatName, presence, setStatus, scoreTable, teamsLine, renderEnd } = t;

  const okeyFace = () => (S.hand ? S.hand.okey : null);
  const tileHTML = (face, value) => okeyTile(face, okeyFace(), value);
  const tileName = (face, value) => okeyName(T, face, okeyFace(), value);
  const plainName = (face) => plain(T, face);
  const seatAt = (offset) => ((S.me ?? 0) + offset) % 4;
  const can = (key) => Boolean(S.hand && S.hand.can && S.hand.can[key]);
  const rackCells = () => (S.hand && S.hand.rack ? S.hand.rack.cells : []);
  const myTurn = () => S.me !== null && S.hand && !S.hand.over && S.hand.turn === S.me;

  function statusText() {
    const h = S.hand;
    if (!h || !playing() || h.over) return "";
    if (S.picked) {
      const at = t.findTile(S.picked);
      if (at) return fmt(T.selected, { tile: tileName(at.tile.face) });
    }
    if (myTurn()) {
      if (t.dirty()) return t.checkDraft().groups.includes(false) ? T.draft_invalid : T.draft_dirty;
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
    root.dataset.dirty = t.dirty() ? "1" : "0";
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
    t.tick();
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
    const live = can("draw") && !t.dirty();
    deck.innerHTML = `<span class="kt-back" aria-hidden="true"></span><span class="kt-deck-count" aria-hidden="true">${h.deck_count}</span>`;
    deck.disabled = !live;
    deck.classList.toggle("is-live", live);
    deck.dataset.count = String(h.deck_count);
    deck.setAttribute("aria-label", live ? `${deckText}. ${T.draw}` : h.deck_count ? deckText : T.deck_empty_label);
  }

  function tileButton(tile, value, attrs, cls) {
    const picked = tile.id === S.picked;
    return (
      `<button type="button" class="ks-tile${tile.rack && t.dirty() ? " is-new" : ""}${picked ? " is-picked" : ""}${cls ? ` ${cls}` : ""}" data-id="${esc(tile.id)}" data-face="${esc(tile.face)}" data-key="t-${esc(tile.id)}" ${attrs}` +
      ` aria-pressed="${picked ? "true" : "false"}" aria-label="${esc(S.picked && !picked ? fmt(T.insert_before, { tile: tileName(tile.face, value) }) : tileName(tile.face, value))}">${tileHTML(tile.face, value)}</button>`
    );
  }

  function renderTable() {
    const okey = okeyFace();
    const gs = t.groups();
    const check = t.checkDraft();
    const live = can("lay");
    $(".ks-slots").textContent = fmt(T.slots_used, { n: gs.length, total: SLOTS });
    let html = "";
    gs.forEach((g, gi) => {
      const values = readGroup(g.map((tile) => tile.face), okey);
      const ok = check.groups[gi];
      const names = g.map((tile, k) => tileName(tile.face, values ? values[k] : null)).join(", ");
      html +=
        `<div class="ks-group${ok ? "" : " is-invalid"}" data-drop="group" data-g="${gi}" role="group" aria-label="${esc(fmt(T.group_label, { n: gi + 1, tiles: names }) + (ok ? "" : ` (${T.group_invalid})`))}">` +
        g.map((tile, k) => tileButton(tile, values ? values[k] : null, `data-drop="gtile" data-g="${gi}" data-k="${k}"`, "")).join("") +
        (live ? `<button type="button" class="ks-end" data-drop="gend" data-g="${gi}" data-key="end-${gi}" aria-label="${esc(fmt(T.append_to, { n: gi + 1 }))}">+</button>` : "") +
        `</div>`;
    });
    if (live && gs.length < SLOTS) html += `<button type="button" class="ks-new" data-drop="new" data-key="new" aria-label="${esc(T.new_group)}"><span aria-hidden="true">+</span> ${esc(T.new_group)}</button>`;
    $(".ks-groups").innerHTML = html;
    // S-A2, S-L5, S-L6: the pair area: frozen pairs, then this draft's new pairs
    let pairs = "";
    for (const p of S.hand.pairs) {
      pairs += `<div class="ks-pair is-frozen" role="img" aria-label="${esc(p.tiles.map((tile, k) => tileName(tile.face, p.values[k])).join(", ") + ". " + T.pairs_frozen)}">${p.tiles.map((tile, k) => tileHTML(tile.face, p.values[k])).join("")}</div>`;
    }
    t.newPairs().forEach((p, pi) => {
      const ok = check.pairs[pi];
      pairs += `<div class="ks-pair is-draft${ok ? "" : " is-invalid"}" data-drop="pair" data-p="${pi}">${p.map((tile) => tileButton(tile, null, `data-drop="pair" data-p="${pi}"`, "")).join("")}</div>`;
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
    const away = t.draftIds();
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
    const d = t.dirty();
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
    const h = S.hand;
    const hm = (h && h.match) || {};
    renderEnd({
      order: [0, 1, 2, 3].map(seatAt),
      reveal: ".ks-reveal",
      final: () => ({
        teams: hm.team_totals,
        hands: (hm.hand_scores || []).map((row, i) => ({ head: fmt(T.hand_of, { n: i + 1, total: hm.hands }), scores: row })),
        totals: totals(),
        cls: "ks-final-table",
        reveal: revealHTML(h),
      }),
      hand: () => {
        const tot = totals();
        const cells = (s) => `<td class="kt-sum">${h.scores[s]}</td><td class="kt-sum">${tot[s]}</td>`;
        return {
          kind: h.blocked ? "blocked" : "hand",
          sub: esc((h.blocked ? T.blocked : fmt(T.finished_by, { name: seatName(h.finisher) })) + teamsLine(h.team_scores)), // S-S5
          scores: scoreTable({ order: [0, 1, 2, 3].map(seatAt), heads: [T.col_hand, T.col_total], cells, winner: (s) => h.finisher === s }),
          reveal: revealHTML(h),
        };
      },
    });
  }

  return { okeyFace, tileName, seatAt, can, rackCells, myTurn, statusText, render };
}
