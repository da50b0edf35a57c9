// Websockets that come back: exponential backoff with jitter, a keep-alive ping that must be answered, and
// the connection banner (connection.js) while down.
import { socketLost, socketOk } from './connection.js';

const PERMANENT = new Set([4401, 4403, 4404, 4422]); // the server refused us; retrying will not help
const PING_EVERY = 25000;
const ANSWER_WITHIN = 10000; // a socket that answers nothing this long after a ping is dead (a half-open TCP link)

export function socketUrl(path) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/api/v1${path}`;
}

/**
 * A websocket that reconnects itself. `url()` is called before every attempt, so it can carry the last
 * version seen (`since`) for a resync. `onOpen(reconnected)` runs after each successful connect;
 * `reconnected` is true unless it is the first attempt.
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
    this.answerTimer = null;
    this.retryNow = () => {
      if (!this.stopped && this.retryTimer) {
        clearTimeout(this.retryTimer);
        this.retryTimer = null;
        this.connect();
      }
    };
    const online = () => {
      this.retryNow();
      this.ping();
    };
    // miai:recheck: a request failed on the network (connection.js); offline: this socket is dead too.
    this.listeners = { 'miai:retry': this.retryNow, online, 'miai:recheck': () => this.ping(), offline: () => this.dropConnection() };
  }

  start() {
    this.stopped = false;
    for (const [event, fn] of Object.entries(this.listeners)) window.addEventListener(event, fn);
    this.connect();
    return this;
  }

  stop() {
    this.stopped = true;
    for (const [event, fn] of Object.entries(this.listeners)) window.removeEventListener(event, fn);
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    clearTimeout(this.answerTimer);
    socketOk(this.name);
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

  /** Ping, and count the socket dead unless something arrives soon (a request just failed, or keep-alive). */
  ping() {
    if (this.stopped || !this.connected || this.answerTimer) return;
    this.send({ t: 'ping' });
    this.answerTimer = setTimeout(() => {
      this.answerTimer = null;
      this.dropConnection();
    }, ANSWER_WITHIN);
  }

  /** Give up on the current connection (the browser went offline, or it stopped answering) and retry. */
  dropConnection() {
    if (this.stopped || !this.ws) return;
    const ws = this.ws;
    this.ws = null; // its close event, whenever it comes, is ignored
    clearInterval(this.pingTimer);
    clearTimeout(this.answerTimer);
    this.answerTimer = null;
    ws.close();
    this.scheduleRetry();
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
      if (this.ws !== ws) return;
      opened = true;
      const reconnected = this.everOpen || this.attempt > 0; // after failed attempts, too, something was missed
      this.everOpen = true;
      this.attempt = 0;
      socketOk(this.name);
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.ping(), PING_EVERY);
      this.onOpen(reconnected);
    };
    ws.onmessage = (event) => {
      if (this.ws !== ws) return;
      clearTimeout(this.answerTimer); // it is alive
      this.answerTimer = null;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onMessage(message);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      clearInterval(this.pingTimer);
      clearTimeout(this.answerTimer);
      this.answerTimer = null;
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
    socketOk(this.name);
    this.onGiveUp(code, reason);
  }

  scheduleRetry() {
    const delay = Math.min(this.maxDelay, this.baseDelay * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
    this.attempt += 1;
    socketLost(this.name, Math.ceil(delay / 1000));
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, delay);
  }
}
