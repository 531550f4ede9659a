// Red team, session 23: what a card shows must be what will be written, a card must not hold
// the console up, the pattern it offers must not cover every later call, and the console's
// token must guard it.
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinTools } from "../../src/builtin/index.js";
import { type ConsoleApp, createConsoleApp } from "../../src/console/index.js";
import { suggestedPattern } from "../../src/console/render-approval.js";
import type { JsonObject } from "../../src/core/index.js";
import { ToolRegistry } from "../../src/registry/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { approvalCard, waitingApproval } from "./console-helpers.js";

let store: Store;
let consoleApp: ConsoleApp;
let workspace: string;
let outside: string;
const registry = new ToolRegistry({ tools: builtinTools() });

beforeAll(async () => {
  store = await openStore("sqlite::memory:");
  consoleApp = createConsoleApp({ store, operator: "ada", getTool: (id) => registry.getTool(id) });
  workspace = await realpath(await mkdtemp(join(tmpdir(), "aintern-card-")));
  outside = await realpath(await mkdtemp(join(tmpdir(), "aintern-card-outside-")));
});

afterAll(async () => {
  consoleApp?.close();
  await store?.close();
  await rm(workspace, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

/** The card of a `file-write` call waiting in the console, for a workspace holding its file. */
async function cardFor(parameters: JsonObject): Promise<string> {
  const row = await waitingApproval(
    { approvals: store.approvals, registry, workspacePath: workspace },
    "file-write",
    parameters,
  );
  return approvalCard(consoleApp, row.id);
}

/** The card's text as a person reads it: tags dropped, entities decoded. */
function readable(card: string): string {
  return card
    .replace(/<[^>]*>/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

describe("a file's diff in a card", () => {
  it("shows what follows a lone carriage return, which JavaScript and Python read as a new line", async () => {
    await writeFile(join(workspace, "app.js"), 'console.log("v1")\n');
    const content = 'console.log("v2")\rrequire("child_process").execSync("touch PWNED")\n';
    const card = await cardFor({ path: "app.js", content, overwrite: true });
    const diff = /<section aria-label="Changes to app\.js">([\s\S]*?)<\/section>/.exec(card)?.[1];
    expect(diff).toBeDefined();
    expect(readable(diff!)).toContain('require("child_process")');
    expect(readable(diff!)).toContain("[U+000D]");
    // A Windows line end is still a line end.
    const crlf = await cardFor({ path: "app.js", content: "a\r\nb\r\n", overwrite: true });
    expect(crlf).not.toContain("[U+000D]");
  });

  it("is given up, with the whole content shown open instead, when too many lines change", async () => {
    const lines = (prefix: string) =>
      Array.from({ length: 12_000 }, (_, i) => `${prefix}${i}`).join("\n");
    await writeFile(join(workspace, "big.txt"), lines("old "));
    const started = performance.now();
    const card = await cardFor({ path: "big.txt", content: lines("new "), overwrite: true });
    // Minutes before the limit (the diff of these files took 30 s and more).
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(card).toContain("Too many lines change to show them as a diff");
    expect(card).toMatch(/<details open><summary>Arguments<\/summary>/);
  }, 30_000);

  it("does not show a file outside the workspace that a link in it leads to", async () => {
    await writeFile(join(outside, "secret.txt"), "AWS_SECRET=TOPSECRET-4242\n");
    await symlink(join(outside, "secret.txt"), join(workspace, "notes.txt"));
    const card = await cardFor({ path: "notes.txt", content: "x\n", overwrite: true });
    expect(card).not.toContain("TOPSECRET");
    expect(card).toContain("a link that leads outside the workspace");
    const [row] = (await store.approvals.list({})).filter((a) => a.preview?.path === "notes.txt");
    expect(JSON.stringify(row?.preview)).not.toContain("TOPSECRET");
  });

  it("still shows a link that stays in the workspace as the file it leads to", async () => {
    await mkdir(join(workspace, "docs"), { recursive: true });
    await writeFile(join(workspace, "docs", "real.md"), "old line\n");
    await symlink(join(workspace, "docs", "real.md"), join(workspace, "alias.md"));
    const card = await cardFor({ path: "alias.md", content: "new line\n", overwrite: true });
    expect(readable(card)).toContain("old line");
    expect(readable(card)).toContain("new line");
  });
});

describe("the pattern a card offers to remember", () => {
  it.each([
    [{ command: "'*' rm -rf x" }],
    [{ command: "* x" }],
    [{ command: "sudo rm -rf build" }],
    [{ path: "**/notes.md" }],
    [{ path: "src/*/x.ts" }],
    [{ path: "[draft].md" }],
    [{ path: "/etc/passwd" }],
    [{ path: "../x" }],
    [{ path: "a/../../x" }],
    [{ path: "~/x" }],
    [{ path: "src/\u001b[2Jx/y" }],
  ])("offers none built from what the model wrote for %j", (parameters) => {
    expect(suggestedPattern(parameters)).toBe("");
  });

  it.each([
    [{ command: "npm test" }, "npm test"],
    [{ command: "ls -la src" }, "ls -la src"],
    [{ path: "src/app/main.ts" }, "src/app/**"],
    [{ path: "README.md" }, "*"],
    [{ path: ".env.example" }, ".env.example"],
  ])("offers a narrow one for %j", (parameters, pattern) => {
    expect(suggestedPattern(parameters)).toBe(pattern);
  });
});

describe("the console's access token", () => {
  it.each([
    ["", /is empty/],
    ["short", /5 characters long/],
    ["a token with spaces in it", /only letters, digits/],
    ["a-long-token-with;semicolon", /only letters, digits/],
  ])("is refused when given as %j", (token, message) => {
    expect(() => createConsoleApp({ store, token })).toThrow(message);
  });

  it("is taken when long enough, and a new random one is made when none is given", () => {
    const given = createConsoleApp({ store, token: "a-long-enough-token_0123" });
    expect(given.token).toBe("a-long-enough-token_0123");
    given.close();
    const made = createConsoleApp({ store });
    expect(made.token.length).toBeGreaterThanOrEqual(32);
    made.close();
  });
});
