// The game page's buttons under the board: Submit Move (with the preview), the game's own moves (Hex's swap),
// Pass and Resign on the player's turn, an agreed draw in games of more than two teams, and a practice game's
// undo and redo.
import { post } from '../api.js';
import { clear, confirmDialog, h, toast } from '../dom.js';
import { isPractice } from '../format.js';

export class Controls {
  constructor(page) {
    this.page = page;
    this.submitButton = h('button.primary#submit-move', { type: 'button', onclick: () => page.boardPlay.submitPreview() }, 'Submit Move');
    this.passButton = h('button.secondary#pass', { type: 'button', onclick: () => this.pass() }, 'Pass');
    this.resignButton = h('button.danger#resign', { type: 'button', onclick: () => this.resign() }, 'Resign');
    this.extraActions = h('span.extra-actions'); // moves of the game's own, such as Hex's swap
    this.actions = h('div.actions', this.submitButton, this.extraActions, this.passButton, this.resignButton);
    this.drawBox = h('div.draw');
    this.practiceBox = h('div.practice', { role: 'group', 'aria-label': 'Take back moves' });
  }

  render() {
    const page = this.page;
    const snap = page.snap;
    if (!snap) return;
    const me = snap.you;
    const player = me && snap.players.find((p) => p.user_id === me.user_id);
    const playing = snap.status === 'active' && player && player.state === 'active';
    this.actions.hidden = !playing;
    const mine = page.myTurn();
    this.submitButton.hidden = page.boardPlay.oneClick() && page.preview === null;
    this.submitButton.disabled = !mine || page.preview === null || page.busy;
    this.submitButton.textContent = page.preview !== null ? `Submit Move ${page.boardPlay.previewText()}` : 'Submit Move';
    this.passButton.hidden = Boolean(page.entry); // Amazons, Hex and Tanbo have no pass
    this.passButton.disabled = !mine || page.busy;
    const extra = page.entry && mine && snap.position ? page.entry.actions(snap.position) : [];
    clear(this.extraActions, extra.map((a) => h(`button.secondary#${a.id}`, {
      type: 'button', disabled: page.busy,
      onclick: async () => { if (!a.confirm || (await confirmDialog(...a.confirm))) await page.moves.play(a.move); },
    }, a.label)));
    this.resignButton.disabled = !mine || page.busy;
    this.resignButton.title = mine ? '' : 'You may resign on your own turn';
    const parts = [];
    const position = snap.position;
    if (playing && snap.options.teams > 2 && position) {
      const active = position.active.map((a, i) => (a ? i + 1 : 0)).filter(Boolean);
      const offers = page.drawTeams.filter((t) => active.includes(t));
      const offered = offers.includes(me.team);
      parts.push(
        h('button.secondary#draw', { type: 'button', onclick: () => this.draw(!offered) }, offered ? 'Withdraw draw offer' : 'Offer a draw'),
        h('span.muted.small', offers.length
          ? ` Draw accepted by ${offers.map((t) => page.teamLabel(t)).join(', ')}; every remaining team (${active.map((t) => page.teamLabel(t)).join(', ')}) must accept.`
          : ' An agreed draw needs every remaining team.'),
      );
    }
    clear(this.drawBox, parts);
    this.renderPractice(player);
    page.estimate.render();
  }

  renderPractice(player) {
    const page = this.page;
    const snap = page.snap;
    const practice = isPractice(snap.options);
    if (!practice || !player || !(snap.status === 'active' || snap.status === 'finished')) {
      clear(this.practiceBox);
      return;
    }
    const step = (path, label, id, disabled) =>
      h(`button.secondary.small#${id}`, { type: 'button', disabled, onclick: () => this.practiceStep(path) }, label);
    const noRedo = page.redo === 0;
    const noUndo = !snap.moves || snap.moves.length === 0;
    clear(this.practiceBox,
      step('start', 'Back to the start', 'practice-start', noUndo || page.busy),
      step('undo', 'Undo', 'undo', noUndo || page.busy),
      step('redo', 'Redo', 'redo', noRedo || page.busy),
      step('end', 'Redo all', 'practice-end', noRedo || page.busy),
    );
  }

  async practiceStep(path) {
    const page = this.page;
    if (page.busy) return;
    page.busy = true;
    this.render();
    try {
      const answer = await post(`/games/${page.id}/${path}`, {});
      page.redo = answer.redo;
      if (!page.feed.connected()) await page.feed.refresh();
    } catch (err) {
      toast(err.message, 'error');
    } finally {
      page.busy = false;
      this.render();
    }
  }

  async pass() {
    // Practice games pass at once, as Dgo does (a pass is taken back with Undo); games between people ask.
    if (isPractice(this.page.snap.options)) {
      await this.page.moves.play('pass');
      return;
    }
    if (await confirmDialog('Pass?', 'You give up this turn without placing a stone.', 'Pass')) await this.page.moves.play('pass');
  }

  async resign() {
    const page = this.page;
    const me = page.me();
    const mates = page.snap.players.filter((p) => p.team === me.team && p.state === 'active' && p.user_id !== me.user_id);
    const text = mates.length
      ? 'You leave the game; your teammates play on for your team.'
      : 'Your team leaves the game. This cannot be undone.';
    if (!(await confirmDialog('Resign?', text, 'Resign'))) return;
    if (page.busy) return;
    page.busy = true;
    this.resignButton.setAttribute('aria-busy', 'true');
    this.resignButton.disabled = true;
    try {
      await post(`/games/${page.id}/resign`, {});
      toast(mates.length ? 'You resigned: your teammates play on.' : 'You resigned.');
      if (!page.feed.connected()) await page.feed.refresh();
    } catch (err) {
      toast(err.message, 'error');
    } finally {
      page.busy = false;
      this.resignButton.removeAttribute('aria-busy');
      this.render();
    }
  }

  async draw(accept) {
    const page = this.page;
    try {
      const data = await post(`/games/${page.id}/draw`, { accept });
      page.drawTeams = data.teams;
      this.render();
    } catch (err) {
      toast(err.message, 'error');
    }
  }
}
