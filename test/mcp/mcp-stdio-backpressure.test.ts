// A client that sends calls but does not read the answers: the server stops reading calls until
// it can write again, instead of holding every answer in memory (red team, session 19: its
// memory grew by 40-60 MB a second until V8 ran out of heap and the process aborted).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import { cliArgs, legacyInitialize, makeWorkspace, repoRoot } from "./mcp-support.js";

/** The resident memory of a process, in MB (Linux). */
function residentMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(process.platform === "linux")(
  "aintern mcp over stdio, a client that does not read",
  () => {
    let workspace: Awaited<ReturnType<typeof makeWorkspace>> | undefined;
    afterEach(async () => {
      await workspace?.remove();
    });

    it("stops reading calls while its answers wait, keeps its memory, and loses no answer", async () => {
      workspace = await makeWorkspace();
      // Each answer holds the file twice (text and structured content): about 480 KB.
      await writeFile(join(workspace.path, "big.txt"), `${"y".repeat(99)}\n`.repeat(2400));
      const child = spawn(process.execPath, cliArgs("mcp", "--workspace", workspace.path), {
        cwd: repoRoot,
        stdio: ["pipe", "pipe", "ignore"],
      });
      const answers: Record<string, unknown>[] = [];
      const lines = createInterface({ input: child.stdout });
      lines.on("line", (line) => answers.push(JSON.parse(line) as Record<string, unknown>));
      const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
      try {
        send({ ...legacyInitialize("backpressure"), id: 0 });
        await expect.poll(() => answers.length, { timeout: 30_000 }).toBe(1);
        send({ jsonrpc: "2.0", method: "notifications/initialized" });
        const before = residentMb(child.pid as number);
        // From here the client reads nothing: 400 reads make about 190 MB of answers, which held
        // at once took 425 MB more memory; 64 at a time (the most with the server) about 70.
        lines.pause();
        child.stdout.pause();
        const calls = 400;
        for (let id = 1; id <= calls; id++) {
          send({
            jsonrpc: "2.0",
            id,
            method: "tools/call",
            params: { name: "file-read", arguments: { path: "big.txt" } },
          });
        }
        await sleep(3_000);
        expect(residentMb(child.pid as number) - before).toBeLessThan(150);
        // Reading again, every call is answered.
        lines.resume();
        child.stdout.resume();
        await expect.poll(() => answers.length, { timeout: 60_000, interval: 100 }).toBe(calls + 1);
        const ids = new Set(answers.slice(1).map((a) => a.id));
        expect(ids.size).toBe(calls);
        expect(
          answers.slice(1).every((a) => (a.result as { isError?: boolean }).isError !== true),
        ).toBe(true);
      } finally {
        lines.resume();
        child.stdout.resume();
        child.stdin.end();
        const exited = new Promise((resolve) => child.once("exit", resolve));
        const late = setTimeout(() => child.kill("SIGKILL"), 10_000);
        await exited;
        clearTimeout(late);
      }
    }, 120_000);
  },
);
