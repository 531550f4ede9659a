import { closeSync, openSync, writeFileSync, writeSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditStatus } from "../../src/execution/index.js";
import {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_QUICK_CHECK_MAX_BYTES,
  openStore,
  StoreOpenError,
} from "../../src/store/index.js";
import { sqliteTarget, useStoreTarget } from "./store-targets.js";

describe("opening a PostgreSQL store on a server that never answers", () => {
  let server: Server;
  let port: number;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    // Accepts every connection and never writes a byte, like a port of some other service.
    server = createServer((socket) => {
      sockets.push(socket);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it("fails after connectTimeoutMs with an error naming host and port", async () => {
    const opening = openStore(`postgres://someone:secret@127.0.0.1:${port}/db`, {
      connectTimeoutMs: 300,
    });
    const error = await opening.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreOpenError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `no answer from PostgreSQL at 127\\.0\\.0\\.1:${port} within 300 ms \\(connectTimeoutMs\\)`,
      ),
    );
    expect((error as Error).message).not.toMatch(/secret/);
  });

  it("waits ten seconds by default", () => {
    expect(DEFAULT_CONNECT_TIMEOUT_MS).toBe(10_000);
  });

  it("refuses a connect timeout that is not a positive whole number", async () => {
    await expect(
      openStore(`postgres://127.0.0.1:${port}/db`, { connectTimeoutMs: 0 }),
    ).rejects.toMatchObject({ code: "INVALID_STORE_OPTIONS" });
  });
});

describe("opening a damaged SQLite database", () => {
  const target = useStoreTarget(sqliteTarget);

  async function filledDatabase(): Promise<string> {
    const place = target.place();
    const store = await place.open();
    const startedAt = new Date();
    for (let index = 0; index < 400; index++) {
      await store.audit.complete({
        executionId: `row-${index}`,
        toolName: "t",
        status: AuditStatus.Completed,
        startedAt,
        completedAt: startedAt,
        resultSummary: "s".repeat(200),
      });
    }
    await store.close();
    return place.url.slice("sqlite:".length);
  }

  it("refuses a database with a damaged page, saying how to recover it", async () => {
    const path = await filledDatabase();
    // Scribble over a page in the middle of the file (4 KiB pages; page 1 holds the header).
    const fd = openSync(path, "r+");
    writeSync(fd, Buffer.alloc(512, 0xa5), 0, 512, 4096 * 6);
    closeSync(fd);

    const error = await openStore(`sqlite:${path}`).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreOpenError);
    expect((error as Error).message).toMatch(/the SQLite database is damaged/);
    expect((error as Error).message).toMatch(/\.recover/);
  });

  it("refuses a file that is not a database at all", async () => {
    const path = await filledDatabase();
    writeFileSync(path, "this is not a database ".repeat(500));
    const error = await openStore(`sqlite:${path}`).catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/damaged \(file is not a database\).*\.recover/);
  });

  it("opens a healthy database, and checks files up to 128 MiB by default", async () => {
    const path = await filledDatabase();
    const store = await openStore(`sqlite:${path}`);
    expect(await store.audit.count()).toBe(400);
    await store.close();
    expect(DEFAULT_QUICK_CHECK_MAX_BYTES).toBe(128 * 1024 * 1024);
  });
});
