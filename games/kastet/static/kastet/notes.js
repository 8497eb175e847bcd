// What Kastet's table tells the player that stays until it is dealt with (not a toast):
// what the move timer did for them (S-N7) — a tile drawn, *Pas* pressed with their lays
// standing or finishing, or *Pas* because the rack holds 22 tiles or the deck is empty —
// and, when they had one, that their unsent draft was put back (S-L8).  One note per
// timeout (the frame's match.timeouts: games/kastet/engine/notes.py), shown once; it goes
// when the player moves again.

export function kastetNotes(t) {
  const { S, T, $, board, root } = t;
  const shown = new Set();

  // The okey kit's notes box when it has one (../okey/table-kit.js), else this table's own
  // under the board, styled as the kit's (../okey/overlay.css: .kt-notes, .kt-note).
  function ownNote(kind, text) {
    let box = $(".ks-notes");
    if (!box) {
      box = document.createElement("div");
      box.className = "kt-notes ks-notes";
      board.after(box);
    }
    let el = $(`.kt-note[data-kind="${kind}"]`, box);
    if (!text) {
      if (el) el.remove();
      return null;
    }
    if (!el) {
      el = document.createElement("div");
      el.className = "kt-note";
      el.dataset.kind = kind;
      el.setAttribute("role", "alert");
      el.innerHTML = `<p class="kt-note-text"></p><button type="button" class="kt-note-close"></button>`;
      $(".kt-note-close", el).addEventListener("click", () => el.remove());
      box.append(el);
    }
    $(".kt-note-text", el).textContent = text;
    $(".kt-note-close", el).textContent = T.dismiss;
    return el;
  }
  const note = (kind, text) => (t.note || ownNote)(kind, text);

  // A frame came: a timeout of this seat not yet told is told now.  `draftDropped`: the
  // frame dropped the player's unsent draft (S-N7).
  function showTimeouts(draftDropped) {
    if (!S.match || S.me === null) return;
    for (const timeout of S.match.timeouts || []) {
      const key = `${timeout.hand_no}:${timeout.at}`;
      if (timeout.seat !== S.me || shown.has(key)) continue;
      shown.add(key);
      const text = (T.timed_out && T.timed_out[timeout.did]) || T.timed_out_other;
      note("timeout", draftDropped ? `${text} ${T.timed_out_draft}` : text);
      root.dataset.timeoutNotes = String(shown.size);
    }
  }

  const clearTimeoutNote = () => note("timeout", null); // the player plays on: seen

  return { showTimeouts, clearTimeoutNote };
}
