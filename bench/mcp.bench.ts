/**
 * `aintern mcp` over stdio, with the official SDK client:
 *   (a) a Safe built-in call (list-directory) through the gate directly (processCall), sequential
 *   (b) the same call through `aintern mcp` over stdio: (b) - (a) is what MCP adds
 *   (c) a file read through `aintern mcp` (policy and audit on) against the official filesystem
 *       server's read_text_file of the same file over stdio: target ≤ 1.0x
 *   (d) throughput of 64 calls in flight from one client
 *
 *   npm run build && npx tsx bench/mcp.bench.ts
 */
import { existsSync } from "node:fs";
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { openMcpRuntime } from "../src/cli/mcp-runtime.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const filesystemServer = createRequire(import.meta.url).resolve(
  "@modelcontextprotocol/server-filesystem/dist/index.js",
);
const N = Number(process.env.MCP_BENCH_CALLS ?? 300);

async function timed(n: number, call: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(50, n); i++) await call(i); // warm-up
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await call(i);
  return ((performance.now() - t0) * 1000) / n;
}

async function connect(command: string, args: string[]): Promise<Client> {
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(new StdioClientTransport({ command, args, cwd: root, stderr: "ignore" }));
  return client;
}

export async function run(): Promise<boolean> {
  const workspace = await realpath(await mkdtemp(join(tmpdir(), "aintern-mcp-bench-")));
  const file = join(workspace, "notes.md");
  await writeFile(file, "# Notes\n".repeat(512));
  try {
    const runtime = await openMcpRuntime({
      workspace,
      db: `sqlite:${join(workspace, ".audit.db")}`,
    });
    const direct = await timed(N, () =>
      runtime.processor.processCall({ toolId: "list-directory", parameters: { path: "." } }),
    );
    await runtime.close();

    // The compiled CLI when built (`npm run build`), as users run it; else the sources under tsx.
    const built = join(root, "dist/cli/bin.js");
    const cli = existsSync(built) ? [built] : ["--import", "tsx", join(root, "src/cli/bin.ts")];
    const aintern = await connect(process.execPath, [
      ...cli,
      "mcp",
      "--workspace",
      workspace,
      "--db",
      `sqlite:${join(workspace, ".audit-mcp.db")}`,
    ]);
    const viaMcp = await timed(N, () =>
      aintern.callTool({ name: "list-directory", arguments: { path: "." } }),
    );
    const readAintern = await timed(N, () =>
      aintern.callTool({ name: "file-read", arguments: { path: "notes.md" } }),
    );
    const t0 = performance.now();
    let done = 0;
    const inFlight = 64;
    const total = N * 2;
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (done < total) {
          done++;
          await aintern.callTool({ name: "list-directory", arguments: { path: "." } });
        }
      }),
    );
    const throughput = total / ((performance.now() - t0) / 1000);
    await aintern.close();

    const official = await connect(process.execPath, [filesystemServer, workspace]);
    const readOfficial = await timed(N, () =>
      official.callTool({ name: "read_text_file", arguments: { path: file } }),
    );
    await official.close();

    const ratio = readAintern / readOfficial;
    const rows = [
      ["(a) processCall directly, list-directory", `${direct.toFixed(0)} µs/call`],
      ["(b) through aintern mcp over stdio", `${viaMcp.toFixed(0)} µs/call`],
      ["    added by MCP (b - a)", `${(viaMcp - direct).toFixed(0)} µs/call`],
      ["(c) file read, aintern mcp (policy + audit)", `${readAintern.toFixed(0)} µs/call`],
      ["(c) file read, official filesystem server", `${readOfficial.toFixed(0)} µs/call`],
      ["(c) ratio (target ≤ 1.0x)", `${ratio.toFixed(2)}x ${ratio <= 1 ? "✓" : "✗"}`],
      ["(d) 64 in flight, one client", `${throughput.toFixed(0)} calls/s`],
    ];
    for (const [what, figure] of rows) process.stdout.write(`${what!.padEnd(46)} ${figure}\n`);
    return ratio <= 1;
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}

if (
  process.argv[1] !== undefined &&
  fileURLToPath(import.meta.url) === (await realpath(process.argv[1]))
) {
  const ok = await run();
  process.exitCode = ok ? 0 : 1;
}
