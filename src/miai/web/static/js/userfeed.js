// The logged-in user's socket (/api/v1/ws): dashboard, lobby and challenge pings for whichever page listens.
import { ApiError, get } from './api.js';
import { LiveSocket, socketUrl } from './live.js';

const listeners = new Set();
let socket = null;

export const userEvents = {
  subscribe(fn) {
    listeners.add(fn);
    return () => listeners.delete(fn);
  },
  start() {
    if (socket) return;
    socket = new LiveSocket('user', {
      url: () => socketUrl('/ws'),
      onMessage: (m) => {
        for (const fn of listeners) fn(m);
      },
      onOpen: (reconnected) => {
        if (reconnected) for (const fn of listeners) fn({ t: 'resync', d: {} });
      },
      check: async () => {
        try {
          await get('/me');
          return true;
        } catch (err) {
          return !(err instanceof ApiError && err.status === 401); // logged out elsewhere: stop
        }
      },
      onGiveUp: () => {
        socket = null;
        for (const fn of listeners) fn({ t: 'logged_out', d: {} });
      },
    }).start();
  },
  stop() {
    if (socket) socket.stop();
    socket = null;
  },
};
