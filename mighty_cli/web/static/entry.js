// The entry of a table's next hand (templates/serve_entry.html), improved: each field is checked
// as it is filled (POST /api/tables/T/check answers with record's own line), what was typed is
// kept on the phone (localStorage) until the server confirms it, and a form sent while the
// network is down stays on the page to be sent again. Without this script the form still posts.
(function () {
  "use strict";
  var KEPT = "mighty-entry-";
  var CHECKED = ["declarer", "contract", "eliminated", "friend", "friend_call", "taken",
                 "deal_miss"];

  function valueOf(form, name) {
    var field = form.elements[name];
    return field ? field.value.trim() : "";
  }

  function listOf(form, prefix) {
    var found = [];
    for (var i = 0; i < form.elements.length; i++) {
      var field = form.elements[i];
      if (field.name && field.name.indexOf(prefix) === 0 && field.value.trim()) {
        found.push(field.value.trim());
      }
    }
    return found;
  }

  // The entry's fields so far, as POST /api/tables/T/check reads them.
  function fieldsOf(form) {
    var fields = {};
    ["declarer", "contract", "friend_call", "taken"].forEach(function (name) {
      var value = valueOf(form, name);
      if (value) { fields[name] = value; }
    });
    var friends = [valueOf(form, "friend"), valueOf(form, "friend2")].filter(Boolean);
    if (friends.length) { fields.friend = friends.length === 1 ? friends[0] : friends; }
    var out = listOf(form, "eliminated");
    if (out.length) { fields.eliminated = out; }
    return fields;
  }

  function note(form, name, text, bad) {
    var shown = form.querySelector('[data-note-for="' + name + '"]');
    if (!shown) { return; }
    shown.textContent = text;
    shown.classList.toggle("bad", !!bad);
    var field = form.elements[name];
    if (field && field.setAttribute) {
      if (bad) { field.setAttribute("aria-invalid", "true"); }
      else { field.removeAttribute("aria-invalid"); }
    }
  }

  function check(form, name) {
    if (name === "friend2") { name = "friend"; }
    if (name.indexOf("eliminated") === 0) { name = "eliminated"; }
    if (CHECKED.indexOf(name) < 0) { return; }
    var fields = fieldsOf(form);
    var value = name === "deal_miss" ? valueOf(form, "deal_miss") : fields[name];
    delete fields[name];
    if (name === "deal_miss") { fields = {}; }
    if (!value || (name !== "deal_miss" && valueOf(form, "deal_miss"))) {
      note(form, name, "", false);
      return;
    }
    fetch("/api/tables/" + form.getAttribute("data-table") + "/check", {
      method: "POST", credentials: "same-origin", cache: "no-store",
      headers: {"content-type": "application/json"},
      body: JSON.stringify({field: name, value: value, fields: fields})
    }).then(function (answer) {
      return answer.json().then(function (data) { return [answer.status, data]; });
    }).then(function (got) {
      if (got[0] === 200) {
        var checked = got[1].value;
        var shown = Array.isArray(checked) ? checked.join(", ") : String(checked);
        note(form, name, shown !== String(value) && shown !== "" ? "→ " + shown : "✓", false);
      } else if (got[1] && got[1].error) {
        note(form, name, got[1].error, true);
      }
    }).catch(function () { /* offline: the server checks it when it is sent */ });
  }

  function keptKey(form) { return KEPT + form.getAttribute("data-table"); }

  function keep(form) {
    var values = {};
    for (var i = 0; i < form.elements.length; i++) {
      var field = form.elements[i];
      if (field.name && field.name !== "code" && field.type !== "checkbox" && field.value) {
        values[field.name] = field.value;
      }
    }
    try {
      localStorage.setItem(keptKey(form), JSON.stringify({hand: valueOf(form, "hand"),
                                                           values: values}));
    } catch (e) { /* private mode: nothing kept */ }
  }

  function forget(form) {
    try { localStorage.removeItem(keptKey(form)); } catch (e) { /* nothing kept */ }
  }

  function setHand(form, hand) {
    form.elements.hand.value = hand;
    var button = form.querySelector("button.send");
    if (button && button.getAttribute("data-label")) {
      button.textContent = button.getAttribute("data-label").replace("{hand}", hand);
    }
  }

  // What this phone typed and the server never confirmed comes back, with its hand's number.
  function restore(form) {
    var kept = null;
    try { kept = JSON.parse(localStorage.getItem(keptKey(form)) || "null"); } catch (e) { }
    if (!kept || !kept.values) { return; }
    var hand = +kept.hand, next = +form.getAttribute("data-hand");
    if (!hand || hand > next) { forget(form); return; }
    var typed = false;
    Object.keys(kept.values).forEach(function (name) {
      var field = form.elements[name];
      if (field && name !== "hand" && !field.value) {
        field.value = kept.values[name];
        typed = typed || field.value === kept.values[name];
      }
    });
    if (!typed) { return; }
    setHand(form, hand);
    if (form.elements.deal_miss && form.elements.deal_miss.value) {
      form.querySelector("details").open = true;
    }
    status(form, form.getAttribute("data-kept").replace("{hand}", hand), true);
  }

  function status(form, text, bad) {
    var shown = form.querySelector(".entry-status");
    if (shown) {
      shown.textContent = text;
      shown.classList.toggle("problem", !!bad);
    }
  }

  // Sent by the script: the server's page comes back (stored: the table's page; refused: the
  // page with the line saying why, the stored hand beside it); no answer: kept to send again.
  function send(event) {
    var form = event.target;
    event.preventDefault();
    keep(form);
    status(form, form.getAttribute("data-sending"), false);
    var sent = new URLSearchParams(new FormData(form));
    if (event.submitter && event.submitter.name) {  // "store it as the next hand"
      sent.set(event.submitter.name, event.submitter.value);
    }
    var button = form.querySelector("button.send");
    if (button) { button.disabled = true; }
    fetch(form.action, {
      method: "POST", credentials: "same-origin", cache: "no-store",
      body: sent
    }).then(function (answer) {
      return answer.text().then(function (html) {
        if (answer.ok && answer.redirected) {
          forget(form);
          location.assign(answer.url + "#hands");
          return;
        }
        if (button) { button.disabled = false; }
        var fresh = new DOMParser().parseFromString(html, "text/html");
        var page = document.getElementById("page"), other = fresh.getElementById("page");
        if (!page || !other) { status(form, fresh.body.textContent.trim(), true); return; }
        var typed = form.elements;
        page.replaceWith(document.importNode(other, true));
        var again = document.getElementById("entry-form");
        if (again) {
          start(again);
          keep(again);
          var code = typed.code ? typed.code.value : "";
          if (again.elements.code && code) { again.elements.code.value = code; }
          var problem = document.querySelector("#page .problem");
          if (problem) { problem.scrollIntoView({block: "center"}); }
        }
      });
    }).catch(function () {
      if (button) { button.disabled = false; }
      status(form, form.getAttribute("data-offline"), true);
    });
  }

  function start(form) {
    if (/[?&]done=entered/.test(location.search)) {
      forget(form);
    } else {
      restore(form);
    }
    form.addEventListener("change", function (event) {
      keep(form);
      if (event.target.name) { check(form, event.target.name); }
    });
    form.addEventListener("input", function () { keep(form); });
    form.addEventListener("submit", send);
  }

  // The table moved on elsewhere (another phone, a keeper's terminal, the director seating
  // someone): the form is taken from the page just fetched again (serve.js hands it over; else
  // it is fetched) for the table's next hand; what was typed here comes back with the hand it
  // was typed for (restore), so nothing is sent as another hand unseen.
  function follow(event) {
    var shown = document.getElementById("entry-form");
    if (!shown) { return; }
    var fetched = event && event.detail ? Promise.resolve(event.detail) :
      fetch(location.pathname, {cache: "no-store", credentials: "same-origin"})
        .then(function (answer) { return answer.text(); })
        .then(function (html) { return new DOMParser().parseFromString(html, "text/html"); });
    fetched
      .then(function (fresh) {
        var other = fresh.getElementById("entry-form");
        var now = document.getElementById("entry-form");
        if (!now) { return; }
        if (other && other.getAttribute("data-hand") === now.getAttribute("data-hand") &&
            other.getAttribute("data-players") === now.getAttribute("data-players")) { return; }
        keep(now);
        var section = document.getElementById("entry");
        var section2 = fresh.getElementById("entry");
        if (!section || !section2) { return; }
        var code = now.elements.code ? now.elements.code.value : "";
        section.replaceWith(document.importNode(section2, true));
        var again = document.getElementById("entry-form");
        if (again) {
          if (again.elements.code && code) { again.elements.code.value = code; }
          start(again);
        }
      })
      .catch(function () { /* offline: the next change tries again */ });
  }
  document.addEventListener("mighty:refreshed", follow);

  var form = document.getElementById("entry-form");
  if (form) { start(form); }
}());
