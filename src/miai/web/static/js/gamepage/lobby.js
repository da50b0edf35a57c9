// The game page's status line (waiting, confirming, whose turn, finished, cancelled) and the lobby's buttons
// before a game starts: join a team, accept or decline a challenge, confirm, leave, the invite link of a
// private game, and the creator's form that seats a computer player.
import { post } from '../api.js';
import { clear, confirmDialog, h, link, toast, whileBusy } from '../dom.js';
import { isPractice, removalReason } from '../format.js';
import { deadlineText, playerName } from '../gameparts.js';
import { swatch } from '../palette.js';
import { session } from '../session.js';

const CANCELLED = {
  declined: 'the challenge was declined',
  no_players: 'nobody was left to play (computers do not play alone)',
};

// What each lobby action's toast says once the server has it.
const DONE = {
  join: 'You joined the game.',
  confirm: 'Confirmed: the game starts once every player has confirmed.',
  leave: 'You left the game.',
  decline: 'Challenge declined.',
  computer: 'A computer player took the seat.',
};

export class Lobby {
  constructor(page) {
    this.page = page;
    this.computerChoice = null; // the creator's choice in the computer form, kept across live redraws
    this.statusBox = h('div.status', { id: 'status', 'aria-live': 'polite' });
    this.lobbyBox = h('div.lobby-box');
    // While a computer's move is on its way: a live region of its own, kept on the page so that every change
    // of its text is announced.
    this.thinking = h('p.thinking#thinking', { role: 'status', 'aria-live': 'polite' });
  }

  /** POST a lobby action (join, leave, confirm, decline, computer), after `confirmText`'s dialog if any; the
   * button pressed (`event`'s) is busy meanwhile, and a short line says it was done. */
  async action(path, body = {}, confirmText = null, event = null) {
    const page = this.page;
    const button = event && event.currentTarget;
    if (confirmText && !(await confirmDialog(...confirmText))) return;
    await whileBusy(button, async () => {
      try {
        await post(`/games/${page.id}/${path}`, body);
        if (DONE[path]) toast(DONE[path]);
        await page.feed.refresh();
      } catch (err) {
        toast(err.message, 'error');
      }
    });
  }

  render() {
    const page = this.page;
    const snap = page.snap;
    const me = snap.you;
    const parts = [];
    let thinking = '';
    if (snap.status === 'waiting') {
      const seats = snap.options.teams * snap.options.players_per_team;
      parts.push(h('p', `Waiting for players: ${snap.players.length} of ${seats} seats taken.`));
      if (snap.challenge_to) parts.push(h('p#challenge-for', this.challengedIsMe() ? 'A challenge for you: accept it to play, or decline it.' : `Challenge for ${snap.challenge_to_name}: only they can join.`));
    } else if (snap.status === 'confirming') {
      parts.push(h('p', 'Every seat is taken. Each player confirms to start the game.'));
      parts.push(h('p', 'Confirm within ', h('strong.deadline', { id: 'confirm-deadline' }, deadlineText(snap, page.clock.now())),
        ` (until ${new Date(snap.deadline).toLocaleTimeString()}); players who do not confirm are removed.`));
    } else if (snap.status === 'active') {
      const tm = snap.to_move || {};
      const name = playerName(snap, tm.team, tm.seat);
      const mine = page.myTurn() || (me && tm.user_id === me.user_id);
      const computer = snap.players.some((p) => p.user_id === tm.user_id && p.computer !== null && p.computer !== undefined);
      if (computer && !tm.held) thinking = 'Computer is thinking…';
      parts.push(
        h('p.turn', { id: 'turn', class: `turn${mine ? ' mine' : ''}` },
          swatch(page.palette, tm.team, 20),
          mine ? h('strong', 'Your turn') : h('span', `${page.teamLabel(tm.team)} to move: `, h('strong', name)),
          mine ? ` (${page.teamLabel(tm.team)})` : null,
        ),
        computer && tm.held ? h('p#held', 'Back at the start, the computer waits: Redo replays its move.') : null,
        // A practice game's month per move is no clock to watch.
        snap.deadline && !isPractice(snap.options) ? h('p.clock', 'Time left to move: ', h('strong.deadline', { id: 'clock' }, deadlineText(snap, page.clock.now()))) : null,
      );
    } else if (snap.status === 'finished') {
      parts.push(h('p', snap.result ? 'The game has finished.' : 'The game has finished; counting…'));
    } else if (snap.status === 'cancelled') {
      const why = CANCELLED[snap.cancelled && snap.cancelled.reason];
      parts.push(h('p#cancelled', why ? `This game was cancelled: ${why}.` : 'This game was cancelled.'));
    }
    if (snap.removed) parts.push(h('p.error#removed', `You were removed from this game: ${removalReason(snap.removed)}.`));
    clear(this.statusBox, parts);
    if (this.thinking.textContent !== thinking) this.thinking.textContent = thinking;
    this.thinking.hidden = !thinking;
    this.renderLobbyBox();
  }

  challengedIsMe() {
    return Boolean(session.user && this.page.snap.challenge_to === session.user.id);
  }

  renderLobbyBox() {
    const page = this.page;
    const snap = page.snap;
    const me = snap.you;
    const mine = me && snap.players.some((p) => p.user_id === me.user_id);
    const o = snap.options;
    const parts = [];
    if (snap.status === 'waiting') {
      if (!session.user) {
        const who = snap.challenge_to ? ` to accept if you are ${snap.challenge_to_name}.` : ' to join this game.';
        parts.push(h('p', link(`/login?next=${encodeURIComponent(location.pathname + location.search)}`, 'Log in'), who));
      } else if (snap.challenge_to && !mine) {
        // Only the challenged player may join (anyone else would be refused): they accept, others look on.
        if (this.challengedIsMe()) parts.push(h('button.primary#accept', { type: 'button', onclick: (e) => this.action('join', { team: null, invite: page.invite || null }, null, e) }, 'Accept challenge'));
      } else if (!mine) {
        const buttons = [];
        for (let t = 1; t <= o.teams; t++) {
          const taken = snap.players.filter((p) => p.team === t).length;
          buttons.push(
            h('button.secondary', {
              type: 'button', dataset: { team: String(t) }, disabled: taken >= o.players_per_team,
              onclick: (e) => this.action('join', { team: t, invite: page.invite || null }, null, e),
            }, swatch(page.palette, t, 14), ` Join ${page.teamLabel(t)} (${taken}/${o.players_per_team})`),
          );
        }
        buttons.push(h('button.primary#join-any', { type: 'button', onclick: (e) => this.action('join', { team: null, invite: page.invite || null }, null, e) }, 'Join any team'));
        parts.push(h('div.join-buttons', buttons));
      } else {
        parts.push(h('button.secondary#leave', { type: 'button', onclick: (e) => this.action('leave', {}, ['Leave this game?', 'Your seat becomes free again.', 'Leave'], e) }, 'Leave game'));
      }
    }
    const creator = session.user && snap.created_by === session.user.id;
    if (snap.status === 'waiting' && creator) parts.push(this.computerForm());
    if (snap.status === 'confirming' && mine) {
      const confirmed = snap.players.find((p) => p.user_id === me.user_id).confirmed;
      parts.push(
        confirmed
          ? h('p.ok', 'You have confirmed. Waiting for the others…')
          : h('button.primary#confirm', { type: 'button', onclick: (e) => this.action('confirm', {}, null, e) }, 'Confirm and start'),
        h('button.secondary#leave', { type: 'button', onclick: (e) => this.action('leave', {}, ['Leave this game?', 'The game goes back to waiting for players.', 'Leave'], e) }, 'Leave game'),
      );
    }
    if (snap.challenge_to && session.user && snap.challenge_to === session.user.id && snap.status === 'waiting') {
      parts.push(h('button.secondary#decline', { type: 'button', onclick: (e) => this.action('decline', {}, ['Decline the challenge?', 'The game is cancelled.', 'Decline'], e) }, 'Decline challenge'));
    }
    if (o.visibility === 'private' && page.invite && (snap.status === 'waiting' || snap.status === 'confirming')) {
      const url = `${location.origin}/games/${page.id}?invite=${encodeURIComponent(page.invite)}`;
      parts.push(
        h('div.invite',
          h('label', { for: 'invite-link' }, 'Invite link (private game): '),
          h('input#invite-link', { type: 'text', readonly: true, value: url, onfocus: (e) => e.target.select() }),
          h('button.secondary.small', { type: 'button', onclick: () => navigator.clipboard?.writeText(url).then(() => toast('Invite link copied.'), () => {}) }, 'Copy'),
        ),
      );
    }
    clear(this.lobbyBox, parts);
  }

  /** The creator of a waiting game can seat a computer player in a team with a free seat. */
  computerForm() {
    const page = this.page;
    const o = page.snap.options;
    const open = [];
    for (let t = 1; t <= o.teams; t++) {
      if (page.snap.players.filter((p) => p.team === t).length < o.players_per_team) open.push(t);
    }
    if (!open.length) return null;
    // A live update redraws the form: keep what the creator chose (a seat that was taken is not offered).
    const chosen = this.computerChoice || {};
    const team = h('select#computer-team', open.map((t) => h('option', { value: String(t), selected: t === chosen.team }, page.teamLabel(t))));
    const level = h('select#computer-level', Array.from({ length: 10 }, (_, i) => h('option', { value: String(i + 1), selected: i + 1 === chosen.level }, String(i + 1))));
    const remember = () => { this.computerChoice = { team: Number(team.value), level: Number(level.value) }; };
    team.addEventListener('change', remember);
    level.addEventListener('change', remember);
    const form = h('form.add-computer', { 'aria-labelledby': 'add-computer-title' },
      h('p.small#add-computer-title', 'Add a computer player'),
      h('div.row',
        h('label.small', { for: 'computer-team' }, 'Team'), team,
        h('label.small', { for: 'computer-level' }, 'Level'), level,
        h('button.secondary.small#add-computer', { type: 'submit' }, 'Add computer')));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.action('computer', { team: Number(team.value), level: Number(level.value) });
    });
    return form;
  }
}
