// The player's hands on Kastet's table: what a drop or a second tap on an element means
// (a place in a group, a new group or pair, the rack), drag and drop (mouse and touch,
// the kit's pointerDrag; the deck dragged onto the rack draws, S-N2), taps, the buttons
// (*Aç*, *Geri Al*, *Pas*, S-L8, S-U1) and keys.  `t` is the table (./table.js).

export function kastetInput(t) {
  const { root, S, $, $$, pointerDrag } = t;
  const { can, render } = t;

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
      const from = t.findTile(id);
      if (from && from.where !== "rack") t.moveTo(id, target);
      return;
    }
    t.moveTo(id, target);
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
      t.moveTo(picked, target);
      return;
    }
    S.picked = null;
    t.moveTo(picked, target);
  }

  function movable(id) {
    const at = t.findTile(id);
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
      if (deck && (!can("draw") || t.dirty())) return null;
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
        if (can("draw") && !t.dirty()) t.act({ type: "draw" });
        break;
      case "open":
        t.sendDraft();
        break;
      case "undo":
        if (t.dirty()) t.resetDraft(); // the draft first (S-L8) …
        else if (can("undo")) t.act({ type: "undo" }); // … then the turn's lays, one by one (S-U1)
        break;
      case "pass":
        if (t.dirty()) {
          if (t.sendDraft()) S.passAfter = true;
        } else if (can("pass")) t.act({ type: "pass" });
        break;
      case "back":
        t.sendRaw({ type: "action", action: { type: "back" } }); // S-N7: the player plays again
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
}
