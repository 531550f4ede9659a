import { readdirSync, readFileSync } from "node:fs";
import type { ToolProgress } from "../../src/context/index.js";
import { ServiceContainer, ToolExecutionContext } from "../../src/context/index.js";
import type { JsonObject } from "../../src/core/index.js";
import type { SandboxOutcome, ToolSandbox } from "../../src/sandbox/process.js";
import type { Tool } from "../../src/tools/index.js";

/** The fixture module the child processes load the test tools from. */
export const fixtureModule = new URL("../fixtures/sandbox/tools.ts", import.meta.url).href;

/** Every pid a test saw, so an afterAll can kill what a failing test left behind. */
export const seenPids = new Set<number>();

/** The state letter of a process (`R`, `S`, `Z`...), or undefined when it does not exist. */
export function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
  } catch {
    return undefined;
  }
}

/** A process's start time (clock ticks since boot), or undefined when it is gone or a zombie. */
export function liveStartTime(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[0] === "Z" || fields[0] === "X" ? undefined : Number(fields[19]);
  } catch {
    return undefined;
  }
}

/**
 * Processes a test saw, each noted with its start time: whether one still runs (not gone, not
 * a zombie, its pid not reused since), and a way to kill what a failing test left.
 */
export class NotedProcesses {
  readonly #starts = new Map<number, number | undefined>();

  note(pid: number): number {
    this.#starts.set(pid, liveStartTime(pid));
    return pid;
  }

  running = (pid: number): boolean => {
    const start = this.#starts.get(pid);
    return start !== undefined && liveStartTime(pid) === start;
  };

  killLeft(): void {
    for (const pid of this.#starts.keys()) if (this.running(pid)) process.kill(pid, "SIGKILL");
  }
}

/** True when `process.kill(pid, 0)` fails with ESRCH: the process is gone and reaped. */
export function isReaped(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return true;
    throw error;
  }
}

/**
 * True when the process no longer runs: reaped (ESRCH), or a zombie. An orphaned grandchild is
 * reaped by PID 1, which in this test machine (a Firecracker init) reaps only every second or
 * so: until then the dead process is a zombie, which holds no memory and runs no code.
 */
export function isDead(pid: number): boolean {
  if (isReaped(pid)) return true;
  const state = processState(pid);
  return state === undefined || state === "Z" || state === "X";
}

/** The live processes whose environment holds `NAME=value` (a test's own tag, inherited). */
export function processesWith(variable: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, "latin1").split("\0").includes(variable)) {
        found.push(Number(entry));
      }
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found.filter((pid) => !isDead(pid));
}

/** The pids of the living (non-zombie) processes in process group `pgid`. */
export function livingGroupMembers(pgid: number): number[] {
  const living: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "latin1");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // state, ppid, pgrp
      if (Number(fields[2]) === pgid && fields[0] !== "Z" && fields[0] !== "X") {
        living.push(Number(entry));
      }
    } catch {
      // exited while we looked
    }
  }
  return living;
}

/** Kills every process (and group) a test saw; for afterAll, whatever the tests did. */
export function killSeen(): void {
  for (const pid of seenPids) {
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, "SIGKILL");
      } catch {
        // gone
      }
    }
  }
  seenPids.clear();
}

/** What {@link runTool} saw. */
export interface ToolRun {
  readonly outcome: SandboxOutcome;
  readonly elapsedMs: number;
  readonly progress: ToolProgress[];
  /** The pids the tool reported in a progress message, if it did. */
  readonly pid: number | undefined;
  readonly grandchildPid: number | undefined;
}

/** How {@link runTool} runs a tool. */
export interface RunToolOptions {
  readonly parameters?: JsonObject;
  /** Aborts the signal after this long, as the executor does on a timeout (default 10 s). */
  readonly timeoutMs?: number;
  /** The timeoutMs told to the sandbox (default `timeoutMs`). */
  readonly sandboxTimeoutMs?: number;
  /** Aborts the signal as soon as the tool has reported its pid (a cancellation). */
  readonly cancelOnPid?: boolean;
  /** Leave the signal alone (only the sandbox's own timer stops the run). */
  readonly noSignalTimeout?: boolean;
  readonly signal?: AbortSignal;
  readonly withProgress?: boolean;
  readonly context?: Partial<ConstructorParameters<typeof ToolExecutionContext>[0]>;
}

/** Runs `tool` in `sandbox` the way the executor does, timing it and collecting its pids. */
export async function runTool(
  sandbox: ToolSandbox,
  tool: Tool,
  options: RunToolOptions = {},
): Promise<ToolRun> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const controller = new AbortController();
  const progress: ToolProgress[] = [];
  let pid: number | undefined;
  let grandchildPid: number | undefined;
  const onProgress = (update: ToolProgress): void => {
    progress.push(update);
    if (update.message.startsWith("{")) {
      const reported = JSON.parse(update.message) as { pid?: number; grandchildPid?: number };
      pid = reported.pid;
      grandchildPid = reported.grandchildPid;
      for (const seen of [pid, grandchildPid]) if (seen !== undefined) seenPids.add(seen);
      if (options.cancelOnPid === true) controller.abort(new Error("cancelled by the test"));
    }
  };
  const context = new ToolExecutionContext({
    services: new ServiceContainer(),
    toolId: tool.id,
    parameters: options.parameters ?? {},
    ...(options.withProgress !== false && { progress: onProgress }),
    ...options.context,
  });
  const timer =
    options.noSignalTimeout === true
      ? undefined
      : setTimeout(() => controller.abort(new Error("timed out")), timeoutMs);
  const started = performance.now();
  try {
    const outcome = await sandbox.run(tool, context, {
      signal: options.signal ?? controller.signal,
      timeoutMs: options.sandboxTimeoutMs ?? timeoutMs,
    });
    return { outcome, elapsedMs: performance.now() - started, progress, pid, grandchildPid };
  } finally {
    clearTimeout(timer);
  }
}
