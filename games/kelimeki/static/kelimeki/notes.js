// What Kelimeki's board tells the player beyond the board (issue 29): notes that stay
// until they are dealt with (not toasts).  A move deadline that ran out (W-X3): the seat
// forfeited (W-E6) — said once per timeout (match.timeouts, the engine's timeout_notes),
// to the player it concerns in their words, to the others as a short line; and this
// table opened in another tab (close code 4009, "replaced"): a panel whose *Burada oyna*
// takes the seat back.  `t` is the board (./board.js).

import { newTimeouts, putNote, tellOnce } from "../js/note.js";
import { fmt } from "../js/text.js";

export function kelimekiNotes(t) {
  const { root, S, T, $ } = t;
  let fresh = null; // each timeout once, also across reloads of the page (tellOnce)
  let freshFor = null; // … per match

  function note(kind, text, buttonLabel = null, onClick = null) {
    const box = $(".kk-notes");
    putNote(box, kind, text, {
      p: "kk", dismiss: T.dismiss, label: buttonLabel, onClick,
      closeClass: "button button-ghost", onClose: () => note(kind, null),
    });
    box.hidden = !box.children.length;
  }

  function showNotes() {
    if (!S.match || S.me === null || S.me === undefined) return;
    if (freshFor !== S.match.id) {
      fresh = tellOnce(`kk-notes:${S.match.id}`);
      freshFor = S.match.id;
    }
    for (const n of newTimeouts(S.match, fresh)) {
      if (n.seat === S.me) {
        const rated = S.match.rated && S.match.kind === "normal";
        const text = fmt(T.timeout_mine, { clock: S.match.options && S.match.options.vs_ai ? T.clock_ai : T.clock_live });
        note(`timeout-${n.seat}`, rated ? `${text} ${T.timeout_klig}` : text);
      } else {
        note(`timeout-${n.seat}`, fmt(n.ended ? T.timeout_theirs_end : T.timeout_theirs, { name: t.seatName(n.seat) }));
      }
    }
  }

  // The same seat opened in another tab: final for this one until the player says so.
  function replaced(reconnect) {
    root.dataset.replaced = "1";
    note("replaced", T.replaced, T.play_here, () => {
      note("replaced", null);
      root.dataset.replaced = "0";
      t.setStatus(T.connecting);
      reconnect();
    });
  }

  return { note, showNotes, replaced };
}
