"""A rating graph is as wide as its points need (static/js/ratinggraph.js): one rated game made a single
dot in the middle of an empty 750-pixel frame; many games still get the whole width."""

from __future__ import annotations

from playwright.sync_api import Browser

WIDTHS = """
async (counts) => {
  const { ratingGraph } = await import('/static/js/ratinggraph.js');
  return counts.map((n) => {
    const history = Array.from({ length: n }, (_, i) => ({
      game_id: i + 1, at: '2026-11-28T12:00:00+00:00', rating: 1500 + 10 * i, deviation: 200, change: 10,
    }));
    const figure = ratingGraph(history, 'Go 9×9');
    document.body.append(figure);
    const width = figure.querySelector('svg').getBoundingClientRect().width;
    const dots = figure.querySelectorAll('.point').length;
    figure.remove();
    return [width, dots];
  });
}
"""


def test_a_graph_is_as_wide_as_its_games_need(browser: Browser, server: str) -> None:
    context = browser.new_context(base_url=server, viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto("/api/v1/health")
        (one, one_dots), (two, _), (many, many_dots) = page.evaluate(WIDTHS, [1, 2, 20])
    finally:
        context.close()
    assert (one_dots, many_dots) == (1, 20)
    assert one <= 200, f"one game's graph is {one:.0f} px wide"
    assert one < two < many
    assert many >= 700  # twenty games: the whole width (760 px at most)
