// Item review: per-mark decisions from mouse or keyboard, drawing new boxes, the redacted
// preview toggle, saving a new proposal version, and a heartbeat that keeps the lease.
(function () {
  "use strict";
  const config = JSON.parse(document.getElementById("review-config").textContent);
  const marks = JSON.parse(document.getElementById("marks-data").textContent);
  const notice = document.getElementById("notice");
  const list = document.getElementById("mark-list");
  const changes = {};   // mark key -> {decision, reason}
  const added = [];     // new boxes: {page, left, top, width, height, category, reason}
  let saving = false;   // a saved page reloads: no "unsaved changes" prompt then
  let current = -1;
  const firstClaim = config.claim_id;
  let refocusing = false;
  const toggleBox = document.getElementById("preview-toggle");  // the redacted preview

  function csrf() {
    const match = document.cookie.match(/csrftoken=([^;]+)/);
    return match ? match[1] : "";
  }
  function say(text) { notice.textContent = text; notice.hidden = false; }
  function dirty() { return Object.keys(changes).length > 0 || added.length > 0; }

  const HIDDEN = "hidden_content";
  function label(m) {
    if (m.category === HIDDEN) {
      return "Page " + (m.page + 1) + ", hidden content (" + m.manual.replace(/_/g, " ") + "), removed on release";
    }
    return "Page " + (m.page + 1) + ", " + m.category + ", " + m.decision;
  }
  // The overlay and the list are drawn anew on every change; whatever had the focus (a
  // mark, an entry, one of its buttons or its reason) has it again afterwards, so Tab
  // goes on from there instead of from the top of the page.
  function render() {
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.focus : "";
    document.querySelectorAll(".mark").forEach(function (el) { el.remove(); });
    list.innerHTML = "";
    marks.forEach(function (m, i) {
      const box = document.createElement("button");
      box.type = "button";
      const wholePage = m.width > 0.98 && m.height > 0.98;
      box.className = "mark " + m.decision + (i === current ? " current" : "") + (wholePage ? " whole-page" : "");
      box.style.left = (m.left * 100) + "%";
      box.style.top = (m.top * 100) + "%";
      box.style.width = (m.width * 100) + "%";
      box.style.height = (m.height * 100) + "%";
      box.setAttribute("aria-label", label(m));
      box.dataset.index = i;
      box.dataset.focus = "mark-" + i;
      const tag = document.createElement("span");
      tag.className = "tag";
      tag.textContent = m.category + " " + m.reason;
      box.appendChild(tag);
      box.addEventListener("click", function () { select(i); });
      box.addEventListener("focus", function () { if (current !== i && !refocusing) { select(i, false); } });
      document.querySelector("#page-" + m.page + " .overlay").appendChild(box);

      const item = document.createElement("li");
      item.className = i === current ? "current" : "";
      item.innerHTML = "<span></span> <label>reason <select></select></label>";
      // What proposed it and how sure it was, and a weak hit's reason in words.
      const source = m.detector ? " · " + m.detector + (m.detector === "reviewer" ? "" : " " + Math.round(m.confidence * 100) + "%") : "";
      item.querySelector("span").textContent = label(m) + source + (m.manual && m.category !== HIDDEN ? " (" + m.manual.replace(/_/g, " ") + ")" : "");
      if (m.category === HIDDEN) {
        // The page image cannot show hidden content: the reviewer reads it here.
        const hidden = document.createElement("q");
        hidden.className = "hidden-text";
        hidden.textContent = m.hidden_text;
        item.insertBefore(hidden, item.querySelector("label"));
      }
      // The reason is chosen from the jurisdiction's catalogue; a code the mark already
      // carries that the catalogue no longer offers stays shown, never offered anew.
      const reason = item.querySelector("select");
      const codes = config.exemptions.map(function (e) { return e.code; });
      (codes.indexOf(m.reason) < 0 ? [{code: m.reason, title: config.exemption_titles[m.reason] || "not in the catalogue"}] : [])
        .concat(config.exemptions)
        .forEach(function (e) {
          const option = document.createElement("option");
          option.value = e.code;
          option.textContent = e.code + " — " + e.title;
          reason.appendChild(option);
        });
      reason.value = m.reason;
      reason.dataset.focus = "reason-" + i;
      reason.setAttribute("aria-label", "Legal reason for " + label(m));
      reason.disabled = config.read_only || !m.key || m.category === HIDDEN;
      reason.addEventListener("change", function () {
        m.reason = reason.value;
        record(m);
        render();
      });
      if (!config.read_only && m.category !== HIDDEN) {
        // Mouse users decide from the list: each entry has its own buttons.
        [["accepted", "Accept"], ["rejected", "Reject"]].forEach(function (pair) {
          const button = document.createElement("button");
          button.type = "button";
          button.textContent = pair[1];
          button.setAttribute("aria-label", pair[1] + " " + label(m));
          button.setAttribute("aria-pressed", m.decision === pair[0] ? "true" : "false");
          button.dataset.focus = pair[0] + "-" + i;
          // The focus stays on the button: a keyboard user goes on down the list.
          button.addEventListener("click", function () { current = i; decide(pair[0], false, false); });
          item.appendChild(button);
        });
      }
      item.tabIndex = 0;  // reachable with Tab; Enter selects its mark
      item.dataset.focus = "entry-" + i;
      item.addEventListener("click", function (event) {
        if (event.target.closest("button, select, input, label")) { return; }
        select(i);
      });
      item.addEventListener("keydown", function (event) {
        if (event.key === "Enter" && event.target === item) { event.preventDefault(); select(i); }
      });
      list.appendChild(item);
    });
    const undecided = marks.filter(function (m) { return m.decision === "pending"; }).length;
    document.getElementById("undecided").textContent = "(" + undecided + " undecided)";
    // Each thumbnail says how many marks of its page wait for a decision.
    const open = {};
    marks.forEach(function (m) { if (m.decision === "pending") { open[m.page] = (open[m.page] || 0) + 1; } });
    document.querySelectorAll("#thumbs a").forEach(function (a) {
      const n = open[a.dataset.page] || 0;
      a.querySelector(".thumb-count").textContent = n ? ", " + n + " undecided" : "";
    });
    if (focused) {
      const again = document.querySelector('[data-focus="' + focused + '"]');
      refocusing = true;  // giving the focus back selects nothing
      if (again) { again.focus({preventScroll: true}); }
      refocusing = false;
    }
    keep();
  }
  function record(m) {
    if (!m.key) { return; }  // a new box lives in `added` until it is saved
    changes[m.key] = {decision: m.decision, reason: m.reason};
  }

  // Decisions not yet saved are kept in this browser, per item and claim, so a reload or
  // a crashed tab loses nothing; saving clears them. A copy made on an older version of
  // the proposal is dropped: its decisions were about marks that may have changed.
  const STORE_PREFIX = "rrq-unsaved:" + config.decisions_url + ":";
  let storeKey = STORE_PREFIX + config.claim_id;
  function keep() {
    if (config.read_only) { return; }
    try {
      if (dirty()) {
        localStorage.setItem(storeKey, JSON.stringify({base_version: config.base_version, changes: changes, added: added}));
      } else {
        localStorage.removeItem(storeKey);
      }
    } catch (e) { /* storage full or disabled: the unsaved-changes prompt still guards */ }
  }
  function forget() { try { localStorage.removeItem(storeKey); } catch (e) { /* nothing kept */ } }
  function restore() {
    if (config.read_only) { return; }
    let kept = null;
    try {
      // Copies of this item's earlier claims cannot be saved under this one: drop them.
      Object.keys(localStorage).forEach(function (key) {
        if (key.indexOf(STORE_PREFIX) === 0 && key !== storeKey) { localStorage.removeItem(key); }
      });
      kept = JSON.parse(localStorage.getItem(storeKey) || "null");
    } catch (e) { kept = null; }
    if (!kept) { return; }
    if (kept.base_version !== config.base_version) {
      forget();
      say("Decisions kept in this browser were made on version " + kept.base_version + " and were dropped: this is version " + config.base_version + ".");
      return;
    }
    let count = 0;
    Object.keys(kept.changes || {}).forEach(function (key) {
      const m = marks.find(function (x) { return x.key === key; });
      if (!m || m.category === HIDDEN) { return; }
      m.decision = kept.changes[key].decision;
      m.reason = kept.changes[key].reason;
      record(m);
      count++;
    });
    (kept.added || []).forEach(function (box) {
      added.push(box);
      marks.push(Object.assign({key: "", group: "", decision: "accepted", manual: ""}, box));
      count++;
    });
    if (count) { say(count + " unsaved decision" + (count === 1 ? "" : "s") + " restored from this browser: save them to keep them."); }
  }
  document.addEventListener("rrq:claim", function (event) {
    // Claimed again: the kept decisions move to the new claim.
    forget();
    storeKey = STORE_PREFIX + event.detail.to;
    keep();
  });
  function select(i, focus) {
    if (!marks.length) { return; }
    if (i >= marks.length && current >= 0) { say("Past the last mark: back to the first."); }
    if (i < 0 && current >= 0) { say("Before the first mark: on to the last."); }
    current = (i + marks.length) % marks.length;
    render();
    const el = document.querySelector('.mark[data-index="' + current + '"]');
    if (el && focus !== false) {
      el.focus({preventScroll: true});
      ourScroll(el, {block: "center", inline: "center"});
      showPage(marks[current].page);
    }
    // The list follows the current mark (scrolling the list only, never the window).
    reveal(list.closest("aside"), list.children[current]);
  }
  function nextUndecided() {
    for (let step = 1; step <= marks.length; step++) {
      const i = (current + step + marks.length) % marks.length;
      if (marks[i].decision === "pending" && marks[i].category !== HIDDEN) { select(i); return; }
    }
    say("Every mark is decided.");
  }
  function decide(decision, wholeGroup, focus) {
    if (config.read_only || current < 0) { return; }
    const target = marks[current];
    if (target.category === HIDDEN) {
      say("Hidden content is always removed from the release. Draw a box over what matters, or escalate.");
      return;
    }
    let count = 0;
    marks.forEach(function (m) {
      if (m.category !== HIDDEN && (m === target || (wholeGroup && m.group && m.group === target.group))) {
        m.decision = decision;
        record(m);
        count++;
      }
    });
    select(current, focus);
    if (wholeGroup) { say(count + " mark" + (count === 1 ? "" : "s") + " of this group " + decision + "."); }
  }
  // A whole group, page or category at once: every place the selected mark's text is
  // written, every mark on its page, or of its category, gets the decision (hidden
  // content stays removed).
  document.querySelectorAll(".bulk button").forEach(function (button) {
    button.addEventListener("click", function () {
      if (current < 0) { say("Select a mark first (j, or click one)."); return; }
      const target = marks[current];
      const scope = button.dataset.scope;
      let count = 0;
      marks.forEach(function (m) {
        const inScope = scope === "page" ? m.page === target.page
          : scope === "group" ? m === target || (Boolean(m.group) && m.group === target.group)
          : m.category === target.category;
        if (inScope && m.category !== HIDDEN) { m.decision = button.dataset.decision; record(m); count++; }
      });
      select(current);
      say(count + " mark" + (count === 1 ? "" : "s") + " " + button.dataset.decision + ".");
    });
  });
  function page(step) { goPage(viewed + step); }

  // ---- Moving in long documents: thumbnails, page indicator and jump, zoom.
  const pagesEl = document.getElementById("pages");
  const figures = Array.from(document.querySelectorAll("#pages .page"));
  const thumbLinks = Array.from(document.querySelectorAll("#thumbs a"));
  const indicator = document.getElementById("page-indicator");
  const jumpForm = document.getElementById("page-jump-form");
  const jumpInput = document.getElementById("page-jump");
  const bars = document.getElementById("bars");
  let viewed = 0;          // the page being read (shown in the indicator)
  let ourScrollY = null;   // where a scroll we caused left the window: it named its page itself

  // Scroll `el` into view inside `box` only: the window stays where it is (at narrow
  // widths the list and the thumbnails are not beside the page).
  function reveal(box, el) {
    if (!box || !el) { return; }
    const b = box.getBoundingClientRect();
    const r = el.getBoundingClientRect();
    if (r.top < b.top) { box.scrollTop -= b.top - r.top; }
    else if (r.bottom > b.bottom) { box.scrollTop += Math.min(r.bottom - b.bottom, r.top - b.top); }
    if (r.left < b.left) { box.scrollLeft -= b.left - r.left; }
    else if (r.right > b.right) { box.scrollLeft += Math.min(r.right - b.right, r.left - b.left); }
  }
  function ourScroll(el, how) { el.scrollIntoView(how); ourScrollY = window.scrollY; }
  function showPage(number) {
    viewed = Math.max(0, Math.min(figures.length - 1, number));
    indicator.textContent = "Page " + (viewed + 1) + " of " + figures.length;
    thumbLinks.forEach(function (a) {
      if (Number(a.dataset.page) === viewed) { a.setAttribute("aria-current", "page"); }
      else { a.removeAttribute("aria-current"); }
    });
    reveal(document.getElementById("thumbs"), thumbLinks[viewed]);
  }
  function goPage(number) {
    if (!figures.length) { return; }
    number = Math.max(0, Math.min(figures.length - 1, number));
    ourScroll(figures[number], {block: "start"});
    figures[number].focus({preventScroll: true});
    showPage(number);
  }
  // The page being read is the one under a line a third of the way down the space the
  // bars leave free.
  function pageAtReadingLine() {
    const top = bars ? bars.getBoundingClientRect().bottom : 0;
    const line = Math.max(0, top) + (window.innerHeight - Math.max(0, top)) / 3;
    let found = 0;
    figures.forEach(function (f, i) { if (f.getBoundingClientRect().top <= line) { found = i; } });
    return found;
  }
  let scrollQueued = false;
  window.addEventListener("scroll", function () {
    if (scrollQueued) { return; }
    scrollQueued = true;
    requestAnimationFrame(function () {
      scrollQueued = false;
      if (window.scrollY !== ourScrollY) { ourScrollY = null; showPage(pageAtReadingLine()); }
    });
  }, {passive: true});
  thumbLinks.forEach(function (a) {
    a.addEventListener("click", function (event) { event.preventDefault(); goPage(Number(a.dataset.page)); });
  });
  if (jumpForm) {
    jumpForm.addEventListener("submit", function (event) {
      event.preventDefault();
      const number = parseInt(jumpInput.value, 10);
      if (!(number >= 1 && number <= figures.length)) {
        say("There is no page " + jumpInput.value + ": this document has " + figures.length + " pages.");
        return;
      }
      jumpInput.value = "";
      goPage(number - 1);  // the page takes the focus: j, k and n go on from there
    });
  }
  // j and k go on from the page being read when the reviewer has moved away from the
  // current mark (by a page jump, a thumbnail or scrolling).
  function stepFrom(step) {
    if (current >= 0 && marks[current].page === viewed) { return current + step; }
    if (step > 0) {
      const next = marks.findIndex(function (m) { return m.page >= viewed; });
      return next >= 0 ? next : marks.length;  // past the end: select() wraps and says so
    }
    let before = -1;
    marks.forEach(function (m, i) { if (m.page <= viewed) { before = i; } });
    return before;
  }

  // Zoom: "fit width" is 100 %; the pages grow or shrink around the page being read,
  // and zoomed-in pages load a sharper image.
  const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3];
  let zoom = 1;
  function pageSources() {
    const preview = Boolean(toggleBox && toggleBox.checked);
    figures.forEach(function (f) {
      const img = f.querySelector("img");
      const params = [];
      if (preview) { params.push("preview=1", "v=" + img.dataset.version); }
      if (zoom > 1.25) { params.push("size=large"); }
      // Claimed again: the pages are drawn anew, under the new claim.
      if (config.claim_id !== firstClaim) { params.push("claim=" + config.claim_id); }
      const src = img.dataset.base + (params.length ? "?" + params.join("&") : "");
      if (img.getAttribute("src") !== src) { img.src = src; }
    });
  }
  function zoomTo(value) {
    const keep = viewed;
    zoom = value;
    pagesEl.style.setProperty("--zoom", String(zoom));
    document.getElementById("zoom-level").textContent = zoom === 1 ? "fit width" : Math.round(zoom * 100) + " %";
    document.getElementById("zoom-out").disabled = zoom === ZOOMS[0];
    document.getElementById("zoom-in").disabled = zoom === ZOOMS[ZOOMS.length - 1];
    pageSources();
    goPage(keep);
  }
  function zoomBy(step) {
    const at = ZOOMS.indexOf(zoom);
    zoomTo(ZOOMS[Math.max(0, Math.min(ZOOMS.length - 1, at + step))]);
  }
  document.getElementById("zoom-in").addEventListener("click", function () { zoomBy(1); });
  document.getElementById("zoom-out").addEventListener("click", function () { zoomBy(-1); });
  document.getElementById("zoom-fit").addEventListener("click", function () { zoomTo(1); });
  // The bars stay on top while scrolling: pages and the mark list start below them.
  if (bars && window.ResizeObserver) {
    new ResizeObserver(function () {
      document.documentElement.style.setProperty("--bars", bars.offsetHeight + "px");
    }).observe(bars);
  }

  // Single-key shortcuts can be turned off (they clash with screen readers and speech
  // input); the choice is kept in this browser.
  const shortcutsBox = document.getElementById("shortcuts-toggle");
  if (shortcutsBox) {
    shortcutsBox.checked = localStorage.getItem("rrq-shortcuts") !== "off";
    shortcutsBox.addEventListener("change", function () {
      localStorage.setItem("rrq-shortcuts", shortcutsBox.checked ? "on" : "off");
    });
  }
  document.addEventListener("keydown", function (event) {
    if (keyBox) { keyBoxKey(event); return; }
    if (shortcutsBox && !shortcutsBox.checked) { return; }
    if (event.target.closest("input, select, textarea, dialog") || event.ctrlKey || event.metaKey || event.altKey) { return; }
    const actions = {
      j: function () { select(stepFrom(1)); },
      k: function () { select(stepFrom(-1)); },
      a: function () { decide("accepted", false); },
      r: function () { decide("rejected", false); },
      g: function () { if (current >= 0) { decide(marks[current].decision, true); } },
      A: function () { decide("accepted", true); },
      R: function () { decide("rejected", true); },
      u: nextUndecided,
      n: function () { page(1); },
      p: function () { page(-1); },
      "#": function () { jumpInput.focus(); jumpInput.select(); },
      b: function () { startKeyBox(); },
      "+": function () { zoomBy(1); },
      "=": function () { zoomBy(1); },
      "-": function () { zoomBy(-1); },
      "0": function () { zoomTo(1); },
      "?": function () { document.getElementById("help").showModal(); },
    };
    if (actions[event.key]) { event.preventDefault(); actions[event.key](); }
  });
  // Leaving with decisions not yet saved asks first.
  window.addEventListener("beforeunload", function (event) {
    if (dirty() && !saving) { event.preventDefault(); event.returnValue = ""; }
  });
  const helpButton = document.getElementById("help-button");
  if (helpButton) { helpButton.addEventListener("click", function () { document.getElementById("help").showModal(); }); }

  // Preview: the page images of the redacted preview, made by the release's own burn-in.
  // The preview also marks everything the burn-in takes away: MuPDF removes whole
  // glyphs (and whole drawings) that a box only touches, so a box clipping a line
  // removes the line's full height. Those areas come from the burn-in itself.
  (config.removed || []).forEach(function (area) {
    const el = document.createElement("div");
    el.className = "removed";
    el.setAttribute("aria-hidden", "true");
    placeSketch(el, area);
    const overlay = document.querySelector("#page-" + area.page + " .overlay");
    if (overlay) { overlay.appendChild(el); }
  });
  if (toggleBox) {
    toggleBox.addEventListener("change", function () {
      document.getElementById("pages").classList.toggle("preview", toggleBox.checked);
      pageSources();
      if (toggleBox.checked) {
        const count = (config.removed || []).length;
        say("Preview: the hatched areas (" + count + ") are what the release removes, whole letters and lines a box touches included.");
      }
      if (toggleBox.checked && dirty()) { say("The preview shows the last saved version. Save decisions to see your changes."); }
    });
  }

  // Drawing a new box. With the mouse: press "Draw box", then drag on a page. With the
  // keyboard: b (or "Draw box" pressed with Enter or Space) puts a box on the page being
  // read; the arrows move it, Shift and the arrows size it, Enter finishes it and asks for
  // its category and legal reason, Escape drops it.
  const drawButton = document.getElementById("draw");
  let sketch = null;     // a box being dragged with the mouse
  let keyBox = null;     // a box being drawn with the keyboard
  if (drawButton) {
    drawButton.addEventListener("click", function (event) {
      if (event.detail === 0) { startKeyBox(); return; }  // pressed from the keyboard
      const on = drawButton.getAttribute("aria-pressed") !== "true";
      drawButton.setAttribute("aria-pressed", String(on));
      document.getElementById("pages").classList.toggle("drawing", on);
    });
  }
  // Ask for the new box's category and reason, then add it as an accepted mark.
  function askForMark(pageNumber, box, cancelled) {
    const dialog = document.getElementById("new-mark");
    document.getElementById("new-mark-page").textContent = pageNumber + 1;
    dialog.returnValue = "";
    dialog.showModal();
    dialog.addEventListener("close", function onClose() {
      dialog.removeEventListener("close", onClose);
      const category = document.getElementById("new-category").value;
      const reason = document.getElementById("new-reason").value;
      if (dialog.returnValue !== "ok") { if (cancelled) { cancelled(); } return; }
      if (!category || !reason) { say("A new box needs a category and a legal reason."); return; }
      const mark = Object.assign({page: pageNumber, category: category, reason: reason}, box);
      added.push(mark);
      marks.push(Object.assign({key: "", group: "", decision: "accepted", manual: ""}, mark));
      select(marks.length - 1);
      say("Box added on page " + (pageNumber + 1) + ". Save decisions to keep it.");
    });
  }
  function placeSketch(el, box) {
    Object.assign(el.style, {left: box.left * 100 + "%", top: box.top * 100 + "%",
      width: box.width * 100 + "%", height: box.height * 100 + "%"});
  }
  document.querySelectorAll(".page .overlay").forEach(function (overlay) {
    overlay.addEventListener("mousedown", function (event) {
      if (!document.getElementById("pages").classList.contains("drawing") || event.target !== overlay) { return; }
      const rect = overlay.getBoundingClientRect();
      sketch = {overlay: overlay, rect: rect, x: event.clientX - rect.left, y: event.clientY - rect.top, el: document.createElement("div")};
      sketch.el.className = "sketch";
      overlay.appendChild(sketch.el);
      event.preventDefault();
    });
  });
  document.addEventListener("mousemove", function (event) {
    if (!sketch) { return; }
    const x = Math.min(Math.max(event.clientX - sketch.rect.left, 0), sketch.rect.width);
    const y = Math.min(Math.max(event.clientY - sketch.rect.top, 0), sketch.rect.height);
    sketch.box = {left: Math.min(x, sketch.x) / sketch.rect.width, top: Math.min(y, sketch.y) / sketch.rect.height,
      width: Math.abs(x - sketch.x) / sketch.rect.width, height: Math.abs(y - sketch.y) / sketch.rect.height};
    placeSketch(sketch.el, sketch.box);
  });
  document.addEventListener("mouseup", function () {
    if (!sketch) { return; }
    const done = sketch;
    sketch = null;
    done.el.remove();
    if (!done.box || done.box.width < 0.005 || done.box.height < 0.003) { return; }
    askForMark(Number(done.overlay.parentElement.dataset.page), done.box);
  });

  const KEY_STEP = 0.01;  // a hundredth of the page a key press
  function startKeyBox() {
    if (config.read_only || keyBox || !figures.length) { return; }
    const figure = figures[viewed];
    // Start in the middle of the part of the page that is on screen.
    const rect = figure.getBoundingClientRect();
    const top = bars ? Math.max(0, bars.getBoundingClientRect().bottom) : 0;
    const visibleTop = Math.max(rect.top, top);
    const visibleBottom = Math.min(rect.bottom, window.innerHeight);
    const middle = visibleBottom > visibleTop ? ((visibleTop + visibleBottom) / 2 - rect.top) / rect.height : 0.5;
    const box = {left: 0.1, width: 0.3, height: 0.03, top: Math.min(0.97, Math.max(0, middle - 0.015))};
    const el = document.createElement("div");
    el.className = "sketch keyboard";
    el.tabIndex = -1;
    el.setAttribute("role", "img");
    placeSketch(el, box);
    figure.querySelector(".overlay").appendChild(el);
    keyBox = {page: viewed, box: box, el: el, back: document.activeElement};
    describeKeyBox();
    el.focus({preventScroll: true});
    say("New box on page " + (viewed + 1) + ": the arrows move it, Shift and the arrows size it, Enter finishes it, Escape drops it.");
  }
  function describeKeyBox() {
    const b = keyBox.box;
    keyBox.el.setAttribute("aria-label", "New box on page " + (keyBox.page + 1) + ", " +
      Math.round(b.left * 100) + "% from the left, " + Math.round(b.top * 100) + "% from the top, " +
      Math.round(b.width * 100) + "% wide, " + Math.round(b.height * 100) + "% high");
  }
  function endKeyBox(commit) {
    const done = keyBox;
    keyBox = null;
    done.el.remove();
    const back = function () { if (done.back && done.back.isConnected) { done.back.focus({preventScroll: true}); } };
    if (!commit) { say("New box dropped."); back(); return; }
    askForMark(done.page, done.box, back);
  }
  // While a box is drawn from the keyboard, these keys belong to it (whatever the
  // single-key setting: they are not single-character shortcuts).
  function keyBoxKey(event) {
    const b = keyBox.box;
    const round = function (v) { return Math.round(v * 1000) / 1000; };
    const moves = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]};
    if (event.key === "Enter") { endKeyBox(true); }
    else if (event.key === "Escape") { endKeyBox(false); }
    else if (moves[event.key] && event.shiftKey) {
      b.width = round(Math.min(1 - b.left, Math.max(KEY_STEP, b.width + moves[event.key][0] * KEY_STEP)));
      b.height = round(Math.min(1 - b.top, Math.max(KEY_STEP / 2, b.height + moves[event.key][1] * KEY_STEP)));
    } else if (moves[event.key]) {
      b.left = round(Math.min(1 - b.width, Math.max(0, b.left + moves[event.key][0] * KEY_STEP)));
      b.top = round(Math.min(1 - b.height, Math.max(0, b.top + moves[event.key][1] * KEY_STEP)));
    } else { return; }
    event.preventDefault();
    event.stopPropagation();
    if (keyBox) { placeSketch(keyBox.el, b); describeKeyBox(); }
  }

  const newReason = document.getElementById("new-reason");
  if (newReason) {
    newReason.addEventListener("change", function () {
      const chosen = newReason.selectedOptions[0];
      document.getElementById("new-reason-text").textContent = chosen ? (chosen.dataset.description || "") : "";
    });
  }

  async function post(url, body, json) {
    const response = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: Object.assign({"X-CSRFToken": csrf()}, json ? {"Content-Type": "application/json"} : {}),
      body: json ? JSON.stringify(body) : new URLSearchParams(body),
    });
    let data = {};
    try { data = await response.json(); } catch (e) { data = {message: "unexpected answer"}; }
    return {ok: response.ok, status: response.status, data: data};
  }

  const saveButton = document.getElementById("save");
  if (saveButton) {
    saveButton.addEventListener("click", async function () {
      if (!dirty()) { say("Nothing to save."); return; }
      saveButton.disabled = true;
      const result = await post(config.decisions_url, {
        claim_id: config.claim_id, base_version: config.base_version, changes: changes, added: added,
      }, true);
      saveButton.disabled = false;
      if (result.ok) { saving = true; forget(); window.location.assign(result.data.reload); return; }
      say(result.data.message || "Saving failed.");
    });
  }
  const approveForm = document.getElementById("approve-form");
  if (approveForm) {
    approveForm.addEventListener("submit", function (event) {
      if (dirty()) { event.preventDefault(); say("Save decisions first: approval covers the saved version only."); }
    });
  }

  // Heartbeat: keeps the lease while the page is open; an abandoned tab lets it lapse.
  if (!config.read_only) {
    const lease = document.getElementById("lease");
    const warning = document.getElementById("lease-warning");
    const warningText = document.getElementById("lease-warning-text");
    const extendButton = document.getElementById("extend");
    const againButton = document.getElementById("claim-again");
    const WARN_MS = 3 * 60 * 1000;  // warn this long before the lease ends
    let lost = false;     // the server said the claim is gone
    let asked = false;    // after the lease ran out, the server was asked once if the item is free
    async function heartbeat() {
      const before = Date.parse(lease.getAttribute("datetime"));
      const result = await post(config.heartbeat_url, {claim_id: config.claim_id}, false);
      if (!result.ok) {
        if (result.data.code === "claim_lost") { leaseEnded(Boolean(result.data.claim_again)); }
        else { say(result.data.message || "Your claim was lost."); }
        return false;
      }
      lease.setAttribute("datetime", result.data.expires_at);
      leaseCheck();
      if (result.data.hold && result.data.hold !== "none" && result.data.hold !== config.hold) {
        config.hold = result.data.hold;
        const badge = document.getElementById("hold-now");
        badge.textContent = result.data.hold.replace(/_/g, " ");
        badge.hidden = false;
        say("A hold (" + result.data.hold.replace(/_/g, " ") + ") was placed on this item: it cannot be approved while the hold lasts. Save your decisions.");
      }
      return Date.parse(result.data.expires_at) > before;
    }
    // The lease runs out only where the policy caps it (or the page slept): say so in
    // time, and let the reviewer extend it by hand.
    function leaseCheck() {
      if (lost) { return; }
      const left = Date.parse(lease.getAttribute("datetime")) - Date.now();
      if (left > WARN_MS) { warning.hidden = true; return; }
      warning.hidden = false;
      if (left > 0) {
        warningText.textContent = "Your lease ends in " + Math.max(1, Math.round(left / 60000)) + " min: save your decisions.";
        extendButton.hidden = false;
        againButton.hidden = true;
        return;
      }
      warningText.textContent = "Your lease has ended: decisions can no longer be saved.";
      extendButton.hidden = true;
      // Ask the server (a heartbeat answers with whether the item is still free).
      if (!asked) { asked = true; heartbeat(); }
    }
    // The claim is gone: offer to claim the same item again when nobody else has it and
    // no hold stops it. The decisions made on this page stay as they are.
    function leaseEnded(free) {
      const first = !lost;
      lost = true;
      warning.hidden = false;
      extendButton.hidden = true;
      againButton.hidden = !free;
      warningText.textContent = free
        ? "Your lease has ended: decisions can no longer be saved. The item is still free: claim it again to go on, your decisions are kept."
        : "Your lease has ended and the item was claimed by someone else or put on hold: your decisions can no longer be saved.";
      if (first) { say(warningText.textContent); }
    }
    extendButton.addEventListener("click", async function () {
      const extended = await heartbeat();
      if (lost) { return; }
      if (!extended) { say("The lease cannot be extended past its limit: save your decisions now."); }
      else { say("Lease extended."); }
    });
    againButton.addEventListener("click", async function () {
      againButton.disabled = true;
      const result = await post(config.claim_again_url, {}, false);
      againButton.disabled = false;
      if (!result.ok) {
        leaseEnded(false);
        say(result.data.message || "The item cannot be claimed again.");
        return;
      }
      const previous = config.claim_id;
      config.claim_id = result.data.claim_id;
      document.querySelectorAll('input[name="claim_id"]').forEach(function (input) { input.value = result.data.claim_id; });
      lease.setAttribute("datetime", result.data.expires_at);
      lost = false;
      asked = false;
      document.dispatchEvent(new CustomEvent("rrq:claim", {detail: {from: previous, to: result.data.claim_id}}));
      pageSources();
      leaseCheck();
      againButton.hidden = true;
      say(result.data.version === config.base_version
        ? "Claimed again: your decisions are kept. Save them."
        : "Claimed again, but the item was changed meanwhile (now version " + result.data.version + "): reload to see it; your decisions here cannot be saved over it.");
    });
    setInterval(heartbeat, config.heartbeat_seconds * 1000);
    setInterval(leaseCheck, 10 * 1000);
    leaseCheck();
  }

  restore();
  render();
  showPage(pageAtReadingLine());
})();
