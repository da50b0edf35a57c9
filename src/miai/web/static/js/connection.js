// The connection indicator: one banner for every way a page can lose the server (the browser is offline,
// a live socket is down), so a user knows why nothing arrives and why a move was not sent.
// live.js reports its sockets here; api.js reports requests that never reached the server.

const lost = new Map(); // socket name -> seconds until its next attempt (null: not known)
let countdown = null;

/** Whether the browser says it has no network at all (it never says so wrongly; "online" may be wrong). */
export function offline() {
  return navigator.onLine === false;
}

function render() {
  const banner = document.getElementById('banner');
  if (!banner) return;
  if (!offline() && lost.size === 0) {
    banner.hidden = true;
    banner.replaceChildren();
    return;
  }
  const span = document.createElement('span');
  banner.dataset.state = offline() ? 'offline' : 'reconnecting'; // for styling and tests
  if (offline()) {
    span.textContent = 'Offline: this device has no network connection. Moves and messages are not sent until it is back.';
    banner.replaceChildren(span);
  } else {
    const waits = [...lost.values()].filter((s) => s !== null);
    span.textContent = waits.length
      ? `Connection lost. Reconnecting in ${Math.max(0, Math.min(...waits))} s…`
      : 'Connection lost. Reconnecting…';
    const retry = document.createElement('button');
    retry.textContent = 'Retry now';
    retry.className = 'secondary small';
    retry.addEventListener('click', () => window.dispatchEvent(new Event('miai:retry')));
    banner.replaceChildren(span, retry);
  }
  banner.hidden = false;
}

/** A live socket is down; it tries again in `seconds` (null: not known). */
export function socketLost(name, seconds) {
  lost.set(name, seconds);
  render();
  if (!countdown) {
    countdown = setInterval(() => {
      for (const [key, s] of lost) if (s !== null) lost.set(key, Math.max(0, s - 1));
      if (lost.size === 0) {
        clearInterval(countdown);
        countdown = null;
      }
      render();
    }, 1000);
  }
}

export function socketOk(name) {
  if (lost.delete(name)) render();
}

/** A request never reached the server: the live sockets check whether they are still alive. */
export function networkFailed() {
  window.dispatchEvent(new Event('miai:recheck'));
}

window.addEventListener('offline', render);
window.addEventListener('online', render);
render(); // a page opened from the cache while offline says so at once
