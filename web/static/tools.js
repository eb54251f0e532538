/* The calculators' tile picker (issue #14 item 8; web/templates/_picker.html): tap a tile's
   picture to add it to the chosen field. A file, as the pages' Content-Security-Policy runs
   no inline script (web/headers.py). Without it the form still works: the tiles are typed.
   - [data-picker] is shown; its .target buttons choose the field (aria-pressed);
   - a .pick button adds its tile (compact notation, data-tile) to the field: a flower always
     goes to the flowers field, the winning tile replaces what was there, a meld's tiles are
     written together (555p) until "next meld";
   - each [data-pick] field shows the compact tiles it holds as pictures ([data-preview]). */
(function () {
  "use strict";

  var TOKEN = /(\d+)([mpszf])|([ESWNPFC])/g;
  var HONOURS = "ESWNPFC";

  function codes(text) {
    var out = [];
    text.replace(TOKEN, function (_, digits, suit, honour) {
      if (honour) {
        out.push((HONOURS.indexOf(honour) + 1) + "z");
      } else {
        for (var i = 0; i < digits.length; i++) out.push(digits[i] + suit);
      }
      return "";
    });
    return out;
  }

  function start() {
    var picker = document.querySelector("[data-picker]");
    if (!picker) return;
    var form = picker.closest("form");
    var names = {}, pictures = {};
    picker.querySelectorAll("button.pick").forEach(function (button) {
      names[button.dataset.tile] = button.getAttribute("aria-label");
      pictures[button.dataset.tile] = button.querySelector("img").getAttribute("src");
    });
    var target = picker.querySelector("button.target").dataset.target;

    function field(name) { return form.querySelector("[data-pick='" + name + "']"); }

    function preview(name) {
      var input = field(name), box = form.querySelector("[data-preview='" + name + "']");
      if (!input || !box) return;
      box.textContent = "";
      codes(input.value).forEach(function (code) {
        if (!pictures[code]) return;
        var img = document.createElement("img");
        img.src = pictures[code];
        img.alt = names[code];
        img.className = "tile tile-s";
        img.width = 24;
        img.height = 32;
        box.appendChild(img);
      });
    }

    function choose(name) {
      target = name;
      picker.querySelectorAll("button.target").forEach(function (b) {
        b.setAttribute("aria-pressed", b.dataset.target === name ? "true" : "false");
      });
      picker.querySelectorAll("[data-for]").forEach(function (b) { b.hidden = b.dataset.for !== name; });
    }

    function changed(input) {
      input.dispatchEvent(new Event("input", { bubbles: true }));
    }

    function add(code, flower) {
      var name = flower && field("flowers") ? "flowers" : target;
      var input = field(name);
      if (!input) return;
      var value = input.value.replace(/\s+$/, "");
      if (name === "winning_tile") {
        value = code;
      } else if (name === "melds" && value && !/[\s:]$/.test(input.value) && !/:$/.test(value)) {
        value = value + code;  /* the same meld: 555p, 123m */
      } else {
        value = value + (value && !/:$/.test(value) ? " " : "") + code;
      }
      input.value = value;
      changed(input);
    }

    function undo(input) {
      var value = input.value.replace(/\s+$/, "");
      var m = value.match(/(\d*)\d([mpszf])$/);
      if (m) {
        value = value.slice(0, value.length - m[0].length) + (m[1] ? m[1] + m[2] : "");
      } else if (/[ESWNPFC]$/.test(value)) {
        value = value.slice(0, -1);
      } else {
        value = value.replace(/\S*$/, "");
      }
      input.value = value.replace(/\s+$/, "");
      changed(input);
    }

    picker.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button || !picker.contains(button)) return;
      var input = field(target);
      if (button.classList.contains("target")) {
        choose(button.dataset.target);
      } else if (button.classList.contains("pick")) {
        add(button.dataset.tile, button.hasAttribute("data-flower"));
      } else if (input && button.dataset.action === "undo") {
        undo(input);
      } else if (input && button.dataset.action === "clear") {
        input.value = "";
        changed(input);
      } else if (input && button.dataset.action === "next-meld") {
        if (input.value.trim()) input.value = input.value.replace(/\s+$/, "") + " ";
      } else if (input && button.dataset.action === "concealed-kong") {
        input.value = (input.value.trim() ? input.value.replace(/\s+$/, "") + " " : "") + "concealed:";
      }
    });
    form.querySelectorAll("[data-pick]").forEach(function (input) {
      input.addEventListener("input", function () { preview(input.dataset.pick); });
      input.addEventListener("focus", function () { if (field(input.dataset.pick)) choose(input.dataset.pick); });
      preview(input.dataset.pick);
    });
    choose(target);
    picker.hidden = false;
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
