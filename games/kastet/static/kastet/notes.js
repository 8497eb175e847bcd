// What Kastet's table tells the player that stays until it is dealt with (not a toast):
// what the move timer did for them (S-N7) — a tile drawn, *Pas* pressed with their lays
// standing or finishing, or *Pas* because the rack holds 22 tiles or the deck is empty —
// and, when they had one, that their unsent draft was put back (S-L8).  One note per
// timeout (the frame's match.timeouts: games/kastet/engine/notes.py), shown once; it goes
// when the player moves again.

import { newTimeouts, tellOnce } from "../js/note.js";

export function kastetNotes(t) {
  const { S, T, root } = t;
  const fresh = tellOnce();
  let told = 0;

  const note = (kind, text) => t.note(kind, text); // the okey kit's (../okey/table-kit.js)

  // A frame came: a timeout of this seat not yet told is told now.  `draftDropped`: the
  // frame dropped the player's unsent draft (S-N7).
  function showTimeouts(draftDropped) {
    if (!S.match || S.me === null) return;
    for (const timeout of newTimeouts(S.match, fresh, S.me)) {
      const text = (T.timed_out && T.timed_out[timeout.did]) || T.timed_out_other;
      note("timeout", draftDropped ? `${text} ${T.timed_out_draft}` : text);
      root.dataset.timeoutNotes = String(++told);
    }
  }

  const clearTimeoutNote = () => note("timeout", null); // the player plays on: seen

  return { showTimeouts, clearTimeoutNote };
}
