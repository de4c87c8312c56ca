// mighty serve's pages, improved: each part marked data-live is fetched again when the league
// changes (server-sent events from /events; polling /api/changes where they are not to be had),
// the round's clock counts down, and a projector pages through the board. Without this script
// the pages still work: forms post, and the page reloads itself every 30 seconds.
(function () {
  "use strict";
  var page = document.getElementById("page");
  if (!page) { return; }
  var marker = page.getAttribute("data-marker");
  var fetching = false, again = false;

  function refresh() {
    if (fetching) { again = true; return; }
    fetching = true;
    fetch(location.pathname + location.search.replace(/([?&])(done|code|key)=[^&]*/g, "$1"),
          {cache: "no-store", credentials: "same-origin"})
      .then(function (answer) { return answer.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html");
        var parts = document.querySelectorAll("[data-live]");
        for (var i = 0; i < parts.length; i++) {
          var other = fresh.getElementById(parts[i].id);
          if (other) { parts[i].replaceWith(document.importNode(other, true)); }
        }
        startClocks();
        slides.restart();
        document.dispatchEvent(new CustomEvent("mighty:refreshed", {detail: fresh}));
      })
      .catch(function () { again = true; })
      .then(function () {
        fetching = false;
        if (again) { again = false; setTimeout(refresh, 500); }
      });
  }

  function seen(now) {
    if (now && now !== marker) { marker = now; refresh(); }
  }

  function poll() {
    setInterval(function () {
      fetch("/api/changes", {cache: "no-store"})
        .then(function (answer) { return answer.json(); })
        .then(function (data) { seen(data.marker); })
        .catch(function () {});
    }, 1500);
  }

  if (window.EventSource) {
    var failures = 0, polling = false;
    var source = new EventSource("/events");
    source.addEventListener("marker", function (event) { failures = 0; seen(event.data); });
    source.addEventListener("change", function (event) { failures = 0; seen(event.data); });
    source.onerror = function () {
      failures += 1;
      if (failures > 5 && !polling) { polling = true; source.close(); poll(); }
    };
  } else {
    poll();
  }

  // The round's clock: seconds left, counted down on the page.
  var ticking = null;
  function startClocks() {
    var clocks = document.querySelectorAll(".clock[data-left]");
    var started = Date.now();
    if (ticking) { clearInterval(ticking); }
    if (!clocks.length) { return; }
    var lefts = [];
    for (var i = 0; i < clocks.length; i++) { lefts.push(+clocks[i].getAttribute("data-left")); }
    ticking = setInterval(function () {
      var gone = Math.floor((Date.now() - started) / 1000);
      for (var k = 0; k < clocks.length; k++) {
        var left = Math.max(0, lefts[k] - gone);
        var shown = clocks[k].querySelector(".left");
        if (shown) {
          shown.textContent = Math.floor(left / 60) + ":" + ("0" + (left % 60)).slice(-2);
        }
      }
    }, 1000);
  }
  startClocks();

  // The projector: one part of the board at a time, each long part scrolled a screen at a time.
  var slides = (function () {
    var timer = null, index = 0;
    function board() { return document.querySelector(".projector"); }
    function show() {
      var shown = board();
      if (!shown) { return; }
      var parts = shown.querySelectorAll("[data-slide]");
      if (!parts.length) { return; }
      shown.classList.add("paging");
      index = index % parts.length;
      for (var i = 0; i < parts.length; i++) { parts[i].classList.toggle("shown", i === index); }
    }
    function next() {
      var bottom = window.scrollY + window.innerHeight;
      if (bottom + 4 < document.documentElement.scrollHeight) {
        window.scrollBy(0, window.innerHeight * 0.85);
        return;
      }
      index += 1;
      window.scrollTo(0, 0);
      show();
    }
    return {
      restart: function () {
        show();
        if (board() && !timer) { timer = setInterval(next, 8000); }
      }
    };
  }());
  slides.restart();
}());
