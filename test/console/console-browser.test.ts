import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinTools } from "../../src/builtin/index.js";
import {
  PendingApprovalStatus,
  type RunningConsole,
  startConsole,
} from "../../src/console/index.js";
import { ToolRegistry } from "../../src/registry/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { AgentProcess, eventually, processAlive } from "./console-helpers.js";

// The whole console in a real browser (Debian's chromium through playwright-core), against an
// agent in another process on the same SQLite file. Screenshots of each page go to docs/.

const folder = mkdtempSync(join(tmpdir(), "aintern-console-browser-"));
const workspace = join(folder, "workspace");
const storeUrl = `sqlite:${join(folder, "aintern.db")}`;
// AINTERN_SCREENSHOTS=1 refreshes the screenshots in docs/; other runs leave docs/ untouched.
const docs =
  process.env.AINTERN_SCREENSHOTS === "1" ? join(import.meta.dirname, "../../docs") : folder;
let store: Store;
let agent: AgentProcess;
let consoleServer: RunningConsole;
let browser: Browser;
let page: Page;

const runs = () => {
  try {
    return readFileSync(join(workspace, "runs.log"), "utf8")
      .split("\n")
      .filter((l) => l !== "");
  } catch {
    return [];
  }
};

async function pendingFor(callKey: string) {
  return eventually(async () => {
    const [row] = await store.approvals.list({ callKey, status: PendingApprovalStatus.Pending });
    return row;
  });
}

async function card(callKey: string) {
  const row = await pendingFor(callKey);
  const locator = page.locator(`#approval-${row.id}`);
  try {
    await locator.waitFor({ state: "visible", timeout: 5_000 });
  } catch {
    // The live update is tested by the cards that do appear; a missed one is loaded again.
    await page.reload();
    await locator.waitFor({ state: "visible", timeout: 5_000 });
  }
  return locator;
}

beforeAll(async () => {
  const { mkdirSync } = await import("node:fs");
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, "notes.txt"), "first line\nsecond line\nthird line\n");
  store = await openStore(storeUrl);
  const registry = new ToolRegistry({ tools: builtinTools() });
  consoleServer = await startConsole({
    store,
    listen: "127.0.0.1:0",
    operator: "Ada Reviewer",
    getTool: (id) => registry.getTool(id),
  });
  agent = new AgentProcess(storeUrl, workspace, "session-browser");
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  await page.goto(consoleServer.loginUrl);
  await agent.ready;
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await agent?.stop();
  await consoleServer?.close();
  await store?.close();
  rmSync(folder, { recursive: true, force: true });
});

// A generous timeout per test: each one waits on another process and a browser, and the machine
// is shared; no test asserts a duration.
describe("the console in a browser, with an agent in another process", { timeout: 60_000 }, () => {
  it("refuses a request without the token, and a state change without the CSRF token or from another origin", async () => {
    const bare = await fetch(`${consoleServer.url}/approvals`);
    expect(bare.status).toBe(401);
    expect(await bare.text()).not.toContain("Pending approvals</h2>");
    const wrong = await fetch(`${consoleServer.url}/approvals`, {
      headers: { cookie: "aintern_console=nope" },
    });
    expect(wrong.status).toBe(401);
    const auth = { authorization: `Bearer ${consoleServer.token}` };
    const ok = await fetch(`${consoleServer.url}/approvals`, { headers: auth });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(ok.headers.get("content-security-policy")).not.toContain("unsafe-inline");
    const noCsrf = await fetch(`${consoleServer.url}/permissions/x/revoke`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(noCsrf.status).toBe(403);
    const csrf = (await ok.text()).match(/name="csrf-token" content="([^"]+)"/)?.[1] ?? "";
    const foreign = await fetch(`${consoleServer.url}/permissions/x/revoke`, {
      method: "POST",
      headers: {
        ...auth,
        origin: "http://evil.example",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: `_csrf=${csrf}`,
    });
    expect(foreign.status).toBe(403);
    const good = await fetch(`${consoleServer.url}/permissions/x/revoke`, {
      method: "POST",
      redirect: "manual",
      headers: { ...auth, "content-type": "application/x-www-form-urlencoded" },
      body: `_csrf=${csrf}`,
    });
    expect(good.status).toBe(303);
  });

  it("approves with the keyboard on the focused card", async () => {
    await page.goto(`${consoleServer.url}/approvals`);
    const answer = agent.call("call-keyboard", "append-line", { line: "by keyboard" });
    const target = await card("call-keyboard");
    await target.focus();
    await page.keyboard.press("a");
    expect((await answer).status).toBe("Completed");
  });

  it("sends the reason of a denial to the model", async () => {
    await page.goto(`${consoleServer.url}/approvals`);
    const answer = agent.call("call-deny", "append-line", { line: "nope" });
    const target = await card("call-deny");
    await target.getByLabel("Reason for the model").fill("Use the staging log instead");
    await target.getByRole("button", { name: "Deny" }).click();
    const done = await answer;
    expect(done.status).toBe("Denied");
    expect(done.content).toContain("Use the staging log instead");
    expect(runs()).not.toContain("nope");
  });

  it("shows the validation error of an edited argument and does not run it", async () => {
    await page.goto(`${consoleServer.url}/approvals`);
    const answer = agent.call("call-edit", "append-line", { line: "original" });
    const target = await card("call-edit");
    await target.getByText("Edit arguments").click();
    await target.getByLabel("Arguments (JSON)").fill('{"line": 42, "extra": true}');
    await target.getByRole("button", { name: "Approve with these arguments" }).click();
    const errors = page.locator(".errors");
    await errors.waitFor();
    const text = await errors.textContent();
    expect(text).toMatch(/line/);
    const [row] = await store.approvals.list({ callKey: "call-edit" });
    expect(row?.status).toBe("pending");
    expect(runs()).not.toContain("42");
    // A valid edit then runs with the edited arguments.
    const fresh = page.locator(`#approval-${row?.id}`);
    await fresh.getByLabel("Arguments (JSON)").fill('{"line": "edited"}');
    await fresh.getByRole("button", { name: "Approve with these arguments" }).click();
    expect((await answer).status).toBe("Completed");
    expect(runs()).toContain("edited");
    expect(runs()).not.toContain("original");
  });

  it("approves the exact arguments asked about when the editable arguments are submitted untouched", async () => {
    await page.goto(`${consoleServer.url}/approvals`);
    // Right-to-left letters and a bidirectional override: drawn as they are, they reorder the
    // text around them; the editable arguments hold them as JSON escapes instead.
    const line = "cat \u05d0 > \u05d1 #\u202e ~ fr- mr\u202c";
    const answer = agent.call("call-exact", "append-line", { line });
    const target = await card("call-exact");
    await target.getByText("Edit arguments").click();
    const field = target.getByLabel("Arguments (JSON)");
    expect(await field.inputValue()).toContain("cat \\u05d0 > \\u05d1 #\\u202e");
    await target.getByRole("button", { name: "Approve with these arguments" }).click();
    expect((await answer).status).toBe("Completed");
    expect(runs()).toContain(line);
  });

  it("shows the diff of a file-write against the current file", async () => {
    await page.goto(`${consoleServer.url}/approvals`);
    const answer = agent.call("call-write", "file-write", {
      path: "notes.txt",
      overwrite: true,
      content: "first line\nsecond line, changed\nthird line\n",
    });
    const target = await card("call-write");
    await target.locator(".d2h-wrapper").waitFor();
    await page.screenshot({ path: join(docs, "console-approvals.png"), fullPage: true });
    const diffText = (await target.locator(".d2h-wrapper").textContent()) ?? "";
    expect(diffText).toContain("second line");
    expect(diffText).toContain("second line, changed");
    expect(await target.locator(".d2h-del").count()).toBeGreaterThan(0);
    expect(await target.locator(".d2h-ins").count()).toBeGreaterThan(0);
    await target.screenshot({ path: join(docs, "console-file-write-diff.png") });
    await target.getByRole("button", { name: "Approve once" }).click();
    expect((await answer).status).toBe("Completed");
    expect(readFileSync(join(workspace, "notes.txt"), "utf8")).toContain("changed");
  });

  it("shows an XSS payload in the arguments as text", async () => {
    let alerted = false;
    page.on("dialog", (dialog) => {
      alerted = true;
      void dialog.dismiss();
    });
    await page.goto(`${consoleServer.url}/approvals`);
    const payload = `<script>alert(1)</script><img src=x onerror="alert(2)">`;
    const answer = agent.call("call-xss", "file-write", {
      path: `x${payload}.txt`,
      content: payload,
      overwrite: true,
    });
    const target = await card("call-xss");
    expect(await target.locator("pre").first().textContent()).toContain(
      "<script>alert(1)</script>",
    );
    expect(await target.locator("img").count()).toBe(0);
    expect(await target.locator("script").count()).toBe(0);
    expect(alerted).toBe(false);
    await target.getByRole("button", { name: "Deny" }).click();
    expect((await answer).status).toBe("Denied");
  });

  it("cancels a hung process-isolated tool from the console, and its process is killed", async () => {
    await page.goto(`${consoleServer.url}/executions`);
    const answer = agent.call("call-hung", "busy-loop", {});
    const running = await eventually(async () => {
      const [execution] = await store.executions.list();
      return execution?.message?.includes("pid") === true ? execution : undefined;
    });
    const pid = (JSON.parse(running.message ?? "{}") as { pid: number }).pid;
    expect(processAlive(pid)).toBe(true);
    const item = page.locator(`#execution-${running.executionId}`);
    await item.waitFor();
    await page.screenshot({ path: join(docs, "console-running.png"), fullPage: true });
    await item.getByRole("button", { name: "Cancel" }).click();
    const done = await answer;
    expect(done.status).toBe("Cancelled");
    await eventually(() => (processAlive(pid) ? undefined : true));
  });

  it("revokes a remembered permission", async () => {
    await page.goto(`${consoleServer.url}/approvals`);
    const answer = agent.call("call-always", "append-line", { line: "always" });
    const target = await card("call-always");
    await target.getByRole("button", { name: "Always approve this tool" }).click();
    expect((await answer).status).toBe("Completed");
    await page.goto(`${consoleServer.url}/permissions`);
    const row = page.locator("tbody tr", { hasText: "append-line" });
    await row.waitFor();
    await page.screenshot({ path: join(docs, "console-permissions.png"), fullPage: true });
    await row.getByRole("button", { name: /Revoke/ }).click();
    await page.getByText("No remembered permission.").waitFor();
    expect(await page.locator("tbody tr", { hasText: "append-line" }).count()).toBe(0);
    expect(await store.permissions.list({ toolId: "append-line" })).toEqual([]);
  });

  it("shows a waiting call live, approves it for the session, and the next identical call is not asked", async () => {
    await page.goto(`${consoleServer.url}/approvals`);
    const answer = agent.call("call-session-1", "append-line", { line: "hello" });
    const first = await card("call-session-1");
    await expect(first.locator(".badge").first().textContent()).resolves.toBe("Medium Risk");
    await expect(first.locator(".summary").textContent()).resolves.toContain("Append 'hello'");
    await first.getByRole("button", { name: "Approve for this session" }).click();
    const done = await answer;
    expect(done.status).toBe("Completed");
    // Who decided is recorded (the card that says so can be re-rendered by a live update).
    const [decided] = await store.approvals.list({ callKey: "call-session-1" });
    expect(decided).toMatchObject({ status: "approved", decidedBy: "Ada Reviewer" });
    const again = await agent.call("call-session-2", "append-line", { line: "hello" });
    expect(again.status).toBe("Completed");
    expect(await store.approvals.list({ callKey: "call-session-2" })).toEqual([]);
    expect(runs().filter((line) => line === "hello")).toEqual(["hello", "hello"]);
  });

  it("filters the history and exports it", async () => {
    await page.goto(`${consoleServer.url}/history`);
    await page.getByLabel("Tool").fill("file-write");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/tool=file-write/);
    const tools = await page
      .locator("table")
      .first()
      .locator("tbody tr td:nth-child(2)")
      .allTextContents();
    expect(tools.length).toBeGreaterThan(0);
    expect(new Set(tools)).toEqual(new Set(["file-write"]));
    await page.screenshot({ path: join(docs, "console-history.png"), fullPage: true });
    const auth = { authorization: `Bearer ${consoleServer.token}` };
    const jsonl = await (
      await fetch(`${consoleServer.url}/history/export.jsonl?tool=append-line`, { headers: auth })
    ).text();
    const rows = jsonl
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { toolName: string });
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.toolName === "append-line")).toBe(true);
    const csv = await (
      await fetch(`${consoleServer.url}/history/export.csv?tool=append-line`, { headers: auth })
    ).text();
    expect(csv.split("\r\n")[0]).toContain("executionId,toolName,status");
    // One call's story: request, decision, events, result.
    await page.goto(`${consoleServer.url}/calls/call-deny`);
    expect(await page.locator("main").textContent()).toContain("Use the staging log instead");
    await page.goto(`${consoleServer.url}/calls/call-edit`);
    const story = (await page.locator("main").textContent()) ?? "";
    expect(story).toContain("edited");
    expect(story).toContain("Completed");
  });

  it("reads on a phone-width screen", async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await phone.goto(consoleServer.loginUrl);
    const answer = agent.call("call-phone", "terminal-execute", {
      command: "npm test && git status",
    });
    const row = await pendingFor("call-phone");
    // The layout is what this test is about; the live arrival of a card is tested above.
    await phone.goto(`${consoleServer.url}/approvals`);
    await phone.locator(`#approval-${row.id}`).waitFor();
    const width = (await phone.evaluate("document.documentElement.scrollWidth")) as number;
    expect(width).toBeLessThanOrEqual(390);
    expect(await phone.locator(`#approval-${row.id} .segments li`).allTextContents()).toEqual([
      "npm test",
      "git status",
    ]);
    await phone.screenshot({ path: join(docs, "console-phone.png"), fullPage: true });
    await phone.locator(`#approval-${row.id}`).getByRole("button", { name: "Deny" }).click();
    expect((await answer).status).toBe("Denied");
    await phone.close();
  });
});
