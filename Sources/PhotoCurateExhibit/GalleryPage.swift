/// The gallery page: one file, no network, opens from `file://` (its data comes
/// from `data.js`). Served by `exhibit serve`, it also shows the curator's question box.
///
/// Views: the grid (thumbnails, Tour, Magazine), the viewer (full-bleed, arrows,
/// swipe, keys, a title overlay at 70 % black, an info button, a response
/// overlay), the tour (narration, audio when there is some, a pause, then the
/// next work; pause, play, stop) and the magazine (editorial covers → an
/// editorial's grid → the viewer). `window.__tourLog` records each tour event
/// with its time, for the browser tests; `?reading=S` and `?pause=S` shorten the
/// tour there.
enum GalleryPage {
    static let html = #"""
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Exhibit</title>
<style>
  :root { --bg: #111; --fg: #eee; --dim: #999; --accent: #e0b050; }
  * { box-sizing: border-box; }
  body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.45 "DejaVu Sans", system-ui, sans-serif; }
  header { display: flex; align-items: center; gap: 12px; padding: 16px 20px; flex-wrap: wrap; }
  header h1 { font-size: 20px; font-weight: 600; margin: 0 auto 0 0; }
  header .mission { flex-basis: 100%; color: var(--dim); margin: 0; font-size: 14px; }
  button { background: #2a2a2a; color: var(--fg); border: 1px solid #444; border-radius: 6px; padding: 8px 14px; font: inherit; cursor: pointer; }
  button:hover { border-color: var(--accent); }
  button[aria-pressed="true"] { background: var(--accent); color: #111; }
  .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 10px; padding: 0 20px 24px; }
  .tile { position: relative; aspect-ratio: 4 / 3; background: #000; border: 0; padding: 0; overflow: hidden; border-radius: 4px; }
  .tile img { width: 100%; height: 100%; object-fit: cover; display: block; }
  .tile .caption { position: absolute; left: 0; right: 0; bottom: 0; padding: 6px 8px; background: rgba(0,0,0,0.7); font-size: 13px; text-align: left; }
  .editorial-head { padding: 0 20px 12px; }
  .editorial-head h2 { margin: 0 0 4px; font-size: 18px; }
  .editorial-head p { margin: 0; color: var(--dim); font-size: 14px; }
  #viewer { position: fixed; inset: 0; background: #000; display: none; touch-action: pan-y; }
  #viewer.open { display: block; }
  #viewer img { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: contain; }
  #title-overlay { position: absolute; left: 0; right: 0; bottom: 0; padding: 14px 70px 18px 20px; background: rgba(0,0,0,0.7); }
  #title-overlay h2 { margin: 0; font-size: 20px; }
  #title-overlay p { margin: 2px 0 0; color: #ccc; font-size: 14px; }
  .nav { position: absolute; top: 50%; transform: translateY(-50%); font-size: 28px; padding: 10px 16px; background: rgba(0,0,0,0.5); }
  #prev { left: 12px; } #next { right: 12px; }
  #close { position: absolute; top: 12px; right: 12px; }
  #info { position: absolute; right: 16px; bottom: 18px; border-radius: 50%; width: 40px; height: 40px; padding: 0; }
  #tour-controls { position: absolute; top: 12px; left: 12px; display: none; gap: 8px; }
  #viewer.touring #tour-controls { display: flex; }
  #response { position: absolute; left: 50%; transform: translateX(-50%); bottom: 110px; width: min(720px, 92vw);
              background: rgba(0,0,0,0.8); border: 1px solid #555; border-radius: 8px; padding: 14px 18px; display: none; }
  #response.show { display: block; }
  #response .who { color: var(--accent); font-size: 12px; text-transform: uppercase; letter-spacing: 0.06em; }
  #ask { position: absolute; left: 50%; transform: translateX(-50%); top: 12px; display: none; gap: 6px; width: min(560px, 70vw); }
  body.served #viewer #ask { display: flex; }
  #ask input { flex: 1; background: #1c1c1c; color: var(--fg); border: 1px solid #555; border-radius: 6px; padding: 8px 10px; font: inherit; }
  #empty { padding: 20px; color: var(--dim); }
</style>
</head>
<body>
<header>
  <h1 id="exhibit-title">Exhibit</h1>
  <button id="tour-button" type="button">▶ Tour</button>
  <button id="grid-button" type="button" aria-pressed="true">Works</button>
  <button id="magazine-button" type="button" aria-pressed="false">Magazine</button>
  <p class="mission" id="mission"></p>
</header>
<div id="editorial-head" class="editorial-head" hidden><h2></h2><p></p><button id="back-to-covers" type="button">← All editorials</button></div>
<main id="grid" class="grid" aria-label="works"></main>
<div id="empty" hidden>This exhibit has no works.</div>
<section id="viewer" aria-label="viewer" aria-modal="true">
  <img id="viewer-image" alt="">
  <div id="tour-controls"><button id="tour-pause" type="button">❚❚ Pause</button><button id="tour-play" type="button">▶ Play</button><button id="tour-stop" type="button">■ Stop</button></div>
  <form id="ask"><input id="question" placeholder="Ask the curator about this exhibit" autocomplete="off"><button type="submit">Ask</button></form>
  <button id="close" type="button" aria-label="close">✕</button>
  <button id="prev" class="nav" type="button" aria-label="previous">‹</button>
  <button id="next" class="nav" type="button" aria-label="next">›</button>
  <div id="response" role="status"><div class="who"></div><div class="text"></div></div>
  <div id="title-overlay"><h2></h2><p></p></div>
  <button id="info" type="button" aria-label="about this work">i</button>
</section>
<audio id="narration-audio" preload="auto"></audio>
<script src="data.js"></script>
<script>
(function () {
  "use strict";
  var EX = window.EXHIBIT || { artist: {}, works: [], editorials: [], narration: [], pauseSeconds: 2, wordsPerMinute: 170 };
  var params = new URLSearchParams(location.search);
  var READING = params.has("reading") ? parseFloat(params.get("reading")) : null;
  var PAUSE = params.has("pause") ? parseFloat(params.get("pause")) : EX.pauseSeconds;
  var byId = {}; EX.works.forEach(function (w) { byId[w.id] = w; });
  var narrationOf = {}; EX.narration.forEach(function (n) { narrationOf[n.workId] = n; });
  var $ = function (id) { return document.getElementById(id); };
  var grid = $("grid"), viewer = $("viewer"), audio = $("narration-audio");
  var list = EX.works.map(function (w) { return w.id; });  // what the viewer steps through
  var index = 0, mode = "works", currentEditorial = null;
  window.__tourLog = [];
  function log(type, extra) { var e = { type: type, t: performance.now(), index: index }; for (var k in extra || {}) e[k] = extra[k]; window.__tourLog.push(e); }

  if (location.protocol === "http:" || location.protocol === "https:") document.body.classList.add("served");
  $("exhibit-title").textContent = EX.artist.name ? EX.artist.name : "Exhibit";
  $("mission").textContent = EX.artist.mission || "";

  function label(w) { return w.title || (w.year ? w.year : w.id); }
  function tile(src, text, onClick, cls) {
    var b = document.createElement("button");
    b.className = "tile " + (cls || ""); b.type = "button";
    var img = document.createElement("img"); img.src = src; img.alt = text; img.loading = "lazy";
    var c = document.createElement("div"); c.className = "caption"; c.textContent = text;
    b.appendChild(img); b.appendChild(c); b.addEventListener("click", onClick);
    return b;
  }
  function showWorks(ids, editorial) {
    grid.innerHTML = ""; list = ids; currentEditorial = editorial || null;
    ids.forEach(function (id, k) { grid.appendChild(tile("thumbs/" + byId[id].imageName, label(byId[id]), function () { openViewer(k); }, "work-tile")); });
    $("empty").hidden = ids.length > 0;
    var head = $("editorial-head");
    head.hidden = !editorial;
    if (editorial) { head.querySelector("h2").textContent = editorial.title; head.querySelector("p").textContent = [editorial.theme, editorial.summary].filter(Boolean).join(" · "); }
  }
  function showCovers() {
    grid.innerHTML = ""; $("editorial-head").hidden = true; currentEditorial = null;
    EX.editorials.forEach(function (e) {
      grid.appendChild(tile("editorials/" + e.cover, e.title + " (" + e.works.length + ")", function () { showWorks(e.works, e); }, "cover-tile"));
    });
  }
  function setMode(m) {
    mode = m;
    $("grid-button").setAttribute("aria-pressed", m === "works"); $("magazine-button").setAttribute("aria-pressed", m === "magazine");
    if (m === "works") showWorks(EX.works.map(function (w) { return w.id; })); else showCovers();
  }
  $("grid-button").addEventListener("click", function () { setMode("works"); });
  $("magazine-button").addEventListener("click", function () { setMode("magazine"); });
  $("back-to-covers").addEventListener("click", function () { setMode("magazine"); });

  function render() {
    var w = byId[list[index]];
    $("viewer-image").src = w.imageName; $("viewer-image").alt = label(w);
    var o = $("title-overlay");
    o.querySelector("h2").textContent = w.title || w.id;
    o.querySelector("p").textContent = [w.year, w.medium].filter(Boolean).join(" · ");
    viewer.dataset.work = w.id;
  }
  function openViewer(k) { index = k; viewer.classList.add("open"); hideResponse(); render(); }
  function closeViewer() { stopTour(); viewer.classList.remove("open"); hideResponse(); }
  function step(d) { if (!list.length) return; index = (index + d + list.length) % list.length; hideResponse(); render(); log("step", { work: list[index] }); }
  $("prev").addEventListener("click", function () { stopTour(); step(-1); });
  $("next").addEventListener("click", function () { stopTour(); step(1); });
  $("close").addEventListener("click", closeViewer);
  document.addEventListener("keydown", function (e) {
    if (!viewer.classList.contains("open") || e.target.tagName === "INPUT") return;
    if (e.key === "ArrowRight") { stopTour(); step(1); }
    else if (e.key === "ArrowLeft") { stopTour(); step(-1); }
    else if (e.key === "Escape") closeViewer();
    else if (e.key === "i") toggleInfo();
    else if (e.key === " " && tour.on) { e.preventDefault(); tour.paused ? playTour() : pauseTour(); }
  });
  var touchX = null;
  viewer.addEventListener("touchstart", function (e) { touchX = e.touches[0].clientX; }, { passive: true });
  viewer.addEventListener("touchend", function (e) {
    if (touchX === null) return;
    var dx = e.changedTouches[0].clientX - touchX; touchX = null;
    if (Math.abs(dx) > 40) { stopTour(); step(dx < 0 ? 1 : -1); }
  });

  function showResponse(who, text) { var r = $("response"); r.querySelector(".who").textContent = who; r.querySelector(".text").textContent = text; r.classList.add("show"); }
  function hideResponse() { $("response").classList.remove("show"); }
  function toggleInfo() {
    var w = byId[list[index]];
    if ($("response").classList.contains("show") && $("response").dataset.kind === "info") { hideResponse(); return; }
    $("response").dataset.kind = "info";
    showResponse("About this work", w.summary || "No description was recorded for this work.");
  }
  $("info").addEventListener("click", toggleInfo);

  // The tour: narration (audio or a reading time), then the pause, then the next work; it stops after the last.
  var tour = { on: false, paused: false, timer: null, due: 0, left: 0, phase: "" };
  function readingSeconds(text) { return READING !== null ? READING : Math.max(3, text.split(/\s+/).length / EX.wordsPerMinute * 60); }
  function wait(seconds, phase, then) {
    clearTimeout(tour.timer); tour.phase = phase; tour.next = then;
    tour.due = performance.now() + seconds * 1000;
    tour.timer = setTimeout(function () { tour.timer = null; then(); }, seconds * 1000);
  }
  function narrate() {
    var w = byId[list[index]], n = narrationOf[w.id] || { text: w.title || w.id };
    $("response").dataset.kind = "narration";
    showResponse("Curator", n.text);
    log("narrate", { work: w.id });
    if (n.audio) {
      audio.src = n.audio; tour.phase = "audio";
      audio.onended = function () { if (!tour.on) return; log("audio-ended", { work: w.id }); wait(PAUSE, "pause", advance); };
      var p = audio.play(); if (p && p.catch) p.catch(function (err) { log("audio-error", { message: String(err) }); wait(readingSeconds(n.text) + PAUSE, "reading", advance); });
    } else {
      wait(readingSeconds(n.text), "reading", function () { log("reading-done", { work: w.id }); wait(PAUSE, "pause", advance); });
    }
  }
  function advance() {
    if (!tour.on) return;
    if (index >= list.length - 1) { log("tour-end"); stopTour(true); return; }
    index += 1; render(); log("advance", { work: list[index] }); narrate();
  }
  function startTour() {
    if (!list.length) return;
    stopTour(); viewer.classList.add("open", "touring"); index = 0; render();
    tour.on = true; tour.paused = false; log("tour-start"); narrate();
  }
  function pauseTour() {
    if (!tour.on || tour.paused) return;
    tour.paused = true; log("pause");
    if (tour.phase === "audio") audio.pause();
    else if (tour.timer) { clearTimeout(tour.timer); tour.timer = null; tour.left = Math.max(0, tour.due - performance.now()); }
  }
  function playTour() {
    if (!tour.on || !tour.paused) return;
    tour.paused = false; log("play");
    if (tour.phase === "audio") audio.play(); else wait(tour.left / 1000, tour.phase, tour.next);
  }
  function stopTour(keepOpen) {
    if (!tour.on) return;
    tour.on = false; tour.paused = false; clearTimeout(tour.timer); tour.timer = null;
    audio.pause(); audio.onended = null; viewer.classList.remove("touring"); log("stop");
  }
  $("tour-button").addEventListener("click", function () {
    if (mode === "magazine" && !currentEditorial) setMode("works");
    startTour();
  });
  $("tour-pause").addEventListener("click", pauseTour);
  $("tour-play").addEventListener("click", playTour);
  $("tour-stop").addEventListener("click", function () { stopTour(); hideResponse(); });

  // The curator (only when served: it answers from the exhibit's packets).
  var history = [];
  $("ask").addEventListener("submit", function (e) {
    e.preventDefault();
    var q = $("question").value.trim(); if (!q) return;
    showResponse("Curator", "…");
    fetch("api/ask", { method: "POST", headers: { "Content-Type": "application/json" },
                       body: JSON.stringify({ question: q, workId: list[index], history: history }) })
      .then(function (r) { return r.json(); })
      .then(function (a) {
        $("response").dataset.kind = "answer";
        showResponse("Curator", a.answer || a.message || "I don't know.");
        history.push({ role: "user", content: q }, { role: "assistant", content: a.answer || "" });
        if (history.length > 6) history = history.slice(-2);
      })
      .catch(function () { showResponse("Curator", "The curator cannot be reached."); });
  });

  window.__exhibit = { startTour: startTour, pauseTour: pauseTour, playTour: playTour, stopTour: stopTour, tour: tour, list: function () { return list; }, index: function () { return index; } };
  setMode("works");
})();
</script>
</body>
</html>
"""#
}
