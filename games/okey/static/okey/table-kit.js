// What the three tile tables (KÜT: ../kut/table.js, KDVli: ../kdvli/table.js, Kastet:
// ../kastet/table.js) share beyond the tiles themselves (./tiles.js): seat names and
// presence labels, the status line, toasts, notes that stay, drag and drop, and — for the
// tables with one clock box (KDVli, Kastet) — the socket with its tab take-back (*Burada
// oyna*), the clock tick with its watchdog; and the overlays' score tables, partnership
// line and closed-table state.  Each table keeps its
// own state object S = {match, hand, me, offset, lastFrameAt, drag, deferred, …} and
// strings T; this module works on them, it holds no state of its own.

import { openMatchSocket } from "../js/match-socket.js";
import { putNote } from "../js/note.js";
import { CELLS, ROW, esc, fmt, localMove } from "./tiles.js";

// root: the table element; S, T: the table's state and strings; statusText(): the status
// line when no message is pinned; render(): redraw (after a drag that deferred it);
// requestSync(minGap): ask for a snapshot (by default on the socket of `openSocket`).
export function tableKit({ root, S, T, statusText, render, requestSync }) {
  let sock = null;
  const sync = requestSync || ((minGap) => sock.requestSync(minGap));
  const $ = (sel, el = root) => el.querySelector(sel);
  const $$ = (sel, el = root) => Array.from(el.querySelectorAll(sel));
  const serverNow = () => Date.now() + S.offset;
  const playing = () => Boolean(S.match && S.match.status === "playing");

  function seatName(seat) {
    const info = S.match && S.match.seats[seat];
    if (!info) return "";
    if (info.bot) return fmt(T.bot_name, { n: seat + 1, level: T.levels[info.bot] || info.bot });
    return info.name;
  }

  // A bot moves for this seat: a bot's seat, an away seat (K-N7), a player who left
  // (K-X3) or dropped (P-13).
  function botControlled(seat) {
    const info = S.match && S.match.seats[seat];
    return Boolean(info && (info.bot || info.away || info.left || info.dropped || info.user_id === null));
  }

  function presence(seat) {
    const info = S.match.seats[seat];
    if (info.left) return ["left", T.left];
    if (info.bot) return ["bot", T.bot];
    if (info.away) return ["away", T.away];
    return info.connected ? ["online", T.online] : ["offline", T.offline];
  }

  // A text pins the status line (a closed socket says why) until the next plain call.
  function setStatus(text) {
    const el = $(".kt-status");
    if (text !== undefined) {
      el.textContent = text;
      el.dataset.sticky = text ? "1" : "";
      return;
    }
    el.dataset.sticky = "";
    el.textContent = statusText();
  }

  function toast(text, kind = "info") {
    const box = $(".kt-toasts");
    const same = Array.from(box.children).find((t) => t.textContent === text);
    if (same) same.remove(); // the same message again: show it once, freshly
    const el = document.createElement("div");
    el.className = `kt-toast kt-toast-${kind}`;
    el.setAttribute("role", kind === "error" ? "alert" : "status");
    el.textContent = text;
    box.append(el);
    while (box.children.length > 2) box.firstElementChild.remove();
    setTimeout(() => el.remove(), 4500);
    return el;
  }

  // A note that stays until it is dealt with (not a toast), one per `kind`, under the board:
  // a timeout, this table opened in another tab…  `text` null removes it; `buttonLabel`
  // and `onClick`: its button (else a Close button).
  // The notes stack under the bar, with the table's own away note (okey/_overlay.html) in
  // it, so that two notes never lie on top of each other.
  function note(kind, text, buttonLabel = null, onClick = null) {
    let box = $(".kt-notes-live");
    if (!box) {
      const stack = document.createElement("div");
      stack.className = "kt-notes-stack";
      box = document.createElement("div");
      box.className = "kt-notes kt-notes-live";
      stack.append(box);
      for (const away of $$(":scope > .kt-notes")) stack.append(away);
      $(".kt-board").after(stack);
    }
    return putNote(box, kind, text, { p: "kt", dismiss: T.dismiss, label: buttonLabel, onClick, actClass: "kt-btn" });
  }

  function dropTarget(x, y) {
    const el = document.elementFromPoint(x, y);
    return el ? el.closest("[data-drop]") : null;
  }

  function clearHover() {
    $$(".is-hover").forEach((el) => el.classList.remove("is-hover"));
  }

  // Ends the drag in progress (if any) and returns it; a frame that came meanwhile is drawn now.
  function endDrag() {
    const drag = S.drag;
    S.drag = null;
    clearHover();
    root.classList.remove("is-dragging");
    if (drag && drag.ghost) drag.ghost.remove();
    $$(".is-dragging").forEach((el) => el.classList.remove("is-dragging"));
    if (S.deferred) {
      S.deferred = false;
      render();
    }
    return drag;
  }

  // KDVli's and Kastet's match socket (../js/match-socket.js, not yet connected): a close
  // drops the move in flight (`net.inflight`: applied or not, never sent twice) and says
  // why in the status line.  The seat opened in another tab (close 4009) is final for
  // this one — reconnecting on its own would knock the other tab off in turn — so a note
  // offers *Burada oyna* (play here), which reconnects and takes the seat back (issue 29,
  // as KÜT's table); meanwhile the clock stops showing a turn it no longer follows.
  function openSocket(matchId, net, { onFrame, onError }) {
    const texts = { kicked: T.kicked, cannot_join: T.cannot_join, reconnecting: T.reconnecting };
    sock = openMatchSocket({
      matchId,
      connectNow: false,
      onConnect: () => (root.dataset.connects = String(Number(root.dataset.connects || 0) + 1)),
      onFrame,
      onError,
      onOpen: () => setStatus(),
      onClose({ reason }) {
        net.inflight = null;
        if (reason === "replaced") {
          S.replaced = true;
          setStatus(T.replaced_status);
          note("replaced", T.replaced_note, T.play_here, playHere);
          tick(root.dataset.clockPrefix || "");
          return;
        }
        setStatus(texts[reason]);
      },
    });
    return sock;
  }

  function playHere() {
    note("replaced", null);
    S.replaced = false;
    setStatus(T.connecting);
    sock.reconnect(); // the snapshot that follows redraws the table and the clock
  }

  // A drag starts: a ghost of `tile` follows the pointer, `source` (the tile's place)
  // dims, and the pointer is captured so that the drop arrives even outside the window.
  function liftTile(drag, tile, source, event) {
    drag.started = true;
    const rect = tile.getBoundingClientRect();
    const ghost = tile.cloneNode(true);
    ghost.classList.add("kt-ghost");
    ghost.style.width = `${rect.width}px`;
    ghost.style.height = `${rect.height}px`;
    document.body.append(ghost);
    drag.ghost = ghost;
    drag.dx = rect.width / 2;
    drag.dy = rect.height / 2;
    source.classList.add("is-dragging");
    root.classList.add("is-dragging");
    try {
      source.setPointerCapture(event.pointerId);
    } catch {
      // the pointer is already gone: pointercancel cleans up
    }
  }

  // The pointer moved during a drag: the ghost follows, the drop target under it lights up.
  function followPointer(drag, event) {
    event.preventDefault();
    drag.ghost.style.transform = `translate(${event.clientX - drag.dx}px, ${event.clientY - drag.dy}px)`;
    clearHover();
    const target = dropTarget(event.clientX, event.clientY);
    if (target) target.classList.add("is-hover");
  }

  // The tables' drag and drop with mouse and touch (Pointer Events), wired once:
  // `grab(event)` — a press that may start a drag: the drag's own fields, or null;
  // `mayLift(drag)` — whether moving the pointer may start it (else the press stays a
  //   tap, wherever the pointer goes);
  // `lift(drag)` — once the pointer has moved far enough: [tile, its place] to lift, or
  //   null to forget the press;
  // `tap(drag)` — released where it was pressed;
  // `drop(drag, target, event)` — released after a drag over `target` (the drop place
  //   under the pointer, or null).
  const DRAG_THRESHOLD = 6; // px: a smaller move is still a tap
  function pointerDrag({ grab, mayLift, lift, tap, drop }) {
    document.addEventListener("pointerdown", (event) => {
      if (S.drag) endDrag(); // a drag that never ended (the window lost the pointer)
      if (event.button !== 0 || !S.hand || S.hand.over || S.me === null) return;
      const fields = grab(event);
      if (!fields) return;
      S.drag = { ...fields, x0: event.clientX, y0: event.clientY, started: false, ghost: null, pointerId: event.pointerId };
    });
    document.addEventListener("pointermove", (event) => {
      const drag = S.drag;
      if (!drag || event.pointerId !== drag.pointerId) return;
      if (!drag.started) {
        if (!mayLift(drag) || Math.hypot(event.clientX - drag.x0, event.clientY - drag.y0) < DRAG_THRESHOLD) return;
        const lifted = lift(drag);
        if (!lifted) {
          S.drag = null;
          return;
        }
        liftTile(drag, lifted[0], lifted[1], event);
      }
      followPointer(drag, event);
    });
    document.addEventListener("pointerup", (event) => {
      const drag = S.drag;
      if (!drag || event.pointerId !== drag.pointerId) return;
      if (!drag.started) {
        endDrag();
        tap(drag);
        return;
      }
      const target = dropTarget(event.clientX, event.clientY);
      endDrag();
      drop(drag, target, event);
    });
    document.addEventListener("pointercancel", (event) => {
      if (S.drag && event.pointerId === S.drag.pointerId) endDrag();
    });
    window.addEventListener("blur", () => S.drag && endDrag());
  }

  // A press on a rack cell (KÜT, KDVli): its tile may be dragged; an empty cell is a tap.
  const rackPress = {
    grab(event) {
      const cell = event.target.closest(".kt-cell");
      if (!cell || !root.contains(cell)) return null;
      return { id: cell.dataset.id || null, from: Number(cell.dataset.i) };
    },
    mayLift: (drag) => Boolean(drag.id),
    lift(drag) {
      const source = $(`.kt-cell[data-i="${drag.from}"]`);
      const tile = source && source.querySelector(".kt-tile");
      return tile ? [tile, source] : null;
    },
  };

  // KÜT's and KDVli's own rack edits (K-R2, V-R1): shown at once, then sent with `act`.
  // The frame held is copied, not changed: it is also the base the next change frame
  // applies to (../js/frames.js).
  function rackEdits(act) {
    function moveTile(id, to) {
      if (!S.hand || !S.hand.rack || S.hand.over) return;
      const cells = S.hand.rack.cells.slice();
      if (localMove(cells, id, to)) {
        S.hand = { ...S.hand, rack: { ...S.hand.rack, cells } };
        S.focus = to;
        render();
        act({ type: "move", tile_id: id, to });
      }
    }
    function toggleSeparator(at) {
      if (!S.hand || !S.hand.rack || S.hand.over || at % ROW === ROW - 1 || at < 0 || at >= CELLS - 1) return;
      const seps = S.hand.rack.separators.slice();
      const i = seps.indexOf(at);
      if (i >= 0) seps.splice(i, 1);
      else seps.push(at);
      S.hand = { ...S.hand, rack: { ...S.hand.rack, separators: seps } };
      render();
      act({ type: "separator", at });
    }
    return { moveTile, toggleSeparator };
  }

  function focusCell(index) {
    S.focus = Math.max(0, Math.min(CELLS - 1, index));
    $$(".kt-cell").forEach((c) => (c.tabIndex = Number(c.dataset.i) === S.focus ? 0 : -1));
    const el = $(`.kt-cell[data-i="${S.focus}"]`);
    if (el) el.focus();
  }

  // A key on a focused rack cell (KÜT, KDVli): arrows, Home and End move the focus,
  // Enter or Space picks a tile up and puts it down (`tap(i)`), S toggles the separator
  // after the cell (`separator(i)`). True when the key was the rack's.
  function rackKey(event, cell, { tap, separator }) {
    const i = Number(cell.dataset.i);
    const key = event.key;
    const moves = { ArrowLeft: i - 1, ArrowRight: i + 1, ArrowUp: i - ROW, ArrowDown: i + ROW, Home: i - (i % ROW), End: i - (i % ROW) + ROW - 1 };
    if (key in moves) {
      event.preventDefault();
      const to = moves[key];
      if (to >= 0 && to < CELLS) focusCell(to);
      return true;
    }
    if (key === "Enter" || key === " ") {
      event.preventDefault();
      S.keyAt = performance.now();
      tap(i);
      focusCell(S.focus);
      return true;
    }
    if (key === "s" || key === "S") {
      event.preventDefault();
      separator(i);
      focusCell(i);
      return true;
    }
    return false;
  }

  // The clock box `.<prefix>-clock` (whose turn, seconds left, warned in the last
  // seconds: K-N6, V-N5, S-N1, P-6), the ring on the active seat card, the next hand's
  // countdown, and the watchdog: a deadline passed or a bot silent too long asks for a
  // snapshot.
  function tick(prefix) {
    const m = S.match;
    const h = S.hand;
    if (!m) return;
    root.dataset.clockPrefix = prefix;
    const now = serverNow();
    const clock = $(`.${prefix}-clock`);
    const active = $(".kt-card.is-turn");
    if (S.replaced) {
      // another tab plays this seat: no countdown that nothing here will ever refresh
      clock.hidden = true;
      root.dataset.clock = "";
      root.dataset.warn = "";
      if (active) {
        active.classList.remove("has-timer", "is-warn");
        $(".kt-timer", active).textContent = "";
      }
      return;
    }
    if (m.status === "playing" && m.deadline && m.turn_started && h && !h.over) {
      const left = Math.max(0, m.deadline - now);
      const warn = left <= (m.warning_seconds || 10) * 1000;
      clock.hidden = false;
      clock.classList.toggle("is-warn", warn);
      clock.classList.toggle("is-mine", h.turn === S.me);
      $(`.${prefix}-clock-who`, clock).textContent = h.turn === S.me ? T.your_turn : seatName(h.turn);
      $(`.${prefix}-clock-left`, clock).textContent = fmt(T.seconds_left, { n: Math.ceil(left / 1000) });
      root.dataset.clock = String(Math.ceil(left / 1000));
      root.dataset.warn = warn ? "1" : "";
      if (active) {
        active.style.setProperty("--p", (left / Math.max(1, m.deadline - m.turn_started)).toFixed(4));
        active.classList.add("has-timer");
        active.classList.toggle("is-warn", warn);
        $(".kt-timer", active).textContent = fmt(T.seconds_left, { n: Math.ceil(left / 1000) });
      }
    } else {
      clock.hidden = true;
      root.dataset.clock = "";
      root.dataset.warn = "";
    }
    const countdown = $(".kt-countdown");
    if (m.status === "between" && m.deadline) {
      const secs = Math.ceil((m.deadline - now) / 1000);
      countdown.textContent = secs > 0 ? fmt(T.next_hand_in, { n: secs }) : T.next_hand_soon;
    } else if (m.status !== "between") {
      countdown.textContent = "";
    }
    const idle = Date.now() - S.lastFrameAt;
    const overdue = (m.status === "playing" || m.status === "between") && m.deadline && now > m.deadline + 700;
    const botToMove = playing() && h && !h.over && h.turn !== S.me && botControlled(h.turn);
    if (overdue && idle > 700) sync(1000);
    else if (botToMove && idle > 3000) sync();
  }

  // --- the overlays (end of a hand, end of the match, a closed table) ---------------------

  // A score table: a row per seat of `order` (the viewer's order), the player's name first
  // (a crown before a winner's when `crown`), then `cells(s)`, the row's cells as HTML;
  // `heads`: the other columns' headings (a text, or {text, title}); `foot`: <tfoot> rows.
  function scoreTable({ order, heads, cells, winner = () => false, crown = false, cls = "", foot = "" }) {
    const th = (h) => (typeof h === "string" ? `<th scope="col">${esc(h)}</th>` : `<th scope="col" title="${esc(h.title)}">${esc(h.text)}</th>`);
    let body = "";
    for (const s of order) {
      const win = winner(s);
      const star = win && crown ? '<span class="kt-crown" aria-hidden="true">★</span>' : "";
      body += `<tr class="${win ? "is-winner" : ""}${s === S.me ? " is-me" : ""}"><th scope="row">${star}${esc(seatName(s))}</th>${cells(s)}</tr>`;
    }
    const head = `<tr><th scope="col">${esc(T.col_player)}</th>${heads.map(th).join("")}</tr>`;
    return `<table class="kt-score-table${cls ? ` ${cls}` : ""}"><thead>${head}</thead><tbody>${body}</tbody>${foot ? `<tfoot>${foot}</tfoot>` : ""}</table>`;
  }

  // The match's final table: a column per hand (`hands`: [{head, scores}]), then the
  // totals; the winners crowned.
  function finalTable({ order, winners, hands, totals, cls = "", foot = "" }) {
    return scoreTable({
      order, cls, foot, crown: true,
      winner: (s) => winners.includes(s),
      heads: [...hands.map((h) => h.head), T.col_total],
      cells: (s) => hands.map((h) => `<td>${h.scores[s]}</td>`).join("") + `<td class="kt-sum">${totals[s]}</td>`,
    });
  }

  // The two partnerships' scores after the subtitle (P-8: seats 0 and 2 against 1 and 3),
  // or nothing at a table of individuals (`pair` null).
  function teamsLine(pair) {
    if (!pair) return "";
    return ` ${fmt(T.team, { a: seatName(0), b: seatName(2), n: pair[0] })} · ${fmt(T.team, { a: seatName(1), b: seatName(3), n: pair[1] })}`;
  }

  // A closed table (abandoned or aborted): the overlay says so, emptied (`also`: the
  // table's own boxes to empty), and only the way back to the lobby stays.
  function showClosed(...also) {
    const overlay = $(".kt-overlay");
    overlay.hidden = false;
    overlay.dataset.kind = "closed";
    $("#kt-overlay-title").textContent = T.closed;
    for (const sel of [".kt-overlay-sub", ".kt-scores", ".kt-countdown", ...also]) $(sel).textContent = "";
    $(".kt-final-actions").hidden = false;
  }

  // The end-of-hand and final overlays: the kit draws the frame (the title, the
  // winners' line, which parts show), the game its own lines.  `order`: the seats in the
  // viewer's order; `reveal`: the selector of the game's reveal box; `final()` → {teams,
  // hands, totals, cls, foot, reveal}: the match's final table (P-8's team pair or null,
  // the finalTable's rows, the reveal's HTML); `hand()` → {kind, sub, scores, reveal}: a
  // finished hand (the overlay's kind, then HTML for the subtitle, scores and reveal).
  function renderEnd({ order, reveal: revealSel, final, hand }) {
    const overlay = $(".kt-overlay");
    const m = S.match;
    const h = S.hand;
    if (!m || !h) {
      overlay.hidden = true;
      return;
    }
    const title = $("#kt-overlay-title");
    const sub = $(".kt-overlay-sub");
    const scores = $(".kt-scores");
    const reveal = $(revealSel);
    const finalActions = $(".kt-final-actions");
    if (m.status === "finished") {
      const f = final();
      const winners = m.winners || [];
      overlay.hidden = false;
      overlay.dataset.kind = "final";
      title.textContent = T.match_over;
      const names = winners.map(seatName).join(", ");
      sub.innerHTML = `<strong class="kt-winners">${esc(fmt(winners.length > 1 ? T.winners : T.winner, { names }))}</strong> ${esc(T.lowest_wins)}${esc(teamsLine(f.teams))}`;
      scores.innerHTML = finalTable({ order, winners, hands: f.hands, totals: f.totals, cls: f.cls, foot: f.foot || "" });
      reveal.innerHTML = f.reveal;
      $(".kt-countdown").textContent = "";
      finalActions.hidden = false;
      return;
    }
    if (m.status === "abandoned" || m.status === "aborted") {
      showClosed(revealSel);
      return;
    }
    if (h.over) {
      const o = hand();
      overlay.hidden = false;
      overlay.dataset.kind = o.kind;
      title.textContent = fmt(T.hand_over, { n: h.hand_no });
      sub.innerHTML = o.sub;
      scores.innerHTML = o.scores;
      reveal.innerHTML = o.reveal;
      finalActions.hidden = true;
      return;
    }
    overlay.hidden = true;
    overlay.dataset.kind = "";
  }

  return { $, $$, serverNow, playing, seatName, botControlled, presence, setStatus, toast, note, pointerDrag, rackPress, rackEdits, rackKey, tick, openSocket, scoreTable, finalTable, teamsLine, showClosed, renderEnd };
}
