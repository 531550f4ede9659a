import { type ChildProcess, spawn } from "node:child_process";
import type { Socket } from "node:net";
import { fileURLToPath } from "node:url";
import { packageFileUrl } from "../core/index.js";
import type { CallProcessMarks } from "../sandbox/kill-process-tree.js";
import { sourceLoaderArgs } from "../sandbox/process-launch.js";

/**
 * The gateway's side of the upstream reaper (upstream-reaper-main.ts): a process started once,
 * with the first upstream server, in a session of its own (a signal to the gateway's process
 * group or terminal does not reach it), that kills the servers' processes if the gateway dies
 * without doing so itself. The gateway keeps the only write end of the reaper's stdin, so the
 * reaper hears of its death, however it came, as the end of its input. The servers listed when
 * it starts are in its arguments; later ones are written to its input. Linux only, as the
 * search for a server's processes is.
 *
 * @internal
 */
let reaper: ChildProcess | undefined;
let unavailable = process.platform !== "linux";
/** Whether a reaper has run for a second once: one that dies later was killed, not broken. */
let workedOnce = false;
/** The servers the reaper must kill if the gateway dies, by marker: sent again to a new reaper. */
const listed = new Map<string, CallProcessMarks>();

function started(): ChildProcess | undefined {
  if (unavailable) return undefined;
  if (reaper !== undefined) return reaper;
  try {
    const script = fileURLToPath(packageFileUrl("mcp/upstream-reaper-main.ts"));
    // The servers listed now go in its arguments, which it has from its start: written to its
    // input instead, they could still sit in this process's stream when it is killed outright,
    // and a reaper started just before that would reap nothing.
    const initial = JSON.stringify([...listed.values()]);
    const child = spawn(process.execPath, [...sourceLoaderArgs(), script, initial], {
      stdio: ["pipe", "ignore", "ignore"],
      detached: true,
    });
    child.once("error", () => {
      unavailable = true;
    });
    const startedAt = Date.now();
    child.once("exit", () => {
      if (reaper !== child) return;
      reaper = undefined;
      const lived = Date.now() - startedAt >= 1_000;
      if (lived) workedOnce = true;
      // One that ends as it starts and never ran (its script missing, say) is not started
      // again. Killed by someone while servers run: replaced and told of them, at once, or a
      // second later when it was killed as it started (at most one start a second).
      if (!workedOnce) unavailable = true;
      else if (listed.size > 0) {
        if (lived) started();
        else setTimeout(() => reaper ?? (listed.size > 0 ? started() : undefined), 1_000).unref();
      }
    });
    child.stdin?.on("error", () => undefined);
    // Neither the reaper nor its pipe keeps the gateway running.
    child.unref();
    (child.stdin as unknown as Socket | null)?.unref();
    reaper = child;
    return child;
  } catch {
    unavailable = true;
    return undefined;
  }
}

/** Has the reaper kill the processes `marks` finds if the gateway dies first. */
export function reapIfGatewayDies(marks: CallProcessMarks): void {
  listed.set(marks.environmentMarker, marks);
  if (reaper !== undefined) reaper.stdin?.write(lineOf(marks));
  // A reaper started now is sent every listed server, this one included.
  else started();
}

function lineOf(marks: CallProcessMarks): string {
  return `+${JSON.stringify(marks)}\n`;
}

/** The server `marks` finds was stopped by the gateway itself: the reaper forgets it. */
export function stopReaping(marks: CallProcessMarks): void {
  listed.delete(marks.environmentMarker);
  if (reaper === undefined) return;
  reaper.stdin?.write(`-${marks.environmentMarker}\n`);
}
