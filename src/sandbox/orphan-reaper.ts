import { type ChildProcess, spawn } from "node:child_process";
import type { Socket } from "node:net";
import { fileURLToPath } from "node:url";
import { packageFileUrl } from "../core/index.js";
import { type CallProcessMarks, markerVariable, stateOf, statOf } from "./kill-process-tree.js";
import { sourceLoaderArgs } from "./process-launch.js";

/**
 * This process's side of the orphan reaper (orphan-reaper-main.ts): a process started once, with
 * the first process aintern starts that must not outlive it (a gateway's upstream server, a
 * terminal command's shell, a process-isolated tool's worker), in a session of its own (a signal
 * to this process's group or terminal does not reach it). It kills the listed processes, and
 * the processes they started, if this process dies without doing so itself: killed outright
 * (SIGKILL, the OOM killer), it runs no handler of its own. This process keeps the only write
 * end of the reaper's stdin, so the reaper hears of its death, however it came, as the end of
 * its input. What is listed when it starts is in its arguments; later ones are written to its
 * input. Linux only, as the search for a call's processes is. A process-isolated tool's worker
 * has a reaper of its own for the commands it runs: the host's death kills the worker outright
 * (its parent-death signal), before the host's reaper could find the commands through it.
 *
 * @internal
 */
let reaper: ChildProcess | undefined;
let unavailable = process.platform !== "linux";
/** Whether a reaper has run for a second once: one that dies later was killed, not broken. */
let workedOnce = false;
/** What the reaper must kill if this process dies, by marker: sent again to a new reaper. */
const listed = new Map<string, CallProcessMarks>();

function started(): ChildProcess | undefined {
  if (unavailable) return undefined;
  if (reaper !== undefined) return reaper;
  try {
    const script = fileURLToPath(packageFileUrl("sandbox/orphan-reaper-main.ts"));
    // What is listed now goes in its arguments, which it has from its start: written to its
    // input instead, they could still sit in this process's stream when it is killed outright,
    // and a reaper started just before that would reap nothing.
    const initial = listArguments([...listed.values()]);
    // Without this process's own call marker (a worker's): a search for the call's processes
    // after the worker's death must not find, and kill, the reaper before it reaps.
    const { [markerVariable]: _marker, ...env } = process.env;
    const child = spawn(process.execPath, [...sourceLoaderArgs(), script, ...initial], {
      stdio: ["pipe", "ignore", "ignore"],
      detached: true,
      env,
    });
    child.once("error", () => {
      unavailable = true;
    });
    const startedAt = Date.now();
    child.once("exit", (_code, signal) => {
      if (reaper !== child) return;
      reaper = undefined;
      const lived = Date.now() - startedAt >= 1_000;
      if (lived) workedOnce = true;
      // One that exits by itself as it starts never ran (its script missing, say): not started
      // again. Killed by someone (a signal; a command may kill it as soon as it starts) while
      // processes are listed: replaced and told of them, at once, or a second later when it
      // was killed as it started (at most one start a second).
      if (signal === null && !workedOnce) unavailable = true;
      else if (listed.size > 0) {
        if (lived) started();
        else setTimeout(() => reaper ?? (listed.size > 0 ? started() : undefined), 1_000).unref();
      }
    });
    child.stdin?.on("error", () => undefined);
    // Neither the reaper nor its pipe keeps this process running.
    child.unref();
    (child.stdin as unknown as Socket | null)?.unref();
    reaper = child;
    return child;
  } catch {
    unavailable = true;
    return undefined;
  }
}

/** The pid of marks listed before their process has one: it names no process. */
const MARKER_ONLY_PID = 0;
let ownStartTime: number | undefined;

/**
 * Lists, before it is started, a process that will carry `environmentMarker` in its
 * environment (and everything it starts): killed between the start and {@link reapIfOwnerDies}
 * with its pid (a few system calls, or longer when the machine is busy and this process waits
 * for a core), this process would otherwise leave it running. Until then the reaper finds the
 * processes by the marker alone. Returns what was listed, for {@link stopReaping} when the
 * process could not be started.
 */
export function reapMarkedIfOwnerDies(environmentMarker: string): CallProcessMarks {
  ownStartTime ??= statOf(process.pid)?.startTime ?? 0;
  const marks: CallProcessMarks = {
    pid: MARKER_ONLY_PID,
    environmentMarker,
    pipes: [],
    // Every process of the call starts after this one.
    startTime: ownStartTime,
    ownGroup: false,
  };
  reapIfOwnerDies(marks);
  return marks;
}

/** Has the reaper kill the processes `marks` finds if this process dies first. */
export function reapIfOwnerDies(marks: CallProcessMarks): void {
  listed.set(marks.environmentMarker, marks);
  if (idleTimer !== undefined) {
    clearTimeout(idleTimer);
    idleTimer = undefined;
  }
  if (reaper !== undefined && cannotReap(reaper.pid)) replaceReaper(reaper);
  if (reaper !== undefined) reaper.stdin?.write(lineOf(marks));
  // A reaper started now is sent everything listed, this one included.
  else started();
}

/**
 * Whether the reaper `pid` can no longer reap: stopped (SIGSTOP, a tracer), it reads nothing,
 * and a command may stop it to outlive its owner; dead (a zombie: killed, its exit not handled
 * here yet), what is written to it is lost. Either way it is replaced at once: this process may
 * be killed before the event loop would have handled the dead one's exit.
 */
function cannotReap(pid: number | undefined): boolean {
  const state = pid === undefined ? undefined : stateOf(pid);
  return state === "T" || state === "t" || state === "Z" || state === "X";
}

/** Kills a reaper that {@link cannotReap} (a stopped one would stay stopped for good). */
function replaceReaper(unable: ChildProcess): void {
  if (reaper === unable) reaper = undefined;
  try {
    unable.kill("SIGKILL");
  } catch {
    // Gone already.
  }
}

/** The most bytes of one argument: Linux refuses an argument of 128 KiB or more (E2BIG). */
const ARGUMENT_BYTES = 64 * 1024;

/**
 * What is listed, as JSON arrays for the reaper's arguments, each well under what Linux allows
 * one argument: hundreds of running commands and workers would not fit in one.
 */
function listArguments(all: readonly CallProcessMarks[]): string[] {
  const args: string[] = [];
  let chunk: string[] = [];
  let bytes = 0;
  for (const marks of all) {
    const json = JSON.stringify(marks);
    const size = Buffer.byteLength(json) + 1;
    if (chunk.length > 0 && bytes + size > ARGUMENT_BYTES) {
      args.push(`[${chunk.join(",")}]`);
      chunk = [];
      bytes = 0;
    }
    chunk.push(json);
    bytes += size;
  }
  args.push(`[${chunk.join(",")}]`);
  return args;
}

function lineOf(marks: CallProcessMarks): string {
  return `+${JSON.stringify(marks)}\n`;
}

/** The processes `marks` finds were stopped by this process itself: the reaper forgets them. */
export function stopReaping(marks: CallProcessMarks): void {
  if (!listed.delete(marks.environmentMarker)) return;
  if (reaper === undefined) return;
  reaper.stdin?.write(`-${marks.environmentMarker}\n`);
  if (listed.size === 0) idleTimer ??= setTimeout(endIfIdle, idleEndMs).unref();
}

/** How long a reaper with nothing listed is kept, for the next command, before it is ended. */
let idleEndMs = 30_000;

/** The reaper's pid while one runs, and the idle time before it is ended (tests). @internal */
export const orphanReaperForTests = {
  get pid(): number | undefined {
    return reaper?.pid;
  },
  set idleEndMs(ms: number) {
    idleEndMs = ms;
  },
};
let idleTimer: NodeJS.Timeout | undefined;

/**
 * Ends the reaper when nothing was listed for {@link idleEndMs}: a process that ran a command
 * once does not keep a second one for the rest of its life. Ended from this side (its input
 * closed, with nothing listed), so no line can be on its way to a reaper that is leaving.
 */
function endIfIdle(): void {
  idleTimer = undefined;
  const idle = reaper;
  if (idle === undefined || listed.size > 0) return;
  reaper = undefined;
  if (cannotReap(idle.pid)) replaceReaper(idle);
  else idle.stdin?.end();
}
