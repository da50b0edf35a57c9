// The game page fits the window (app.css sizes the board from CSS variables kept here) and can go full screen.

/**
 * Keep `--above` on `el`: the height of what sits above <main> (the top bar, the banner when shown), so that
 * CSS can give the board the window's height less that. Returns a function that stops watching.
 */
export function watchAbove(el) {
  const main = document.getElementById('main');
  const update = () => el.style.setProperty('--above', `${Math.round(main.offsetTop)}px`);
  const observer = new ResizeObserver(update);
  for (const part of [document.querySelector('.topbar'), document.getElementById('banner')]) {
    if (part) observer.observe(part);
  }
  update();
  return () => observer.disconnect();
}

/** Keep `--board-ratio` (width / height of the drawn board, from its viewBox) on `el`: Hex boards are wide. */
export function setBoardRatio(el, svg) {
  const box = svg && svg.viewBox && svg.viewBox.baseVal;
  if (!box || !box.width || !box.height) return;
  const ratio = (box.width / box.height).toFixed(4);
  if (el.style.getPropertyValue('--board-ratio') !== ratio) el.style.setProperty('--board-ratio', ratio);
}

/**
 * A button that shows `target` full screen (the Fullscreen API; Esc or the button again leaves). Hidden where
 * the browser offers no full screen for elements (iPhone Safari). `stop()` leaves full screen and unhooks.
 */
export class FullscreenButton {
  constructor(target, button, onError) {
    this.target = target;
    this.button = button;
    this.button.hidden = !document.fullscreenEnabled;
    this.button.addEventListener('click', () => this.toggle());
    this.changed = () => this.show();
    document.addEventListener('fullscreenchange', this.changed);
    this.onError = onError;
    this.show();
  }

  get on() {
    return document.fullscreenElement === this.target;
  }

  toggle() {
    if (this.on) document.exitFullscreen().catch(() => {});
    else this.target.requestFullscreen().catch((err) => this.onError(`Full screen is not available: ${err.message}`));
  }

  show() {
    const label = this.on ? 'Leave full screen' : 'Full screen';
    this.button.setAttribute('aria-pressed', String(this.on));
    this.button.title = this.on ? 'Leave full screen (Esc)' : 'Full screen';
    this.button.lastChild.textContent = label;
  }

  stop() {
    document.removeEventListener('fullscreenchange', this.changed);
    if (this.on) document.exitFullscreen().catch(() => {});
  }
}
