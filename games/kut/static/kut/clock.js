// KÜT's clock, four times a second and after every redraw: the ring of time left around
// the active seat's card (K-N6), the next hand's countdown, the claim window's seconds
// (./moves.js), and the watchdog — frames can be lost (another process moved, a dropped
// group message): when a timer has run out or a bot should have moved and nothing came,
// ask for the state.

import { fmt } from "../okey/tiles.js";

export function kutClock(t) {
  const { S, T, $, serverNow, botControlled } = t;

  function tick() {
    const m = S.match;
    if (!m) return;
    const now = serverNow();
    const active = $(".kt-card.is-turn");
    if (active) {
      const timer = $(".kt-timer", active);
      if (m.status === "playing" && m.deadline && m.turn_started) {
        const total = Math.max(1, m.deadline - m.turn_started);
        const left = Math.max(0, m.deadline - now);
        active.style.setProperty("--p", (left / total).toFixed(4));
        active.classList.add("has-timer");
        active.classList.toggle("is-warn", left <= (m.warning_seconds || 10) * 1000);
        timer.textContent = fmt(T.seconds_left, { n: Math.ceil(left / 1000) });
        t.tickSound(active, left);
      } else {
        active.style.setProperty("--p", "1");
        active.classList.remove("has-timer", "is-warn");
        timer.textContent = "";
      }
    }
    t.claimCountdown(now);
    const countdown = $(".kt-countdown");
    if (m.status === "between" && m.deadline) {
      const left = Math.ceil((m.deadline - now) / 1000);
      countdown.textContent = left > 0 ? fmt(T.next_task_in, { n: left }) : T.next_task_soon;
    }
    const idle = Date.now() - S.lastFrameAt;
    const overdue = t.running() && m.deadline && now > m.deadline + 700;
    const botToMove = m.status === "playing" && S.hand && !S.hand.over && S.hand.turn !== S.me && botControlled(S.hand.turn);
    if (overdue && idle > 700) t.requestSync(1000);
    else if (botToMove && idle > 3000) t.requestSync();
  }

  return { tick };
}
