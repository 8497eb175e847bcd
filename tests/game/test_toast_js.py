"""King's and Kelimeki's toasts come from one function (``js/toast.js``): a line
in the table's own ``.<p>-toasts`` box, styled by kind, gone after four seconds."""

from __future__ import annotations

from tests.nodejs import map_in_node

MAPPER = """(c) => {
  globalThis.document = { createElement: (tag) => ({ tag, removed: false, remove() { this.removed = true; } }) };
  const timers = [];
  globalThis.setTimeout = (fn, ms) => timers.push([fn, ms]);
  const appended = [];
  const root = { querySelector: (sel) => ({ append: (el) => appended.push([sel, el]) }) };
  const toast = toaster(root, c.p);
  if (c.kind === null) toast(c.text); else toast(c.text, c.kind);
  const [[box, el]] = appended;
  const shown = { box, tag: el.tag, cls: el.className, text: el.textContent, ms: timers[0][1], removed: el.removed };
  timers[0][0]();
  return { ...shown, gone: el.removed };
}"""


def test_one_toast_for_king_and_kelimeki(tmp_path):
    cases = [
        {"p": "kg", "text": "Sıra sende değil.", "kind": "error"},
        {"p": "kk", "text": "<b>kelime</b>", "kind": None},
    ]
    got = map_in_node(tmp_path, "js/toast.js", "toaster", MAPPER, cases)
    assert got == [
        {"box": ".kg-toasts", "tag": "p", "cls": "kg-toast kg-toast-error",
         "text": "Sıra sende değil.", "ms": 4000, "removed": False, "gone": True},
        {"box": ".kk-toasts", "tag": "p", "cls": "kk-toast kk-toast-info",
         "text": "<b>kelime</b>", "ms": 4000, "removed": False, "gone": True},
    ]  # fmt: skip
