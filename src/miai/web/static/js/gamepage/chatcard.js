// The game page's chat card (chat.js): messages go to POST /games/{id}/chat and arrive on the game's socket;
// who may write where follows the snapshot. An uploaded record is read-only: it has no chat.
import { post } from '../api.js';
import { h } from '../dom.js';
import { ChatPanel } from '../chat.js';
import { isRecord } from '../uploaded.js';

export class GameChat {
  constructor(page) {
    this.card = h('div.card.chat-card');
    this.panel = new ChatPanel(this.card, (channel, text) => post(`/games/${page.id}/chat`, { channel, text }));
  }

  /** The snapshot's messages (on loading, and after every snapshot). */
  reset(messages) {
    this.panel.reset(messages);
  }

  /** A message from the game's socket. */
  add(message) {
    this.panel.add([message], true);
  }

  update(snap, palette) {
    this.panel.setContext({
      me: snap.you,
      players: snap.players,
      options: snap.options,
      status: snap.status,
      palette,
      canPostPublic: Boolean(snap.you) && (snap.options.visibility === 'public' || Boolean(snap.you.team) || snap.players.some((p) => p.user_id === snap.you.user_id)),
    });
    this.card.hidden = isRecord(snap);
  }
}
