import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readlinkSync } from "node:fs";
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import {
  StdioClientTransport,
  type StdioServerParameters,
} from "@modelcontextprotocol/client/stdio";
import {
  type CallProcessMarks,
  findCallProcessStarts,
  killCallProcesses,
  markerVariable,
  outputPipesOf,
  statOf,
} from "../sandbox/kill-process-tree.js";
import { reapIfOwnerDies, reapMarkedIfOwnerDies, stopReaping } from "../sandbox/orphan-reaper.js";

/** How often the process is looked for when the SDK does not expose it (see below). */
const PID_POLL_MS = 250;

/**
 * The SDK's stdio client transport, closed as soon as the server process exits. The SDK's own
 * closes only when the process's stdio streams close, and a process the server started (a
 * grandchild) that inherited its stdout keeps them open after the server is gone: the calls in
 * flight, and every later one, would then wait for their timeouts. Here the process's `exit`
 * closes the connection at once (`onclose` fires, so the client fails the calls in flight), and
 * {@link UpstreamStdioTransport.exitDescription} says how it ended.
 *
 * Everything the server started ends with it, also what ignores SIGTERM, left its process group
 * or was re-parented when a wrapper (`sh -c`, `npx`, `uvx`) exited. The server's environment
 * carries a marker of its own (`AINTERN_CALL=<random>`, set after the configured `env`, which
 * cannot replace it). On Linux, when the server exits or the transport closes (after the SDK's
 * stdin close and SIGTERM grace), every process found in `/proc` that started after the server
 * and descends from it, carries its marker, holds its stdin or stdout, or was in its tree when
 * the close began, is stopped and killed ({@link killCallProcesses}); so are they when the
 * gateway's process exits with the server still running, and, by a reaper process of its own
 * (src/sandbox/orphan-reaper.ts), when the gateway is killed outright (SIGKILL runs no handler).
 * Elsewhere only the server itself is killed.
 *
 * @internal
 */
export class UpstreamStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** How the process ended (`exit code 1`, `signal SIGKILL`), once it has. */
  exitDescription: string | undefined;
  readonly #inner: StdioClientTransport;
  #closed = false;
  #poll: NodeJS.Timeout | undefined;
  readonly #marker = randomUUID();
  /** The server process, once spawned (the SDK keeps it private). */
  #child: ChildProcess | undefined;
  /** How the server's processes are found on Linux; undefined elsewhere or before the start. */
  #marks: CallProcessMarks | undefined;
  /** What the orphan reaper holds for the server: its marker from before it starts. */
  #listed: CallProcessMarks | undefined;
  /** The server's tree as found when a stop began (pid to start time). */
  readonly #members = new Map<number, number>();
  #treeKilled = false;
  readonly #killOnExit = (): void => this.#killTree();

  constructor(params: StdioServerParameters) {
    // The SDK spreads `env` over its default variables: the marker comes last, so a configured
    // `AINTERN_CALL` cannot hide the server's processes.
    this.#inner = new StdioClientTransport({
      ...params,
      env: { ...(params.env ?? {}), [markerVariable]: this.#marker },
    });
    this.#inner.onmessage = (message) => this.onmessage?.(message);
    this.#inner.onerror = (error) => this.onerror?.(error);
    this.#inner.onclose = () => this.#closeOnce();
  }

  /** The server process's id, once started. */
  get pid(): number | null {
    return this.#inner.pid;
  }

  async start(): Promise<void> {
    // Listed before it starts: the gateway may be killed before it has read the server's pid.
    this.#listed = reapMarkedIfOwnerDies(`${markerVariable}=${this.#marker}`);
    const started = this.#inner.start();
    // The SDK spawns at once, in the promise's executor. The child cannot have been reaped yet
    // (that waits for the event loop): its pid is still its own, and its start time tells it
    // from a later process given the same pid.
    const spawned = Reflect.get(this.#inner, "_process") as ChildProcess | undefined;
    this.#child = spawned !== undefined && typeof spawned.once === "function" ? spawned : undefined;
    if (this.#child?.pid !== undefined) this.#track(this.#child.pid);
    await started.catch((error: unknown) => {
      if (this.#marks === undefined) this.#unlist();
      throw error;
    });
    // The SDK keeps the child private; its `exit` event is what tells the process is gone.
    const child = this.#child;
    if (child !== undefined) {
      child.once("exit", (code, signal) => {
        this.exitDescription = signal === null ? `exit code ${code}` : `signal ${signal}`;
        // The pipes a grandchild holds open would keep this process alive; they are done.
        child.stdout?.destroy();
        child.stdin?.destroy();
        // What the server left running goes with it (before a restart starts another).
        this.#killTree();
        this.#closeOnce();
      });
      return;
    }
    // A later SDK without that field: look for the process by its id (still unreaped here: the
    // start resolves on the `spawn` event, in a tick, before the event loop runs again).
    const pid = this.#inner.pid;
    if (pid === null) {
      this.#unlist();
      return;
    }
    this.#track(pid);
    this.#poll = setInterval(() => {
      try {
        process.kill(pid, 0);
      } catch {
        this.exitDescription = "exited";
        this.#killTree();
        this.#closeOnce();
      }
    }, PID_POLL_MS);
    this.#poll.unref();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.#inner.send(message);
  }

  /**
   * Stops the server (stdin closed, then SIGTERM, then SIGKILL), kills what it started, and
   * closes the connection.
   */
  async close(): Promise<void> {
    this.#noteTree();
    await this.#stop();
  }

  /** Stops the server now (SIGTERM, then as {@link UpstreamStdioTransport.close}), not waiting for it to read its closed stdin. */
  async terminate(): Promise<void> {
    this.#noteTree();
    const child = Reflect.get(this.#inner, "_process") as ChildProcess | undefined;
    try {
      child?.kill?.("SIGTERM");
    } catch {
      // Already gone.
    }
    await this.#stop().catch(() => undefined);
  }

  async #stop(): Promise<void> {
    try {
      await this.#inner.close();
    } finally {
      this.#killTree();
      this.#closeOnce();
    }
  }

  /** Sets how the server's processes are found, from its pid, read before it can be reaped. */
  #track(pid: number): void {
    killOnProcessExit(this.#killOnExit);
    if (process.platform !== "linux") return;
    const stat = statOf(pid);
    // Without a start time (no /proc, say) a reused pid could pass for the server: no search.
    if (stat === undefined) return;
    this.#marks = {
      pid,
      environmentMarker: `${markerVariable}=${this.#marker}`,
      pipes: serverPipes(pid),
      startTime: stat.startTime,
      ownGroup: false,
    };
    reapIfOwnerDies(this.#marks);
  }

  /**
   * Notes the server's tree before a stop: once the server (or a wrapper in its place) exits,
   * its descendants are re-parented out of it, and the ones whose environment has no marker
   * would be found no more.
   */
  #noteTree(): void {
    if (this.#marks === undefined || this.#treeKilled) return;
    for (const [pid, startTime] of findCallProcessStarts(this.#marks)) {
      this.#members.set(pid, startTime);
    }
  }

  /** The reaper forgets the server: it was stopped here, or never started. */
  #unlist(): void {
    if (this.#listed !== undefined) stopReaping(this.#listed);
    this.#listed = undefined;
  }

  /** Kills the server and every process it started, once (synchronous: also on process exit). */
  #killTree(): void {
    if (this.#treeKilled) return;
    this.#treeKilled = true;
    liveTrees.delete(this.#killOnExit);
    if (this.#marks !== undefined) {
      killCallProcesses({ ...this.#marks, members: this.#members });
      this.#unlist();
      return;
    }
    const child = this.#child;
    if (child !== undefined && child.exitCode === null && child.signalCode === null) {
      try {
        child.kill("SIGKILL");
      } catch {
        // Already gone.
      }
    }
    this.#unlist();
  }

  #closeOnce(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#poll);
    this.onclose?.();
  }
}

/** Kills of the trees of servers still running, run when the gateway's process exits. */
const liveTrees = new Set<() => void>();
let exitHookInstalled = false;

function killOnProcessExit(kill: () => void): void {
  liveTrees.add(kill);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // A gateway that exits without closing its upstreams (process.exit, an uncaught error) still
  // takes their processes with it. A signal that kills it outright runs no handler.
  process.once("exit", () => {
    for (const killTree of [...liveTrees]) killTree();
  });
}

/**
 * The link texts of the server's stdin and stdout pipes. Read just after it started, they are
 * the SDK's; one it already replaced with the gateway's own stderr (`exec 1>&2`) or a file would
 * tie other processes to it, and is left out.
 */
function serverPipes(pid: number): string[] {
  const gateway = new Set<string>();
  for (const fd of [0, 1, 2]) {
    try {
      gateway.add(readlinkSync(`/proc/self/fd/${fd}`));
    } catch {
      // Closed.
    }
  }
  return outputPipesOf(pid, [0, 1]).filter(
    (link) => (link.startsWith("pipe:[") || link.startsWith("socket:[")) && !gateway.has(link),
  );
}
