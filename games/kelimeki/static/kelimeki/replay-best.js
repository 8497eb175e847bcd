// Kelimeki's replay and the analysis (issue 31): how many scenario actions a replay step
// applies.  Pure (no DOM): node tests import it (tests/history/test_replay_analysis.py).

import { appliedList } from "../js/replay-steps.js";

// The download (``export_log``) holds every play, pass and timeout, and a forfeit in
// turn (as a timeout); it stops before the first exchange and before a forfeit out of
// turn (their draws cannot be replayed), so from there on the count stays.
export function appliedDelta(step, previous) {
  const a = step.a;
  if (a.type === "play" || a.type === "pass" || a.type === "timeout") return 1;
  if (a.type === "exchange") return null;
  if (a.type === "leave" && step.s.forfeited[a.seat] && !previous.s.forfeited[a.seat]) {
    return !previous.s.over && previous.s.turn === a.seat ? 1 : null;
  }
  return 0;
}

// The letters a play places, in board order (a joker's letter in lower case, as the
// board shows it).
export function placedLetters(best) {
  return [...(best.placements || [])]
    .sort((p, q) => p.row - q.row || p.col - q.col)
    .map((p) => (p.joker ? p.letter.toLocaleLowerCase("tr") : p.letter))
    .join("");
}

// Every step's count of applied scenario actions.
export const appliedSteps = (steps) => appliedList(steps, appliedDelta);
