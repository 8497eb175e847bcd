// KÜT's table made live (the looks: ./moves.css).  Bots play at a human pace
// (bot_think_seconds): each move of another seat is shown — the tile it takes travels to
// its card, its discard lands on its pile, the groups it opens or lays off on are
// highlighted for a moment.  The claim window counts down on the claim button and the
// thrower's pile (K-C1); the rack's tiles glide to their new cells (FLIP, 180 ms); the
// match's winner gets confetti and a fanfare.  Nothing moves under
// prefers-reduced-motion (the highlights stay, without animation).

import { fmt } from "../okey/tiles.js";
import { PILE } from "./view.js";

const FLY_MS = 240;

export function kutMoves(t) {
  const { root, S, T, $, $$, botControlled } = t;
  const reducedMotion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };

  function seatCard(seat) {
    return $(`.kt-seat[data-seat="${seat}"] .kt-card`);
  }

  function pileOf(seat) {
    return $(`.kt-pile[data-pos="${PILE[t.rel(seat)]}"]`);
  }

  function flash(el, cls = "is-flash", ms = 1600) {
    if (!el) return;
    el.classList.remove(cls);
    void el.offsetWidth; // restart the animation
    el.classList.add(cls);
    setTimeout(() => el.classList.remove(cls), ms);
  }

  function fly(from, to, html) {
    if (!from || !to || reducedMotion.matches || document.hidden) return;
    const a = from.getBoundingClientRect();
    const b = to.getBoundingClientRect();
    if (!a.width || !b.width) return;
    const el = document.createElement("div");
    el.className = "kt-fly";
    el.setAttribute("aria-hidden", "true");
    el.innerHTML = html;
    el.style.left = `${a.left + a.width / 2}px`;
    el.style.top = `${a.top + a.height / 2}px`;
    document.body.append(el);
    const dx = b.left + b.width / 2 - (a.left + a.width / 2);
    const dy = b.top + b.height / 2 - (a.top + a.height / 2);
    const run = el.animate(
      [{ transform: "translate(-50%, -50%) scale(1)" }, { transform: `translate(calc(${dx}px - 50%), calc(${dy}px - 50%)) scale(0.8)` }],
      { duration: FLY_MS, easing: "ease-out" },
    );
    run.onfinish = () => el.remove();
    setTimeout(() => el.remove(), FLY_MS + 200);
  }

  function showMoves(prev, next) {
    if (!prev || !next || S.me === null) return;
    const moved = [];
    for (let seat = 0; seat < 4; seat++) {
      if (seat === S.me) continue;
      const a = prev.seats[seat];
      const b = next.seats[seat];
      if (b.count > a.count) {
        // took a tile: from a pile that shrank (the thrown tile, a claim), else the deck
        const from = [0, 1, 2, 3].find((s) => next.seats[s].discards.length < prev.seats[s].discards.length);
        if (from !== undefined) {
          const tile = prev.seats[from].discards[prev.seats[from].discards.length - 1];
          fly(pileOf(from), seatCard(seat), tile ? t.tileHTML(tile.face) : '<span class="kt-back"></span>');
        } else {
          fly($(".kt-deck"), seatCard(seat), '<span class="kt-back"></span>');
        }
        flash(seatCard(seat), "is-moved", 900);
        moved.push(seat);
      }
      if (b.discards.length > a.discards.length) {
        const tile = b.discards[b.discards.length - 1];
        fly(seatCard(seat), pileOf(seat), t.tileHTML(tile.face));
        flash(pileOf(seat), "is-landed", 1200);
        moved.push(seat);
      }
    }
    if (prev.turn !== S.me) {
      next.table.forEach((g, i) => {
        const old = prev.table[i];
        if (!old || g.tiles.length > old.tiles.length) flash($(`.kt-group[data-g="${i}"]`));
      });
    }
    if (moved.length) root.dataset.lastMoved = moved.join(",");
  }

  // K-C1: the seconds left before the bot to play moves on, while this seat may claim.
  function claimCountdown(now) {
    const m = S.match;
    const h = S.hand;
    const button = $(".kt-btn-claim");
    if (!button) return;
    let badge = $(".kt-claim-count", button);
    const open = t.can("claim") && m.bot_due && h.turn !== S.me && botControlled(h.turn) && h.phase === "play";
    const left = open ? Math.max(0, Math.ceil((m.bot_due - now) / 1000)) : 0;
    root.dataset.claimWindow = open && left > 0 ? String(left) : "";
    if (!open || left <= 0) {
      if (badge) badge.remove();
      $$(".kt-pile[data-countdown]").forEach((el) => delete el.dataset.countdown);
      return;
    }
    if (!badge) {
      badge = document.createElement("span");
      badge.className = "kt-claim-count";
      button.append(badge);
    }
    badge.textContent = fmt(T.seconds_left, { n: left });
    const pile = h.thrown ? pileOf(h.thrown.seat) : null;
    if (pile) pile.dataset.countdown = String(left);
  }

  // Tiles that moved on the rack (a drag, a tap, Diz, a tile drawn) glide to their new
  // cell: `positions()` before a redraw, `glide(them)` after it.
  function positions() {
    if (reducedMotion.matches || S.drag) return null;
    const at = new Map();
    for (const cell of $$(".kt-cell.has-tile")) {
      const tile = cell.querySelector(".kt-tile");
      if (tile) at.set(cell.dataset.id, tile.getBoundingClientRect());
    }
    return at;
  }

  function glide(before) {
    if (!before || !before.size || typeof Element.prototype.animate !== "function") return;
    for (const cell of $$(".kt-cell.has-tile")) {
      const tile = cell.querySelector(".kt-tile");
      const old = before.get(cell.dataset.id);
      if (!tile) continue;
      const now = tile.getBoundingClientRect();
      if (!old) {
        tile.animate([{ transform: "translateY(-40%) scale(0.85)", opacity: 0.2 }, { transform: "none", opacity: 1 }], { duration: 200, easing: "ease-out" });
        continue;
      }
      const dx = old.left - now.left;
      const dy = old.top - now.top;
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
      tile.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], { duration: 180, easing: "ease-out" });
    }
  }

  // The match's winner: confetti over the final table (none under reduced motion) and a
  // fanfare — for a player who won, never for a bot's win (issue 29).
  function celebrate() {
    const m = S.match;
    if (!m || !m.winners || !m.winners.length) return;
    const human = (seat) => m.seats[seat] && !m.seats[seat].bot;
    if (!m.winners.some(human)) return;
    t.play("fanfare");
    const card = $(".kt-overlay-card");
    card.classList.add("is-celebrating");
    root.dataset.celebrated = m.winners.join(",");
    if (reducedMotion.matches) return;
    const layer = document.createElement("div");
    layer.className = "kt-confetti";
    layer.setAttribute("aria-hidden", "true");
    const colours = ["#c62828", "#f2b705", "#1f5fae", "#1b1b1b", "#1f8a3a"];
    for (let i = 0; i < 60; i++) {
      const bit = document.createElement("i");
      bit.style.left = `${(i * 37) % 100}%`;
      bit.style.background = colours[i % colours.length];
      bit.style.animationDelay = `${(i % 12) * 60}ms`;
      bit.style.setProperty("--drift", `${((i * 53) % 120) - 60}px`);
      layer.append(bit);
    }
    $(".kt-overlay").append(layer);
    setTimeout(() => layer.remove(), 3200);
  }

  return { showMoves, claimCountdown, positions, glide, celebrate };
}
