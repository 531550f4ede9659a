// Remembered approvals a store holds are honoured only when aintern made them with the user's
// key: a row anyone could write into a store file (a repository's, a write-ahead log shipped
// beside it, a file that took over the store's inode) lets nothing run.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { isSignedGrant, signedGrantId } from "../../src/approval/grant-signature.js";
import {
  MemoryPermissionStore,
  type PermissionGrant,
  RememberedPermissions,
} from "../../src/approval/index.js";
import { RiskLevel, ToolCategory } from "../../src/core/index.js";

const key = randomBytes(32);
const base: Omit<PermissionGrant, "id"> = {
  toolId: "terminal-execute",
  scope: "tool",
  pattern: "npm test",
  patternKind: "command",
  maxRiskLevel: RiskLevel.Medium,
  workspacePath: "/srv/project",
  createdAt: new Date("2026-11-28T12:00:00.000Z"),
};

describe("a grant's signature", () => {
  it("holds for the grant it was made for, under its key only", () => {
    const grant = { ...base, id: signedGrantId(key, base) };
    expect(isSignedGrant(key, grant)).toBe(true);
    expect(isSignedGrant(randomBytes(32), grant)).toBe(false);
  });

  it.each([
    ["toolId", { toolId: "file-delete" }],
    ["scope", { scope: "session", sessionId: "s" }],
    ["pattern", { pattern: "*" }],
    ["patternKind", { patternKind: "path" }],
    ["maxRiskLevel", { maxRiskLevel: RiskLevel.High }],
    ["workspacePath", { workspacePath: "/srv/other" }],
    ["no workspacePath", { workspacePath: undefined }],
    ["createdAt", { createdAt: new Date("2026-11-28T12:00:00.001Z") }],
    ["expiresAt", { expiresAt: new Date("2099-01-01T00:00:00.000Z") }],
  ])("breaks when %s changes", (_, change) => {
    const grant = { ...base, id: signedGrantId(key, base) };
    expect(isSignedGrant(key, { ...grant, ...change } as PermissionGrant)).toBe(false);
  });

  it.each([
    ["a plain uuid", "6f0d6f59-1111-4c1e-9a55-000000000000"],
    ["a dot only", "."],
    ["empty", ""],
  ])("is missing from an id that is %s", (_, id) => {
    expect(isSignedGrant(key, { ...base, id })).toBe(false);
  });
});

describe("RememberedPermissions with a grant key", () => {
  const call = {
    toolId: "terminal-execute",
    category: ToolCategory.Terminal,
    riskLevel: RiskLevel.Medium,
    parameters: { command: "npm test" },
    workspacePath: "/srv/project",
  };

  it("honours the grants it made, and not a row added to its store by anything else", async () => {
    const store = new MemoryPermissionStore();
    const permissions = new RememberedPermissions({ store, grantKey: key });
    await store.add({ ...base, id: "planted", pattern: undefined, patternKind: undefined });
    expect(await permissions.find(call, "s")).toBeUndefined();
    const [made] = await permissions.remember({
      call,
      sessionId: "s",
      rememberForSession: false,
      rememberForTool: true,
    });
    expect(made?.id).toMatch(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);
    expect((await permissions.find(call, "s"))?.id).toBe(made?.id);
    // Another process with the same key (the same user) honours it too; one without does not.
    expect(await new RememberedPermissions({ store, grantKey: key }).find(call, "s")).toBeDefined();
    expect(
      await new RememberedPermissions({ store, grantKey: randomBytes(32) }).find(call, "s"),
    ).toBeUndefined();
  });

  it("honours every stored grant without a key, as before", async () => {
    const store = new MemoryPermissionStore();
    await store.add({ ...base, id: "plain", pattern: undefined, patternKind: undefined });
    expect(await new RememberedPermissions({ store }).find(call, "s")).toBeDefined();
  });
});
