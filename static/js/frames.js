// The match socket's frames, shared by every game's table (issue 22): a full snapshot
// ({"type": "state", ...}) first, then change frames ({"type": "change", "base":
// [version, layout], "version", "layout", "ops"}) that say what changed since the frame
// this socket got last.  The format and the algorithm are game.changes's (Python);
// tests/game/test_changes.py runs this file in node against it.
//
// A table script uses it in its one "on message" spot:
//
//   import { frameStream, socketUrl } from "../js/frames.js";   // from games/<key>/static/<key>/
//   const frames = frameStream(() => sendRaw({ type: "sync" }));
//   new WebSocket(socketUrl(`${proto}//${location.host}/ws/match/${id}/`));
//   ...on message: const frame = frames.take(msg); if (frame) onState(frame);
//
// take() returns the full frame for a snapshot or a change that fits, and null for
// anything else; a change that does not fit the frame held (a gap, a lost message,
// any doubt) asks for a snapshot once (the callback) and is dropped.  The frame
// returned is a new object: the previous one is never changed (copy on write).

function own(parent, key, owned) {
  const child = parent[key];
  if (child === null || typeof child !== "object") throw new Error("not a container");
  if (owned.has(child)) return child;
  const copy = Array.isArray(child) ? child.slice() : Object.assign({}, child);
  parent[key] = copy;
  owned.add(copy);
  return copy;
}

function has(obj, key) {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

// frame with ops applied, as a new object; throws on ops that do not fit
export function applyOps(frame, ops) {
  const root = Object.assign({}, frame);
  const owned = new Set([root]);
  for (const op of ops) {
    const [kind, path] = op;
    if (!Array.isArray(path) || path.length === 0) throw new Error("empty path");
    let parent = root;
    for (let i = 0; i < path.length - 1; i += 1) {
      if (!has(parent, path[i])) throw new Error("no such path");
      parent = own(parent, path[i], owned);
    }
    const last = path[path.length - 1];
    if (kind === "s") {
      if (Array.isArray(parent) && !(last >= 0 && last < parent.length)) throw new Error("index");
      parent[last] = op[2];
    } else if (kind === "d") {
      if (!has(parent, last)) throw new Error("no such key");
      delete parent[last];
    } else if (kind === "a") {
      if (!has(parent, last) || !Array.isArray(parent[last])) throw new Error("not an array");
      own(parent, last, owned).push(...op[2]);
    } else if (kind === "t") {
      if (!has(parent, last) || !Array.isArray(parent[last])) throw new Error("not an array");
      own(parent, last, owned).length = Math.min(op[2], parent[last].length);
    } else {
      throw new Error("unknown op");
    }
  }
  return root;
}

function keyOf(frame) {
  return [typeof frame.version === "number" ? frame.version : -1, frame.layout || 0];
}

// the full frame after msg (a snapshot as it is, a change applied to current), or
// null: not a state frame, or a change whose base is not current
export function applyFrame(current, msg) {
  if (!msg || typeof msg !== "object") return null;
  if (msg.type === "state") return msg;
  if (msg.type !== "change" || !current || !Array.isArray(msg.base)) return null;
  const [version, layout] = keyOf(current);
  if (msg.base[0] !== version || msg.base[1] !== layout) return null;
  let out;
  try {
    out = applyOps(current, Array.isArray(msg.ops) ? msg.ops : []);
  } catch {
    return null;
  }
  out.type = "state";
  out.version = msg.version;
  out.layout = msg.layout;
  return out;
}

// one socket's frames: take(msg) -> the full frame, or null
export function frameStream(askSnapshot) {
  let current = null;
  let asked = false;
  return {
    take(msg) {
      if (!msg || (msg.type !== "state" && msg.type !== "change")) return null;
      const full = applyFrame(current, msg);
      current = full; // the frame the server diffs against next: the last one received
      if (full) asked = false;
      else if (!asked && askSnapshot) {
        asked = true;
        askSnapshot();
      }
      return full;
    },
    reset() {
      current = null;
      asked = false;
    },
  };
}

// the match socket's URL with change frames asked for
export function socketUrl(url) {
  return url + (url.includes("?") ? "&" : "?") + "frames=change";
}
