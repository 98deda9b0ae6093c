// The table's websocket, reconnecting on its own: a reload or a lost
// connection comes back to the current view (the server sends it on connect).
// The seat token never goes in the address (proxies log addresses): the first
// message on every socket is {"type": "hello", "token": ...}.

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
      ws.send(JSON.stringify({ type: "hello", token: this.token || null }));
      this.attempts = 0;
      this.handlers.onStatus?.("online");
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
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
