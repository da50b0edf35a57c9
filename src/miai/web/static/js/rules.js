// Client-side Go legality for hover hints: occupied, suicide, ko and superko. The server has the final word.

export function neighbours(p, size) {
  const out = [];
  const col = p % size;
  if (col > 0) out.push(p - 1);
  if (col < size - 1) out.push(p + 1);
  if (p >= size) out.push(p - size);
  if (p < size * (size - 1)) out.push(p + size);
  return out;
}

/** The chain through `p` and whether it has a liberty. */
export function chainAt(board, size, p) {
  const colour = board[p];
  const stones = [p];
  const seen = new Set(stones);
  let liberties = 0;
  for (let i = 0; i < stones.length; i++) {
    for (const q of neighbours(stones[i], size)) {
      if (seen.has(q)) continue;
      if (board[q] === 0) {
        seen.add(q);
        liberties += 1;
      } else if (board[q] === colour) {
        seen.add(q);
        stones.push(q);
      }
    }
  }
  return { stones, liberties };
}

export function boardKey(board) {
  return board.join('');
}

export const REASONS = {
  occupied: 'that point is already occupied',
  suicide: 'the stone would have no liberties (suicide)',
  ko: 'the play would retake the ko at once (ko rule)',
  superko: 'the play would repeat an earlier whole-board position (superko)',
};

// Moves that make no new situation: a resignation or timeout inside a team, whose next player moves on
// (SPEC G7), and an agreed draw, which ends the game.
const NO_SITUATION = new Set(['resign', 'timeout', 'draw']);

/**
 * What playing `team` at `p` would do. `rules`: {suicide: 'forbidden'|'allowed', ko: 'simple'|'positional'|
 * 'situational'}. `history`: the positions of the game [{board, mover, move}] oldest first, the current one
 * last (`move`: the record's text of the move that made it; none for the start).
 * Every chain of any other colour left without liberties is removed at once (SPEC G1). Like the server, the
 * superko history holds the start and every later position (SPEC G3): positional superko compares boards;
 * situational superko compares (board, mover), the mover fixing the colour to move next in its two-colour
 * games, and a pass counts too, since the same stones with the other colour to move are a new situation.
 */
export function analyzePlay(board, size, p, team, rules = {}, history = []) {
  if (board[p] !== 0) return { legal: false, reason: 'occupied' };
  const next = board.slice();
  next[p] = team;
  const captured = [];
  const done = new Set();
  for (const q of neighbours(p, size)) {
    if (next[q] === 0 || next[q] === team || done.has(q)) continue;
    const chain = chainAt(next, size, q);
    chain.stones.forEach((s) => done.add(s));
    if (chain.liberties === 0) captured.push(...chain.stones);
  }
  for (const s of captured) next[s] = 0;
  if (!captured.length) {
    const own = chainAt(next, size, p);
    if (own.liberties === 0) {
      if (rules.suicide !== 'allowed' || own.stones.length === 1) return { legal: false, reason: 'suicide' };
      for (const s of own.stones) next[s] = 0;
    }
  }
  const key = boardKey(next);
  const ko = rules.ko || 'simple';
  if (ko === 'simple') {
    const before = history.length >= 2 ? history[history.length - 2] : null;
    if (captured.length && before && boardKey(before.board) === key) return { legal: false, reason: 'ko' };
  } else {
    for (const h of history) {
      if (boardKey(h.board) !== key) continue;
      if (ko === 'positional' || (h.mover === team && !NO_SITUATION.has(h.move))) {
        return { legal: false, reason: 'superko' };
      }
    }
  }
  return { legal: true, reason: null, captured, board: next };
}
