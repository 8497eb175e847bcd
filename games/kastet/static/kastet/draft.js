// Kastet's draft of the run area (S-L8): the player's private copy of the table's groups
// and new pairs, edited tile by tile before *Aç* sends it whole as one lay; invalid groups
// are found at once by the engine's check mirrored in ./groups.js.  The rack's own order
// (S-X4) is the seat's private "arrange".  `t` is the table (./table.js).

import { localMove } from "../okey/tiles.js";
import { pairValues, readGroup } from "./groups.js";

export const ROW = 12; // S-X4: two rows of 12 cells
export const CELLS = 24;
export const SLOTS = 26; // S-A1

export function kastetDraft(t) {
  const { S, T, toast } = t;

  function baseGroups() {
    return (S.hand ? S.hand.table : []).map((g) => g.tiles.map((tile) => ({ id: tile.id, face: tile.face, rack: false })));
  }

  function groups() {
    return S.draft ? S.draft.groups : baseGroups();
  }

  function newPairs() {
    return S.draft ? S.draft.pairs : [];
  }

  function draftIds() {
    const ids = new Set();
    for (const g of groups()) for (const tile of g) if (tile.rack) ids.add(tile.id);
    for (const p of newPairs()) for (const tile of p) ids.add(tile.id);
    return ids;
  }

  // The draft differs from the table (table tiles moved, or rack tiles added).
  function dirty() {
    return Boolean(S.draft);
  }

  const shape = (gs) => JSON.stringify(gs.map((g) => g.map((tile) => tile.id)));

  // Where a tile is now: {where: "rack", i} | {where: "group", g, k} | {where: "pair", p, k}.
  function findTile(id) {
    const gs = groups();
    for (let g = 0; g < gs.length; g++) {
      const k = gs[g].findIndex((tile) => tile.id === id);
      if (k >= 0) return { where: "group", g, k, tile: gs[g][k] };
    }
    const ps = newPairs();
    for (let p = 0; p < ps.length; p++) {
      const k = ps[p].findIndex((tile) => tile.id === id);
      if (k >= 0) return { where: "pair", p, k, tile: ps[p][k] };
    }
    const cells = t.rackCells();
    const i = cells.findIndex((c) => c && c.id === id);
    if (i >= 0) return { where: "rack", i, tile: { id, face: cells[i].face, rack: true } };
    return null;
  }

  function ensureDraft() {
    if (!S.draft) S.draft = { groups: baseGroups(), pairs: [] };
    return S.draft;
  }

  function tidy() {
    const d = S.draft;
    d.groups = d.groups.filter((g) => g.length);
    d.pairs = d.pairs.filter((p) => p.length);
    if (!d.pairs.length && shape(d.groups) === shape(baseGroups())) S.draft = null; // back as it was
  }

  // Which draft groups and pairs are valid (the engine's check_draft, by faces).
  function checkDraft() {
    const okey = t.okeyFace();
    return {
      groups: groups().map((g) => readGroup(g.map((tile) => tile.face), okey) !== null),
      pairs: newPairs().map((p) => pairValues(p.map((tile) => tile.face), okey) !== null),
    };
  }

  // Move one tile (by id) to a target: {kind: "group", g, k} | {kind: "new"} |
  // {kind: "newpair"} | {kind: "pair", p} | {kind: "rack", i}.
  function moveTo(id, target) {
    const from = findTile(id);
    if (!from || !S.hand || S.hand.over || S.me === null) return;
    if (target.kind === "rack") {
      if (from.where === "rack") {
        arrangeRack(id, target.i);
        return;
      }
      if (!from.tile.rack) {
        toast(T.table_tile_stays, "info"); // S-A4: a table tile never returns to a rack
        return;
      }
      removeFromDraft(from);
      tidy();
      t.render();
      return;
    }
    if (!t.can("lay")) {
      toast(T.errors.not_your_turn, "info");
      return;
    }
    if ((target.kind === "newpair" || target.kind === "pair") && !from.tile.rack) {
      toast(T.pair_rack_only, "info"); // S-L5: new pairs are made of rack tiles only
      return;
    }
    const d = ensureDraft();
    if ((target.kind === "newpair" || target.kind === "pair") && d.groups.length !== SLOTS) {
      toast(T.pairs_need_26, "info");
      return;
    }
    const alone = from.where === "group" && d.groups[from.g].length === 1;
    if (target.kind === "new" && d.groups.length >= SLOTS && !alone) {
      toast(T.errors.too_many_groups, "info"); // S-A1: 26 slots
      return;
    }
    const tile = { ...from.tile };
    let k = target.k;
    if (target.kind === "group" && from.where === "group" && from.g === target.g && from.k < k) k -= 1;
    removeFromDraft(from);
    if (target.kind === "group") d.groups[target.g].splice(Math.max(0, Math.min(k, d.groups[target.g].length)), 0, tile);
    else if (target.kind === "new") d.groups.push([tile]);
    else if (target.kind === "pair") d.pairs[target.p].push(tile);
    else d.pairs.push([tile]);
    tidy();
    t.render();
  }

  function removeFromDraft(from) {
    if (from.where === "rack") return; // the rack shows it missing while it is in the draft
    const d = ensureDraft();
    if (from.where === "group") d.groups[from.g].splice(from.k, 1);
    else d.pairs[from.p].splice(from.k, 1);
  }

  function resetDraft() {
    S.draft = null;
    S.picked = null;
    t.render();
  }

  function sendDraft() {
    if (!dirty() || !t.can("lay")) return false;
    const check = checkDraft();
    if (check.groups.includes(false) || check.pairs.includes(false)) toast(T.draft_invalid, "error");
    // The server's answer is the truth (S-L1): the whole layout goes, by tile ids.
    return t.act({
      type: "lay",
      table: groups().map((g) => g.map((tile) => tile.id)),
      pairs: newPairs().map((p) => p.map((tile) => tile.id)),
    });
  }

  // The rack's own order (S-X4): KÜT's shifting (../okey/tiles.js) on two rows of 12.
  function arrangeRack(id, to) {
    // A copy: the frame held is also the base the next change frame applies to (frames.js).
    const cells = t.rackCells().slice();
    if (to < 0 || to >= CELLS || !localMove(cells, id, to, ROW)) return;
    S.hand = { ...S.hand, rack: { ...S.hand.rack, cells } };
    t.render();
    t.act({ type: "arrange", cells: cells.map((c) => (c ? c.id : null)) });
  }

  return { groups, newPairs, draftIds, dirty, findTile, checkDraft, moveTo, resetDraft, sendDraft };
}
