import { describe, expect, it } from "vitest";
import { type PermissionGrant, RememberedPermissions } from "../../src/approval/index.js";
import { RiskLevel, ToolCategory } from "../../src/core/index.js";
import { InvalidPermissionGrantError, StoreClosedError } from "../../src/store/index.js";
import { storeTargets, useStoreTarget } from "./store-targets.js";

const createdAt = new Date(Date.UTC(2026, 10, 25, 9, 30, 15, 123));

function grant(overrides: Partial<PermissionGrant> = {}): PermissionGrant {
  return {
    id: crypto.randomUUID(),
    toolId: "file-write",
    scope: "tool",
    maxRiskLevel: RiskLevel.Medium,
    createdAt,
    ...overrides,
  };
}

describe.each(storeTargets)("store.permissions on $name", ({ make }) => {
  const target = useStoreTarget(make);

  it("round-trips a grant with every field, dates as Date objects, across a reopen", async () => {
    const place = target.place();
    const store = await place.open();
    const full: PermissionGrant = {
      id: "grant-full",
      toolId: "File-Write",
      scope: "tool",
      sessionId: "session-ü",
      pattern: "src/**/*.ts",
      patternKind: "path",
      maxRiskLevel: RiskLevel.High,
      workspacePath: "/work/space 😀",
      createdAt,
      expiresAt: new Date(Date.UTC(2027, 0, 1, 0, 0, 0, 7)),
      grantedBy: "Zoë",
    };
    await store.permissions.add(full);
    await store.close();
    const reopened = await place.open();
    const [listed, ...rest] = await reopened.permissions.list();
    expect(rest).toEqual([]);
    expect(listed).toEqual(full);
    expect(listed?.createdAt).toBeInstanceOf(Date);
    expect(listed?.expiresAt).toBeInstanceOf(Date);
    expect(Object.isFrozen(listed)).toBe(true);
  });

  it("leaves the optional fields out when they were not given", async () => {
    const store = await target.place().open();
    const minimal = grant({ id: "grant-min", patternKind: "command", pattern: "npm *" });
    await store.permissions.add(minimal);
    const [listed] = await store.permissions.list();
    expect(listed).toEqual(minimal);
    expect(Object.keys(listed ?? {}).sort()).toEqual(
      ["createdAt", "id", "maxRiskLevel", "pattern", "patternKind", "scope", "toolId"].sort(),
    );
  });

  it("lists by tool id, case-insensitively, oldest first", async () => {
    const store = await target.place().open();
    const later = new Date(createdAt.getTime() + 1000);
    await store.permissions.add(grant({ id: "b-second", toolId: "shell", createdAt: later }));
    await store.permissions.add(grant({ id: "a-other", toolId: "file-read" }));
    await store.permissions.add(grant({ id: "c-first", toolId: "Shell" }));
    const shell = await store.permissions.list({ toolId: "SHELL" });
    expect(shell.map((g) => g.id)).toEqual(["c-first", "b-second"]);
    expect(shell.map((g) => g.toolId)).toEqual(["Shell", "shell"]);
    expect((await store.permissions.list()).map((g) => g.id)).toEqual([
      "a-other",
      "c-first",
      "b-second",
    ]);
    expect(await store.permissions.list({ toolId: "nothing" })).toEqual([]);
    expect(await store.permissions.list({ toolId: "bad\0id" })).toEqual([]);
  });

  it("revokes a grant once and reports whether it existed", async () => {
    const store = await target.place().open();
    await store.permissions.add(grant({ id: "keep" }));
    await store.permissions.add(grant({ id: "drop" }));
    expect(await store.permissions.revoke("drop")).toBe(true);
    expect(await store.permissions.revoke("drop")).toBe(false);
    expect(await store.permissions.revoke("never-added")).toBe(false);
    expect(await store.permissions.revoke("nul\0id")).toBe(false);
    expect((await store.permissions.list()).map((g) => g.id)).toEqual(["keep"]);
  });

  it("replaces a grant added again under the same id", async () => {
    const store = await target.place().open();
    await store.permissions.add(grant({ id: "same", pattern: "a/**", patternKind: "path" }));
    await store.permissions.add(grant({ id: "same", maxRiskLevel: RiskLevel.Low }));
    const all = await store.permissions.list();
    expect(all).toEqual([grant({ id: "same", maxRiskLevel: RiskLevel.Low })]);
  });

  it("rejects session grants, Critical grants and fields it cannot keep, with the field named", async () => {
    const store = await target.place().open();
    const cases: [Partial<PermissionGrant>, string, RegExp][] = [
      [{ scope: "session", sessionId: "s-1" }, "scope", /only scope "tool".*in memory/],
      [{ maxRiskLevel: RiskLevel.Critical }, "maxRiskLevel", /never remembered permanently/],
      [{ maxRiskLevel: 7 as RiskLevel }, "maxRiskLevel", /expected a RiskLevel/],
      [{ id: "" }, "id", /non-empty string/],
      [{ toolId: "" }, "toolId", /non-empty string/],
      [{ toolId: "bad\0tool" }, "toolId", /control character U\+0000/],
      [{ pattern: "src/\uD800" }, "pattern", /lone UTF-16 surrogate/],
      [{ grantedBy: 42 as unknown as string }, "grantedBy", /must be a string/],
      [{ createdAt: new Date(Number.NaN) }, "createdAt", /valid Date/],
      [{ expiresAt: "tomorrow" as unknown as Date }, "expiresAt", /valid Date/],
      [
        { patternKind: "regex" as PermissionGrant["patternKind"] },
        "patternKind",
        /"path" or "command"/,
      ],
    ];
    for (const [overrides, field, message] of cases) {
      const error = await store.permissions.add(grant(overrides)).catch((e: unknown) => e);
      expect(error, field).toBeInstanceOf(InvalidPermissionGrantError);
      expect(error).toMatchObject({ code: "INVALID_PERMISSION_GRANT", field });
      expect((error as Error).message).toMatch(message);
    }
    await expect(store.permissions.add(null as unknown as PermissionGrant)).rejects.toMatchObject({
      field: "grant",
    });
    expect(await store.permissions.list()).toEqual([]);
  });

  it("backs RememberedPermissions: a remembered tool grant covers the next call after a reopen", async () => {
    const place = target.place();
    const store = await place.open();
    const call = {
      toolId: "shell",
      category: ToolCategory.Terminal,
      riskLevel: RiskLevel.Medium,
      parameters: { command: "npm test" },
      workspacePath: "/work",
    };
    const first = new RememberedPermissions({ store: store.permissions });
    const [made] = await first.remember({
      call,
      sessionId: "s-1",
      rememberForSession: false,
      rememberForTool: true,
      rememberPattern: "npm *",
    });
    await store.close();
    const reopened = await place.open();
    const second = new RememberedPermissions({ store: reopened.permissions });
    const found = await second.find({ ...call, parameters: { command: "npm run build" } }, "s-2");
    expect(found).toEqual(made);
    expect(await second.find({ ...call, parameters: { command: "rm -rf /" } }, "s-2")).toBe(
      undefined,
    );
  });

  it("throws StoreClosedError after close", async () => {
    const store = await target.place().open();
    await store.close();
    for (const call of [
      () => store.permissions.add(grant()),
      () => store.permissions.list(),
      () => store.permissions.revoke("x"),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreClosedError);
      expect((error as StoreClosedError).operation).toMatch(/^permissions\./);
    }
  });
});
