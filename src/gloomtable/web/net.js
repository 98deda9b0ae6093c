// The table's websocket, reconnecting on its own: a reload or a lost
// connection comes back to the current view (the server sends it on connect).
// The seat token never goes in the address (proxies log addresses): the first
// message on every socket is {"type": "hello", "token": ..., "deltas": true}.
// With deltas, the server sends one full "state" message, then "patch" messages
// (JSON Patch, RFC 6902) from the last one; this socket applies them and hands the
// page whole state messages, so the page never sees a patch. A patch that does not
// follow the last state (its "base" is not our "rev") or does not apply asks for a
// full state ({"type": "sync"}) and patches are ignored until it comes.

const MAX_ATTEMPTS = 600; // about 40 minutes of retries, then the page asks for a reload

export class TableSocket {
  constructor(tableId, token, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = handlers;
    this.ws = null;
    this.attempts = 0;
    this.closed = false;
    this.timer = null;
    this.doc = null; // the last state as the server holds it for this socket (without the log)
    this.rev = null;
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/ws/${encodeURIComponent(this.tableId)}`;
  }

  connect() {
    if (this.closed) return;
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.doc = null;
      this.rev = null;
      ws.send(JSON.stringify({ type: "hello", token: this.token || null, deltas: true }));
      this.attempts = 0;
      this.handlers.onStatus?.("online");
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === "state" || msg.type === "patch") {
        msg = this.takeState(msg);
        if (!msg) return;
      }
      this.handlers.onMessage?.(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      const later = ev.code === 4429 || ev.code === 4503; // too many for now: try again later
      if (ev.code >= 4000 && ev.code < 5000 && !later) {
        this.handlers.onStatus?.("refused");
        return; // the server said no (bad token, no such table): retrying will not help
      }
      this.attempts += 1;
      if (this.attempts > MAX_ATTEMPTS) {
        this.handlers.onStatus?.("gone");
        return;
      }
      this.handlers.onStatus?.("reconnecting");
      const wait = Math.min(4000, 150 * 2 ** Math.min(this.attempts, 5));
      this.timer = setTimeout(() => this.connect(), wait);
    };
  }

  // A full state is kept; a patch is applied to the kept one. Either way the page
  // gets a state message of its own (a copy: whatever it changes, ours stays).
  takeState(msg) {
    if (msg.type === "state") {
      const { log, log_start, resync, rev, ...doc } = msg;
      this.doc = doc;
      this.rev = rev ?? null;
      return { ...structuredClone(doc), log, log_start, ...(resync ? { resync } : {}) };
    }
    if (!this.doc || msg.base !== this.rev) return this.resync();
    try {
      this.doc = applyPatch(this.doc, msg.ops);
    } catch {
      return this.resync();
    }
    this.rev = msg.rev;
    return { ...structuredClone(this.doc), log: msg.log, log_start: msg.log_start };
  }

  resync() {
    if (this.doc !== null || this.rev !== null) this.send({ type: "sync" }); // once per gap
    this.doc = null;
    this.rev = null;
    return null;
  }

  send(obj) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(obj));
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}

// JSON Patch (RFC 6902): the operations our server sends (add, remove, replace), and
// the rest of the RFC's (move, copy, test) for completeness. Throws on a path that
// is not there, as the RFC says a patch then fails.
function pointer(path) {
  if (path === "") return [];
  if (path[0] !== "/") throw new Error(`bad pointer ${path}`);
  return path.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function parentOf(doc, tokens) {
  let node = doc;
  for (const t of tokens.slice(0, -1)) {
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, t)) throw new Error(`no ${t}`);
    node = node[t];
  }
  if (node === null || typeof node !== "object") throw new Error("no parent");
  return node;
}

function index(arr, t, adding) {
  if (adding && t === "-") return arr.length;
  if (!/^(0|[1-9][0-9]*)$/.test(t)) throw new Error(`bad index ${t}`);
  const i = Number(t);
  if (i > arr.length || (!adding && i === arr.length)) throw new Error(`index ${i} out of range`);
  return i;
}

function getAt(doc, path) {
  const tokens = pointer(path);
  if (!tokens.length) return doc;
  const parent = parentOf(doc, tokens), t = tokens[tokens.length - 1];
  if (Array.isArray(parent)) return parent[index(parent, t, false)];
  if (!Object.hasOwn(parent, t)) throw new Error(`no ${t}`);
  return parent[t];
}

function put(doc, path, value, insert) {
  const tokens = pointer(path);
  if (!tokens.length) return value;
  const parent = parentOf(doc, tokens), t = tokens[tokens.length - 1];
  if (Array.isArray(parent)) {
    const i = index(parent, t, insert);
    if (insert) parent.splice(i, 0, value);
    else parent[i] = value;
  } else {
    if (!insert && !Object.hasOwn(parent, t)) throw new Error(`no ${t}`);
    parent[t] = value;
  }
  return doc;
}

function removeAt(doc, path) {
  const tokens = pointer(path);
  if (!tokens.length) throw new Error("cannot remove the whole document");
  const parent = parentOf(doc, tokens), t = tokens[tokens.length - 1];
  if (Array.isArray(parent)) parent.splice(index(parent, t, false), 1);
  else if (Object.hasOwn(parent, t)) delete parent[t];
  else throw new Error(`no ${t}`);
  return doc;
}

export function applyPatch(doc, ops) {
  for (const op of ops) {
    if (op.op === "add") doc = put(doc, op.path, op.value, true);
    else if (op.op === "replace") doc = put(doc, op.path, op.value, false);
    else if (op.op === "remove") doc = removeAt(doc, op.path);
    else if (op.op === "move") {
      const value = getAt(doc, op.from);
      doc = put(removeAt(doc, op.from), op.path, value, true);
    } else if (op.op === "copy") doc = put(doc, op.path, structuredClone(getAt(doc, op.from)), true);
    else if (op.op === "test") {
      if (JSON.stringify(getAt(doc, op.path)) !== JSON.stringify(op.value)) throw new Error("test failed");
    } else throw new Error(`unknown op ${op.op}`);
  }
  return doc;
}
