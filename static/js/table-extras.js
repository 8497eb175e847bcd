// Extras on the table page (templates/game/_extras.html): the trial hand's hints (K-X1)
// and the rematch invitation (K-X2).
//
// It talks to the table only through table.js's hook: a "kut:frame" event on document
// for every state frame table.js accepts (event.detail = the frame).  Rematch answers
// are plain POSTs to the lobby's endpoints; the server then broadcasts a new frame.

const cfg = JSON.parse(document.getElementById("kx-config").textContent);
const T = cfg.strings;
const trialCard = document.querySelector(".kx-trial");
const rematchCard = document.querySelector(".kx-rematch");
// While the rematch card shows, the final overlays leave room for it (templates/game/_extras.html).
if (rematchCard && "ResizeObserver" in window) {
  new ResizeObserver(() => {
    const space = rematchCard.hidden ? 0 : rematchCard.offsetHeight + 24;
    document.documentElement.style.setProperty("--kx-rematch-space", `${space}px`);
  }).observe(rematchCard);
}
let navigating = false;
let lastRematchKey = "";
// Only a page that saw the invitation before the rematch started moves on to it; a
// finished match's page opened later stays on its final result (with a link).
let awaitingRematch = false;

function fmt(text, params) {
  return text.replace(/\{(\w+)\}/g, (m, key) => (key in params ? String(params[key]) : m));
}

// --- the trial hand -------------------------------------------------------------------------

trialCard.querySelector(".kx-toggle").addEventListener("click", (event) => {
  const minimised = trialCard.classList.toggle("kx-min");
  event.target.textContent = minimised ? T.show : T.hide;
  event.target.setAttribute("aria-expanded", String(!minimised));
});

function showTrial(match) {
  const info = match.kind === "trial" ? match.trial : null;
  trialCard.hidden = !info;
  if (!info) return;
  const done = info.step > info.steps;
  trialCard.querySelector(".kx-step-label").textContent = done
    ? T.done_label
    : fmt(T.step, { n: info.step, total: info.steps });
  trialCard.querySelectorAll(".kx-steps i").forEach((dot, i) => {
    dot.classList.toggle("on", done || i < info.step - 1 || (i === info.step - 1 && info.hint !== "open"));
  });
  const text = trialCard.querySelector(".kx-text");
  const hint = T.hints[info.hint] || "";
  if (text.textContent !== hint) {
    text.textContent = hint;
    trialCard.classList.remove("kx-min"); // a new hint is always shown
    const toggle = trialCard.querySelector(".kx-toggle");
    toggle.textContent = T.hide;
    toggle.setAttribute("aria-expanded", "true");
  }
  const over = match.status !== "playing" && match.status !== "between";
  trialCard.dataset.hint = info.hint;
  trialCard.querySelector(".kx-again").hidden = !(done || over);
  trialCard.querySelector(".kx-lobby").hidden = !(done || over);
  trialCard.querySelector(".kx-skip").hidden = done || over;
}

// --- the rematch ---------------------------------------------------------------------------

async function post(url, data) {
  const error = rematchCard.querySelector(".kx-error");
  error.hidden = true;
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { Accept: "application/json", "X-CSRFToken": cfg.csrf },
      body: new URLSearchParams(data),
      credentials: "same-origin",
    });
    const reply = await response.json().catch(() => ({}));
    if (!response.ok || !reply.ok) throw new Error(reply.message || T.rematch.failed);
    if (reply.url) go(reply.url);
    return reply;
  } catch (exc) {
    error.textContent = exc.message || T.rematch.failed;
    error.hidden = false;
    return null;
  }
}

function go(url) {
  if (navigating) return;
  navigating = true;
  window.location.assign(url);
}

function button(label, onClick, ghost = false) {
  const el = document.createElement("button");
  el.type = "button";
  el.className = `button button-small${ghost ? " button-ghost" : ""}`;
  el.textContent = label;
  el.addEventListener("click", () => {
    el.disabled = true;
    onClick().finally(() => {
      el.disabled = false;
    });
  });
  return el;
}

function showRematch(frame) {
  const match = frame.match;
  const me = frame.me;
  const mySeat = me !== null && me !== undefined ? match.seats[me] : null;
  if (match.kind !== "normal" || match.status !== "finished" || !mySeat || mySeat.left) {
    rematchCard.hidden = true;
    return;
  }
  const R = T.rematch;
  const offer = match.rematch || null;
  const host = mySeat.user_id !== null && mySeat.user_id === match.host_id;
  const answers = (offer && offer.answers) || {};
  const mine = answers[String(me)];
  const key = JSON.stringify([offer, host, me]);
  if (key === lastRematchKey) return;
  lastRematchKey = key;
  const text = rematchCard.querySelector(".kx-text");
  const list = rematchCard.querySelector(".kx-answers");
  const buttons = rematchCard.querySelector(".kx-buttons");
  list.replaceChildren();
  buttons.replaceChildren();
  rematchCard.dataset.state = "";
  // each choice is {value, label}: the game's own option in its own words ("8 görev")
  const labelOf = (value) => ((cfg.rematch_choices || []).find((c) => c.value === value) || { label: "" }).label;
  const choose = () =>
    (cfg.rematch_choices || []).map((c) => button(c.label || R.again, () => post(cfg.offer, { choice: c.value }), offer && offer.choice !== c.value));

  if (!(offer && offer.match_id)) awaitingRematch = host || mine === "yes";
  if (offer && offer.match_id) {
    if (host || mine === "yes") {
      const link = document.createElement("a");
      link.className = "button button-small";
      link.href = offer.url;
      link.textContent = R.go;
      buttons.append(link);
      rematchCard.hidden = false;
      if (!awaitingRematch) {
        rematchCard.dataset.state = "started";
        text.textContent = R.started;
        return;
      }
      rematchCard.dataset.state = "starting";
      text.textContent = R.starting;
      setTimeout(() => go(offer.url), 600);
      return;
    }
    rematchCard.dataset.state = "started";
    text.textContent = mine === "no" ? R.declined : R.started_without;
  } else if (host) {
    if (!offer) {
      rematchCard.dataset.state = "choose";
      text.textContent = R.choose;
      buttons.append(...choose());
    } else {
      rematchCard.dataset.state = "offered";
      text.textContent = fmt(R.offered_host, { choice: labelOf(offer.choice) });
      for (const seat of offer.asked || []) {
        const li = document.createElement("li");
        const answer = answers[String(seat)];
        li.textContent = `${match.seats[seat].name}: ${answer === "yes" ? R.yes : answer === "no" ? R.no : R.waiting}`;
        list.append(li);
      }
      buttons.append(button(R.start_now, () => post(cfg.start, {})), ...choose());
    }
  } else if (offer && (offer.asked || []).includes(me)) {
    const by = match.seats.find((s) => s.user_id === offer.by);
    if (!mine) {
      rematchCard.dataset.state = "invited";
      text.textContent = fmt(R.invited, { name: by ? by.name : "", choice: labelOf(offer.choice) });
      buttons.append(
        button(R.accept, () => post(cfg.answer, { accept: "1" })),
        button(R.decline, () => post(cfg.answer, { accept: "0" }), true),
      );
    } else {
      rematchCard.dataset.state = mine === "yes" ? "accepted" : "declined";
      text.textContent = mine === "yes" ? R.accepted : R.declined;
    }
  } else {
    rematchCard.hidden = true;
    return;
  }
  rematchCard.hidden = false;
}

// --- P-12: the host seats a player in a seat that was left (*Devam*) -------------------------

const replaceCard = document.querySelector(".kx-replace");
let lastReplaceKey = "";

async function answerSeat(seat, accept) {
  const error = replaceCard.querySelector(".kx-error");
  error.hidden = true;
  try {
    const response = await fetch(cfg.seat_answer, {
      method: "POST",
      headers: { Accept: "application/json", "X-CSRFToken": cfg.csrf },
      body: new URLSearchParams({ seat: String(seat), accept: accept ? "1" : "0" }),
      credentials: "same-origin",
    });
    const reply = await response.json().catch(() => ({}));
    if (!response.ok || !reply.ok) throw new Error(reply.message || T.replace.failed);
  } catch (exc) {
    error.textContent = exc.message || T.replace.failed;
    error.hidden = false;
  }
}

function showReplace(frame) {
  const match = frame.match;
  const me = frame.me;
  const mySeat = me !== null && me !== undefined ? match.seats[me] : null;
  const host = mySeat && mySeat.user_id !== null && mySeat.user_id === match.host_id;
  const running = match.status === "playing" || match.status === "between";
  const vacant = match.seats.map((s, n) => ({ ...s, n })).filter((s) => s.left);
  if (!host || !running || match.kind !== "normal" || !vacant.length) {
    replaceCard.hidden = true;
    lastReplaceKey = "";
    return;
  }
  const key = JSON.stringify(vacant.map((s) => [s.n, s.request]));
  if (key === lastReplaceKey) return;
  lastReplaceKey = key;
  const R = T.replace;
  const list = replaceCard.querySelector(".kx-answers");
  list.replaceChildren();
  const link = new URL(cfg.seat_take, window.location.href).href;
  for (const s of vacant) {
    const li = document.createElement("li");
    li.dataset.seat = String(s.n);
    if (s.request) {
      const text = document.createElement("p");
      text.className = "kx-text";
      text.textContent = fmt(R.request, { name: s.request, n: s.n + 1 });
      const buttons = document.createElement("div");
      buttons.className = "kx-buttons";
      buttons.append(
        button(R.accept, () => answerSeat(s.n, true)),
        button(R.decline, () => answerSeat(s.n, false), true),
      );
      li.append(text, buttons);
    } else {
      const text = document.createElement("p");
      text.className = "kx-text";
      text.textContent = fmt(R.vacant, { n: s.n + 1 });
      const field = document.createElement("input");
      field.readOnly = true;
      field.value = link;
      field.setAttribute("aria-label", R.title);
      field.addEventListener("focus", () => field.select());
      li.append(text, field);
    }
    list.append(li);
  }
  replaceCard.hidden = false;
}

document.addEventListener("kut:frame", (event) => {
  const frame = event.detail;
  if (!frame || !frame.match) return;
  showTrial(frame.match);
  showRematch(frame);
  showReplace(frame);
});
