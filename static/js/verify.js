// The verify page (game/fairness.py): recompute a hand's shuffle commitment in the
// browser, SHA-256("kut-deal-v1|" + salt + "|" + order joined by commas), and compare it
// with the commitment published when the hand started.  Every text comes from the page.
(function () {
  "use strict";
  const data = document.getElementById("verify-data");
  const result = document.getElementById("verify-result");
  if (!data || !result) return;
  const check = JSON.parse(data.textContent);
  if (!check) return;

  function say(state) {
    result.dataset.state = state;
    const key = "msg" + state.charAt(0).toUpperCase() + state.slice(1);
    result.textContent = result.dataset[key] || state;
  }

  if (!(window.crypto && window.crypto.subtle && window.TextEncoder)) {
    say("unsupported");
    return;
  }
  const text = "kut-deal-v1|" + check.salt + "|" + check.order.join(",");
  window.crypto.subtle
    .digest("SHA-256", new TextEncoder().encode(text))
    .then(function (buffer) {
      const hex = Array.from(new Uint8Array(buffer), function (b) {
        return b.toString(16).padStart(2, "0");
      }).join("");
      document.getElementById("verify-computed").textContent = hex;
      say(hex === check.commitment.toLowerCase() ? "ok" : "mismatch");
    })
    .catch(function () {
      say("error");
    });
})();
