// What King's table tells the player beyond the board (issue 29): notes that stay until
// they are dealt with (not toasts) — what the timer chose or played for the player
// (G-T2: `match.timeouts`, each note once) and this table opened in another tab (close
// code 4009: "Play here" takes the seat back).

import { newTimeouts, putNote, tellOnce } from "../js/note.js";

export function kingNotes({ S, T, $, board, fmt, cardLabel, contractText, matchId }) {
  // the notes already shown at this match, kept for this browser tab: a reload does not
  // show the same timeout again (the frames carry each seat's latest one for the hand)
  const fresh = tellOnce(`kut.king.notes.${matchId}`);

  function note(kind, text, buttonLabel = null, onClick = null) {
    let box = $(".kg-notes");
    if (!box) {
      box = document.createElement("div");
      box.className = "kg-notes";
      board.after(box);
    }
    putNote(box, kind, text, { p: "kg", dismiss: T.dismiss, label: buttonLabel, onClick });
  }

  // G-T2: each timeout of this seat once, in King's words (the card, or the contract).
  function showTimeouts() {
    if (!S.match || S.me === null || S.me === undefined) return;
    for (const t of newTimeouts(S.match, fresh, S.me)) {
      const text = t.kind === "choose"
        ? fmt(T.timed_out_choice, { contract: contractText(t.contract, t.trump) })
        : fmt(T.timed_out_card, { card: cardLabel(t.card) });
      note("timeout", text);
    }
  }

  return { note, showTimeouts };
}
