// What KÜT's table tells the player beyond the board: notes that stay until they are dealt
// with (not toasts) — a timeout (K-N7), an away seat, this table opened in another tab —
// and the advice after a move: why Görevi Aç failed (K-O5) and what an accepted move
// changed.

import { newTimeouts, tellOnce } from "../js/note.js";
import { fmt } from "../okey/tiles.js";

export function kutNotes(t) {
  const { S, T, $$, toast, note } = t; // note: the okey table kit's (../okey/table-kit.js)
  const fresh = tellOnce();

  function showNotes() {
    const m = S.match;
    if (!m || S.me === null) return;
    for (const timeout of newTimeouts(m, fresh, S.me)) {
      const tile = timeout.tile ? t.tileName(timeout.tile) : "";
      note("timeout", fmt(timeout.drew ? T.timed_out_drew : T.timed_out, { tile }));
    }
    const mine = m.seats[S.me];
    if (mine && mine.away && !mine.left && t.running()) {
      note("away", T.away_note, T.back, () => {
        t.sendRaw({ type: "action", action: { type: "back" }, version: null });
      });
    } else {
      note("away", null);
    }
  }

  // A failed opening (K-O5): either the tiles are there and only the layout is wrong —
  // offer Diz (K-R4) — or they are not, and the message says so.  False: no advice (the
  // view does not know), the error shows as it is.
  function openAdvice() {
    if (!S.hand || S.hand.task_ready === null || S.hand.task_ready === undefined) return false;
    clearErrorToasts();
    if (!S.hand.task_ready) {
      toast(T.open_no_tiles, "error");
      return true;
    }
    const el = toast(T.open_layout, "error");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "kt-toast-action";
    button.dataset.action = "arrange-from-toast";
    button.textContent = T.arrange_now;
    button.addEventListener("click", () => {
      el.remove();
      S.picked = null;
      t.act({ type: "arrange" });
    });
    el.append(" ", button);
    return true;
  }

  function clearErrorToasts() {
    $$(".kt-toast-error").forEach((el) => el.remove());
  }

  // An accepted move: the last error no longer applies; Diz that cannot form the task says so.
  function answered(accepted) {
    if (!accepted) return;
    const h = S.hand;
    clearErrorToasts();
    if (accepted.type === "arrange" && h && !h.over && h.task_ready === false) toast(T.arrange_no_task, "info");
  }

  return { note, showNotes, openAdvice, answered };
}
