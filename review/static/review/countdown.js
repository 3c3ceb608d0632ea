// Live countdowns for every <time class="countdown" datetime="...">.
(function () {
  function format(ms) {
    const sign = ms < 0 ? "overdue " : "";
    let s = Math.abs(Math.round(ms / 1000));
    const d = Math.floor(s / 86400); s %= 86400;
    const h = Math.floor(s / 3600); s %= 3600;
    const m = Math.floor(s / 60); s %= 60;
    return sign + (d ? d + "d " : "") + String(h).padStart(2, "0") + ":" +
      String(m).padStart(2, "0") + ":" + String(s).padStart(2, "0");
  }
  function tick() {
    document.querySelectorAll("time.countdown").forEach(function (el) {
      const left = new Date(el.getAttribute("datetime")) - new Date();
      el.textContent = format(left);
      el.classList.toggle("overdue", left < 0);
    });
  }
  tick();
  setInterval(tick, 1000);
})();
