// The replay's side of the analysis panel (issue 31, "Analiz"; the panel itself is
// replay-analysis.js).  A replay shows steps (the deal, then one per logged action of the
// hand); the analysis speaks of the scenario's actions (its decisions' ``step`` is an
// index into the downloaded scenario's ``actions``).  Each game says how many scenario
// actions one replay step applies (``appliedList``'s ``delta``), and the replay then:
//   - dispatches ``replay:step`` {applied, hand} on ``document`` whenever the shown
//     position changes (``applied``: how many of the scenario's actions are applied;
//     ``hand``: the hand shown, whose analysis the panel shows);
//   - jumps to the position of ``replay:goto`` {applied} (the last step showing that many:
//     the position the move ``applied`` is played from);
//   - draws ``replay:best`` {decision} (its ``best``) on the shown position, and removes
//     it on ``replay:best-clear`` (every drawn element carries data-testid=analysis-best).

// Every replay step's applied count: ``delta(step, previous)`` is how many scenario
// actions the step adds (0 for the platform's own rows: leave, abandon, replace; −1 for a
// take-back that removes one), or null when no later step is in the scenario (a
// Kelimeki exchange: its download stops there), after which the count stays.
export function appliedList(steps, delta) {
  const out = [];
  let n = 0;
  let stopped = false;
  steps.forEach((step, i) => {
    if (i > 0 && !stopped) {
      const d = delta(step, steps[i - 1]);
      if (d === null) stopped = true;
      else n = Math.max(0, n + d);
    }
    out.push(n);
  });
  return out;
}

// The platform's own rows: a step of the replay, never an action of the scenario.
export const PLATFORM_KINDS = new Set(["deal", "leave", "abandon", "replace"]);

// The index of the last step with ``applied`` actions applied, or -1 (none).
export function stepOf(list, applied) {
  return list.lastIndexOf(applied);
}

// Wire the replay to the panel's events.  ``goto(applied)`` shows that position, or
// returns false while the hand's steps are still loading (the jump is then kept:
// ``step.pending()`` gives it once, for the load to show it first); ``draw(decision)``
// draws its ``best`` on the shown position, ``clear()`` removes what ``draw`` drew.
// Returns ``step(applied, hand)``, to call after each render.
export function connect({ goto, draw, clear }) {
  let pending = null;
  document.addEventListener("replay:goto", (event) => {
    const applied = Number(event.detail && event.detail.applied);
    if (Number.isInteger(applied) && applied >= 0) pending = goto(applied) === false ? applied : null;
  });
  document.addEventListener("replay:best", (event) => {
    const decision = event.detail && event.detail.decision;
    clear();
    if (decision && decision.best) draw(decision);
  });
  document.addEventListener("replay:best-clear", () => clear());
  const step = (applied, hand = 1) => {
    document.dispatchEvent(new CustomEvent("replay:step", { detail: { applied, hand } }));
  };
  step.pending = () => {
    const applied = pending;
    pending = null;
    return applied;
  };
  return step;
}

// The step a freshly loaded hand opens on: a jump asked for while it loaded, else
// ``fallback``.
export function openingStep(list, step, fallback) {
  const applied = step.pending();
  const i = applied === null ? -1 : stepOf(list, applied);
  return i >= 0 ? i : fallback;
}

// Every element drawn for a better move carries this test id (and the class that
// ``clearBest`` removes); ``symbol`` is the mark read without colour (★ a tile or card of
// the better move, ↓ its discard).
export function markBest(el, symbol = "★") {
  el.classList.add("analysis-best");
  el.setAttribute("data-testid", "analysis-best");
  if (symbol) el.dataset.bestSymbol = symbol;
  return el;
}

// Remove what was drawn under ``root``: drawn elements (``.analysis-best-drawn``) go,
// marked existing ones lose their mark.
export function clearBest(root) {
  for (const el of root.querySelectorAll(".analysis-best-drawn")) el.remove();
  for (const el of root.querySelectorAll(".analysis-best")) {
    el.classList.remove("analysis-best");
    el.removeAttribute("data-testid");
    delete el.dataset.bestSymbol;
  }
}
