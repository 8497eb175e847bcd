// The player's hands on KÜT's table: the moves (draw, take, discard, lay off, claim, the
// buttons), the rack's drag and drop, taps and keys (K-R2; the kit's pointerDrag,
// rackEdits and rackKey), the clicks on everything else and the dialogs they open (the
// lay-off end, leave, help).  Every move goes to the socket through `t.act`.

export function kutInput(t) {
  const { root, S, $, pointerDrag, rackPress, rackEdits, rackKey } = t;
  const { can, rackHas, rackCells, render } = t;
  const act = (...args) => t.act(...args);

  // --- moves ---------------------------------------------------------------------------------------

  const { moveTile, toggleSeparator } = rackEdits(act); // K-R2, V-R1 (the kit's)

  function discard(id) {
    if (!can("play") || !rackHas(id)) return;
    S.picked = null;
    act({ type: "discard", tile_id: id });
  }

  function layOff(id, group, endHint = null) {
    if (!can("lay_off") || !rackHas(id)) return;
    S.picked = null;
    act({ type: "lay_off", tile_id: id, group }, { endHint });
  }

  function takeThrown() {
    if (can("take")) act({ type: "take_discard" });
  }

  function draw() {
    if (can("draw")) act({ type: "draw" });
  }

  function claim() {
    if (can("claim")) act({ type: "claim" });
  }

  // Which end of a group a tile goes to, when the server asks (end_required).
  const endDialog = $(".kt-end-dialog");
  let endPending = null;

  function askEnd(action) {
    endPending = action;
    if (!endDialog.open) endDialog.showModal();
  }

  endDialog.addEventListener("click", (event) => {
    const button = event.target.closest("[data-end]");
    if (!button) return;
    const end = button.dataset.end;
    endDialog.close();
    if (end && endPending) act({ ...endPending, end });
    endPending = null;
  });

  // --- pointer: drag and drop (mouse and touch), taps -----------------------------------------

  pointerDrag({
    ...rackPress,
    tap: (drag) => tapCell(drag.from),
    drop(drag, target, event) {
      if (!target) return;
      const kind = target.dataset.drop;
      if (kind === "cell") {
        moveTile(drag.id, Number(target.dataset.i));
      } else if (kind === "discard") {
        discard(drag.id);
      } else if (kind === "group") {
        const rect = target.getBoundingClientRect();
        layOff(drag.id, Number(target.dataset.g), event.clientX < rect.left + rect.width / 2 ? "left" : "right");
      }
    },
  });

  function pick(id) {
    S.picked = id;
    render();
  }

  // K-R2: tap a tile, then the cell it should go to (taking the same tile puts it down).
  function tapCell(index) {
    const cells = rackCells();
    const tile = cells[index];
    S.focus = index;
    if (!S.picked) {
      if (tile) pick(tile.id);
      return;
    }
    if (tile && tile.id === S.picked) {
      pick(null);
      return;
    }
    const id = S.picked;
    S.picked = null;
    moveTile(id, index);
    render();
  }

  // --- clicks on everything else ------------------------------------------------------------

  const leaveDialog = $(".kt-leave-dialog");
  const helpDialog = $(".kt-help-dialog");

  root.addEventListener("click", (event) => {
    const cell = event.target.closest(".kt-cell");
    if (cell) {
      // Pointer taps are handled on pointerup; a click without a pointer (assistive
      // technology) that the keyboard handler did not already take acts as a tap.
      if (event.detail === 0 && performance.now() - S.keyAt > 100) tapCell(Number(cell.dataset.i));
      return;
    }
    const gap = event.target.closest(".kt-gap");
    if (gap) {
      toggleSeparator(Number(gap.dataset.at));
      return;
    }
    const group = event.target.closest(".kt-group");
    if (group) {
      if (S.picked) layOff(S.picked, Number(group.dataset.g));
      return;
    }
    const el = event.target.closest("[data-action]");
    if (!el || el.disabled) return;
    switch (el.dataset.action) {
      case "draw":
        draw();
        break;
      case "take":
        takeThrown();
        break;
      case "discard":
        if (S.picked) discard(S.picked);
        break;
      case "claim":
        claim();
        break;
      case "open":
      case "new_groups":
      case "auto_lay_off":
      case "arrange":
      case "undo":
        S.picked = null;
        act({ type: el.dataset.action });
        break;
      case "leave":
        leaveDialog.showModal();
        break;
      case "stay":
        leaveDialog.close();
        break;
      case "sound":
        t.toggleSound();
        break;
      case "help":
        helpDialog.showModal();
        break;
      case "close-dialog":
        el.closest("dialog").close();
        break;
      default:
        break;
    }
  });

  // --- keyboard ------------------------------------------------------------------------------------

  function focusedTileId() {
    const el = document.activeElement;
    return el && el.classList.contains("kt-cell") ? el.dataset.id || null : null;
  }

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target.closest && target.closest("dialog, input, select, textarea, .kt-lang")) return;
    if (!S.hand || S.me === null) return;
    const cell = target.closest && target.closest(".kt-cell");
    const key = event.key;
    if (cell && rackKey(event, cell, { tap: tapCell, separator: toggleSeparator })) return;
    const lower = key.length === 1 ? key.toLocaleLowerCase("en") : key;
    if (lower === "escape" || key === "Escape") {
      if (S.picked) {
        S.picked = null;
        render();
      }
      return;
    }
    if (lower === "d") {
      event.preventDefault();
      draw();
    } else if (lower === "a") {
      event.preventDefault();
      takeThrown();
    } else if (lower === "t") {
      event.preventDefault();
      claim();
    } else if (lower === "x" || key === "Delete") {
      const id = S.picked || focusedTileId();
      if (id) {
        event.preventDefault();
        discard(id);
      }
    }
  });

  return { askEnd };
}
