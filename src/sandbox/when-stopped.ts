import { stateOf } from "./kill-process-tree.js";

/** Polled on every turn of the event loop this long first: a shell stops within a millisecond or so. */
const eagerMs = 5;
/** Then once a millisecond. */
const patientPollMs = 1;

/** How {@link whenStopped} ended. */
export type StopWait = "stopped" | "gone" | "late" | "given-up";

/**
 * Resolves once process `pid` is stopped (`T`: it sent itself SIGSTOP), gone or a zombie, after
 * `limitMs` (`"late"`), or once `giveUp()` says so: read from `/proc/<pid>/stat`, first on every
 * turn of the event loop, then once a millisecond. Linux only (elsewhere it says `"late"` at once).
 *
 * @internal
 */
export function whenStopped(
  pid: number,
  limitMs: number,
  giveUp: () => boolean,
): Promise<StopWait> {
  if (process.platform !== "linux") return Promise.resolve("late");
  const since = performance.now();
  return new Promise((resolve) => {
    const poll = (): void => {
      const outcome = giveUp() ? "given-up" : stoppedOrGone(pid);
      const waited = performance.now() - since;
      if (outcome !== undefined) resolve(outcome);
      else if (waited >= limitMs) resolve("late");
      else if (waited < eagerMs) setImmediate(poll);
      else setTimeout(poll, patientPollMs);
    };
    poll();
  });
}

function stoppedOrGone(pid: number): "stopped" | "gone" | undefined {
  const state = stateOf(pid);
  if (state === "T") return "stopped";
  return state === undefined || state === "Z" || state === "X" ? "gone" : undefined;
}
