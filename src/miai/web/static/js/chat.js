// Game chat: a public pane, the private team pane, and private conversations with other teams and players.
import { h, clear, toast } from './dom.js';
import { swatch } from './palette.js';

export class ChatPanel {
  /** `send(channel, text)` posts a message and resolves with it. */
  constructor(host, send) {
    this.send = send;
    this.messages = new Map(); // id -> message
    this.active = 'public';
    this.unread = new Map();
    this.ctx = null;
    this.root = h('section.chat', { 'aria-label': 'Chat' });
    this.tabs = h('div.tabs', { role: 'tablist', 'aria-label': 'Chat conversations' });
    this.log = h('ol.chat-log', { role: 'log', 'aria-live': 'polite', tabindex: '0', 'aria-label': 'Messages' });
    this.input = h('input#chat-input', { type: 'text', maxlength: '2000', autocomplete: 'off', 'aria-label': 'Message' });
    this.form = h('form.chat-form', { onsubmit: (e) => this.submit(e) }, this.input, h('button', { type: 'submit' }, 'Send'));
    this.note = h('p.muted.small.chat-note');
    this.root.append(h('h2', 'Chat'), this.tabs, this.log, this.form, this.note);
    host.append(this.root);
  }

  /** ctx: {me: {user_id, team} | null, players, options, status, palette, canPostPublic} */
  setContext(ctx) {
    this.ctx = ctx;
    const list = this.conversations();
    if (!list.some((c) => c.key === this.active)) this.active = 'public';
    this.render();
  }

  playerTeam(userId) {
    const p = this.ctx.players.find((x) => x.user_id === userId);
    return p ? p.team : null;
  }

  /** Which conversations apply, as the API defines them (private chat: more than two seats, game not over). */
  conversations() {
    const { me, players, options, status, palette } = this.ctx;
    const out = [{ key: 'public', title: 'Public', channel: 'public' }];
    const privateOk = me && me.team && status !== 'finished' && status !== 'cancelled' && options.teams * options.players_per_team > 2;
    if (!privateOk) return out;
    if (options.players_per_team > 1) out.push({ key: 'team', title: 'Team chat', channel: 'team', team: me.team, palette });
    for (let t = 1; t <= options.teams; t++) {
      if (t !== me.team) out.push({ key: `team:${t}`, title: `To team ${t}`, channel: `team:${t}`, team: t, palette });
    }
    for (const p of players) {
      if (p.user_id !== me.user_id) {
        out.push({ key: `user:${p.user_id}`, title: `@${p.username}`, channel: `user:${p.user_id}` });
      }
    }
    return out;
  }

  conversationOf(m) {
    const me = this.ctx && this.ctx.me;
    if (m.channel === 'public' || !me) return 'public';
    if (m.channel === 'team') return 'team';
    const [kind, value] = m.channel.split(':');
    if (kind === 'team') {
      const sender = m.team ?? this.playerTeam(m.user_id);
      return sender === me.team ? `team:${value}` : `team:${sender}`;
    }
    if (kind === 'user') return m.user_id === me.user_id ? `user:${value}` : `user:${m.user_id}`;
    return 'public';
  }

  /** Add messages (from the snapshot or live events); duplicates by id are ignored. */
  add(messages, live = false) {
    let changed = false;
    for (const m of messages) {
      if (this.messages.has(m.id)) continue;
      this.messages.set(m.id, m);
      changed = true;
      const key = this.conversationOf(m);
      const mine = this.ctx && this.ctx.me && m.user_id === this.ctx.me.user_id;
      if (live && key !== this.active && !mine) this.unread.set(key, (this.unread.get(key) || 0) + 1);
    }
    if (changed) this.render();
  }

  reset(messages) {
    this.messages.clear();
    this.add(messages);
    this.render();
  }

  select(key) {
    this.active = key;
    this.unread.delete(key);
    this.render();
    this.input.focus();
  }

  render() {
    if (!this.ctx) return;
    const list = this.conversations();
    clear(
      this.tabs,
      list.map((c) => {
        const unread = this.unread.get(c.key) || 0;
        return h(
          'button.tab',
          {
            type: 'button',
            role: 'tab',
            'aria-selected': c.key === this.active ? 'true' : 'false',
            dataset: { channel: c.channel },
            onclick: () => this.select(c.key),
          },
          c.team ? swatch(c.palette, c.team, 14) : null,
          c.title,
          unread ? h('span.badge', { 'aria-label': `${unread} unread` }, String(unread)) : null,
        );
      }),
    );
    const shown = [...this.messages.values()]
      .filter((m) => this.conversationOf(m) === this.active)
      .sort((a, b) => a.id - b.id);
    const palette = this.ctx.palette;
    clear(
      this.log,
      shown.length
        ? shown.map((m) => {
            const team = m.team ?? this.playerTeam(m.user_id);
            const at = m.at ? new Date(m.at) : null;
            return h(
              'li.chat-message',
              { dataset: { id: String(m.id), channel: m.channel } },
              at ? h('time', { datetime: m.at }, at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })) : null,
              team ? swatch(palette, team, 12) : null,
              h('strong', m.user),
              ' ',
              h('span.text', m.text),
            );
          })
        : h('li.muted.empty', 'No messages yet.'),
    );
    this.log.scrollTop = this.log.scrollHeight;
    const conv = list.find((c) => c.key === this.active);
    const canPost = this.ctx.me ? (conv.key !== 'public' || this.ctx.canPostPublic) : false;
    this.input.disabled = !canPost;
    this.form.querySelector('button').disabled = !canPost;
    this.input.placeholder = canPost ? `Message (${conv.title})` : 'Log in to chat';
    this.note.textContent = conv.key === 'public'
      ? 'Everyone watching this game can read public chat.'
      : conv.key === 'team'
        ? 'Only your team can read this.'
        : conv.channel.startsWith('team:')
          ? `Only your team and team ${conv.team} can read this.`
          : `Only you and ${conv.title.slice(1)} can read this.`;
  }

  async submit(event) {
    event.preventDefault();
    const text = this.input.value.trim();
    if (!text) return;
    const conv = this.conversations().find((c) => c.key === this.active);
    this.input.disabled = true;
    try {
      const message = await this.send(conv.channel, text);
      this.input.value = '';
      if (message) this.add([message]);
    } catch (err) {
      toast(err.message, 'error');
    } finally {
      this.input.disabled = false;
      this.input.focus();
    }
  }
}
