/* mjref pages' scripts (issue #12 item 8): served as a file, as the pages' Content-Security-Policy
   (script-src 'self', no inline script: web/headers.py) allows.
   - a button with data-print prints the page;
   - an <output class="countdown" data-seconds-left="N"> counts down to 0:00 (the clock panel,
     web/templates/_clock.html; the server rendered the starting value from the app's clock). */
(function () {
  "use strict";

  function countdown(out) {
    var end = Date.now() + 1000 * parseInt(out.dataset.secondsLeft, 10);
    function tick() {
      var s = Math.max(0, Math.round((end - Date.now()) / 1000));
      out.textContent = Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
      if (s > 0) setTimeout(tick, 1000);
    }
    tick();
  }

  function start() {
    document.querySelectorAll("button[data-print]").forEach(function (button) {
      button.addEventListener("click", function () { window.print(); });
    });
    document.querySelectorAll("output.countdown[data-seconds-left]").forEach(countdown);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
