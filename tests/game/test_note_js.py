"""Each table tells a timeout once (``js/note.js``: ``tellOnce`` and ``newTimeouts``,
used by all five tables' notes): only the player's own when asked, never twice, and
with a store also not after a reload of the tab's page."""

from __future__ import annotations

from tests.nodejs import map_in_node

FRAME = {"timeouts": [
    {"hand_no": 1, "at": "t1", "seat": 0}, {"hand_no": 1, "at": "t1", "seat": 2},
    {"hand_no": 1, "at": "t2", "seat": 0},
]}  # fmt: skip

TELL = """(c) => {
  const saved = {};
  globalThis.sessionStorage = { getItem: (k) => saved[k] ?? null, setItem: (k, v) => { saved[k] = v; } };
  const fresh = tellOnce(c.store);
  const first = [fresh("a"), fresh("a"), fresh("b")];
  const reloaded = tellOnce(c.store);  // the page again, in the same tab
  return { first, after_reload: [reloaded("a"), reloaded("c")] };
}"""

TIMEOUTS = """(c) => {
  const told = new Set();
  const fresh = (key) => (told.has(key) ? false : (told.add(key), true));
  const ats = (list) => list.map((t) => `${t.at}/${t.seat}`);
  const frame = c.frame;
  return [ats(newTimeouts(frame, fresh, c.seat)), ats(newTimeouts(frame, fresh, c.seat)),
          ats(newTimeouts(frame, fresh)), ats(newTimeouts(null, fresh))];
}"""


def test_tell_once_with_and_without_a_store(tmp_path):
    got = map_in_node(tmp_path, "js/note.js", "tellOnce", TELL, [{"store": None}, {"store": "k"}])
    assert got == [
        {"first": [True, False, True], "after_reload": [True, True]},  # a new page: anew
        {"first": [True, False, True], "after_reload": [False, True]},  # the tab remembers
    ]


def test_new_timeouts_are_the_seats_own_and_each_comes_once(tmp_path):
    got = map_in_node(
        tmp_path, "js/note.js", "newTimeouts", TIMEOUTS, [{"frame": FRAME, "seat": 0}]
    )
    # seat 0's two, then none again; the other seat's was not marked told by the first call
    assert got == [[["t1/0", "t2/0"], [], ["t1/2"], []]]
