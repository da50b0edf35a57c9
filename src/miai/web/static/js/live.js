// Websockets that come back: exponential backoff with jitter, a keep-alive ping, and a banner while down.

const PERMANENT = new Set([4401, 4403, 4404, 4422]); // the server refused us; retrying will not help
const lost = new Map(); // socket name -> seconds until the next attempt
let bannerTimer = null;

function renderBanner() {
  const banner = document.getElementById('banner');
  if (!banner) return;
  if (lost.size === 0) {
    banner.hidden = true;
    banner.replaceChildren();
    return;
  }
  const waits = [...lost.values()].filter((s) => s !== null);
  const text = waits.length
    ? `Connection lost. Reconnecting in ${Math.max(0, Math.min(...waits))} s…`
    : 'Connection lost. Reconnecting…';
  const retry = document.createElement('button');
  retry.textContent = 'Retry now';
  retry.className = 'secondary small';
  retry.addEventListener('click', () => window.dispatchEvent(new Event('miai:retry')));
  const span = document.createElement('span');
  span.textContent = text;
  banner.replaceChildren(span, retry);
  banner.hidden = false;
}

function markLost(name, seconds) {
  lost.set(name, seconds);
  renderBanner();
  if (!bannerTimer) {
    bannerTimer = setInterval(() => {
      for (const [key, s] of lost) if (s !== null) lost.set(key, Math.max(0, s - 1));
      if (lost.size === 0) {
        clearInterval(bannerTimer);
        bannerTimer = null;
      }
      renderBanner();
    }, 1000);
  }
}

function markOk(name) {
  if (lost.delete(name)) renderBanner();
}

export function socketUrl(path) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/api/v1${path}`;
}

/**
 * A websocket that reconnects itself. `url()` is called before every attempt, so it can carry the last
 * version seen (`since`) for a resync. `onOpen(reconnected)` runs after each successful connect.
 */
export class LiveSocket {
  constructor(name, { url, onMessage, onOpen = () => {}, onGiveUp = () => {}, check = null, baseDelay = 500, maxDelay = 30000 }) {
    this.name = name;
    this.check = check; // async () => false when retrying cannot help (the server refused the handshake)
    this.url = url;
    this.onMessage = onMessage;
    this.onOpen = onOpen;
    this.onGiveUp = onGiveUp;
    this.baseDelay = baseDelay;
    this.maxDelay = maxDelay;
    this.attempt = 0;
    this.everOpen = false;
    this.stopped = true;
    this.ws = null;
    this.retryTimer = null;
    this.pingTimer = null;
    this.retryNow = () => {
      if (!this.stopped && this.retryTimer) {
        clearTimeout(this.retryTimer);
        this.retryTimer = null;
        this.connect();
      }
    };
  }

  start() {
    this.stopped = false;
    window.addEventListener('miai:retry', this.retryNow);
    this.connect();
    return this;
  }

  stop() {
    this.stopped = true;
    window.removeEventListener('miai:retry', this.retryNow);
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    markOk(this.name);
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.close(1000);
      this.ws = null;
    }
  }

  get connected() {
    return Boolean(this.ws && this.ws.readyState === WebSocket.OPEN);
  }

  send(message) {
    if (!this.connected) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  connect() {
    if (this.stopped) return;
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    let opened = false;
    ws.onopen = () => {
      opened = true;
      const reconnected = this.everOpen;
      this.everOpen = true;
      this.attempt = 0;
      markOk(this.name);
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ t: 'ping' }), 25000);
      this.onOpen(reconnected);
    };
    ws.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onMessage(message);
    };
    ws.onclose = (event) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) return;
      if (PERMANENT.has(event.code)) {
        this.giveUp(event.code, event.reason);
        return;
      }
      if (!opened && this.check) {
        // A refused handshake looks like any network failure; ask the HTTP API whether retrying makes sense.
        this.check().then((retry) => {
          if (this.stopped) return;
          if (retry) this.scheduleRetry();
          else this.giveUp(403, 'the server refused the connection');
        });
        return;
      }
      this.scheduleRetry();
    };
  }

  giveUp(code, reason) {
    this.stopped = true;
    markOk(this.name);
    this.onGiveUp(code, reason);
  }

  scheduleRetry() {
    const delay = Math.min(this.maxDelay, this.baseDelay * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
    this.attempt += 1;
    markLost(this.name, Math.ceil(delay / 1000));
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, delay);
  }
}
