// The tablet referee's page, improved: the page a tap answered keeps the scroll where it was and
// becomes the referee's address again (a reload asks the server for the page, never posts the
// tap twice), and a greyed card says why it cannot be played without asking the server.
// Without this script the page works the same: each tap posts, a greyed card is refused with
// the same reason.
(function () {
  "use strict";
  var key = "mighty-referee-scroll:" + location.pathname;
  if (document.querySelector("form.entry") && /\/referee$/.test(location.pathname)) {
    history.replaceState(null, "", location.pathname);
  }
  var kept = sessionStorage.getItem(key);
  if (kept !== null) {
    sessionStorage.removeItem(key);
    window.scrollTo(0, +kept);
  }
  var reason = document.getElementById("reason");
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button.greyed") : null;
    if (button && reason) {
      event.preventDefault();
      reason.textContent = button.getAttribute("data-reason");
      reason.hidden = false;
    }
  });
  document.addEventListener("submit", function () {
    sessionStorage.setItem(key, String(window.scrollY));
  });
  var typed = document.querySelector("form.typed input[name=text]");
  if (typed && typed.form && !("ontouchstart" in window)) { typed.focus({preventScroll: true}); }
})();
