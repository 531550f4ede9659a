// A real MCP client's calls approved from a browser: `aintern mcp --approvals console --console`
// over stdio, driven by the official SDK client (one that cannot elicit), and the console in
// Debian's chromium through playwright-core.
import { access, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/store/index.js";
import {
  type ConsoleLink,
  connectStdio,
  consoleLinkOf,
  fixtureTools,
  makeWorkspace,
  newClient,
  textOf,
} from "../mcp/mcp-support.js";

let workspace: Awaited<ReturnType<typeof makeWorkspace>>;
let client: Client;
let link: ConsoleLink;
let browser: Browser;
let page: Page;
let store: Store;

/** The card of the pending approval whose arguments mention `text`, once the console shows it. */
async function cardFor(text: string) {
  const card = page.locator("article.card:not(.decided)", { hasText: text });
  try {
    await card.waitFor({ state: "visible", timeout: 10_000 });
  } catch {
    // The live update is the console suite's subject; a card it missed is loaded again.
    await page.reload();
    await card.waitFor({ state: "visible", timeout: 10_000 });
  }
  return card;
}

beforeAll(async () => {
  workspace = await makeWorkspace();
  await writeFile(
    join(workspace.path, "aintern.config.json"),
    JSON.stringify({ console: { operator: "Ada Reviewer" } }),
  );
  client = newClient(); // no elicitation: approvals go to the console
  const transport = await connectStdio(client, [
    "--workspace",
    workspace.path,
    // Named, so used as it is: found in the workspace, console.operator would need `aintern trust`.
    "--config",
    join(workspace.path, "aintern.config.json"),
    "--tools",
    "builtin",
    "--tools",
    fixtureTools,
    "--approvals",
    "console",
    "--console",
    "127.0.0.1:0",
  ]);
  link = await consoleLinkOf(transport);
  // The same SQLite file, read from this process: how many times a call was asked.
  store = await openStore(`sqlite:${workspace.path}/.aintern/audit.db`);
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  await page.goto(`${link.url}/login?token=${link.token}`);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await client?.close().catch(() => undefined);
  await store?.close();
  await workspace?.remove();
});

describe("an MCP client's calls approved in the console, in a browser", { timeout: 60_000 }, () => {
  it("shows the waiting call, approves it for the session, and the next identical call is not asked", async () => {
    await page.goto(`${link.url}/approvals`);
    const call = client.callTool({ name: "touch", arguments: { path: "from-browser" } });
    const card = await cardFor("from-browser");
    expect(await card.locator(".summary").textContent()).toContain("Touch from-browser");
    await card.getByRole("button", { name: "Approve for this session" }).click();
    const result = await call;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ touched: "from-browser" });
    const [asked] = await store.approvals.list({});
    expect(asked).toMatchObject({ status: "approved", decidedBy: "Ada Reviewer" });

    const again = await client.callTool({ name: "touch", arguments: { path: "from-browser" } });
    expect(again.structuredContent).toEqual({ touched: "from-browser" });
    // Asked once: the second call ran on the session's remembered approval.
    const rows = await store.approvals.list({});
    expect(rows.filter((r) => r.request.parameters.path === "from-browser")).toHaveLength(1);
    // The server writes its rows ahead to its journal and inserts them within 20 ms: this process
    // reads the table, so it may see the second row a moment after the answer.
    let audit = await store.audit.query({ toolName: "touch" });
    for (let wait = 0; audit.entries.length < 2 && wait < 100; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      audit = await store.audit.query({ toolName: "touch" });
    }
    expect(audit.entries.map((e) => e.decidedBy).sort()).toEqual(["Ada Reviewer", "remembered"]);
  });

  it("sends the reason of a denial in the browser to the model as the tool result", async () => {
    await page.goto(`${link.url}/approvals`);
    // Another tool (the session's approval above covers \`touch\` only), one that always asks.
    await writeFile(join(workspace.path, "plan.md"), "# Plan\n");
    const call = client.callTool({ name: "file-delete", arguments: { path: "plan.md" } });
    const card = await cardFor("plan.md");
    await card.getByLabel("Reason for the model").fill("Stay inside the project folder");
    await card.getByRole("button", { name: "Deny" }).click();
    const result = await call;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("Stay inside the project folder");
    await expect(access(join(workspace.path, "plan.md"))).resolves.toBeUndefined();
  });
});
