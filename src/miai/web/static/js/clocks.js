// Team clocks as players read them: what a stored clock shows while its turn runs (the rules of
// core/clock.py), when time is low, and the server's time, which a browser whose own clock is off can rely on.
import { countdown, duration } from './format.js';

/**
 * Low time under Fischer clocks and per-move limits, as lichess sets its "emergency": an eighth of the
 * starting time, at least 10 s and at most 60 s.
 */
export function lowThreshold(total) {
  return Math.min(60, Math.max(10, (Number(total) || 0) * 0.125));
}

/** Byo-yomi: the last 10 s of a period are low, where KGS and OGS start counting the seconds aloud. */
export const PERIOD_LOW = 10;

/**
 * What a team clock (`stored`: {main, periods} as the server keeps it) shows `elapsed` seconds into its
 * turn (0 for a clock that is not running), under the game options `o` (clock, main_time, increment,
 * periods, period_time). Null without a Fischer or byo-yomi clock.
 *
 * Byo-yomi: main time runs first; then each period runs in turn, and a period that runs out is used up
 * (a move within a period keeps it: the server resets it after the move).
 * Returns {mode, main, periods (left, the running one included), period (seconds left of the running
 * period, or its full length), overtime, left (seconds until the team runs out), flagged, low}.
 */
export function clockAt(o, stored, elapsed = 0) {
  if (!o || !stored || (o.clock !== 'fischer' && o.clock !== 'byoyomi')) return null;
  const e = Math.max(0, Number(elapsed) || 0);
  const main = Math.max(0, Number(stored.main) || 0);
  if (o.clock === 'fischer') {
    const left = Math.max(0, main - e);
    return { mode: 'fischer', main: left, periods: 0, period: 0, overtime: false, left, flagged: left <= 0, low: left < lowThreshold(o.main_time) };
  }
  const length = Number(o.period_time) || 0;
  const periods = Math.max(0, Number(stored.periods) || 0);
  if (e < main || length <= 0) {
    const mainLeft = Math.max(0, main - e);
    const left = mainLeft + periods * length;
    // Main time is not low while periods follow it.
    const low = periods === 0 && mainLeft < lowThreshold(o.main_time);
    return { mode: 'byoyomi', main: mainLeft, periods, period: length, overtime: false, left, flagged: left <= 0, low };
  }
  const over = e - main;
  const used = Math.floor(over / length);
  const remaining = Math.max(0, periods - used);
  const period = remaining ? length - (over - used * length) : 0;
  const left = remaining ? period + (remaining - 1) * length : 0;
  return { mode: 'byoyomi', main: 0, periods: remaining, period, overtime: true, left, flagged: remaining === 0, low: period < PERIOD_LOW };
}

/** The clock as text: "04:59" (Fischer), "04:59 + 3×30 s" (byo-yomi main time), "00:23 (3 periods)". */
export function clockLabel(state) {
  if (!state) return '';
  if (state.mode === 'fischer') return countdown(state.main);
  if (!state.overtime) {
    if (!state.periods) return countdown(state.main);
    return `${countdown(state.main)} + ${state.periods}×${duration(state.period)}`;
  }
  if (!state.periods) return countdown(0);
  return `${countdown(state.period)} (${state.periods === 1 ? 'last period' : `${state.periods} periods`})`;
}

/** Seconds from the ISO time `iso` to the moment `nowMs` (milliseconds), or 0 without a time. */
export function secondsSince(iso, nowMs) {
  const start = iso ? Date.parse(iso) : NaN;
  return Number.isFinite(start) ? Math.max(0, (nowMs - start) / 1000) : 0;
}

/**
 * Every team's clock as shown at the server time `nowMs`: [{team, state, running, text}], empty without a
 * clock. Only the team on move in an active game has a running clock, counted from `turn_started_at`.
 */
export function teamClocks(snap, nowMs) {
  const o = snap.options;
  const out = [];
  if (!o || !snap.clocks) return out;
  const onMove = snap.status === 'active' && snap.to_move ? snap.to_move.team : null;
  for (let t = 1; t <= o.teams; t++) {
    const stored = snap.clocks[String(t)];
    const running = onMove === t;
    const state = clockAt(o, stored, running ? secondsSince(snap.turn_started_at, nowMs) : 0);
    if (state) out.push({ team: t, state, running, text: clockLabel(state) });
  }
  return out;
}

/**
 * The turn at the server time `nowMs`: the team clocks, `left` (seconds until the player on move times out:
 * the `deadline`, which is the earlier of the team's clock and the per-move limit; null without one) and
 * `low` (the team on move is in low time: its clock is, or the per-move limit comes first and is low).
 */
export function turnClocks(snap, nowMs) {
  const clocks = teamClocks(snap, nowMs);
  const deadline = snap.deadline ? Date.parse(snap.deadline) : NaN;
  const left = snap.status === 'active' && Number.isFinite(deadline) ? Math.max(0, (deadline - nowMs) / 1000) : null;
  const running = clocks.find((c) => c.running);
  const perMoveFirst = left !== null && (!running || left < running.state.left - 0.5);
  const perMoveLow = perMoveFirst && left < lowThreshold(snap.options && snap.options.seconds_per_move);
  return { clocks, left, low: Boolean((running && running.state.low) || perMoveLow) };
}

/**
 * The server's time from this page. Each answer that carries the server's time (`now` in a snapshot) is a
 * sample: the server read its clock between sending the request and receiving the answer, so the midpoint
 * is off by at most half the round trip. Times are kept against `performance.now()`, which no change of the
 * computer's wall clock moves.
 */
export class ServerClock {
  constructor(perf = () => performance.now(), wall = () => Date.now()) {
    this.perf = perf;
    this.wall = wall;
    this.base = null; // server time minus performance.now(), in milliseconds
    this.rtt = Infinity;
  }

  /** A server time `iso` read between `sent` and `received` (performance.now() values). */
  sample(iso, sent, received) {
    const server = iso ? Date.parse(iso) : NaN;
    if (!Number.isFinite(server)) return false;
    const rtt = Math.max(0, received - sent);
    // A slow answer would make a good estimate worse; a fresh one replaces an older one (after a machine
    // slept, the old estimate can be off by the time it slept).
    if (this.base !== null && rtt > Math.max(2 * this.rtt, 500)) return false;
    this.base = server - (sent + received) / 2;
    this.rtt = rtt;
    return true;
  }

  /** A server time without a round trip (a websocket message): used only until a better sample comes. */
  hint(iso, received) {
    if (this.base !== null) return false;
    const server = iso ? Date.parse(iso) : NaN;
    if (!Number.isFinite(server)) return false;
    this.base = server - received;
    this.rtt = 2000; // unknown: any measured sample of up to 4 s replaces it
    return true;
  }

  /** The server's time now, in milliseconds (the browser's own clock until a sample came). */
  now() {
    return this.base === null ? this.wall() : this.base + this.perf();
  }
}

/**
 * When to beep: once when the viewer's own running clock enters low time, and again only after that clock
 * was seen out of low time (an increment, a fresh byo-yomi period), as lichess does.
 */
export class LowTimeAlarm {
  constructor() {
    this.armed = true;
  }

  /** `low`: the viewer's clock is low now; `running`: it is the viewer's turn. True when a beep is due. */
  update(low, running) {
    if (!low) {
      this.armed = true;
      return false;
    }
    if (!running || !this.armed) return false;
    this.armed = false;
    return true;
  }
}
