// The "Area" view: the server's live territory estimate (GET /games/{id}/area) turned into owners, shading,
// stones judged dead, and an estimated score under the game's rules.

// Two colours: the estimate is Black's share of playouts minus White's. A point counts for a side when that
// side gets it in at least 65% of the playouts (a margin of 0.3); shading deepens as it gets surer.
const TWO_COLOUR_MARGIN = 0.3;
// More colours: the most frequent owner's share must reach one half.
const MULTI_COLOUR_SHARE = 0.5;

/** Per point: [owner team (0 nobody), certainty 0..1], from the raw numbers the server sends. */
export function decodeOwnership(ownership, teams) {
  return ownership.map((v) => {
    if (teams === 2) {
      const sure = Math.min(1, Math.abs(v));
      return [sure >= TWO_COLOUR_MARGIN ? (v > 0 ? 1 : 2) : 0, sure];
    }
    if (v < 0) return [0, 0];
    const colour = Math.floor(v);
    const share = Math.min(1, 2 * (v - colour));
    return [share >= MULTI_COLOUR_SHARE ? colour + 1 : 0, share];
  });
}

/**
 * What the board shows and the score it implies, counted like the server counts a finished game (core
 * scoring.score) with the estimate's owners and dead stones; a handicap bonus (Chinese, AGA) is left out.
 * `board`: team per point; `rules`: the snapshot's rules; `position`: the snapshot's position.
 * Returns {owner, shade, dead (Set of points), scores: [{team, stones, territory, komi, total}], leader, margin}.
 */
export function areaSummary(ownership, board, teams, rules, position) {
  const decoded = decodeOwnership(ownership, teams);
  const owner = decoded.map(([team]) => team);
  const dead = new Set();
  board.forEach((team, p) => {
    if (team && owner[p] && owner[p] !== team) dead.add(p);
  });
  const shade = decoded.map(([team, sure]) => (team ? { team, strength: sure } : null));
  const stones = new Array(teams).fill(0);
  const territory = new Array(teams).fill(0);
  const deadCount = new Array(teams).fill(0);
  board.forEach((team, p) => {
    if (team && dead.has(p)) deadCount[team - 1] += 1;
    else if (team) stones[team - 1] += 1;
    if (owner[p] && (!team || dead.has(p))) territory[owner[p] - 1] += 1;
  });
  const r = rules || {};
  const pos = position || {};
  const scores = stones.map((_, i) => {
    const captures = r.capture_points ? (pos.captures || [])[i] || 0 : 0;
    const komi = (r.komi || [])[i] || 0;
    const total = r.scoring === 'territory'
      ? territory[i] - ((pos.prisoners || [])[i] || 0) - deadCount[i] + captures + komi
      : stones[i] + territory[i] + captures + komi;
    return { team: i + 1, stones: stones[i], territory: territory[i], komi, total };
  });
  const ranked = [...scores].sort((a, b) => b.total - a.total);
  const margin = ranked.length > 1 ? ranked[0].total - ranked[1].total : 0;
  return { owner, shade, dead, scores, leader: margin > 0 ? ranked[0].team : null, margin };
}
