// Sending a move from the game page (POST /games/{id}/moves), and what the page says when that fails: a move
// never sent (no connection) is not one the server refused, and one whose answer was lost may have been played.
import { post } from '../api.js';
import { offline } from '../connection.js';
import { toast } from '../dom.js';

export class MoveSender {
  constructor(page) {
    this.page = page;
    this.sendError = null; // the move error shown in the hint, cleared once the page catches up
    this.unsure = null; // { before, notPlayed }: a move sent as the network failed, until the page knows its fate
  }

  async play(move) {
    const page = this.page;
    if (page.busy) return;
    page.busy = true;
    page.controls.render();
    this.unsure = null;
    const unsent = offline(); // no network at all: the request cannot leave this device
    const before = page.snap.moves ? page.snap.moves.length : 0;
    try {
      await post(`/games/${page.id}/moves`, { move });
      page.preview = null;
      if (page.entry) page.renderBoard();
      else page.board.mark({ preview: null });
      page.hint.textContent = '\u00a0';
      if (!page.feed.connected()) await page.feed.refresh();
    } catch (err) {
      if (err.status === 0) page.boardPlay.setPreview(null); // never sent: the board shows only what the server has
      this.showSendError(failedMoveText(move, err, unsent));
      // Lost on the network, or a server (or proxy) error: the move may have been played all the same.
      if ((err.status === 0 && !unsent) || err.status >= 500) {
        const notPlayed = err.status === 0
          ? `Not sent: ${move}. The connection failed; the move was not played. Play it again.`
          : `${move} was not played: ${err.raw || err.message}. Play it again.`;
        this.unsure = { before, notPlayed };
        if (await page.feed.refresh()) this.settleUnsure(); // else catchUp() settles it once the socket is back
      }
      else if (err.status === 409 || err.code === 'illegal_move') await page.feed.refresh(); // our view may be stale
    } finally {
      page.busy = false;
      page.controls.render();
    }
  }

  /** A move whose request failed on the network or with a server error may have been played (only the
   * answer lost). With a fresh snapshot, say which: never "not played" of a move that was (a user would play
   * it again), and never a move that vanishes without a word. */
  settleUnsure() {
    const page = this.page;
    const { before, notPlayed } = this.unsure;
    this.unsure = null;
    const me = page.me();
    if (me && page.snap.moves && page.snap.moves.slice(before).some((m) => m.user_id === me.user_id)) this.clearSendError();
    else this.showSendError(notPlayed);
  }

  showSendError(text) {
    const page = this.page;
    this.sendError = text;
    page.hint.textContent = text;
    page.hint.classList.add('bad');
    page.srLive.textContent = text;
    toast(text, 'error');
  }

  /** The page has caught up with the server: a send error still shown is about the past. */
  clearSendError() {
    const page = this.page;
    if (this.sendError && page.hint.textContent === this.sendError) {
      page.hint.textContent = '\u00a0';
      page.hint.classList.remove('bad');
    }
    this.sendError = null;
  }
}

/** Why a move did not go through: never sent (no connection) is not the same as refused by the server. */
function failedMoveText(move, err, unsent) {
  if (err.status === 0 && !unsent) return `${move} may not have been played: the connection failed before the server answered. The page checks with the server.`;
  if (err.status === 0) return `Not sent: ${move}. The server cannot be reached (no connection); the move was not played. Play it again once the connection is back.`;
  if (err.status >= 500) return `${move} may not have been played: ${err.raw || err.message}. The page checks with the server.`;
  return `The server refused ${move}: ${err.raw || err.message}${err.reason ? ` (${err.reason})` : ''}`;
}
