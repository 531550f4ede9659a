import { allRiskLevels, RiskLevelMetadata } from "../core/index.js";

/**
 * The console's own script, served from `/static/console.js` (the CSP allows no inline script):
 * live updates over server-sent events, merging new approval cards without disturbing the one
 * being edited, and the keyboard shortcuts of a focused card.
 */
export const consoleScript = `(() => {
  "use strict";
  const live = document.getElementById("live-status");
  const say = (text) => { if (live) live.textContent = text; };
  const fetchFragment = async (url) => {
    const response = await fetch(url, { credentials: "same-origin", headers: { "HX-Request": "true" } });
    if (!response.ok) return null;
    const template = document.createElement("template");
    template.innerHTML = await response.text();
    return template.content;
  };
  const busy = (card) => card.contains(document.activeElement) &&
    ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement.tagName);
  function settleInPlace(card) {
    // Its height too: a note that made it taller would move the cards below it.
    card.style.height = card.getBoundingClientRect().height + "px";
    card.style.overflow = "hidden";
    card.classList.add("decided");
    for (const control of card.querySelectorAll("button, input, textarea, select")) control.disabled = true;
    const note = document.createElement("p");
    note.className = "meta";
    note.textContent = "No longer waiting: decided elsewhere, withdrawn or expired.";
    card.prepend(note);
  }
  async function refreshApprovals() {
    const list = document.getElementById("approval-list");
    if (!list) return;
    const fragment = await fetchFragment(list.dataset.src);
    if (!fragment) return;
    const fresh = new Map();
    for (const card of fragment.querySelectorAll("article.card")) fresh.set(card.id, card);
    let added = 0;
    for (const card of [...list.querySelectorAll("article.card")]) {
      if (card.classList.contains("decided")) continue;
      const next = fresh.get(card.id);
      // Gone (decided elsewhere, withdrawn): it keeps its place, so that no card moves under the
      // pointer and a click meant for one decides another.
      if (!next) { if (!busy(card)) settleInPlace(card); continue; }
      if (next.dataset.version !== card.dataset.version && !busy(card)) {
        card.replaceWith(next); window.htmx && htmx.process(next);
      }
      fresh.delete(card.id);
    }
    // New cards go after the others (the list is oldest first), never above the one a person
    // is about to click.
    for (const card of fresh.values()) {
      // A call asked again takes the place its settled card kept.
      const settled = document.getElementById(card.id);
      if (settled) settled.replaceWith(card); else list.append(card);
      window.htmx && htmx.process(card);
      added++;
    }
    const empty = document.getElementById("approvals-empty");
    if (empty) empty.hidden = list.querySelector("article.card") !== null;
    const count = list.querySelectorAll("article.card:not(.decided)").length;
    const badge = document.getElementById("pending-count");
    if (badge) badge.textContent = String(count);
    if (added > 0) say(added + " new call" + (added === 1 ? "" : "s") + " waiting for approval");
  }
  async function refreshExecutions() {
    const list = document.getElementById("execution-list");
    if (!list) return;
    const fragment = await fetchFragment(list.dataset.src);
    if (!fragment) return;
    list.replaceChildren(fragment);
    window.htmx && htmx.process(list);
  }
  if (window.EventSource && document.body.dataset.live === "true") {
    const events = new EventSource("/events");
    events.addEventListener("approvals", () => { void refreshApprovals(); });
    events.addEventListener("executions", () => { void refreshExecutions(); });
  }
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (!(target instanceof Element)) return;
    if (["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)) return;
    const card = target.closest("article.card");
    if (!card) return;
    const click = (selector) => { const b = card.querySelector(selector); if (b) { event.preventDefault(); b.click(); } };
    switch (event.key) {
      case "a": click("button[data-key=approve]"); break;
      case "s": click("button[data-key=session]"); break;
      case "d": { const r = card.querySelector("textarea[name=reason]"); if (r) { event.preventDefault(); r.focus(); } break; }
      case "j": case "k": {
        const cards = [...document.querySelectorAll("article.card")];
        const next = cards[cards.indexOf(card) + (event.key === "j" ? 1 : -1)];
        if (next) { event.preventDefault(); next.focus(); }
        break;
      }
    }
  });
  document.body.addEventListener("htmx:afterSwap", (event) => {
    const card = event.detail && event.detail.target;
    if (card instanceof Element && card.matches("article.card.decided")) card.focus();
  });
})();
`;

/** The console's styles, with the risk badge colours of `RiskLevelMetadata` (spec 001 a). */
export function consoleStyles(): string {
  const risk = allRiskLevels
    .map((level) => {
      const info = RiskLevelMetadata.getInfo(level);
      return `.risk-${level}{background:${info.color};color:#fff}.card.risk-border-${level}{border-left-color:${info.color}}`;
    })
    .join("\n");
  return `${baseStyles}\n${risk}\n`;
}

const baseStyles = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#111827;background:#f3f4f6}
header{background:#111827;color:#fff;padding:.5rem 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1.25rem;align-items:center}
header h1{font-size:1.05rem;margin:0}
header nav{display:flex;flex-wrap:wrap;gap:.25rem .9rem}
header a{color:#e5e7eb;text-decoration:none;padding:.2rem 0}
header a[aria-current=page]{color:#fff;border-bottom:2px solid #60a5fa}
header .who{margin-left:auto;color:#9ca3af;font-size:.85rem}
main{max-width:70rem;margin:0 auto;padding:1rem}
h2{font-size:1.2rem;margin:.25rem 0 .75rem}
.hint{color:#4b5563;font-size:.85rem}
.count{background:#2563eb;color:#fff;border-radius:999px;padding:0 .45rem;font-size:.8rem}
.card{background:#fff;border:1px solid #d1d5db;border-left:6px solid #9ca3af;border-radius:8px;padding:.85rem 1rem;margin:0 0 1rem}
.card:focus{outline:3px solid #2563eb;outline-offset:2px}
.card header{all:unset;display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.card h3{font-size:1.05rem;margin:0}
.badge{display:inline-block;border-radius:4px;padding:.05rem .45rem;font-size:.8rem;font-weight:600}
.summary{margin:.4rem 0;font-weight:500}
.meta{color:#4b5563;font-size:.85rem;margin:.2rem 0}
.warning{background:#fef2f2;border:1px solid #dc2626;color:#7f1d1d;border-radius:6px;padding:.5rem .75rem;margin:.5rem 0;font-weight:600}
.problem{background:#fffbeb;border:1px solid #f59e0b;border-radius:6px;padding:.4rem .75rem;margin:.5rem 0}
pre{background:#f9fafb;border:1px solid #e5e7eb;border-radius:6px;padding:.5rem;overflow:auto;max-height:22rem;white-space:pre-wrap;word-break:break-word;margin:.4rem 0}
.segments{margin:.3rem 0;padding-left:1.4rem}
.segments code{background:#eef2ff;padding:.05rem .3rem;border-radius:4px}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;align-items:flex-end;margin-top:.6rem}
.actions form{display:flex;flex-wrap:wrap;gap:.4rem;align-items:flex-end}
button{font:inherit;border:1px solid #9ca3af;background:#fff;border-radius:6px;padding:.35rem .7rem;cursor:pointer;min-height:2.2rem}
button:focus-visible,input:focus-visible,textarea:focus-visible,select:focus-visible,a:focus-visible{outline:3px solid #2563eb;outline-offset:1px}
button.primary{background:#15803d;border-color:#15803d;color:#fff}
button.danger{background:#b91c1c;border-color:#b91c1c;color:#fff}
label{display:flex;flex-direction:column;font-size:.85rem;gap:.15rem}
input,textarea,select{font:inherit;border:1px solid #9ca3af;border-radius:6px;padding:.3rem .45rem;max-width:100%}
textarea{width:100%;min-height:4rem}
textarea.args{min-height:9rem;font-family:ui-monospace,monospace;font-size:.85rem}
details{margin:.5rem 0}
summary{cursor:pointer;font-weight:500}
.errors{color:#991b1b;background:#fef2f2;border-radius:6px;padding:.4rem 1.5rem;margin:.4rem 0}
.ok{color:#14532d;background:#f0fdf4;border-radius:6px;padding:.4rem .75rem;margin:.4rem 0}
.decided{border-left-color:#6b7280;opacity:.9}
table{border-collapse:collapse;width:100%;background:#fff;font-size:.9rem}
th,td{border-bottom:1px solid #e5e7eb;padding:.4rem .5rem;text-align:left;vertical-align:top}
th{background:#f9fafb}
.table-wrap{overflow-x:auto}
.filters{display:flex;flex-wrap:wrap;gap:.5rem;align-items:flex-end;margin-bottom:.75rem;background:#fff;padding:.6rem;border-radius:8px;border:1px solid #e5e7eb}
progress{width:100%;height:1rem}
.pager{display:flex;gap:1rem;margin:.75rem 0}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.d2h-wrapper{font-size:.8rem}
article .d2h-code-line,article .d2h-code-line-ctn{white-space:pre-wrap;word-break:break-all;overflow-wrap:anywhere}
article .d2h-file-diff{overflow-x:hidden}
@media (max-width:640px){main{padding:.5rem}.card{padding:.6rem}header .who{margin-left:0}th,td{padding:.3rem}}
`;
