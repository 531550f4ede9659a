import { describe, expect, it } from "vitest";
import {
  StoreClosedError,
  sqliteTableName,
  TOOL_DEFINITIONS_TABLE,
} from "../../src/store/index.js";
import { storeTargets, useStoreTarget } from "./store-targets.js";

const digest = (char: string) => char.repeat(64);

describe.each(storeTargets)("store.toolDefinitions on $name", ({ make }) => {
  const target = useStoreTarget(make);

  it("keeps a tool's fingerprint across a reopen, matching its id case-insensitively", async () => {
    const place = target.place();
    const store = await place.open();
    expect(await store.toolDefinitions.get("up1_echo")).toBeUndefined();
    await store.toolDefinitions.set("Up1_Echo", digest("a"));
    await store.close();
    const reopened = await place.open();
    expect(await reopened.toolDefinitions.get("up1_echo")).toBe(digest("a"));
    expect(await reopened.toolDefinitions.get("UP1_ECHO")).toBe(digest("a"));
    expect(await reopened.toolDefinitions.get("up1_other")).toBeUndefined();
  });

  it("replaces the fingerprint recorded before, one row per tool, with the time it was recorded", async () => {
    const place = target.place();
    const store = await place.open();
    const before = Date.now();
    await store.toolDefinitions.set("up1_echo", digest("a"));
    await store.toolDefinitions.set("UP1_echo", digest("b"));
    expect(await store.toolDefinitions.get("up1_echo")).toBe(digest("b"));
    await store.close();
    const rows =
      target.dialect === "sqlite"
        ? await target.rawQuery(
            place,
            `SELECT * FROM "${sqliteTableName(place.schema, TOOL_DEFINITIONS_TABLE)}"`,
          )
        : await target.rawQuery(place, `SELECT * FROM "${place.schema}".${TOOL_DEFINITIONS_TABLE}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      tool_key: "up1_echo",
      tool_id: "UP1_echo",
      fingerprint: digest("b"),
    });
    const recorded = new Date(rows[0]?.recorded_at as string | Date).getTime();
    expect(recorded).toBeGreaterThanOrEqual(before - 1000);
    expect(recorded).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it("lives under the store's schema: two schemas on one database keep their own records", async () => {
    const place = target.place();
    const mine = await place.open();
    const theirs = await place.open({ schema: `${place.schema}_other` });
    try {
      await mine.toolDefinitions.set("up1_echo", digest("a"));
      await theirs.toolDefinitions.set("up1_echo", digest("b"));
      expect(await mine.toolDefinitions.get("up1_echo")).toBe(digest("a"));
      expect(await theirs.toolDefinitions.get("up1_echo")).toBe(digest("b"));
    } finally {
      await theirs.close();
      if (target.dialect === "postgres") {
        await target.rawQuery(place, `DROP SCHEMA IF EXISTS "${place.schema}_other" CASCADE`);
      }
    }
  });

  it("throws StoreClosedError once the store is closed", async () => {
    const store = await target.place().open();
    await store.close();
    await expect(store.toolDefinitions.get("t")).rejects.toBeInstanceOf(StoreClosedError);
    await expect(store.toolDefinitions.set("t", digest("a"))).rejects.toBeInstanceOf(
      StoreClosedError,
    );
  });
});
