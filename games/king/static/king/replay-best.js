// King's replay and the analysis (issue 31): how many scenario actions a replay step
// applies.  Pure (no DOM): node tests import it (tests/history/test_replay_analysis.py).

import { PLATFORM_KINDS, appliedList } from "../js/replay-steps.js";

// Every choice, card and timeout is one action of the hand's log (``export_hand``); a
// take-back (G-X4) removes the last one from it; the platform's rows are none.
export function appliedDelta(step) {
  if (step.a.type === "take_back") return -1;
  return PLATFORM_KINDS.has(step.a.type) ? 0 : 1;
}

// Every step's count of applied scenario actions.
export const appliedSteps = (steps) => appliedList(steps, appliedDelta);
