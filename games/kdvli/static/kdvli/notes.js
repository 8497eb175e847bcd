// What KDVli's table tells the player beyond the board (issue 29): the timeout notice —
// what the timer played for them (V-N6), once per timeout, as a note that stays until
// closed (the table kit's `note`) — and the finishing tile's mark on the rack (V-F1): a
// tile the rack can finish with now wears a ✓ badge and a dashed frame, and its name
// says so (never colour alone).

import { newTimeouts, tellOnce } from "../js/note.js";
import { esc, fmt } from "../okey/tiles.js";

export function kdvliNotes({ S, T, note, tileName }) {
  const fresh = tellOnce();

  // match.timeouts (game/frames.py; games/kdvli/engine timeout_notes): each note once, to
  // the player it concerns: "took" is "deck", "thrown" or null (the starter's first turn).
  function showTimeouts() {
    if (!S.match || S.me === null) return;
    for (const timeout of newTimeouts(S.match, fresh, S.me)) {
      const text = timeout.took === "deck" ? T.timed_out_drew : timeout.took === "thrown" ? T.timed_out_took : T.timed_out;
      note("timeout", fmt(text, { tile: timeout.tile ? tileName(timeout.tile) : "" }));
    }
  }

  const finishing = () => new Set((S.hand && !S.hand.over && S.hand.finishing_tiles) || []);

  // A rack cell's class, label and badge for the tile `tile` ({id, face}) — `fin`: the
  // set of `finishing()`.
  function finishMark(tile, fin) {
    if (!tile || !fin.has(tile.id)) return { cls: "", label: null, badge: "" };
    return {
      cls: " is-finishing",
      label: fmt(T.can_finish_with, { tile: tileName(tile.face) }),
      badge: `<span class="kv-fin-mark" aria-hidden="true" title="${esc(T.finish_mark)}">✓</span>`,
    };
  }

  return { showTimeouts, finishing, finishMark };
}
