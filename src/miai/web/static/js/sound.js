// Short sounds made with WebAudio (no sound files), silenced by the "sound" setting.
import { settings } from './session.js';

let context = null;
let waiting = false; // listeners for the first gesture are in place

function audio() {
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
    try {
      const ctx = audio();
      if (ctx && ctx.state === 'suspended') ctx.resume();
    } catch {
      // no audio on this browser: the game goes on silently
    }
  };
  for (const type of ['pointerdown', 'keydown']) document.addEventListener(type, ready, { once: true, capture: true });
}

export function soundOn() {
  return settings().sound !== false;
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
