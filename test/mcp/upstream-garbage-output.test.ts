// An upstream that writes line after line that is no JSON-RPC message: the SDK reports each with
// a long parse error, which went to the gateway's log one by one (2,000 lines of `[1,2]` made
// 19.5 MB of log; red team, session 23). Now a few, cut short, and a count of the rest.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { McpUpstream } from "../../src/mcp/index.js";
import { ReportLimiter } from "../../src/mcp/report-limiter.js";

const server = fileURLToPath(new URL("./fixtures/raw-upstream.mjs", import.meta.url));
const dirs: string[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe("an upstream writing garbage lines", () => {
  it("gets a few of its errors logged, cut short, and still serves its tools", async () => {
    const dir = await mkdtemp(join(tmpdir(), "aintern-garbage-"));
    dirs.push(dir);
    await writeFile(
      join(dir, "tools.json"),
      JSON.stringify([{ name: "echo", inputSchema: { type: "object" } }]),
    );
    const logged: string[] = [];
    const upstream = new McpUpstream(
      { name: "noisy", command: process.execPath, args: [server, dir, "garbage"] },
      { restartInBackground: false, onError: (error) => logged.push(error.message) },
    );
    try {
      await upstream.start();
      expect((await upstream.listTools()).tools).toHaveLength(1);
      expect(logged.length).toBeGreaterThan(0);
      expect(logged.length).toBeLessThanOrEqual(10);
      for (const message of logged) expect(message.length).toBeLessThan(2_100);
    } finally {
      await upstream.close();
    }
  }, 20_000);
});

describe("ReportLimiter", () => {
  it("passes on the first reports of a window, then counts the rest and says so when it ends", () => {
    vi.useFakeTimers();
    const sent: string[] = [];
    const limiter = new ReportLimiter((e) => sent.push(e.message), "upstream 'x'", {
      perWindow: 3,
      windowMs: 1_000,
      maxLength: 10,
    });
    for (let i = 0; i < 8; i++) limiter.report(new Error(`error ${i}`));
    limiter.report(new Error("a message longer than ten"));
    expect(sent).toEqual(["error 0", "error 1", "error 2"]);
    vi.advanceTimersByTime(1_000);
    expect(sent.at(-1)).toBe("6 more errors of upstream 'x' were left out of this log");
    limiter.report(new Error("a message longer than ten"));
    expect(sent.at(-1)).toBe("a message ... (25 characters)");
    vi.advanceTimersByTime(1_000);
    expect(sent).toHaveLength(5);
  });
});
