"""The end of a GTP game: `final_score` text and the stone lists of `final_status_list`, from the
dead-stone estimator's verdict (or none: every stone alive)."""

from __future__ import annotations

from miai.core.go import GoState
from miai.core.go.scoring import score
from miai.formats.gtp.go_players import Judgement
from miai.formats.gtp.go_session import BLACK, WHITE, gtp_order

__all__ = ["STATUSES", "final_score_text", "seki_eyes", "status_chains"]

STATUSES = ("alive", "dead", "seki")


def final_score_text(state: GoState, judgement: Judgement) -> str:
    """`B+3.5`, `W+12.0` or `0`, as GNU Go writes it, under the state's own scoring rules."""
    neutral = set() if state.rules.seki_territory else seki_eyes(state, judgement.seki)
    scores = score(state, judgement.dead, neutral)
    margin = scores[BLACK].total - scores[WHITE].total
    if margin == 0:
        return "0"
    return f"{'B' if margin > 0 else 'W'}+{abs(margin):.1f}"


def status_chains(state: GoState, judgement: Judgement, status: str) -> list[list[int]]:
    """The chains with `status` (alive, dead or seki), each in GTP order, the top chain first."""
    stones = set(state.stones())
    wanted = {
        "dead": stones & judgement.dead,
        "seki": stones & judgement.seki - judgement.dead,
        "alive": stones - judgement.dead - judgement.seki,
    }[status]
    size = state.size
    out: list[list[int]] = []
    for p in gtp_order(wanted, size):
        if p in wanted:
            chain = [q for q in state.chain_points(p) if q in wanted]
            wanted.difference_update(chain)
            out.append(gtp_order(chain, size))
    return out


def seki_eyes(state: GoState, seki: frozenset[int]) -> set[int]:
    """Empty points whose empty region touches a stone in seki: no territory under territory scoring."""
    if not seki:
        return set()
    neighbours = state.geo.neighbours
    out: set[int] = set()
    seen: set[int] = set()
    for start in state.geo.points:
        if start in seen or state.colour_at(start) is not None:
            continue
        region, touches, stack = [], False, [start]
        seen.add(start)
        while stack:
            p = stack.pop()
            region.append(p)
            for n in neighbours[p]:
                if state.colour_at(n) is None:
                    if n not in seen:
                        seen.add(n)
                        stack.append(n)
                elif n in seki:
                    touches = True
        if touches:
            out.update(region)
    return out
