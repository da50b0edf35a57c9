// The game page's clocks: each team's clock next to its name, above and below the board on a phone, the time left to move (or to
// confirm), counted on the server's time (clocks.js), and a beep when the viewer's own clock runs low.
import { LowTimeAlarm, turnClocks } from '../clocks.js';
import { clear, h } from '../dom.js';
import { secondsUntil } from '../format.js';
import { clockNames, deadlineText } from '../gameparts.js';
import { swatch } from '../palette.js';
import { beep } from '../sound.js';

export class ClockBar {
  constructor(page) {
    this.page = page;
    this.alarm = new LowTimeAlarm();
    this.els = [];
    this.timer = null;
    // Two rows: the other teams' clocks (above the board on a phone) and the viewer's own (below it), as on
    // lichess; side by side in the panel on a wide screen.
    this.top = h('div.clock-row.top');
    this.bottom = h('div.clock-row.bottom');
    this.bar = h('div.clock-bar#clocks', { role: 'group', 'aria-label': 'Clocks', hidden: true }, this.top, this.bottom);
  }

  start() {
    this.timer = setInterval(() => this.tick(), 200); // often enough that a shown second is never late
  }

  stop() {
    clearInterval(this.timer);
  }

  /** Each team's clock next to its name; tick() keeps the running one counting. */
  render() {
    const page = this.page;
    const snap = page.snap;
    const { clocks } = turnClocks(snap, page.clock.now());
    const shown = (snap.status === 'active' || snap.status === 'finished') && clocks.length > 0;
    this.bar.hidden = !shown;
    this.els = shown
      ? clocks.map((c) => {
        const time = h('span.time', c.text);
        const who = clockNames(snap, page.palette, c.team);
        const el = h('div.team-clock', { role: 'timer', title: who.team, dataset: { team: String(c.team) } },
          swatch(page.palette, c.team, 14), h('span.name', who.name), who.players ? h('span.players', who.players) : null, time);
        return { team: c.team, el, time };
      })
      : [];
    // Counted from the viewer's team (team 1 for a spectator): the first half below the board, the rest above.
    const teams = this.els.map((c) => c.team);
    const own = page.me() && page.me().team ? page.me().team : teams[0];
    const from = Math.max(0, teams.indexOf(own));
    const turned = [...this.els.slice(from), ...this.els.slice(0, from)];
    const below = Math.ceil(turned.length / 2);
    clear(this.bottom, turned.slice(0, below).map((c) => c.el));
    clear(this.top, turned.slice(below).reverse().map((c) => c.el));
    this.tick();
  }

  /** The clocks and the time left to move, counted on the server's time. */
  tick() {
    const page = this.page;
    const snap = page.snap;
    if (!snap) return;
    const now = page.clock.now();
    const turn = turnClocks(snap, now);
    const text = deadlineText(snap, now);
    for (const id of ['clock', 'confirm-deadline']) {
      const el = page.main.querySelector(`#${id}`);
      if (!el) continue;
      if (el.textContent !== text) el.textContent = text;
      const left = secondsUntil(snap.deadline, now);
      el.classList.toggle('low', id === 'clock' ? turn.low : left !== null && left < 30);
    }
    for (const c of turn.clocks) {
      const shown = this.els.find((x) => x.team === c.team);
      if (!shown) continue;
      if (shown.time.textContent !== c.text) shown.time.textContent = c.text;
      shown.el.classList.toggle('running', c.running);
      shown.el.classList.toggle('low', c.state.low || (c.running && turn.low));
      shown.el.classList.toggle('flagged', c.state.flagged);
    }
    this.lowTimeAlarm(turn);
  }

  /** A short beep when the viewer's own clock enters low time on their turn (the "sound" setting mutes it). */
  lowTimeAlarm(turn) {
    const page = this.page;
    const me = page.me();
    if (!me || !me.team || page.snap.status !== 'active') return;
    const onMove = Boolean(page.snap.to_move && page.snap.to_move.user_id === me.user_id);
    const own = turn.clocks.find((c) => c.team === me.team);
    if (this.alarm.update(onMove ? turn.low : Boolean(own && own.state.low), onMove)) beep();
  }
}
