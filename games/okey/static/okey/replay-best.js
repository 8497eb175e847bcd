// The okey family's replay (KÜT, KDVli, Kastet) and the analysis (issue 31): how many
// scenario actions a replay step applies, and a decision's better move as parts to draw.
// Pure (no DOM): node tests import it (tests/history/test_replay_analysis.py).

import { PLATFORM_KINDS, appliedList } from "../js/replay-steps.js";

// Every logged action of the hand is one scenario action (``export_hand``: the hand's
// log; the private arrangements are no step); the platform's rows are none.
export function appliedDelta(step) {
  return PLATFORM_KINDS.has(step.a.type) ? 0 : 1;
}

// Every step's count of applied scenario actions.
export const appliedSteps = (steps) => appliedList(steps, appliedDelta);

// The index of the step the turn of ``seat`` that reaches step ``i`` started from: the
// last step before it that is not the seat's own.
export function turnStart(steps, i, seat) {
  let j = i;
  while (j > 0 && steps[j].a.seat === seat) j -= 1;
  return j;
}

function counter(faces) {
  const left = new Map();
  for (const f of faces) left.set(f, (left.get(f) || 0) + 1);
  return left;
}

function take(left, face) {
  const n = left.get(face) || 0;
  if (n > 0) left.set(face, n - 1);
  return n > 0;
}

function fromRack(groups) {
  return groups.map((tiles) => ({ tiles: [...tiles], rack: tiles.map(() => true) }));
}

// A decision's ``best`` as parts: ``groups`` (each ``{tiles, rack}``: its faces and
// which of them come from the seat's rack), ``layoffs`` ({tile, group}: a tile laid off
// onto the table's group ``group``), ``auto`` (KÜT's lay off all that fits), ``take`` (the
// thrown tile taken first: KDVli's missed finish), ``discard`` (the tile thrown, or the
// finishing tile), ``finish`` (the move finishes).  ``table``: the faces on the table
// when the turn began (Kastet's ``lay`` gives the whole run area: the tiles not on the
// table then come from the rack).
export function bestParts(best, table = []) {
  const parts = { groups: [], layoffs: [], auto: false, take: false, discard: null, finish: false };
  if (!best) return parts;
  if (Array.isArray(best.actions)) {
    for (const a of best.actions) {
      if (a.type === "open" || a.type === "new_groups") parts.groups.push(...fromRack(a.groups || []));
      else if (a.type === "lay_off") parts.layoffs.push({ tile: a.tile, group: a.group });
      else if (a.type === "auto_lay_off") parts.auto = true;
      else if (a.type === "discard") parts.discard = a.tile;
    }
    return parts;
  }
  let move = best;
  if (best.type === "take_discard") {
    parts.take = true; // the thrown tile of the shown position
    move = best.then || {};
  }
  if (move.type === "discard") parts.discard = move.tile;
  if (move.type === "finish") {
    parts.finish = true;
    parts.discard = move.tile;
    parts.groups.push(...fromRack(move.groups || []));
  }
  if (move.type === "lay") {
    const left = counter(table);
    for (const tiles of [...(move.table || []), ...(move.pairs || [])]) {
      parts.groups.push({ tiles: [...tiles], rack: tiles.map((f) => !take(left, f)) });
    }
  }
  return parts;
}

// The faces of the seat's rack the better move uses (laid, laid off, thrown), each once.
export function rackFaces(parts) {
  const out = [];
  for (const g of parts.groups) g.tiles.forEach((f, k) => g.rack[k] && out.push(f));
  for (const l of parts.layoffs) out.push(l.tile);
  return out;
}

// The faces the seat's turn has moved from its rack to the table by step ``i``.
export function laidInTurn(steps, i, seat) {
  const faces = (s) => (s.table || []).flatMap((g) => g.tiles);
  const before = counter(faces(steps[turnStart(steps, i, seat)].s));
  return faces(steps[i].s).filter((f) => !take(before, f));
}

// The parts of ``decision.best`` drawn at step ``i`` (the table its turn began with).
export function bestAt(steps, i, decision) {
  const start = steps[turnStart(steps, i, decision.seat)].s;
  return bestParts(decision.best, (start.table || []).flatMap((g) => g.tiles));
}
