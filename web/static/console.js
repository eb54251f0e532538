/* The officials' console's script (issue #14), a file as the pages' CSP requires (no inline script).
   - [data-live="URL"]: every second, GET URL ({"version", "html"}) and swap the element's content
     when the version changed (the hall, a table); data-version holds the version shown;
   - input[type=range][data-autosubmit]: the replay's slider shows its step and goes there on release;
   - button[data-tile][data-for=ID]: the scorer's tile picker appends the tile's notation to #ID;
     button[data-clear=ID] empties it. */
(function () {
  "use strict";
  var PERIOD = 1000;

  function poll(el) {
    var busy = false;
    function tick() {
      if (busy || document.hidden) return;
      busy = true;
      fetch(el.dataset.live, {credentials: "same-origin", cache: "no-store", headers: {"Accept": "application/json"}})
        .then(function (r) {
          if (r.redirected && new URL(r.url).pathname === "/signin") {
            window.location.href = r.url;  // the session ended: the sign-in page says why
          }
          if (r.redirected || !r.ok) throw new Error("status " + r.status);
          return r.json();
        })
        .then(function (doc) {
          if (doc.version !== el.dataset.version) {
            el.innerHTML = doc.html;
            el.dataset.version = doc.version;
          }
          el.dataset.updated = String(Date.now());
          el.classList.remove("stale");
        })
        .catch(function () { el.classList.add("stale"); })
        .then(function () { busy = false; });
    }
    tick();
    setInterval(tick, PERIOD);
  }

  function slider(input) {
    var shown = document.getElementById(input.id + "-shown");
    input.addEventListener("input", function () { if (shown) shown.textContent = input.value; });
    input.addEventListener("change", function () { input.form.submit(); });
  }

  function picker(button) {  // a tile tapped: its notation appended to the field it is for
    button.addEventListener("click", function () {
      var field = document.getElementById(button.dataset["for"]);
      field.value = (field.value.trim() + " " + button.dataset.tile).trim();
    });
  }

  function clearer(button) {
    button.addEventListener("click", function () { document.getElementById(button.dataset.clear).value = ""; });
  }

  function start() {
    document.querySelectorAll("button[data-tile][data-for]").forEach(picker);
    document.querySelectorAll("button[data-clear]").forEach(clearer);
    document.querySelectorAll("[data-live]").forEach(poll);
    document.querySelectorAll("input[type=range][data-autosubmit]").forEach(slider);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
