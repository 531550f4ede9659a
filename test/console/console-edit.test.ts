// Editing a pending call's arguments in the console: the edit is validated against the tool's
// schema and its risk re-assessed before anything is decided.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinTools } from "../../src/builtin/index.js";
import {
  type ConsoleApp,
  createConsoleApp,
  PendingApprovalStatus,
} from "../../src/console/index.js";
import { ToolRegistry } from "../../src/registry/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { approvalCard, waitingApproval } from "./console-helpers.js";

let store: Store;
let consoleApp: ConsoleApp;
const registry = new ToolRegistry({ tools: builtinTools() });

beforeAll(async () => {
  store = await openStore("sqlite::memory:");
  consoleApp = createConsoleApp({
    store,
    operator: "ada",
    getTool: (id) => registry.getTool(id),
  });
});

afterAll(async () => {
  consoleApp?.close();
  await store?.close();
});

async function pendingCommand(command: string) {
  return waitingApproval(
    { approvals: store.approvals, registry },
    "terminal-execute",
    { command },
    `call-${command}`,
  );
}

/** The text of the card's editable arguments, as a browser would submit it. */
function editableArguments(card: string): string {
  const text = /<textarea class="args" name="arguments"[^>]*>([^<]*)<\/textarea>/.exec(card)?.[1];
  expect(text).toBeDefined();
  return (text ?? "")
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");
}

async function edit(id: string, args: unknown, action?: "approve"): Promise<string> {
  const auth = { authorization: `Bearer ${consoleApp.token}` };
  const page = await consoleApp.app.request("/approvals", { headers: auth });
  const csrf = (await page.text()).match(/name="csrf-token" content="([^"]+)"/)?.[1] ?? "";
  const response = await consoleApp.app.request(`/approvals/${id}/edit`, {
    method: "POST",
    headers: {
      ...auth,
      "x-csrf-token": csrf,
      "hx-request": "true",
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({
      arguments: typeof args === "string" ? args : JSON.stringify(args),
      ...(action === undefined ? {} : { action }),
    }).toString(),
  });
  expect(response.status).toBe(200);
  return response.text();
}

describe("editing a pending call's arguments in the console", () => {
  it("re-assesses the risk of the edited call and says when it is higher than shown", async () => {
    const row = await pendingCommand("ls");
    const shown = await edit(row.id, { command: "rm -rf build" });
    expect(shown).toMatch(/Risk after the edit: <strong>[^<]+<\/strong> \(higher than shown/);
    expect((await store.approvals.get(row.id))?.status).toBe(PendingApprovalStatus.Pending);
    const same = await edit(row.id, { command: "ls -la" });
    expect(same).toContain("Risk after the edit");
    expect(same).not.toContain("higher than shown");
  });

  it("shows the schema's errors for an invalid edit and decides nothing", async () => {
    const row = await pendingCommand("pwd");
    const invalid = await edit(row.id, { command: 42 }, "approve");
    expect(invalid).toContain('class="errors"');
    expect(invalid).toMatch(/command/);
    expect((await store.approvals.get(row.id))?.status).toBe(PendingApprovalStatus.Pending);
    const notJson = await edit(row.id, "{ not json", "approve");
    expect(notJson).toContain("The arguments are not valid JSON");
    const approved = await edit(row.id, { command: "pwd -P" }, "approve");
    expect(approved).not.toContain('class="errors"');
    const decided = await store.approvals.get(row.id);
    expect(decided).toMatchObject({
      status: PendingApprovalStatus.Approved,
      decidedBy: "ada",
      decision: { modifiedParameters: { command: "pwd -P" } },
    });
  });

  it("says what approving for the session, always or for a pattern covers", async () => {
    const row = await pendingCommand("touch x");
    expect(await approvalCard(consoleApp, row.id)).toContain(
      "also approves later terminal-execute calls up to Medium risk, not only this one",
    );
  });

  it("writes what could hide or reorder as JSON escapes, and the text approves the same arguments", async () => {
    // A bidirectional override, right-to-left letters (which reorder the `>` between them), a
    // zero-width space, a tag character past U+FFFF and a stack of marks.
    const command =
      "cat \u05d0 > \u05d1 #\u202e ~ fr- mr\u202c a\u200bb\u{E0041} Z\u0301\u0302\u0303\u0304\u0305\u0306";
    const row = await pendingCommand(command);
    const text = editableArguments(await approvalCard(consoleApp, row.id));
    expect(text).not.toMatch(
      /[\u202a-\u202e\u2066-\u2069\u200b\u0590-\u08ff]|\u0305|\u0306|\p{Cs}|\u{E0041}/u,
    );
    expect(text).toContain("cat \\u05d0 > \\u05d1 #\\u202e");
    expect(text).toContain("\\udb40\\udc41");
    expect(text).not.toContain("[U+");
    expect(JSON.parse(text)).toEqual({ command });
    // Submitted unchanged, it approves exactly the call that was asked about.
    const approved = await edit(row.id, text, "approve");
    expect(approved).not.toContain('class="errors"');
    const decided = await store.approvals.get(row.id);
    expect(decided?.status).toBe(PendingApprovalStatus.Approved);
    expect(decided?.decision?.modifiedParameters).toEqual({ command });
  });

  it("shows a person's edit back with the same escapes, and leaves an escape JSON lacks as it is", async () => {
    const row = await pendingCommand("echo hi");
    const typed = '{ "command": "echo \u05d0 > \u05d1 \u202e" }';
    const shown = editableArguments(await edit(row.id, typed));
    expect(shown).toBe('{ "command": "echo \\u05d0 > \\u05d1 \\u202e" }');
    expect(JSON.parse(shown)).toEqual(JSON.parse(typed));
    // `\` then U+202E is no JSON escape: the text is invalid, and stays so (shown by its code).
    const invalid = await edit(row.id, '{ "command": "echo \\\u202e" }');
    expect(invalid).toContain("The arguments are not valid JSON");
    expect(editableArguments(invalid)).toBe('{ "command": "echo \\[U+202E]" }');
    expect((await store.approvals.get(row.id))?.status).toBe(PendingApprovalStatus.Pending);
  });
});
