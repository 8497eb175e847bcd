// Text for the pages' scripts: `fmt` fills a translated string's {name} places, `esc`
// makes a value safe inside HTML markup and attributes.  The platform's own (fair.js)
// and every game's (the okey family's through ../okey/tiles.js).

export function fmt(text, vars) {
  return String(text).replace(/\{(\w+)\}/g, (m, key) => (key in vars ? vars[key] : m));
}

export function esc(value) {
  return String(value).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}
