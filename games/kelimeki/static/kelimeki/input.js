// The player's hands on Kelimeki's board: the joker's letter (W-T3), dragging from the
// rack (or a tentative tile) to the board and back, tap then tap, the keyboard on the
// board (arrows, typing a word, Backspace), and the buttons and dialogs (Oyna, Geri Al,
// Karıştır, Pas, Değiştir, the bag, Teslim ol).  `t` is the board (./board.js).

import { esc, fmt } from "../js/text.js";
import { JOKER, SIZE } from "./view.js";

export function kelimekiInput(t) {
  const { root, S, T, UI, $, toast, LETTERS, boardEl, cells } = t;

  function buildJokerPicker() {
    $(".kk-letters").innerHTML = LETTERS.map((l) => `<button type="button" class="kk-pick" data-letter="${esc(l)}">${esc(l)}</button>`).join("");
  }

  function openJoker(id, i) {
    UI.jokerAt = { id, i };
    const dialog = $(".kk-joker-dialog");
    if (!dialog.open) dialog.showModal();
    const first = $(".kk-pick", dialog);
    if (first) first.focus();
  }

  // --- pointer: drag from the rack (or a tentative tile) to the board; tap, then tap --------

  const drag = { item: null, from: null, x: 0, y: 0, ghost: null, moved: false, pointer: null };

  function startDrag(event, id, from) {
    if (event.button !== undefined && event.button !== 0) return;
    drag.item = id;
    drag.from = from;
    drag.x = event.clientX;
    drag.y = event.clientY;
    drag.moved = false;
    drag.pointer = event.pointerId;
    drag.source = event.currentTarget || event.target;
  }

  function moveDrag(event) {
    if (drag.item === null || event.pointerId !== drag.pointer) return;
    if (!drag.moved && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 6) return;
    if (!drag.moved) {
      drag.moved = true;
      const item = UI.order.find((x) => x.id === drag.item);
      if (!item) return;
      const ghost = document.createElement("div");
      ghost.className = "kk-ghost";
      ghost.innerHTML = `<span class="kk-letter">${item.tile === JOKER ? "★" : esc(item.tile)}</span>`;
      document.body.append(ghost);
      drag.ghost = ghost;
      root.classList.add("is-dragging");
    }
    if (drag.ghost) drag.ghost.style.transform = `translate(${event.clientX}px, ${event.clientY}px)`;
    event.preventDefault();
  }

  function endDrag(event) {
    if (drag.item === null || event.pointerId !== drag.pointer) return;
    const id = drag.item;
    const moved = drag.moved;
    const from = drag.from;
    drag.item = null;
    if (drag.ghost) drag.ghost.remove();
    drag.ghost = null;
    root.classList.remove("is-dragging");
    if (!moved) return tap(id, from);
    const target = document.elementFromPoint(event.clientX, event.clientY);
    const cell = target && target.closest(".kk-cell");
    if (cell) {
      const i = Number(cell.dataset.i);
      if (from === "board") {
        const tent = UI.tent.find((p) => p.id === id);
        if (tent && !t.cellLetter(i) && !t.tentAt(i)) {
          const letter = tent.letter;
          UI.tent = UI.tent.filter((p) => p.id !== id);
          t.place(id, i, tent.joker ? letter : undefined);
        }
      } else {
        t.place(id, i);
      }
      return;
    }
    const rackTarget = target && target.closest(".kk-rack");
    if (rackTarget) {
      if (from === "board") t.takeBack(id);
      const over = target.closest(".kk-rtile");
      if (over && Number(over.dataset.id) !== id) {
        // reorder: put the dragged tile before the one it was dropped on
        const item = UI.order.find((x) => x.id === id);
        UI.order = UI.order.filter((x) => x.id !== id);
        UI.order.splice(UI.order.findIndex((x) => x.id === Number(over.dataset.id)), 0, item);
        t.render();
      }
    }
  }

  function tap(id, from) {
    if (from === "board") return t.takeBack(id);
    if (UI.exchange) {
      if (UI.exchange.has(id)) UI.exchange.delete(id);
      else if (UI.exchange.size < S.hand.max_exchange) UI.exchange.add(id);
      return t.render();
    }
    UI.selected = UI.selected === id ? null : id;
    t.render();
    if (UI.selected !== null) {
      const item = UI.order.find((x) => x.id === id);
      t.setStatus(fmt(T.selected, { letter: item.tile === JOKER ? T.joker : item.tile }));
    }
  }

  $(".kk-rack").addEventListener("pointerdown", (event) => {
    const el = event.target.closest(".kk-rtile");
    if (el) startDrag(event, Number(el.dataset.id), "rack");
  });
  boardEl.addEventListener("pointerdown", (event) => {
    const tile = event.target.closest(".kk-tile.tent");
    if (tile) {
      startDrag(event, Number(tile.dataset.id), "board");
      return;
    }
    const cell = event.target.closest(".kk-cell");
    if (cell && UI.selected !== null) {
      event.preventDefault();
      t.place(UI.selected, Number(cell.dataset.i));
    }
    if (cell) setFocus(Number(cell.dataset.i), false);
  });
  document.addEventListener("pointermove", moveDrag, { passive: false });
  document.addEventListener("pointerup", endDrag);
  document.addEventListener("pointercancel", () => {
    if (drag.ghost) drag.ghost.remove();
    drag.ghost = null;
    drag.item = null;
    root.classList.remove("is-dragging");
  });
  // a keyboard "click" on a rack tile (Enter/Space) selects it
  $(".kk-rack").addEventListener("click", (event) => {
    const el = event.target.closest(".kk-rtile");
    if (el && event.detail === 0) tap(Number(el.dataset.id), "rack");
  });

  // --- keyboard on the board --------------------------------------------------------------------

  function setFocus(i, move = true) {
    const old = cells[UI.focus];
    if (old) old.tabIndex = -1;
    UI.focus = Math.max(0, Math.min(SIZE * SIZE - 1, i));
    cells[UI.focus].tabIndex = 0;
    if (move) cells[UI.focus].focus();
    t.renderBoard();
  }

  function advance() {
    const r = Math.floor(UI.focus / SIZE);
    const c = UI.focus % SIZE;
    if (UI.dir === "row" && c < SIZE - 1) setFocus(UI.focus + 1);
    if (UI.dir === "col" && r < SIZE - 1) setFocus(UI.focus + SIZE);
  }

  boardEl.addEventListener("keydown", (event) => {
    const i = UI.focus;
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -SIZE, ArrowDown: SIZE };
    if (event.key in moves) {
      event.preventDefault();
      const c = i % SIZE;
      if ((event.key === "ArrowLeft" && c === 0) || (event.key === "ArrowRight" && c === SIZE - 1)) return;
      UI.dir = event.key === "ArrowUp" || event.key === "ArrowDown" ? "col" : "row";
      setFocus(i + moves[event.key]);
      return;
    }
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      const tent = t.tentAt(i);
      if (tent) t.takeBack(tent.id);
      else if (UI.selected !== null) t.place(UI.selected, i);
      return;
    }
    if (event.key === "Backspace" || event.key === "Delete") {
      event.preventDefault();
      let tent = t.tentAt(i);
      if (!tent && event.key === "Backspace") {
        const back = UI.dir === "row" ? i - 1 : i - SIZE;
        if (back >= 0) {
          tent = t.tentAt(back);
          if (tent) setFocus(back);
        }
      }
      if (tent) t.takeBack(tent.id);
      return;
    }
    if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
      // Type a letter: a rack tile of that letter, else a joker standing for it (W-T3)
      const letter = t.upperTr(event.key);
      if (!LETTERS.includes(letter) || t.cellLetter(i) || t.tentAt(i)) return;
      event.preventDefault();
      const items = t.rackItems();
      const item = items.find((x) => x.tile === letter) || items.find((x) => x.tile === JOKER);
      if (item && t.place(item.id, i, item.tile === JOKER ? letter : undefined)) advance();
    }
  });

  // --- buttons and dialogs ----------------------------------------------------------------------

  root.addEventListener("click", (event) => {
    const button = event.target.closest("[data-action]");
    if (!button || button.disabled) return;
    const kind = button.dataset.action;
    if (kind === "play") {
      if (UI.tent.length) t.act({ type: "play", placements: t.placements() });
    } else if (kind === "recall") {
      t.recallAll();
      toast(T.taken_back);
    } else if (kind === "shuffle") t.shuffle();
    else if (kind === "pass") t.act({ type: "pass" });
    else if (kind === "exchange") {
      t.recallAll();
      UI.exchange = new Set();
      UI.selected = null;
      t.render();
    } else if (kind === "exchange-cancel") {
      UI.exchange = null;
      t.render();
    } else if (kind === "exchange-confirm") {
      const letters = UI.order.filter((x) => UI.exchange.has(x.id)).map((x) => x.tile);
      UI.exchange = null;
      t.act({ type: "exchange", letters });
    } else if (kind === "bag") {
      t.renderBag();
      $(".kk-bag-dialog").showModal();
    } else if (kind === "forfeit") {
      $(".kk-forfeit-dialog").showModal(); // W-X5: Teslim ol, confirmed
    } else if (kind === "new-game") {
      const dialog = $(".kk-new-dialog");
      if (dialog && !dialog.open) dialog.showModal();
    } else if (kind === "close-dialog") {
      button.closest("dialog").close();
    } else if (kind === "close-overlay") {
      UI.overlayClosed = true;
      t.render();
    } else if (kind === "joker-cancel") {
      UI.jokerAt = null;
      $(".kk-joker-dialog").close();
    }
  });

  $(".kk-letters").addEventListener("click", (event) => {
    const b = event.target.closest(".kk-pick");
    if (!b || !UI.jokerAt) return;
    const { id, i } = UI.jokerAt;
    UI.jokerAt = null;
    $(".kk-joker-dialog").close();
    t.place(id, i, b.dataset.letter);
  });

  return { buildJokerPicker, openJoker };
}
