// KÜT's table drawn from the frame it holds (S): the top bar, the seats, the piles, the
// centre with its groups, the rack, the buttons and the end-of-hand / final overlay.
// Words are the page's strings (T); the tile markup is the okey family's
// (../okey/tiles.js).  `t` is the table (./table.js): its state, strings, the kit and
// the other modules' functions, read when called.

import { CELLS, ROW, esc, fmt, tileHTML as okeyTileHTML } from "../okey/tiles.js";
import { verifyLink } from "../js/fair.js";

export const POS = ["south", "east", "north", "west"]; // me, me+1 (on my right, K-M1), me+2, me+3
export const PILE = ["se", "ne", "nw", "sw"]; // each player's discards lie on their right
const OWNER_STYLE = ["me", "right", "across", "left"]; // by seat relative to me (rel())

export function kutView(t) {
  const { root, board, S, T, $, seatName, presence, setStatus, scoreTable, finalTable, showClosed } = t;

  // --- small helpers --------------------------------------------------------------------------

  function rel(seat) {
    return (seat - (S.me ?? 0) + 4) % 4;
  }

  function seatAt(offset) {
    return ((S.me ?? 0) + offset) % 4;
  }

  function can(key) {
    return Boolean(S.hand && S.hand.can && S.hand.can[key]);
  }

  function rackCells() {
    return S.hand && S.hand.rack ? S.hand.rack.cells : [];
  }

  function rackHas(id) {
    return rackCells().some((c) => c && c.id === id);
  }

  function cellOf(id) {
    return rackCells().findIndex((c) => c && c.id === id);
  }

  function myTurn() {
    return S.me !== null && S.hand && !S.hand.over && S.hand.turn === S.me;
  }

  function running() {
    return S.match && (S.match.status === "playing" || S.match.status === "between");
  }

  // --- names -------------------------------------------------------------------------------------

  function plainName(face) {
    return fmt(T.tile, { colour: T.colours[face[0]] || face[0], number: face.slice(1) });
  }

  function tileName(face, value) {
    const okey = S.hand ? S.hand.okey : null;
    if (face === "F") return okey ? fmt(T.fake_okey_as, { tile: plainName(okey) }) : T.fake_okey;
    if (face === okey) return value && value !== okey ? fmt(T.okey_as, { tile: plainName(value) }) : T.okey;
    return plainName(face);
  }

  // The tile markup is shared with the other okey tables (../okey/tiles.js).
  function tileHTML(face, value) {
    return okeyTileHTML(face, S.hand ? S.hand.okey : null, value);
  }

  // --- rendering -----------------------------------------------------------------------------------

  function statusText() {
    const h = S.hand;
    const m = S.match;
    if (!h || !m || m.status !== "playing" || h.over) return "";
    if (S.picked && rackHas(S.picked)) {
      const cell = rackCells()[cellOf(S.picked)];
      return fmt(T.selected, { tile: tileName(cell.face) });
    }
    if (myTurn()) {
      if (h.phase === "take") return T.your_turn_take + (h.forced_draw ? ` ${T.forced}` : "");
      if (h.first_turn) return T.your_turn_first;
      return T.your_turn_play;
    }
    if (can("claim")) return T.claim_possible;
    return fmt(T.turn_of, { name: seatName(h.turn) });
  }

  function render() {
    const h = S.hand;
    const m = S.match;
    // Plain facts on the root for styling and for the browser tests.
    root.dataset.version = String(S.version);
    root.dataset.layout = String(S.layout); // private rack-layout frames (issue 16)
    root.dataset.status = m ? m.status : "";
    root.dataset.hand = m ? String(m.hand_no) : "";
    root.dataset.phase = myTurn() ? h.phase : "wait";
    root.classList.toggle("is-ready", Boolean(h));
    root.classList.toggle("is-watcher", S.me === null);
    board.setAttribute("aria-busy", h ? "false" : "true");
    const focusKey = rememberFocus();
    const flip = t.positions(); // the rack's tiles glide to their new cells (./moves.js)
    if (m && h) {
      renderBar();
      renderSeats();
      renderPiles();
      renderCenter();
      renderRack();
      renderButtons();
    }
    renderOverlay();
    if (!$(".kt-status").dataset.sticky) setStatus();
    t.updateAttention();
    restoreFocus(focusKey);
    t.glide(flip);
    t.tick();
  }

  function rememberFocus() {
    const el = document.activeElement;
    if (!el || !root.contains(el)) return null;
    if (el.classList.contains("kt-cell")) return { cell: Number(el.dataset.i) };
    if (el.dataset.g !== undefined) return { group: el.dataset.g };
    if (el.dataset.pile) return { pile: el.dataset.pile };
    return null;
  }

  function restoreFocus(key) {
    if (!key) return;
    let el = null;
    if (key.cell !== undefined) el = $(`.kt-cell[data-i="${key.cell}"]`);
    else if (key.group !== undefined) el = $(`[data-g="${key.group}"]`);
    else if (key.pile) el = $(`[data-pile="${key.pile}"]`);
    if (el && document.activeElement !== el) el.focus({ preventScroll: true });
  }

  function renderBar() {
    const m = S.match;
    const h = S.hand;
    $(".kt-task-no").textContent = fmt(T.task_no, { n: h.task_no, total: m.options.tasks });
    $(".kt-task-text").textContent = T.task_texts[String(h.task_no)] || "";
    $(".kt-hand-no").textContent = fmt(T.hand_no, { n: m.hand_no });
  }

  function renderSeats() {
    const h = S.hand;
    const m = S.match;
    for (let offset = 0; offset < 4; offset++) {
      const seat = seatAt(offset);
      const el = $(`.kt-seat[data-pos="${POS[offset]}"]`);
      if (!el) continue;
      const info = h.seats[seat];
      const [presKey, presText] = presence(seat);
      const name = seatName(seat) + (seat === S.me ? ` (${T.you})` : "");
      const tiles = fmt(T.tiles_count, { n: info.count });
      const turn = !h.over && m.status === "playing" && h.turn === seat;
      const statusBits = [presText];
      if (info.opened) statusBits.push(T.opened);
      if (turn) statusBits.push(seat === S.me ? T.your_turn : fmt(T.turn_of, { name: seatName(seat) }));
      el.dataset.seat = String(seat);
      el.setAttribute("aria-label", fmt(T.seat_card, { name, tiles, status: statusBits.join(", ") }));
      el.innerHTML =
        `<div class="kt-card${turn ? " is-turn" : ""}${info.opened ? " is-opened" : ""}">` +
        `<span class="kt-ring" aria-hidden="true"></span>` +
        `<span class="kt-name" aria-hidden="true"><span class="kt-presence is-${presKey}" title="${esc(presText)}"></span>${esc(name)}</span>` +
        `<span class="kt-meta" aria-hidden="true"><span class="kt-count">${esc(tiles)}</span>` +
        (info.opened ? `<span class="kt-badge">${esc(T.opened)}</span>` : "") +
        `</span>` +
        `<span class="kt-total" aria-hidden="true">${esc(fmt(T.total, { n: m.totals[seat] }))}</span>` +
        `<span class="kt-timer" aria-hidden="true"></span>` +
        `</div>`;
    }
  }

  function renderPiles() {
    const h = S.hand;
    for (let offset = 0; offset < 4; offset++) {
      const seat = seatAt(offset);
      const pos = PILE[offset];
      const el = $(`.kt-pile[data-pos="${pos}"]`);
      const pile = h.seats[seat].discards;
      const top = pile.length ? pile[pile.length - 1] : null;
      const count = pile.length ? `<span class="kt-pile-count" aria-hidden="true">${pile.length}</span>` : "";
      const face = top ? tileHTML(top.face) : `<span class="kt-pile-empty" aria-hidden="true"></span>`;
      const owner = `<span class="kt-pile-owner" aria-hidden="true">${esc(seatName(seat))}</span>`;
      let label = top ? `${fmt(T.pile_of, { name: seatName(seat) })}: ${tileName(top.face)}` : `${fmt(T.pile_of, { name: seatName(seat) })}: ${T.pile_empty}`;
      if (offset === 3 && S.me !== null) {
        // The tile thrown to me: take it on my turn (K-N1).
        const enabled = can("take");
        if (enabled && top) label = fmt(T.take_thrown, { tile: tileName(top.face) });
        el.innerHTML = `<button type="button" class="kt-pile-btn${enabled ? " is-live" : ""}" data-pile="take" data-action="take" aria-label="${esc(label)}"${enabled ? "" : " aria-disabled=\"true\""}>${face}${count}</button>${owner}`;
      } else if (offset === 0 && S.me !== null) {
        const enabled = can("play");
        const hint = enabled ? `${T.your_pile}. ${T.discard_here}` : T.your_pile;
        el.innerHTML = `<button type="button" class="kt-pile-btn kt-pile-mine${enabled ? " is-live" : ""}" data-pile="discard" data-action="discard" data-drop="discard" aria-label="${esc(hint + (top ? `: ${tileName(top.face)}` : ""))}"${enabled ? "" : " aria-disabled=\"true\""}>${face}${count}</button>${owner}`;
      } else {
        el.innerHTML = `<div class="kt-pile-box" role="img" aria-label="${esc(label)}">${face}${count}</div>${owner}`;
      }
      // K-C1: the tile this seat may claim now, marked on its thrower's pile
      el.classList.toggle("is-claimable", Boolean(can("claim") && h.thrown && h.thrown.seat === seat));
    }
  }

  // Who laid what: a tag with the owner's short name (colour-blind safe: text and a border
  // style per seat, not colour alone).
  function ownerTag(owner) {
    const info = S.match && S.match.seats[owner];
    let short = "";
    if (owner === S.me) short = T.you_short;
    else if (info && info.bot) short = fmt(T.bot_short, { n: owner + 1 });
    else short = Array.from(seatName(owner)).slice(0, 2).join("");
    return `<span class="kt-owner kt-owner-${OWNER_STYLE[rel(owner)]}" aria-hidden="true" title="${esc(seatName(owner))}">${esc(short)}</span>`;
  }

  function groupHTML(group, index) {
    const tiles = group.tiles.map((tile, i) => tileHTML(tile.face, group.values[i])).join("");
    const names = group.tiles.map((tile, i) => tileName(tile.face, group.values[i])).join(", ");
    const label = fmt(T.group_label, { owner: seatName(group.owner), kind: T.kinds[group.kind] || group.kind, tiles: names }) + (group.this_turn ? ` (${T.new_this_turn})` : "");
    const live = can("lay_off") && S.picked ? " is-live" : "";
    return `<button type="button" class="kt-group kt-group-${esc(group.kind)}${group.this_turn ? " is-new" : ""}${live}" data-g="${index}" data-drop="group" data-owner="${rel(group.owner)}" aria-label="${esc(label)}">${ownerTag(group.owner)}${tiles}</button>`;
  }

  function renderCenter() {
    const h = S.hand;
    $(".kt-indicator").innerHTML =
      `<span class="kt-label">${esc(T.indicator)}</span>${tileHTML(h.indicator)}` +
      `<span class="kt-okey-is">${esc(fmt(T.okey_is, { tile: plainName(h.okey) }))}</span>`;
    $(".kt-indicator").setAttribute("aria-label", `${T.indicator}: ${plainName(h.indicator)}. ${fmt(T.okey_is, { tile: plainName(h.okey) })}`);
    $(".kt-indicator").setAttribute("role", "img");
    const deck = $(".kt-deck");
    const deckText = fmt(T.deck, { n: h.deck_count });
    deck.innerHTML = `<span class="kt-back" aria-hidden="true"></span><span class="kt-deck-count" aria-hidden="true">${h.deck_count}</span>`;
    deck.disabled = !can("draw");
    deck.classList.toggle("is-live", can("draw"));
    deck.setAttribute("aria-label", can("draw") ? `${deckText}. ${T.draw}` : h.deck_count ? deckText : T.deck_empty);
    const melds = [];
    const pairs = [];
    h.table.forEach((g, i) => (g.kind === "pair" ? pairs : melds).push(groupHTML(g, i)));
    $(".kt-melds").innerHTML = melds.length ? melds.join("") : `<p class="kt-empty">${esc(T.no_groups_yet)}</p>`;
    $(".kt-pairs-list").innerHTML = pairs.join("");
    $(".kt-pairs").classList.toggle("has-pairs", pairs.length > 0);
  }

  function renderRack() {
    const rackEl = $(".kt-rack");
    const rack = S.hand.rack;
    if (!rack) {
      rackEl.innerHTML = "";
      return;
    }
    rackEl.setAttribute("aria-label", T.rack);
    const seps = new Set(rack.separators);
    if (S.focus < 0 || S.focus >= CELLS) S.focus = 0;
    let html = "";
    for (let r = 0; r < 2; r++) {
      html += `<div class="kt-row" data-row="${r}">`;
      for (let c = 0; c < ROW; c++) {
        const i = r * ROW + c;
        const tile = rack.cells[i];
        const picked = tile && tile.id === S.picked;
        let label;
        if (tile) {
          label = tileName(tile.face) + (tile.islek ? `, ${T.islek}` : "");
        } else {
          label = fmt(T.empty_cell, { n: i + 1 });
        }
        const attrs = [
          `type="button"`,
          `class="kt-cell${tile ? " has-tile" : ""}${picked ? " is-picked" : ""}${tile && tile.islek ? " is-islek" : ""}"`,
          `data-i="${i}"`,
          `data-drop="cell"`,
          tile ? `data-id="${esc(tile.id)}"` : "",
          `tabindex="${i === S.focus ? 0 : -1}"`,
          `aria-label="${esc(label)}"`,
          tile ? `aria-pressed="${picked ? "true" : "false"}"` : "",
        ].join(" ");
        html += `<button ${attrs}>${tile ? tileHTML(tile.face) : ""}${tile && tile.islek ? '<span class="kt-islek" aria-hidden="true"></span>' : ""}</button>`;
        if (c < ROW - 1) {
          const on = seps.has(i);
          html += `<button type="button" class="kt-gap${on ? " is-on" : ""}" data-at="${i}" tabindex="-1" aria-pressed="${on}" aria-label="${esc(fmt(T.separator, { a: i + 1, b: i + 2 }))}"><span class="kt-gap-hit" aria-hidden="true"></span></button>`;
        }
      }
      html += "</div>";
    }
    rackEl.innerHTML = html;
  }

  function renderButtons() {
    const h = S.hand;
    const seated = S.me !== null;
    const mine = seated ? h.seats[S.me] : null;
    const islek = rackCells().some((c) => c && c.islek);
    const enable = {
      open: seated && can("play") && !mine.opened,
      new_groups: seated && can("lay_off"),
      auto_lay_off: seated && can("lay_off") && islek,
      arrange: seated && !h.over && S.match.status === "playing",
      undo: seated && can("undo"),
      claim: seated && can("claim"),
      leave: seated && running(),
    };
    for (const [action, on] of Object.entries(enable)) {
      const button = $(`.kt-btn[data-action="${action}"]`);
      if (button) button.disabled = !on;
    }
    $(".kt-btn-claim").classList.toggle("is-live", enable.claim);
    renderOpen(enable);
  }

  // Görevi Aç: emphasised when the solver says the tiles can form the task (the view's
  // task_ready), quiet when they cannot (K-O2, K-O5).
  function renderOpen(enable) {
    const open = $('.kt-btn[data-action="open"]');
    const ready = Boolean(S.hand && S.hand.task_ready);
    open.classList.toggle("is-ready", enable.open && ready);
    open.classList.toggle("is-quiet", enable.open && !ready);
    open.dataset.ready = S.hand && S.hand.task_ready !== null && S.hand.task_ready !== undefined ? String(ready) : "";
  }

  // --- end of hand and of the match ------------------------------------------------------------

  function scoreCell(value) {
    return value ? `<td>${value > 0 ? "+" : ""}${value}</td>` : `<td class="kt-zero">0</td>`;
  }

  function seatOrder() {
    return [0, 1, 2, 3].map((k) => seatAt(k));
  }

  function renderOverlay() {
    const overlay = $(".kt-overlay");
    const m = S.match;
    const h = S.hand;
    const title = $("#kt-overlay-title");
    const sub = $(".kt-overlay-sub");
    const scores = $(".kt-scores");
    const finalActions = $(".kt-final-actions");
    if (!m) {
      overlay.hidden = true;
      return;
    }
    const last = m.results.length ? m.results[m.results.length - 1] : null;
    if (m.status === "finished") {
      overlay.hidden = false;
      overlay.dataset.kind = "final";
      title.textContent = T.match_over;
      const names = m.winners.map(seatName).join(", ");
      sub.innerHTML = `<strong class="kt-winners">${esc(fmt(m.winners.length > 1 ? T.winners : T.winner, { names }))}</strong>${esc(T.lowest_wins)}`;
      const hands = m.results.map((r) => ({ head: { text: fmt(T.hand_no, { n: r.hand_no }), title: T.task_texts[String(r.task_no)] || "" }, scores: r.scores }));
      scores.innerHTML = finalTable({ order: seatOrder(), winners: m.winners, hands, totals: m.totals });
      $(".kt-countdown").textContent = "";
      finalActions.hidden = false;
      return;
    }
    if (m.status === "abandoned" || m.status === "aborted") {
      showClosed();
      return;
    }
    if ((m.status === "between" || (h && h.over)) && last) {
      overlay.hidden = false;
      overlay.dataset.kind = "hand";
      title.textContent = fmt(T.hand_over, { n: last.hand_no });
      sub.textContent = `${T.task_texts[String(last.task_no)] || ""} · ${last.finisher !== null && last.finisher !== undefined ? fmt(T.finished_by, { name: seatName(last.finisher) }) : T.deck_ran_out}`;
      const cols = ["col_finish", "col_not_opened", "col_tiles", "col_okeys", "col_penalties", "col_hand", "col_total"];
      const cells = (s) => {
        const line = last.lines[s] || {};
        return [line.finish, line.not_opened, line.tiles, line.okeys, line.penalties].map(scoreCell).join("") + `<td class="kt-sum">${last.scores[s]}</td><td class="kt-sum">${m.totals[s]}</td>`;
      };
      const table = scoreTable({ order: seatOrder(), heads: cols.map((c) => T[c]), cells, winner: (s) => last.finisher === s });
      scores.innerHTML = table + verifyLink(T, h && h.over && h.fair);
      finalActions.hidden = true;
      return;
    }
    overlay.hidden = true;
    overlay.dataset.kind = "";
  }

  return { rel, seatAt, can, rackCells, rackHas, myTurn, running, tileName, tileHTML, statusText, render };
}
