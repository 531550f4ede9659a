import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { main } from "../../src/cli/main.js";

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
export const fixtureTools = fileURLToPath(new URL("./fixtures/mcp-tools.ts", import.meta.url));
const mainScript = join(repoRoot, "src/cli/bin.ts");

/** `node --import tsx src/cli/main.ts`, as an argument list after the node binary. */
export function cliArgs(...args: string[]): string[] {
  return ["--import", "tsx", mainScript, ...args];
}

export async function makeWorkspace(): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await realpath(await mkdtemp(join(tmpdir(), "aintern-mcp-")));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

export type ElicitAnswer = (params: Record<string, unknown>) => {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, string | number | boolean | string[]>;
};

/** An SDK client that can show forms; `answer` decides each elicitation. */
export function newClient(answer?: { current: ElicitAnswer | undefined }): Client {
  const client = new Client(
    { name: "aintern-test", version: "1.0.0" },
    answer === undefined ? {} : { capabilities: { elicitation: { form: {} } } },
  );
  if (answer !== undefined) {
    client.setRequestHandler("elicitation/create", async (request) => {
      const decide = answer.current;
      if (decide === undefined) return { action: "decline" };
      return decide(request.params as Record<string, unknown>);
    });
  }
  return client;
}

/** Starts `aintern mcp` over stdio and connects `client` to it. */
export async function connectStdio(client: Client, args: string[]): Promise<StdioClientTransport> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: cliArgs("mcp", ...args),
    cwd: repoRoot,
    stderr: "pipe",
  });
  await client.connect(transport);
  return transport;
}

/** A running `aintern mcp --http` process. */
export interface HttpServerProcess {
  readonly url: string;
  readonly token: string | undefined;
  readonly child: ChildProcess;
  /** What it wrote on stderr up to its URL (and token). */
  readonly stderr: string;
  stop(): Promise<void>;
}

/**
 * Starts `aintern mcp --http 127.0.0.1:0` and reads its URL and token from stderr (no token is
 * printed with `--token none` or when the config turns OAuth on: pass `printsToken: false`).
 */
export async function startHttpServer(
  args: string[],
  options: { printsToken?: boolean } = {},
): Promise<HttpServerProcess> {
  const printsToken = options.printsToken ?? !args.includes("none");
  const child = spawn(process.execPath, cliArgs("mcp", "--http", "127.0.0.1:0", ...args), {
    cwd: repoRoot,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  const { url, token } = await new Promise<{ url: string; token: string | undefined }>(
    (resolve, reject) => {
      const onData = (chunk: Buffer): void => {
        log += chunk.toString();
        const url = /Streamable HTTP on (\S+)/.exec(log)?.[1];
        const tokenLine = /bearer token: (\S+)/.exec(log)?.[1];
        if (url !== undefined && (tokenLine !== undefined || !printsToken)) {
          child.stderr?.off("data", onData);
          resolve({ url, token: tokenLine });
        }
      };
      child.stderr?.on("data", onData);
      child.once("exit", (code) => reject(new Error(`aintern mcp exited ${code}: ${log}`)));
    },
  );
  child.stderr?.resume();
  return {
    url,
    token,
    child,
    stderr: log,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** Connects `client` to an HTTP server with its token. */
export async function connectHttp(client: Client, server: HttpServerProcess): Promise<void> {
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: {
        headers: server.token === undefined ? {} : { Authorization: `Bearer ${server.token}` },
      },
    }),
  );
}

/** Runs `aintern <argv>` in this process and returns its exit code and output. */
export async function runCli(argv: string[]): Promise<{ code: number; stdout: string }> {
  const write = process.stdout.write.bind(process.stdout);
  let stdout = "";
  process.stdout.write = ((chunk: string | Uint8Array) => {
    stdout += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString();
    return true;
  }) as typeof process.stdout.write;
  try {
    const code = await main(argv);
    return { code, stdout };
  } finally {
    process.stdout.write = write;
  }
}

/** The audit rows of a store, as `aintern audit --json` prints them. */
export async function auditRows(db: string): Promise<Record<string, unknown>[]> {
  const { stdout } = await runCli(["audit", "--json", "--limit", "1000", "--db", db]);
  return stdout
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The text of a tool result. */
export function textOf(result: { content?: unknown }): string {
  const content = (result.content ?? []) as { type: string; text?: string }[];
  return content.map((c) => c.text ?? "").join("\n");
}

/** A 2025-era `initialize` request of a client named `name`, declaring `capabilities`. */
export function legacyInitialize(name: string, capabilities: Record<string, unknown> = {}) {
  return {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name, version: "1" } },
  };
}

/**
 * A raw 2025-era Streamable HTTP POST, as a client no one here wrote would send it: `body` as
 * JSON with the bearer `token`, on the session `sessionId` when given.
 */
export function postLegacy(
  url: string,
  body: unknown,
  options: { token: string; sessionId?: string; signal?: AbortSignal },
): Promise<Response> {
  return fetch(url, {
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    method: "POST",
    headers: {
      authorization: `Bearer ${options.token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
      ...(options.sessionId === undefined ? {} : { "mcp-session-id": options.sessionId }),
    },
    body: JSON.stringify(body),
  });
}

/** Waits until `check` passes (or throws its last error after `timeoutMs`). */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > end) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** The console's address and token, read from the server's stderr. */
export interface ConsoleLink {
  readonly url: string;
  readonly token: string;
}

export async function consoleLinkOf(transport: StdioClientTransport): Promise<ConsoleLink> {
  const stderr = transport.stderr as Readable | null;
  if (stderr === null) throw new Error("no stderr");
  let log = "";
  return new Promise((resolve) => {
    const onData = (chunk: Buffer): void => {
      log += chunk.toString();
      const match = /console sign-in link: (http:\/\/\S+)\/login\?token=(\S+)/.exec(log);
      if (match !== null) {
        stderr.off("data", onData);
        stderr.resume();
        resolve({ url: match[1]!, token: match[2]! });
      }
    };
    stderr.on("data", onData);
  });
}
