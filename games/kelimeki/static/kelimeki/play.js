// Kelimeki's move being laid, on this seat's own table only: the rack's order (Karıştır,
// W-T6) kept across frames, the tentative tiles before Oyna (never sent to anyone but
// this seat's preview endpoint, W-T5) and their preview (W-M7).  `t` is the board
// (./board.js).

import { esc, fmt } from "../js/text.js";
import { JOKER, SIZE } from "./view.js";

export function kelimekiPlay(t) {
  const { root, S, T, UI, $, toast } = t;

  // Keep the player's order (and tentative tiles) across frames: tiles still in the rack
  // keep their place, new ones go to the end.
  function reconcile() {
    const rack = (S.hand && S.hand.rack) || [];
    const left = {};
    rack.forEach((tile) => (left[tile] = (left[tile] || 0) + 1));
    const kept = [];
    for (const item of UI.order) {
      if (left[item.tile] > 0) {
        left[item.tile] -= 1;
        kept.push(item);
      }
    }
    for (const tile of rack) {
      if (left[tile] > 0) {
        left[tile] -= 1;
        kept.push({ id: UI.nextId++, tile });
      }
    }
    UI.order = kept;
    const ids = new Set(kept.map((i) => i.id));
    UI.tent = UI.tent.filter((p) => ids.has(p.id) && !cellLetter(p.row * SIZE + p.col));
    if (UI.selected !== null && !ids.has(UI.selected)) UI.selected = null;
    if (UI.exchange) UI.exchange = new Set([...UI.exchange].filter((id) => ids.has(id)));
    if (S.hand && S.hand.over) {
      UI.tent = [];
      UI.exchange = null;
    }
  }

  function cellLetter(i) {
    if (!S.hand) return null;
    const ch = S.hand.board[Math.floor(i / SIZE)][i % SIZE];
    return ch === "." ? null : ch;
  }

  function tentAt(i) {
    return UI.tent.find((p) => p.row * SIZE + p.col === i) || null;
  }

  function rackItems() {
    const placed = new Set(UI.tent.map((p) => p.id));
    return UI.order.filter((item) => !placed.has(item.id));
  }

  function place(id, i, letter) {
    const item = UI.order.find((x) => x.id === id);
    if (!item || UI.exchange || cellLetter(i) || tentAt(i) || (S.hand && S.hand.over)) return false;
    if (item.tile === JOKER && !letter) {
      t.openJoker(id, i);
      return false;
    }
    UI.tent = UI.tent.filter((p) => p.id !== id);
    UI.tent.push({ id, row: Math.floor(i / SIZE), col: i % SIZE, letter: item.tile === JOKER ? letter : item.tile, joker: item.tile === JOKER });
    UI.selected = null;
    changed();
    return true;
  }

  function takeBack(id) {
    UI.tent = UI.tent.filter((p) => p.id !== id);
    changed();
  }

  function recallAll() {
    if (!UI.tent.length) return;
    UI.tent = [];
    changed();
  }

  function changed() {
    t.render();
    schedulePreview();
  }

  function shuffle() {
    const a = UI.order;
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [a[i], a[j]] = [a[j], a[i]];
    }
    t.render();
    toast(T.shuffled);
  }

  // --- the preview (W-M7) -----------------------------------------------------------------------

  let previewTimer = null;

  function schedulePreview() {
    clearTimeout(previewTimer);
    UI.previewSeq += 1; // an answer for older tiles is stale from now on
    root.dataset.preview = UI.tent.length ? "pending" : "";
    if (!UI.tent.length) return runPreview(); // nothing to ask: clear it at once
    previewTimer = setTimeout(runPreview, 120);
  }

  function placements() {
    return UI.tent.map((p) => ({ row: p.row, col: p.col, letter: p.letter, joker: p.joker }));
  }

  function runPreview() {
    const box = $(".kk-preview");
    const seq = ++UI.previewSeq;
    if (!UI.tent.length || !S.hand || S.hand.over) {
      root.dataset.preview = "";
      box.className = "kk-preview";
      box.textContent = S.hand && !S.hand.over ? T.preview_none : "";
      return;
    }
    root.dataset.preview = "pending";
    const key = JSON.stringify(placements());
    postJson(root.dataset.previewUrl, { placements: placements() })
      .then((res) => {
        if (seq !== UI.previewSeq || key !== JSON.stringify(placements())) return;
        if (res.type === "error") showPreviewError(res); // e.g. too many previews (issue 27)
        else showPreview(res);
      })
      .catch(() => {
        if (seq === UI.previewSeq) root.dataset.preview = "";
      });
  }

  function showPreviewError(res) {
    const box = $(".kk-preview");
    root.dataset.preview = "error";
    box.className = "kk-preview";
    box.innerHTML = `<p>${esc(t.errorText(res.code, res.message))}</p>`;
  }

  function showPreview(res) {
    const box = $(".kk-preview");
    if (res.ok) {
      root.dataset.preview = "valid";
      box.className = "kk-preview is-valid";
      const words = res.words.map((w) => `<li><span class="kk-word">${esc(w.word)}</span> <span class="kk-pts">${esc(fmt(T.point_short, { n: w.points }))}</span></li>`).join("");
      let html = `<p class="kk-verdict"><span aria-hidden="true">✓</span> ${esc(T.preview_valid)}</p><ul class="kk-words">${words}</ul>`;
      if (res.bingo) html += `<p>${esc(T.preview_bingo)}</p>`;
      html += `<p class="kk-total">${esc(fmt(T.preview_total, { n: res.points }))}</p>`;
      const taxes = res.shares.map((n, s) => (s !== S.me && n > 0 ? `<li>${esc(fmt(T.preview_tax, { name: t.seatName(s), n }))}</li>` : "")).join("");
      if (taxes) html += `<ul class="kk-tax">${taxes}</ul><p>${esc(fmt(T.preview_keep, { n: res.shares[S.me] }))}</p>`;
      box.innerHTML = html;
    } else {
      root.dataset.preview = "invalid";
      box.className = "kk-preview is-invalid";
      const why = res.error === "invalid_word" && res.invalid ? fmt(T.preview_invalid_words, { words: res.invalid.join(", ") }) : t.errorText(res.error);
      box.innerHTML = `<p class="kk-verdict"><span aria-hidden="true">✗</span> ${esc(T.preview_invalid)}</p><p>${esc(why)}</p>`;
    }
  }

  // The preview endpoint of this seat (W-M7): tentative tiles go nowhere else.
  function postJson(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": root.dataset.csrf },
      body: JSON.stringify(body),
    }).then((r) => r.json());
  }

  return { reconcile, cellLetter, tentAt, rackItems, place, takeBack, recallAll, shuffle, schedulePreview, placements };
}
