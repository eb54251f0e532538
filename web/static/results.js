/* The results page's live preview (issue #15), a file as the CSP requires: when the entry
   form changes, it is posted to its data-preview URL and the answer's html fills #preview. */
(function () {
  "use strict";
  function start() {
    var form = document.querySelector("form[data-preview]");
    var out = document.getElementById("preview");
    if (!form || !out) return;
    var pending = 0;
    function update() {
      var mine = ++pending;
      out.dataset.asked = mine;  // the preview answers the latest change when data-shown equals it
      fetch(form.dataset.preview, {method: "POST", body: new FormData(form), credentials: "same-origin",
                                   headers: {"Accept": "application/json"}})
        .then(function (r) { if (!r.ok) throw new Error("status " + r.status); return r.json(); })
        .then(function (doc) {
          if (mine !== pending) return;  // a newer change is on its way
          out.innerHTML = doc.html;
          out.dataset.ok = doc.ok ? "true" : "false";
          out.dataset.shown = mine;
        })
        .catch(function () { out.dataset.ok = "stale"; });
    }
    form.addEventListener("change", update);
    form.addEventListener("input", function (e) { if (e.target.type === "text" || e.target.inputMode) update(); });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
