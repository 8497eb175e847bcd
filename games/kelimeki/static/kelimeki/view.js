// Kelimeki's board drawn from the frame it holds and the player's own table (UI: the
// rack's order, the tentative tiles): the 15×15 board with its zones and homes (W-B1,
// W-Z8), the scores with the AI "thinking" (issue 29), the rack, the buttons, the move
// deadline (W-X3), the status and the last moves, the bag, and the end card with its
// k-lig line (W-L1…W-L4).  `t` is the board (./board.js).

import { esc, fmt } from "../js/text.js";

export const SIZE = 15; // W-B1
export const POINTS = { A: 1, B: 3, C: 4, Ç: 4, D: 3, E: 1, F: 7, G: 5, Ğ: 8, H: 5, I: 2, İ: 1, J: 10, K: 1, L: 1, M: 2, N: 1, O: 2, Ö: 7, P: 5, R: 1, S: 2, Ş: 4, T: 1, U: 2, Ü: 3, V: 7, Y: 3, Z: 4, "*": 0 }; // W-T2
export const JOKER = "*";

export function kelimekiView(t) {
  const { root, S, T, UI, $, LETTERS, boardEl, cells } = t;

  function buildBoard() {
    for (let r = 0; r < SIZE; r++) {
      const row = document.createElement("div");
      row.className = "kk-row";
      row.setAttribute("role", "row");
      for (let c = 0; c < SIZE; c++) {
        const el = document.createElement("div");
        el.className = "kk-cell";
        el.setAttribute("role", "gridcell");
        el.dataset.i = String(r * SIZE + c);
        el.dataset.row = String(r);
        el.dataset.col = String(c);
        el.tabIndex = r * SIZE + c === UI.focus ? 0 : -1;
        row.append(el);
        cells.push(el);
      }
      boardEl.append(row);
    }
  }

  function render() {
    const h = S.hand;
    root.dataset.version = String(S.version);
    root.dataset.status = h ? (h.over ? "finished" : "running") : "";
    root.dataset.myTurn = t.myTurn() ? "1" : "0";
    if (!h) return;
    renderBoard();
    renderScores();
    renderRack();
    renderButtons();
    renderStatus();
    renderClock();
    renderLog();
    renderOverlay();
    $(".kk-bag-count").textContent = String(h.bag_count);
    if ($(".kk-bag-dialog").open) renderBag();
  }

  function zoneAt(i) {
    const ch = S.hand.zones[Math.floor(i / SIZE)][i % SIZE];
    return ch === "." ? -1 : Number(ch);
  }

  function renderBoard() {
    const h = S.hand;
    if (!h) return;
    const homes = {};
    h.homes.forEach(([r, c], s) => (homes[r * SIZE + c] = s));
    const lastCells = new Set(h.last && h.last.type === "play" ? h.last.cells : []);
    for (let i = 0; i < SIZE * SIZE; i++) {
      const el = cells[i];
      const r = Math.floor(i / SIZE);
      const c = i % SIZE;
      const kind = h.layout[r][c];
      const z = zoneAt(i);
      const ch = t.cellLetter(i);
      const tent = t.tentAt(i);
      const cls = ["kk-cell"];
      const label = [fmt(T.cell, { row: r + 1, col: c + 1 })];
      if (kind === "2") cls.push("x2");
      if (kind === "3") cls.push("x3");
      if (z >= 0) {
        cls.push(`zone z${z}`);
        label.push(fmt(T.zone_of, { name: t.seatName(z) }));
      }
      if (i in homes) {
        cls.push("home");
        label.push(fmt(T.cell_home, { name: t.seatName(homes[i]) }));
      }
      if (lastCells.has(i)) cls.push("last");
      if (i === UI.focus) cls.push("focus");
      let html = "";
      if (ch) {
        const joker = ch !== t.upperTr(ch) || !(ch in POINTS);
        const letter = joker ? t.upperTr(ch) : ch;
        html = tileHtml(letter, joker, "placed");
        label.push(joker ? fmt(T.joker_as, { letter }) : fmt(T.tile, { letter, n: POINTS[letter] }));
      } else if (tent) {
        html = tileHtml(tent.letter, tent.joker, "tent", tent.id);
        cls.push("has-tent");
        label.push(fmt(T.cell_tentative, { letter: tent.letter }));
      } else {
        if (kind === "2") label.push(T.cell_x2);
        if (kind === "3") label.push(T.cell_x3);
        if (!(kind === "2" || kind === "3") || !label.length) label.push(T.cell_empty);
        if (i in homes) html = `<span class="kk-mark" aria-hidden="true">⌂<small>${T.seat_marks[homes[i]]}</small></span>`;
        else if (kind === "2") html = `<span class="kk-mark" aria-hidden="true">×2</span>`;
        else if (kind === "3") html = `<span class="kk-mark" aria-hidden="true">×3</span>`;
        else if (z >= 0) html = `<span class="kk-zmark" aria-hidden="true">${T.seat_marks[z]}</span>`;
      }
      const className = cls.join(" ");
      if (el.className !== className) el.className = className;
      if (el.dataset.html !== html) {
        el.innerHTML = html;
        el.dataset.html = html;
      }
      el.setAttribute("aria-label", label.join(", "));
      // W-Z8: each zone outlined with a thick line in its owner's colour
      if (z >= 0) {
        const side = (rr, cc) => rr < 0 || cc < 0 || rr >= SIZE || cc >= SIZE || zoneAt(rr * SIZE + cc) !== z;
        const w = "var(--zw)";
        const col = `var(--seat${z})`;
        const parts = [];
        if (side(r - 1, c)) parts.push(`inset 0 ${w} 0 0 ${col}`);
        if (side(r + 1, c)) parts.push(`inset 0 calc(-1 * ${w}) 0 0 ${col}`);
        if (side(r, c - 1)) parts.push(`inset ${w} 0 0 0 ${col}`);
        if (side(r, c + 1)) parts.push(`inset calc(-1 * ${w}) 0 0 0 ${col}`);
        el.style.boxShadow = parts.join(", ");
      } else {
        el.style.boxShadow = "";
      }
    }
  }

  function tileHtml(letter, joker, kind, id) {
    const shown = joker ? t.lowerTr(letter) : letter;
    const pts = joker ? 0 : POINTS[letter];
    return `<span class="kk-tile ${kind}${joker ? " joker" : ""}"${id ? ` data-id="${id}"` : ""}>` +
      `<span class="kk-letter">${esc(shown)}</span><span class="kk-val">${pts}</span>${joker ? '<span class="kk-star" aria-hidden="true">★</span>' : ""}</span>`;
  }

  function renderScores() {
    const h = S.hand;
    const list = $(".kk-scores");
    list.innerHTML = h.scores
      .map((score, s) => {
        const turn = h.turn === s;
        const out = h.forfeited[s] ? ` <em>(${esc(T.forfeited)})</em>` : "";
        // issue 29: the AI to move "thinks" until its word arrives as a frame of its own
        const thinking = turn && t.isAi(s) ? ` <span class="kk-thinking" data-testid="kk-thinking"><span class="kk-dots" aria-hidden="true"><i></i><i></i><i></i></span> ${esc(T.thinking)}</span>` : "";
        return `<li class="kk-score seat${s}${turn ? " is-turn" : ""}" data-seat="${s}" aria-label="${esc(fmt(T.score_of, { name: t.seatName(s), n: score }))}${turn ? ", " + esc(T.to_move) : ""}">` +
          `<span class="kk-swatch" aria-hidden="true">${T.seat_marks[s]}</span>` +
          `<span class="kk-name">${esc(t.seatName(s))}${out}${thinking}</span>` +
          `<span class="kk-count">${esc(fmt(T.tiles_in_rack, { n: h.rack_counts[s] }))}</span>` +
          `<strong class="kk-points" data-score="${score}">${score}</strong></li>`;
      })
      .join("");
  }

  function renderRack() {
    const rack = $(".kk-rack");
    const items = t.rackItems();
    const html = items
      .map((item) => {
        const joker = item.tile === JOKER;
        const sel = UI.exchange ? UI.exchange.has(item.id) : UI.selected === item.id;
        const label = joker ? T.joker : fmt(T.tile, { letter: item.tile, n: POINTS[item.tile] });
        return `<button type="button" class="kk-rtile${joker ? " joker" : ""}${sel ? " is-selected" : ""}" data-id="${item.id}" data-tile="${esc(item.tile)}" aria-pressed="${sel}" aria-label="${esc(label)}">` +
          `<span class="kk-letter">${joker ? "★" : esc(item.tile)}</span><span class="kk-val">${POINTS[item.tile]}</span></button>`;
      })
      .join("");
    if (rack.dataset.html !== html) {
      rack.innerHTML = html;
      rack.dataset.html = html;
    }
  }

  function renderButtons() {
    const h = S.hand;
    const mine = t.myTurn() && !t.busy();
    $("[data-action=play]").disabled = !(mine && UI.tent.length);
    $("[data-action=recall]").disabled = !UI.tent.length;
    $("[data-action=pass]").disabled = !mine;
    // W-M9: no exchange when the bag is empty; at most as many tiles as the bag holds
    $("[data-action=exchange]").disabled = !(mine && h.max_exchange > 0);
    $("[data-action=shuffle]").disabled = !!h.over;
    const forfeit = $("[data-action=forfeit]");
    if (forfeit) forfeit.hidden = !!h.over || !!(h.forfeited && S.me !== null && h.forfeited[S.me]);
    const bar = $(".kk-exchange-bar");
    bar.hidden = !UI.exchange;
    $(".kk-buttons").hidden = !!UI.exchange;
    if (UI.exchange) {
      const n = UI.exchange.size;
      $(".kk-exchange-help").textContent = fmt(T.exchange_pick, { n: h.max_exchange });
      const ok = $("[data-action=exchange-confirm]");
      ok.textContent = fmt(T.exchange_count, { n });
      ok.disabled = !(mine && n > 0 && n <= h.max_exchange);
    }
  }

  // --- W-X3: the move deadline above the board (days, hours, minutes left; each minute) ---------

  function leftText(ms) {
    const minutes = Math.max(0, Math.ceil(ms / 60000));
    const d = Math.floor(minutes / 1440);
    const h = Math.floor((minutes % 1440) / 60);
    const m = minutes % 60;
    const parts = d ? [fmt(T.unit_d, { n: d }), h ? fmt(T.unit_h, { n: h }) : ""] : h ? [fmt(T.unit_h, { n: h }), m ? fmt(T.unit_m, { n: m }) : ""] : [fmt(T.unit_m, { n: m })];
    return parts.filter(Boolean).join(" ");
  }

  function renderClock() {
    const clock = $(".kk-clock");
    const h = S.hand;
    const deadline = S.match && S.match.deadline;
    if (!h || h.over || h.turn === null || !deadline) {
      clock.hidden = true;
      return;
    }
    // the server's clock, not the browser's: the offset measured when the frame came
    const left = deadline - (Date.now() + (S.clockOffset || 0));
    const text = leftText(left);
    const mine = t.myTurn();
    clock.textContent = mine ? fmt(T.clock_mine, { left: text }) : fmt(T.clock_theirs, { name: t.seatName(h.turn), left: text });
    clock.dataset.leftMs = String(Math.max(0, Math.round(left)));
    clock.classList.toggle("is-mine", mine);
    clock.classList.toggle("is-low", left < 6 * 3600 * 1000);
    clock.hidden = false;
  }

  function renderStatus() {
    const h = S.hand;
    if (h.over) t.setStatus(T.game_over);
    else if (t.myTurn()) t.setStatus(h.first_done[S.me] ? T.your_turn : `${T.your_turn} ${T.your_first}`);
    else t.setStatus(fmt(T.their_turn, { name: t.seatName(h.turn) }));
  }

  function logLine(ev) {
    const name = t.seatName(ev.seat);
    if (ev.type === "play") {
      const words = (ev.words || []).map((w) => (typeof w === "string" ? w : w.word)).join(", ");
      let text = fmt(T.log_play, { name, words, n: ev.points });
      (ev.shares || []).forEach((n, s) => {
        if (s !== ev.seat && n > 0) text += ` · ${fmt(T.log_tax, { name: t.seatName(s), n })}`;
      });
      if (ev.finish_bonus) text += ` · ${fmt(T.log_finish_bonus, { n: ev.finish_bonus })}`;
      return text;
    }
    if (ev.type === "exchange") return fmt(T.log_exchange, { name, n: ev.count });
    if (ev.type === "pass") return fmt(T.log_pass, { name });
    if (ev.type === "forfeit") return fmt(T.log_forfeit, { name });
    return "";
  }

  function renderLog() {
    const html = UI.log.slice().reverse().map((e) => `<li>${esc(logLine(e.ev))}</li>`).join("");
    const list = $(".kk-log");
    if (list.dataset.html !== html) {
      list.innerHTML = html;
      list.dataset.html = html;
    }
  }

  function renderBag() {
    const h = S.hand;
    $(".kk-bag-text").textContent = fmt(T.bag_count, { n: h.bag_count });
    const total = Object.values(h.unseen).reduce((a, b) => a + b, 0);
    $(".kk-unseen-title").textContent = fmt(T.unseen_title, { n: total });
    $(".kk-unseen").innerHTML = [...LETTERS, JOKER]
      .filter((tile) => h.unseen[tile])
      .map((tile) => `<li data-tile="${esc(tile)}"><span class="kk-mini">${tile === JOKER ? "★" : esc(tile)}</span> ×${h.unseen[tile]}</li>`)
      .join("");
  }

  function renderOverlay() {
    const h = S.hand;
    const overlay = $(".kk-overlay");
    if (!h.over || UI.overlayClosed) {
      overlay.hidden = true;
      return;
    }
    overlay.hidden = false;
    const winners = h.ranks ? h.ranks.map((p, s) => (p === 1 ? s : -1)).filter((s) => s >= 0) : [];
    let title = T.game_over;
    if (S.me !== null && winners.includes(S.me)) title = winners.length > 1 ? T.draw : T.you_won;
    else if (S.me !== null) title = T.you_lost;
    $("#kk-overlay-title").textContent = title;
    const ends = { out: fmt(T.end_out, { name: h.last ? t.seatName(h.last.seat) : "" }), passes: T.end_passes, forfeit: T.end_forfeit };
    $(".kk-overlay-sub").textContent = `${ends[h.end] || ""} ${fmt(T.winner, { names: winners.map(t.seatName).join(", ") })}`;
    const order = h.scores.map((_, s) => s).sort((a, b) => (h.ranks[a] ?? 99) - (h.ranks[b] ?? 99) || a - b);
    const rows = order
      .map((s) => {
        const left = (h.racks && h.racks[s]) || [];
        const tiles = left.map((tile) => (tile === JOKER ? "★" : tile)).join(" ");
        const minus = h.deducted && h.deducted[s] ? ` (−${h.deducted[s]})` : "";
        return `<tr data-seat="${s}"><td>${h.ranks[s] ?? "–"}</td><th scope="row"><span aria-hidden="true">${T.seat_marks[s]}</span> ${esc(t.seatName(s))}</th>` +
          `<td>${esc(tiles)}${esc(minus)}</td><td class="kk-final" data-score="${h.scores[s]}">${h.scores[s]}</td></tr>`;
      })
      .join("");
    const fair = h.fair && h.fair.salt ? `<p class="kk-fair"><a data-testid="kk-verify" href="${esc(`${T.verify_url}?${new URLSearchParams({ commitment: h.fair.commitment, salt: h.fair.salt, order: h.fair.order.join(",") })}`)}">${esc(T.verify_bag)}</a></p>` : "";
    $(".kk-result").innerHTML = kligLine() + fair + `<table class="kk-result-table"><thead><tr><th>${esc(T.col_place)}</th><th>${esc(T.col_player)}</th><th>${esc(T.col_left)}</th><th>${esc(T.col_score)}</th></tr></thead><tbody>${rows}</tbody></table>`;
  }

  // The end card's k-lig line for the logged-in player (W-L1…W-L4): the game's points from
  // the view; once recorded (a page opened after the end), the rewards, total and seal.
  function kligLine() {
    const h = S.hand;
    if (S.me === null || S.me === undefined || !h.klig || (S.match && S.match.kind === "guest")) return "";
    const after = T.klig_after;
    const n = after ? after.points : h.klig[S.me];
    const parts = [fmt(T.klig_change, { n: n > 0 ? `+${n}` : String(n).replace("-", "−") })];
    if (after) {
      (after.rewards || []).forEach(([rank, bonus]) => parts.push(fmt(T.klig_reward, { rank, n: bonus })));
      parts.push(fmt(T.klig_total, { n: after.total, seal: after.seal }));
    }
    return `<p class="kk-klig" data-testid="kk-klig" data-points="${n}">${parts.map(esc).join(" · ")} · <a href="${esc(T.klig_card_url)}">${esc(T.klig_card)}</a></p>`;
  }

  return { buildBoard, render, renderBoard, renderClock, renderBag };
}
