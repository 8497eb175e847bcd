// A note that stays until it is dealt with (not a toast), one per `kind`, in a table's
// notes `box`: a timeout, this table opened in another tab… (issue 29: every table has
// them; the okey kit's, King's and Kelimeki's boxes).  `text` null removes it.  `p`: the
// table's class prefix (`<p>-note`, `<p>-note-text`, `<p>-note-act`, `<p>-note-close`);
// `label` and `onClick`: its button, else a Close button (`dismiss`) that removes the
// note, or calls `onClose`.  Put again with the same text and button, the note keeps its
// nodes.  Returns the note's element (null when removed).
export function putNote(box, kind, text, opts) {
  const { p, dismiss, label = null, onClick = null, actClass = "button", closeClass = "", onClose = null } = opts;
  let el = box.querySelector(`.${p}-note[data-kind="${kind}"]`);
  if (!text) {
    if (el) el.remove();
    return null;
  }
  if (!el) {
    el = document.createElement("div");
    el.className = `${p}-note`;
    el.dataset.kind = kind;
    el.setAttribute("role", "alert");
    box.append(el);
  }
  // the button acts as the latest call says (a new frame may bring a new handler)
  el._act = () => {
    if (onClick) onClick();
    else if (onClose) onClose();
    else el.remove();
  };
  // An unchanged note keeps its nodes: tables put their notes again on every frame, and
  // a button made anew each time slips from under a finger or a click (and a screen
  // reader would hear the alert again).
  const face = JSON.stringify([text, label || dismiss, label ? actClass : closeClass]);
  if (el.dataset.face === face) return el;
  el.dataset.face = face;
  el.innerHTML = `<p class="${p}-note-text"></p>`;
  el.querySelector(`.${p}-note-text`).textContent = text;
  const button = document.createElement("button");
  button.type = "button";
  button.className = label ? `${actClass} ${p}-note-act` : `${closeClass} ${p}-note-close`.trim();
  button.textContent = label || dismiss;
  button.addEventListener("click", () => el._act());
  el.append(button);
  return el;
}

// Told once: `fresh(key)` is true the first time it sees `key`, false after.  With
// `store` (a sessionStorage key) the keys told outlive a reload of this tab's page.
export function tellOnce(store = null) {
  const told = new Set(read());
  function read() {
    if (!store) return [];
    try {
      return JSON.parse(sessionStorage.getItem(store) || "[]");
    } catch {
      return [];
    }
  }
  return (key) => {
    if (told.has(key)) return false;
    told.add(key);
    if (store) {
      try {
        sessionStorage.setItem(store, JSON.stringify([...told]));
      } catch {
        /* private mode: once on this page */
      }
    }
    return true;
  };
}

// A frame's timeouts (game/frames.py `match.timeouts`) not told yet, each once by
// `fresh` (a `tellOnce`); `seat`: only that seat's (the others' are not marked told).
export function newTimeouts(match, fresh, seat = undefined) {
  return ((match && match.timeouts) || []).filter(
    (t) => (seat === undefined || t.seat === seat) && fresh(`${t.hand_no}:${t.at}:${t.seat}`),
  );
}
