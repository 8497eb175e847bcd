// The okey family's tiles and rack, shared by the tile tables (KÜT: ../kut/table.js,
// KDVli Okey: ../kdvli/table.js, Kastet: ../kastet/table.js): the tile face with its
// colour-blind mark, the okey's joker and the fake okey's clover, and the two-row rack of
// 16 cells with separators (K-R1…K-R3, V-R1).  Pure functions: no state, no DOM queries.

import { esc, fmt } from "../js/text.js";

export const ROW = 16;
export const CELLS = 32;

// the platform's text helpers, for the tables that take everything tile-ish from here
export { esc, fmt };

export const CLOVER =
  '<svg class="kt-clover" viewBox="0 0 40 40" aria-hidden="true">' +
  '<g fill="#1f8a3a"><circle cx="14" cy="14" r="7"/><circle cx="26" cy="14" r="7"/><circle cx="14" cy="26" r="7"/><circle cx="26" cy="26" r="7"/></g>' +
  '<path d="M20 20 q6 8 2 17" stroke="#1f6a2e" stroke-width="3" fill="none"/><circle cx="20" cy="20" r="3" fill="#c6f0c9"/></svg>';

export const JOKER =
  '<svg class="kt-joker" viewBox="0 0 40 40" aria-hidden="true">' +
  '<path d="M20 3l4.6 10.6 11.4 1-8.7 7.6 2.6 11.3L20 27.6 10.1 33.5l2.6-11.3L4 14.6l11.4-1z" fill="#f2b705" stroke="#8a5a00" stroke-width="1.5"/>' +
  '<circle cx="16" cy="18" r="1.6" fill="#5a3a00"/><circle cx="24" cy="18" r="1.6" fill="#5a3a00"/>' +
  '<path d="M15 22.5q5 4.5 10 0" stroke="#5a3a00" stroke-width="1.6" fill="none"/></svg>';

// One tile's markup: ``face`` "R7" / "F"; ``okey`` the hand's real okey face (drawn as
// the joker); ``value`` what an okey stands for, when known.
export function tileHTML(face, okey, value) {
  if (face === "F") return `<span class="kt-tile kt-fake" data-face="F">${CLOVER}</span>`;
  if (face === okey) {
    const as = value && value !== okey ? `<span class="kt-as kt-c-${value[0]}">${esc(value.slice(1))}</span>` : "";
    return `<span class="kt-tile kt-okey" data-face="${esc(face)}">${JOKER}<span class="kt-okey-word">OKEY</span>${as}</span>`;
  }
  const colour = face[0];
  return `<span class="kt-tile kt-c-${esc(colour)}" data-face="${esc(face)}"><span class="kt-num">${esc(face.slice(1))}</span><span class="kt-mark"></span></span>`;
}

// A tile's spoken name in the page's language (T: the table's translated strings).
export function plainName(T, face) {
  return fmt(T.tile, { colour: T.colours[face[0]] || face[0], number: face.slice(1) });
}

export function tileName(T, face, okey, value) {
  if (face === "F") return okey ? fmt(T.fake_okey_as, { tile: plainName(T, okey) }) : T.fake_okey;
  if (face === okey) return value && value !== okey ? fmt(T.okey_as, { tile: plainName(T, value) }) : T.okey;
  return plainName(T, face);
}

// The same shifting as the server's Rack.move (games/okey/engine/rack.py); `row`: the
// cells in one row of the rack (KÜT and KDVli 16, Kastet 12).
export function makeRoom(cells, at, row = ROW) {
  const start = at - (at % row);
  const end = start + row;
  let right = null;
  for (let j = at + 1; j < end; j++) if (!cells[j]) { right = j; break; }
  let left = null;
  for (let j = at - 1; j >= start; j--) if (!cells[j]) { left = j; break; }
  if (right !== null && (left === null || right - at <= at - left)) {
    for (let j = right; j > at; j--) cells[j] = cells[j - 1];
    cells[at] = null;
  } else if (left !== null) {
    for (let j = left; j < at; j++) cells[j] = cells[j + 1];
    cells[at] = null;
  } else {
    // the row is full: the tile at `at` goes to the first empty cell anywhere else —
    // never `at` itself, where the moved tile lands (Rack._make_room)
    const displaced = cells[at];
    cells[at] = null;
    cells[cells.findIndex((c, j) => c === null && j !== at)] = displaced;
  }
}

export function localMove(cells, id, to, row = ROW) {
  const src = cells.findIndex((c) => c && c.id === id);
  if (src < 0 || src === to) return false;
  const tile = cells[src];
  cells[src] = null;
  if (cells[to]) makeRoom(cells, to, row);
  cells[to] = tile;
  return true;
}
