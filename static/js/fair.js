// P-2's check link, for every game whose deal is committed (SECURITY.md section 2): the
// commitment was in every view from the deal on; once the hand is over the view adds the
// salt and the order, and the verify page recomputes the hash in the browser.

import { esc } from "./text.js";

// T.verify_url, T.verify_shuffle: the table's strings; fair: the view's `fair`. Empty
// while the hand is in play (no salt yet) and for a deal with no commitment.
export function verifyLink(T, fair) {
  if (!fair || !fair.salt || !fair.order) return "";
  const q = new URLSearchParams({ commitment: fair.commitment, salt: fair.salt, order: fair.order.join(",") });
  return `<p class="kt-verify"><a href="${esc(String(T.verify_url))}?${esc(q.toString())}" target="_blank" rel="noopener">${esc(T.verify_shuffle)}</a></p>`;
}
