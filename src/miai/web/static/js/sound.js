// Short sounds made with WebAudio (no sound files): a wooden click for every move and a beep when a clock
// runs low. The "sound" setting mutes them (kept in the account; on this browser for visitors).
import { clear, h, icon } from './dom.js';
import { saveSettings, session, settings } from './session.js';
import { local } from './storage.js';

const VISITOR_KEY = 'miai-sound'; // "off" when a visitor muted the sounds on this browser

let context = null;
let waiting = false; // listeners for the first gesture are in place
let gestured = false; // the person touched the page: audio may start

/** Whether the page had a click or key: before that the browser refuses to start audio, with a console
 * warning for every try (a move arriving on a page just opened), so nothing is tried. */
function activated() {
  return gestured || Boolean(navigator.userActivation && navigator.userActivation.hasBeenActive);
}

function audio() {
  if (!activated()) return null;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  if (!context) context = new Context();
  return context;
}

/**
 * Browsers start audio only after the person touched the page: the first click or key on it readies the
 * audio, so that a beep later in the game can sound.
 */
export function readySoundOnFirstGesture() {
  if (waiting || context) return;
  waiting = true;
  const ready = () => {
    gestured = true;
    try {
      const ctx = audio();
      if (ctx && ctx.state === 'suspended') ctx.resume();
    } catch {
      // no audio on this browser: the game goes on silently
    }
  };
  for (const type of ['pointerdown', 'keydown']) document.addEventListener(type, ready, { once: true, capture: true });
}

let visitorChoice = null; // this page's choice, when site storage is blocked and cannot keep it

export function soundOn() {
  if (!session.user) return visitorChoice ?? local.get(VISITOR_KEY) !== 'off';
  return settings().sound !== false;
}

/** Turn the sounds on or off: saved in the account's settings, or on this browser for visitors. */
export async function setSound(on) {
  if (!session.user) {
    visitorChoice = on;
    if (on) local.remove(VISITOR_KEY);
    else local.set(VISITOR_KEY, 'off');
    return;
  }
  await saveSettings({ sound: on });
}

/**
 * The game page's sound button: says whether sounds are on, and a click switches them (remembered as by
 * setSound). `onError(message)` when the setting could not be saved.
 */
export function soundToggle(onError) {
  const button = h('button.secondary.small#sound-toggle', { type: 'button' });
  const show = () => {
    const on = soundOn();
    clear(button, icon(on ? 'sound' : 'muted'), h('span', on ? 'Sound on' : 'Sound off'));
    button.title = on ? 'Click to mute the move and clock sounds' : 'Click to turn the move and clock sounds on';
    button.dataset.on = String(on);
  };
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      await setSound(!soundOn());
    } catch (err) {
      onError(`The sound setting was not saved: ${err.raw || err.message}`);
    } finally {
      button.disabled = false;
      show();
    }
  });
  show();
  return button;
}

let click = null; // the move sound, made once

/**
 * A stone set down on wood: a short burst of noise (the contact) over a quickly fading low tone (the board),
 * computed into one buffer, so that playing it is a single buffer source.
 */
function clickBuffer(ctx) {
  if (click && click.sampleRate === ctx.sampleRate) return click;
  const rate = ctx.sampleRate;
  const length = Math.floor(rate * 0.09);
  click = ctx.createBuffer(1, length, rate);
  const data = click.getChannelData(0);
  let seed = 7; // the same click every time: a fixed pseudo-random noise
  for (let i = 0; i < length; i++) {
    const t = i / rate;
    seed = (seed * 16807) % 2147483647;
    const noise = (seed / 2147483647) * 2 - 1;
    data[i] = 0.55 * noise * Math.exp(-t / 0.004) + 0.5 * Math.sin(2 * Math.PI * 310 * t) * Math.exp(-t / 0.018);
  }
  return click;
}

/** The move sound; nothing when sounds are off or the browser has no audio. */
export function moveSound() {
  if (!soundOn()) return false;
  try {
    const ctx = audio();
    if (!ctx) return false;
    if (ctx.state === 'suspended') ctx.resume();
    const source = ctx.createBufferSource();
    const gain = ctx.createGain();
    source.buffer = clickBuffer(ctx);
    gain.gain.value = 0.6;
    source.connect(gain);
    gain.connect(ctx.destination);
    source.start();
    return true;
  } catch {
    return false;
  }
}

/** A short beep (the low-time warning); nothing when sounds are off or the browser has no audio. */
export function beep(frequency = 880, seconds = 0.18) {
  if (!soundOn()) return false;
  try {
    const ctx = audio();
    if (!ctx) return false;
    if (ctx.state === 'suspended') ctx.resume();
    const oscillator = ctx.createOscillator();
    const gain = ctx.createGain();
    const start = ctx.currentTime;
    oscillator.type = 'sine';
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.2, start);
    gain.gain.exponentialRampToValueAtTime(0.001, start + seconds);
    oscillator.connect(gain);
    gain.connect(ctx.destination);
    oscillator.start(start);
    oscillator.stop(start + seconds);
    return true;
  } catch {
    return false;
  }
}
