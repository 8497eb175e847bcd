// Issue 31 ("Analiz"): the replay's analysis panel, for every game
// (templates/history/_replay_analysis.html).  It reads the hand's stored report
// (#analysis-data: game.engine.analysis's shape) and talks to the game's replay script:
//   replay:step       {applied}   the position shown changed (applied = actions applied)
//   replay:goto       {applied}   jump there (a click on a decision: applied = its step)
//   replay:best       {decision}  draw the better move of the current decision
//   replay:best-clear             remove it (on every step change, or the toggle off)
// Marks carry a symbol (✓ ? ??) beside the colour, as lichess marks moves.
import { esc, fmt } from "./text.js";

const panel = document.getElementById("analysis-panel");
const cfgEl = document.getElementById("analysis-config");
const cfg = cfgEl ? JSON.parse(cfgEl.textContent) : null;
const S = cfg ? cfg.strings : {};
const state = { hand: cfg ? cfg.hand : 0, data: null, applied: 0, best: false, loading: null };

function readJSON(id) {
  const el = document.getElementById(id);
  return el ? JSON.parse(el.textContent) : null;
}

function markHTML(mark) {
  const word = S.marks[mark] || mark;
  return `<span class="ra-mark ra-${esc(mark)}" data-testid="analysis-mark" data-mark="${esc(mark)}"` +
    ` title="${esc(word)}" aria-label="${esc(word)}">${esc(S.symbols[mark] || "")}</span>`;
}

function nameOf(seat) {
  const names = (state.data && state.data.names) || [];
  return names[seat] || `#${seat + 1}`;
}

function current() {
  const report = state.data && state.data.report;
  if (!report) return null;
  const i = report.decisions.findIndex((d) => d.step === state.applied);
  return i < 0 ? null : { decision: report.decisions[i], words: state.data.words[i] || {} };
}

function renderSummary(data) {
  const rows = data.summary.filter((p) => p.decisions > 0).map((p) => {
    const marks = ["good", "loss", "big_loss"].map((m) => `<td class="num">${markHTML(m)} ${p[m]}</td>`).join("");
    const notes = p.notes.length ? `<br><span class="muted">${esc(p.notes.join(" · "))}</span>` : "";
    return `<tr data-seat="${p.seat}"><th scope="row">${esc(nameOf(p.seat))}</th>${marks}` +
      `<td>${esc(fmt(S.average, { cost: p.average }))}${notes}</td></tr>`;
  });
  return `<h3>${esc(S.summary)}</h3><div class="scroll"><table class="ra-summary"><tbody>${rows.join("")}</tbody></table></div>`;
}

function renderList(data) {
  const items = data.report.decisions.map((d, i) => {
    const w = data.words[i] || {};
    return `<li><button type="button" class="ra-decision" data-step="${d.step}" data-index="${i}">` +
      `${markHTML(d.mark)} <span class="ra-who">${esc(nameOf(d.seat))}</span> ` +
      `<span class="ra-played">${esc(w.played || "")}</span>` +
      (d.cost ? ` <span class="ra-cost">−${esc(w.cost)}</span>` : "") + `</button></li>`;
  });
  return `<h3>${esc(S.decisions)}</h3><ol class="ra-list">${items.join("")}</ol>`;
}

function render() {
  const data = state.data;
  let html = `<h2 id="ra-title">${esc(S.title)}</h2>`;
  if (state.loading) {
    html += `<p class="ra-status muted" aria-live="polite">${esc(S.loading)}</p>`;
  } else if (!data || !data.report) {
    html += `<p class="ra-status muted" aria-live="polite">${esc(S.none)}</p>`;
  } else {
    html += `<div class="ra-here" aria-live="polite"></div>` +
      `<button type="button" class="button button-small ra-toggle" data-testid="analysis-best-toggle"` +
      ` aria-pressed="${state.best}">${esc(S.toggle)}</button>`;
    if (!data.report.complete) html += `<p class="muted ra-partial">${esc(S.partial)}</p>`;
    html += renderSummary(data) + renderList(data);
  }
  panel.innerHTML = html;
  renderHere();
}

function renderHere() {
  const here = panel.querySelector(".ra-here");
  if (!here) return;
  const now = current();
  panel.querySelectorAll(".ra-decision").forEach((b) => {
    b.setAttribute("aria-current", String(now !== null && Number(b.dataset.step) === state.applied));
  });
  keepInView(panel.querySelector(".ra-decision[aria-current='true']"));
  if (!now) {
    here.innerHTML = `<h3>${esc(S.here)}</h3><p class="muted">${esc(S.none_here)}</p>`;
    return;
  }
  const { decision: d, words: w } = now;
  here.innerHTML = `<h3>${esc(S.here)}</h3><p class="ra-line">${markHTML(d.mark)} <strong>${esc(nameOf(d.seat))}</strong>` +
    ` · ${esc(S.marks[d.mark] || d.mark)}${d.exact ? "" : ` (${esc(S.not_exact)})`}</p>` +
    `<p class="ra-line"><span class="ra-label">${esc(S.played)}</span> ${esc(w.played || "")}</p>` +
    (d.best ? `<p class="ra-line"><span class="ra-label">${esc(S.best)}</span> ${esc(w.best || "")}</p>` : "") +
    `<p class="ra-line"><span class="ra-label">${esc(S.cost)}</span> ${esc(w.cost || "0")}</p>`;
}

// The list scrolls itself (never the page) to keep the current decision in sight.
function keepInView(item) {
  const list = item && item.closest(".ra-list");
  if (!list) return;
  const top = item.parentElement.offsetTop;
  if (top < list.scrollTop || top + item.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = Math.max(0, top - list.clientHeight / 3);
  }
}

function emitBest() {
  document.dispatchEvent(new CustomEvent("replay:best-clear"));
  const now = current();
  if (state.best && now && now.decision.best) {
    document.dispatchEvent(new CustomEvent("replay:best", { detail: { decision: now.decision } }));
  }
}

function shownHand() {
  const button = document.querySelector("[data-hand][aria-current='true']");
  if (button) return Number(button.dataset.hand);
  const fromUrl = Number(new URL(window.location.href).searchParams.get("hand"));
  return fromUrl || state.hand;
}

async function loadHand(hand) {
  state.hand = hand;
  state.data = null;
  state.loading = hand;
  render();
  let data = null;
  try {
    const response = await fetch(cfg.url.replace("{hand}", String(hand)), { headers: { Accept: "application/json" } });
    if (response.ok) data = await response.json();
  } catch (err) {
    data = null;
  }
  if (state.hand !== hand) return; // another hand was picked meanwhile
  state.loading = null;
  state.data = data;
  const holder = document.getElementById("analysis-data");
  if (holder) holder.textContent = data ? JSON.stringify(data.report) : "null";
  render();
  emitBest();
}

function onStep(event) {
  state.applied = Number(event.detail && event.detail.applied) || 0;
  const hand = shownHand();
  if (hand !== state.hand) {
    loadHand(hand);
    return;
  }
  renderHere();
  emitBest();
}

function onClick(event) {
  const toggle = event.target.closest(".ra-toggle");
  if (toggle) {
    state.best = !state.best;
    toggle.setAttribute("aria-pressed", String(state.best));
    emitBest();
    return;
  }
  const item = event.target.closest(".ra-decision");
  if (item) {
    document.dispatchEvent(new CustomEvent("replay:goto", { detail: { applied: Number(item.dataset.step) } }));
  }
}

if (panel && cfg) {
  const report = readJSON("analysis-data");
  const extra = readJSON("analysis-extra");
  state.data = report ? { ...(extra || {}), report } : null;
  render();
  panel.addEventListener("click", onClick);
  document.addEventListener("replay:step", onStep);
}
