// KÜT's table calls the player: on their turn or when they may claim, the page's title
// and favicon change and the phone vibrates once; with the sound switch on (kept per
// player in localStorage), short WebAudio tunes (no files) for the turn, a claim, a
// hand's end, the last 10 seconds of the player's turn and the winner's fanfare.

export function kutSound(t) {
  const { root, S, T, $ } = t;
  const baseTitle = document.title;
  const favicon = document.querySelector('link[rel="icon"]');
  const soundKey = `kut.sound.${root.dataset.user}`;
  let soundOn = false;
  try {
    soundOn = localStorage.getItem(soundKey) === "1";
  } catch {
    soundOn = false;
  }
  let audio = null;

  function renderSound() {
    const button = $(".kt-sound");
    button.setAttribute("aria-pressed", soundOn ? "true" : "false");
    $(".kt-sound-label").textContent = soundOn ? T.sound_on : T.sound_off;
    button.title = soundOn ? T.sound_on : T.sound_off;
  }

  function toggleSound() {
    soundOn = !soundOn;
    try {
      localStorage.setItem(soundKey, soundOn ? "1" : "0");
    } catch {
      // private mode: the choice lasts for this page only
    }
    renderSound();
    if (soundOn) play("turn");
  }

  function updateAttention() {
    const turn = t.myTurn();
    const claimable = t.can("claim");
    const wanted = turn || claimable;
    const text = turn ? T.your_turn : T.claim_possible;
    document.title = wanted ? `● ${text} · ${baseTitle}` : baseTitle;
    if (favicon) favicon.href = wanted ? root.dataset.faviconTurn : root.dataset.favicon;
    root.classList.toggle("is-my-turn", turn);
    if (wanted && !S.attention) {
      play(turn ? "turn" : "claimable");
      if (navigator.vibrate && navigator.userActivation && navigator.userActivation.hasBeenActive) navigator.vibrate(150);
    }
    S.attention = wanted;
  }

  const SOUNDS = {
    turn: [[660, 0, 0.12], [880, 0.12, 0.18]],
    claimable: [[520, 0, 0.1], [700, 0.1, 0.1]],
    claim: [[392, 0, 0.09], [523, 0.08, 0.09], [784, 0.16, 0.16]],
    hand_end: [[784, 0, 0.14], [659, 0.14, 0.14], [523, 0.28, 0.3]],
    tick: [[1200, 0, 0.04]],
    fanfare: [[523, 0, 0.14], [659, 0.14, 0.14], [784, 0.28, 0.14], [1047, 0.42, 0.5]],
  };

  function play(name) {
    root.dataset.lastSound = name; // what the table would play (the browser tests read it)
    if (!soundOn) return;
    try {
      audio = audio || new AudioContext();
      if (audio.state === "suspended") audio.resume();
      const t0 = audio.currentTime;
      for (const [freq, at, length] of SOUNDS[name] || []) {
        const osc = audio.createOscillator();
        const gain = audio.createGain();
        osc.type = name === "tick" ? "square" : "triangle";
        osc.frequency.setValueAtTime(freq, t0 + at);
        gain.gain.setValueAtTime(0.0001, t0 + at);
        gain.gain.exponentialRampToValueAtTime(name === "tick" ? 0.06 : 0.18, t0 + at + 0.015);
        gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + length);
        osc.connect(gain).connect(audio.destination);
        osc.start(t0 + at);
        osc.stop(t0 + at + length + 0.02);
      }
    } catch {
      // no audio here: the title, the favicon and the screen still tell
    }
  }

  // The last 10 seconds of my own turn: a tick a second (./clock.js calls it).
  let lastTickSecond = null;

  function tickSound(active, left) {
    const mine = active.closest(".kt-seat-me") !== null;
    const second = Math.ceil(left / 1000);
    if (!mine || left <= 0 || second > 10) {
      lastTickSecond = null;
      return;
    }
    if (second !== lastTickSecond) {
      lastTickSecond = second;
      play("tick");
    }
  }

  // A new frame of the same hand (`before`: the frame it follows): a claim (K-C3: a seat
  // other than the one to play got the thrown tile and a penalty tile), the hand's end.
  function frameSounds(before) {
    const h = S.hand;
    const m = S.match;
    if (!before.hand || !h || !m || !before.match || before.match.hand_no !== m.hand_no) return;
    for (let s = 0; s < 4; s++) {
      const was = before.hand.seats[s].count;
      if (s !== h.turn && s !== before.hand.turn && h.seats[s].count === was + 2) play("claim");
    }
    if (!before.hand.over && h.over) play("hand_end");
  }

  return { renderSound, toggleSound, updateAttention, play, tickSound, frameSounds };
}
