// mafiagames client glue: reconnects, press-and-hold role card, narration speech, screens that stay on.
// Everything else is server-rendered and swapped in by htmx (fragments by id over the websocket).
(function () {
  "use strict";

  // Phones wake from sleep: retry quickly (at most 4 s apart) instead of htmx's default of up to 64 s.
  // A handshake the server refuses (a player opening far more sockets than a phone does:
  // limits.OPENS) fails like a lost network (1006), so it is retried at this pace until let in.
  htmx.config.wsReconnectDelay = function (retryCount) {
    return Math.min(500 * Math.pow(2, retryCount), 4000) * (0.5 + Math.random() / 2);
  };

  var socket = null;
  var open = false;
  document.addEventListener("htmx:wsOpen", function (e) {
    socket = e.detail.socketWrapper;
    open = true;
    document.body.classList.remove("ws-down");
    // A tap sent as the socket dropped may never be answered: after a (re)connect the phone
    // may tap again (the server refuses a second vote with a message, so nothing counts twice).
    enableTaps();
  });
  document.addEventListener("htmx:wsClose", function (e) {
    open = false;
    document.body.classList.add("ws-down");
    var code = e.detail.event.code;
    // htmx-ext-ws 2 only reconnects on 1006/1011-1013; a server-side timeout closes with 1000
    // and a restart may say 1001 or 1012. Reconnect on those too, but never on our 44xx refusals.
    if ((code === 1000 || code === 1001) && !document.hidden) {
      setTimeout(function () { e.detail.socketWrapper.reconnect(); }, 1000);
    }
  });
  // A tap goes over the websocket (ws-send). Until the answer comes, its buttons stay disabled
  // so a double tap does not send twice; a refusal (#flash with a message) enables them again.
  document.addEventListener("htmx:wsAfterSend", function (e) {
    var form = e.target;
    if (form && form.querySelectorAll) {
      form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    }
  });
  function enableTaps() {
    document.querySelectorAll("form[ws-send] button").forEach(function (b) { b.disabled = false; });
  }

  // Pings can be dropped (channel layers deliver at most once): ask for a resync now and then.
  setInterval(function () {
    if (socket && open && !document.hidden) { socket.send(JSON.stringify({ sync: true })); }
  }, 30000);
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && socket && !open) {
      socket.reconnect();
    }
    if (!document.hidden) { keepAwake(); }
  });

  // Screens must not sleep mid-game: phones, and the TV laptop too. The Wake Lock API exists only
  // in secure contexts (https, localhost), so a phone on http://<LAN address> has no
  // navigator.wakeLock. There (or when the lock is refused) a tiny muted video of a canvas this
  // page paints itself plays instead: Chromium holds a screen wake lock while a visible video
  // plays, and exempts a MediaStream video from its minimum size (blink's VideoWakeLock).
  // A muted video cannot keep an iPhone awake (WebKit wants one that plays sound): see
  // docs/operations.md, "Screens that stay on".
  var wakeVideo = null;
  function awakeScreen() {
    return document.body.classList.contains("phone") || document.body.classList.contains("tv");
  }
  function keepAwake() {
    if (!awakeScreen() || document.hidden) { return; }
    if (navigator.wakeLock) {
      navigator.wakeLock.request("screen").catch(playWakeVideo);
    } else if (wakeVideo) {
      playWakeVideo();   // it pauses while the page is hidden; a muted video may play without a tap
    }
  }
  function playWakeVideo() {
    wakeVideo = wakeVideo || makeWakeVideo();
    if (wakeVideo && wakeVideo.paused && !document.hidden) { wakeVideo.play().catch(function () {}); }
  }
  function makeWakeVideo() {
    var canvas = document.createElement("canvas");
    if (!canvas.captureStream) { return null; }
    canvas.width = canvas.height = 2;
    var paint = canvas.getContext("2d");
    var frame = 0;
    function repaint() {
      paint.fillStyle = frame++ % 2 ? "#000" : "#111";
      paint.fillRect(0, 0, 2, 2);
    }
    repaint();
    var video = document.createElement("video");
    video.className = "wake-video";
    video.muted = true;
    video.setAttribute("muted", "");
    video.setAttribute("playsinline", "");
    video.setAttribute("aria-hidden", "true");
    video.srcObject = canvas.captureStream();
    document.body.appendChild(video);
    // A canvas stream carries a frame only when the canvas changes: without one now and then the
    // video stands still.
    setInterval(function () { if (!video.paused) { repaint(); } }, 1000);
    return video;
  }
  document.addEventListener("DOMContentLoaded", keepAwake);
  // Browsers play a video only after the first tap on the page (autoplay policies).
  ["click", "keydown"].forEach(function (type) {
    document.addEventListener(type, function () {
      if (!navigator.wakeLock && awakeScreen()) { playWakeVideo(); }
    }, true);
  });

  // Press and hold to peek at the secret role; it hides again when released or left.
  document.addEventListener("pointerdown", function (e) {
    var card = e.target.closest && e.target.closest("[data-hold]");
    if (!card) { return; }
    e.preventDefault();
    card.classList.add("peek");
  });
  function hideAll() {
    document.querySelectorAll("[data-hold].peek").forEach(function (card) { card.classList.remove("peek"); });
  }
  ["pointerup", "pointercancel", "blur"].forEach(function (t) { window.addEventListener(t, hideAll, true); });
  document.addEventListener("pointerleave", function (e) {
    // Leave events also fire for the card's own children when the cover swaps for the secret.
    if (e.target.matches && e.target.matches("[data-hold]")) { e.target.classList.remove("peek"); }
  }, true);
  document.addEventListener("visibilitychange", hideAll);
  document.addEventListener("contextmenu", function (e) {
    if (e.target.closest && e.target.closest("[data-hold]")) { e.preventDefault(); }
  });
  document.addEventListener("keydown", function (e) {
    var card = e.target.closest && e.target.closest("[data-hold]");
    if (card && (e.key === " " || e.key === "Enter")) { e.preventDefault(); card.classList.add("peek"); }
  });
  document.addEventListener("keyup", function (e) {
    var card = e.target.closest && e.target.closest("[data-hold]");
    if (card) { card.classList.remove("peek"); }
  });

  // TV narration: read each new narration aloud when the host has switched sound on.
  var soundKey = "mafiagames.sound";
  function soundOn() { return localStorage.getItem(soundKey) === "on"; }
  function showSound() {
    var button = document.querySelector("[data-sound-toggle]");
    if (!button) { return; }
    var label = document.querySelector(soundOn() ? "[data-sound-on-label]" : "[data-sound-off-label]");
    button.textContent = label ? label.textContent : "";
    button.setAttribute("aria-pressed", soundOn() ? "true" : "false");
  }
  // A narration that grows (a Mrakošlapi day adds its lines to the morning's) is read from
  // where the last reading stopped: only the lines that are new.
  function speak(element) {
    if (!element || !soundOn() || !window.speechSynthesis) { return; }
    var key = element.getAttribute("data-speak-key");
    if (key === sessionStorage.getItem("mafiagames.spoken")) { return; }
    sessionStorage.setItem("mafiagames.spoken", key);
    var lines = Array.prototype.map.call(element.querySelectorAll(".line"), function (line) {
      return line.textContent.trim().replace(/\s+/g, " ");
    });
    var text = lines.join(" ");
    // A moment's line (engines/moments.py: its key ends in ":moment<n>") is said without touching
    // what the narration has read: after it, a growing narration goes on where it stopped.
    if (!/:moment\d+$/.test(key)) {
      var before = JSON.parse(sessionStorage.getItem("mafiagames.spokenLines") || "[]");
      sessionStorage.setItem("mafiagames.spokenLines", JSON.stringify(lines));
      var continues = before.length > 0 && before.length <= lines.length &&
        before.every(function (line, i) { return line === lines[i]; });
      text = (continues ? lines.slice(before.length) : lines).join(" ");
    }
    if (!text) { return; }
    window.speechSynthesis.cancel();
    var utterance = new SpeechSynthesisUtterance(text);
    utterance.lang = roomLanguage();
    var voice = roomVoice();
    if (voice) { try { utterance.voice = voice; } catch (err) { /* the browser picks by lang */ } }
    window.speechSynthesis.speak(utterance);
  }
  // The TV speaks with a voice of the room's language (issue 17); a browser without one says so
  // next to the Sound switch rather than reading Polish with an English voice.  Voices arrive
  // late in some browsers ("voiceschanged"), so the note is decided again then.
  function roomLanguage() {
    var layout = document.querySelector("[data-lang]");
    return layout ? layout.getAttribute("data-lang") : "en";
  }
  function roomVoice() {
    if (!window.speechSynthesis) { return null; }
    var language = roomLanguage();
    var voices = window.speechSynthesis.getVoices() || [];
    for (var i = 0; i < voices.length; i++) {
      if ((voices[i].lang || "").toLowerCase().split(/[-_]/)[0] === language) { return voices[i]; }
    }
    return null;
  }
  function showVoice() {
    var note = document.querySelector("[data-no-voice]");
    if (!note) { return; }
    var voice = roomVoice();
    note.hidden = !!voice;
    document.body.setAttribute("data-voice", voice ? voice.lang : "");   // what the TV found (tests read it)
  }
  document.addEventListener("DOMContentLoaded", showVoice);
  if (window.speechSynthesis && window.speechSynthesis.addEventListener) {
    window.speechSynthesis.addEventListener("voiceschanged", showVoice);
  }
  // Moments (engines/moments.py): a result takes the stage on the TV with a short cue, made here
  // (Web Audio oscillators: no sound files), only while Sound is on, and once per moment (its
  // key, game and moment number, like the narration's): a reload or a reconnect does not replay
  // it.  Each cue is a few notes: [frequency in Hz, start and length in seconds, wave].
  var CUES = {
    vote: [[392, 0, 0.14, "triangle"], [523, 0.16, 0.14, "triangle"], [659, 0.32, 0.3, "triangle"]],
    cards: [[880, 0, 0.06, "square"], [880, 0.18, 0.06, "square"], [880, 0.36, 0.06, "square"], [660, 0.54, 0.3, "triangle"]],
    coin: [[1320, 0, 0.08, "sine"], [1760, 0.1, 0.08, "sine"], [1320, 0.2, 0.08, "sine"], [1760, 0.3, 0.4, "sine"]],
    die: [[300, 0, 0.04, "square"], [360, 0.07, 0.04, "square"], [280, 0.15, 0.04, "square"], [520, 0.26, 0.2, "triangle"]],
    death: [[220, 0, 0.5, "sawtooth"], [165, 0.45, 0.9, "sawtooth"]],
    verdict: [[196, 0, 0.25, "square"], [196, 0.3, 0.25, "square"], [147, 0.6, 0.7, "triangle"]]
  };
  var audio = null;
  function audioContext() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!audio && Context) { audio = new Context(); }
    if (audio && audio.state === "suspended") { audio.resume(); }
    return audio;
  }
  function cue(element) {
    if (!element || !soundOn() || !document.body.classList.contains("tv")) { return; }
    var key = element.getAttribute("data-cue-key");
    if (key === sessionStorage.getItem("mafiagames.cued")) { return; }
    sessionStorage.setItem("mafiagames.cued", key);
    document.body.setAttribute("data-cued", key + ":" + element.getAttribute("data-cue"));   // what played (tests read it)
    var notes = CUES[element.getAttribute("data-cue")], context = audioContext();
    if (!notes || !context) { return; }
    var at = context.currentTime + 0.03;
    notes.forEach(function (note) {
      var tone = context.createOscillator(), volume = context.createGain();
      tone.type = note[3];
      tone.frequency.value = note[0];
      volume.gain.setValueAtTime(0.0001, at + note[1]);
      volume.gain.exponentialRampToValueAtTime(0.18, at + note[1] + 0.02);
      volume.gain.exponentialRampToValueAtTime(0.0001, at + note[1] + note[2]);
      tone.connect(volume);
      volume.connect(context.destination);
      tone.start(at + note[1]);
      tone.stop(at + note[1] + note[2] + 0.05);
    });
  }
  document.addEventListener("DOMContentLoaded", function () { cue(document.querySelector("#tv-main [data-cue-key]")); });
  document.addEventListener("click", function (e) {
    if (e.target.closest && e.target.closest("[data-sound-toggle]")) {
      localStorage.setItem(soundKey, soundOn() ? "off" : "on");
      showSound();
      if (soundOn()) {
        audioContext();   // a page may start its audio only from a click: this one
        sessionStorage.removeItem("mafiagames.spoken");
        sessionStorage.removeItem("mafiagames.spokenLines");
        speak(document.getElementById("tv-narration"));
      }
      else if (window.speechSynthesis) { window.speechSynthesis.cancel(); }
    }
  });
  document.addEventListener("htmx:oobAfterSwap", function (e) {
    var id = e.target && e.target.id;
    if (id === "tv-narration") { speak(document.getElementById("tv-narration")); }
    if (id === "tv-main") { cue(e.target.querySelector("[data-cue-key]")); }
    // Any answer to a tap (a refusal, or the empty "applied" ack) frees the buttons again: a tap
    // that changes nothing on this screen (the same pick twice) brings no new panel to do it.
    if (id === "flash") { enableTaps(); }
    // A new screen answers the last tap: an old error message no longer applies.
    if (id === "ph-panel" || id === "ph-host" || id === "tv-host" || id === "tv-settings" || id === "tv-main") {
      var flash = document.getElementById("flash");
      if (flash) { flash.textContent = ""; flash.removeAttribute("role"); }
    }
  });
  document.addEventListener("DOMContentLoaded", showSound);

  // A fold the player opened stays open when the server sends a new screen (the phone's day
  // cards: the screen changes with every hand raised).
  document.addEventListener("toggle", function (e) {
    var key = e.target.getAttribute && e.target.getAttribute("data-keep-open");
    if (key) { sessionStorage.setItem("mafiagames.open." + key, e.target.open ? "1" : ""); }
  }, true);
  function reopen() {
    document.querySelectorAll("[data-keep-open]").forEach(function (fold) {
      if (sessionStorage.getItem("mafiagames.open." + fold.getAttribute("data-keep-open"))) { fold.open = true; }
    });
  }
  document.addEventListener("htmx:oobAfterSwap", reopen);
  document.addEventListener("DOMContentLoaded", reopen);

  // A Mrakošlapi night in equal steps (presenters/mrakoslapi.py night_steps): one step shown at a
  // time, and the step a player is on stays shown when the server sends a new screen. A Mág's
  // tunnel takes two taps: where it starts, then where it leads (one form per name, as for
  // every other card, so the step looks like every other phone's).
  var night = { number: null, step: 1, from: {} };
  function showNightStep() {
    var box = document.querySelector("[data-steps]");
    if (!box) { return; }
    if (box.getAttribute("data-steps") !== night.number) {
      night = { number: box.getAttribute("data-steps"), step: 1, from: {} };
    }
    var steps = box.querySelectorAll("[data-night-step]");
    night.step = Math.max(1, Math.min(night.step, steps.length));
    steps.forEach(function (step, i) { step.hidden = i !== night.step - 1; });
    var count = document.querySelector("[data-step-count]");
    var label = document.querySelector("[data-step-label]");
    if (count && label) {
      count.textContent = label.getAttribute("data-step-label")
        .replace("{n}", night.step).replace("{of}", steps.length);
    }
    box.querySelectorAll("[data-pair]").forEach(function (prompt) {
      var from = night.from[prompt.getAttribute("data-prompt")];
      if (from !== undefined) { markTunnelStart(prompt, from); }
    });
  }
  function markTunnelStart(prompt, seat) {
    prompt.querySelectorAll("form.target-choice").forEach(function (form) {
      var to = form.querySelector("input[name=to]");
      form.querySelector("button").setAttribute("aria-pressed", String(!!to && to.value === seat));
    });
    prompt.querySelector(".ask").textContent = prompt.getAttribute("data-then");
  }
  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("[data-step-prev],[data-step-next]");
    if (!button) { return; }
    night.step += button.hasAttribute("data-step-next") ? 1 : -1;
    showNightStep();
  });
  document.addEventListener("htmx:wsConfigSend", function (e) {
    var prompt = e.target.closest && e.target.closest("[data-pair]");
    var to = e.detail.parameters.to;
    if (!prompt || to === undefined) { return; }
    var key = prompt.getAttribute("data-prompt");
    if (night.from[key] === undefined) {      // the first tap: where the tunnel starts
      night.from[key] = String(to);
      e.preventDefault();
      if (e.detail.triggeringEvent) { e.detail.triggeringEvent.preventDefault(); }
      markTunnelStart(prompt, night.from[key]);
      return;
    }
    e.detail.parameters.from = night.from[key];
    delete night.from[key];
  });
  document.addEventListener("htmx:oobAfterSwap", showNightStep);
  document.addEventListener("DOMContentLoaded", showNightStep);

  // Countdowns to the game master's next timed move: [data-deadline] holds the server's due time
  // (ms since the epoch); the server makes the move, this only shows the seconds left.
  // The TV's bar ([data-started]: when that clock started) shows the share of its time left.
  function tick() {
    document.querySelectorAll("[data-started]").forEach(function (el) {
      var end = Number(el.getAttribute("data-deadline")), start = Number(el.getAttribute("data-started"));
      var share = end > start ? Math.min(1, Math.max(0, (end - Date.now()) / (end - start))) : 0;
      el.style.setProperty("--left", share.toFixed(3));   // CSSOM, allowed by the CSP (no inline style)
    });
    document.querySelectorAll(".countdown[data-deadline]").forEach(function (el) {
      var left = Math.max(0, Math.ceil((Number(el.getAttribute("data-deadline")) - Date.now()) / 1000));
      var text = left >= 60 ? Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0") : String(left);
      if (el.textContent !== text) { el.textContent = text; }
    });
  }
  setInterval(tick, 500);
  document.addEventListener("htmx:oobAfterSwap", tick);
  document.addEventListener("DOMContentLoaded", tick);
})();
