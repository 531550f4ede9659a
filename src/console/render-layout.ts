import { type Html, html } from "./html.js";

/** The pages of the console, for the navigation. */
export type ConsolePage = "approvals" | "executions" | "history" | "permissions";

const pages: readonly [ConsolePage, string, string][] = [
  ["approvals", "/approvals", "Pending approvals"],
  ["executions", "/executions", "Running"],
  ["history", "/history", "History"],
  ["permissions", "/permissions", "Remembered permissions"],
];

/** A whole page: navigation, the operator's name, the live region, the scripts. */
export function layout(options: {
  title: string;
  page?: ConsolePage;
  operator: string;
  csrf: string;
  live?: boolean;
  pendingCount?: number;
  body: Html;
}): Html {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="htmx-config" content='{"includeIndicatorStyles":false,"allowEval":false,"allowScriptTags":false}'>
<meta name="csrf-token" content="${options.csrf}">
<title>${options.title} · aintern console</title>
<link rel="stylesheet" href="/static/console.css">
<link rel="stylesheet" href="/static/diff2html.css">
<script src="/static/htmx.min.js" defer></script>
<script src="/static/console.js" defer></script>
</head><body data-live="${options.live === true ? "true" : "false"}">
<a class="visually-hidden" href="#main">Skip to content</a>
<header><h1>aintern console</h1><nav aria-label="Pages">${pages.map(
    ([id, href, label]) =>
      html`<a href="${href}" ${options.page === id ? html`aria-current="page"` : ""}>${label}${
        id === "approvals" && options.pendingCount !== undefined
          ? html` <span class="count" id="pending-count">${options.pendingCount}</span>`
          : ""
      }</a>`,
  )}</nav><span class="who">Signed in as ${options.operator}</span></header>
<main id="main"><p id="live-status" class="visually-hidden" role="status" aria-live="polite"></p>
${options.body}</main></body></html>`;
}
