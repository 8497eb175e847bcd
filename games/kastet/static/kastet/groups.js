// Kastet's groups in the browser: a mirror of the engine's check (games/okey/engine/groups.py,
// games/kastet/engine/groups.py: read_group, read_pair, check_draft), so that the table
// marks an invalid group of the draft at once (S-L8).  The server's answer on *Aç* is the
// truth; tests/games/kastet/web/test_groups_js.py runs this module under node against the
// engine on thousands of random groups.  Faces are "R7" … "K13" and "F".

const COLOURS = ["R", "Y", "B", "K"];

const colourOf = (f) => f[0];
const numberOf = (f) => Number(f.slice(1));

function natural(face, okey) {
  return face === "F" ? okey : face;
}

// S-G1, S-G4, S-G5: the values of a run in this order, or null.
export function runValues(faces, okey) {
  const n = faces.length;
  if (n < 3 || n > 13) return null;
  let colour = null;
  let start = null;
  for (let i = 0; i < n; i++) {
    if (faces[i] === okey) continue;
    const v = natural(faces[i], okey);
    const c = colourOf(v);
    const s = numberOf(v) - i;
    if (colour === null) {
      colour = c;
      start = s;
    } else if (c !== colour || s !== start) return null;
  }
  if (colour === null) return null;
  if (start < 1 || start + n - 1 > 13) return null; // 1 is only low; nothing after 13
  return faces.map((_, i) => `${colour}${start + i}`);
}

// S-G2, S-G5, S-G6: a set of 3 or 4, all colours different; okeys fill missing colours.
export function setValues(faces, okey) {
  const n = faces.length;
  if (n < 3 || n > 4) return null;
  let number = null;
  const colours = new Set();
  let wild = 0;
  for (const f of faces) {
    if (f === okey) {
      wild += 1;
      continue;
    }
    const v = natural(f, okey);
    if (number === null) number = numberOf(v);
    else if (numberOf(v) !== number) return null;
    if (colours.has(colourOf(v))) return null;
    colours.add(colourOf(v));
  }
  if (number === null) return null;
  const missing = COLOURS.filter((c) => !colours.has(c));
  const decided = wild === missing.length;
  let next = 0;
  return faces.map((f) => (f === okey ? (decided ? `${missing[next++]}${number}` : null) : natural(f, okey)));
}

// S-G3: two identical tiles, or a natural tile and a real okey (never two okeys; F F yes).
export function pairValues(faces, okey) {
  if (faces.length !== 2) return null;
  const [a, b] = faces;
  if (a === okey && b === okey) return null;
  if (a === okey || b === okey) {
    const other = a === okey ? b : a;
    return other === "F" ? null : [other, other];
  }
  if (a !== b) return null;
  const v = natural(a, okey);
  return [v, v];
}

// S-L3, S-G7: a run-area group reads as a run first, else as a set.
export function readGroup(faces, okey) {
  return runValues(faces, okey) || setValues(faces, okey);
}


// check_draft(okey, table, pairs): which groups and pairs are valid, by faces.
export function checkDraft(okey, table, pairs = []) {
  return { groups: table.map((g) => readGroup(g, okey) !== null), pairs: pairs.map((p) => pairValues(p, okey) !== null) };
}
