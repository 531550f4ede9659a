/**
 * The orphan reaper: a process of its own that outlives an aintern process killed outright
 * (SIGKILL, the OOM killer), which runs no handler of its own, and kills what that process
 * started and would have killed itself: a gateway's upstream servers, terminal commands, the
 * workers of process-isolated tools. The owner writes a line on this process's stdin for each
 * one it starts (`+` and the JSON of how its processes are found) and for each it stops (`-`
 * and its marker). When stdin ends (the owner is gone, however it ended, or it had nothing
 * left to reap), every process still listed is killed, as the owner would have killed it
 * ({@link killCallProcesses}), and this process exits. What was listed when it was started comes
 * in its arguments (JSON arrays of the same objects).
 *
 *   node orphan-reaper-main.js [LISTED...]   (started by orphan-reaper.ts, never by hand)
 *
 * @internal
 */
import { type CallProcessMarks, killCallProcesses } from "./kill-process-tree.js";

const listed = new Map<string, CallProcessMarks>();
let pending = "";

/** Lists the processes `marks` finds, when it is well formed. */
function list(marks: CallProcessMarks): void {
  if (
    Number.isInteger(marks?.pid) &&
    // 0: listed before its process started, found by its marker alone.
    (marks.pid === 0 || marks.pid > 1) &&
    Number.isInteger(marks.startTime) &&
    typeof marks.environmentMarker === "string" &&
    Array.isArray(marks.pipes)
  ) {
    // Never its group by number: the pid may name another's group by the time it is reaped.
    const { pid, environmentMarker, pipes, startTime } = marks;
    listed.set(environmentMarker, { pid, environmentMarker, pipes, startTime, ownGroup: false });
  }
}

function onLine(line: string): void {
  try {
    if (line.startsWith("-")) {
      listed.delete(line.slice(1));
      return;
    }
    if (!line.startsWith("+")) return;
    list(JSON.parse(line.slice(1)) as CallProcessMarks);
  } catch {
    // A line cut short by the owner's death: nothing it names was complete.
  }
}

// What was listed when the owner started this process: in its arguments (JSON arrays, as many
// as one argument's limit made it use), so that an owner killed right after starting it still
// has them reaped.
for (const argument of process.argv.slice(2)) {
  try {
    const initial: unknown = JSON.parse(argument);
    if (Array.isArray(initial)) for (const marks of initial) list(marks as CallProcessMarks);
  } catch {
    // Not from an owner: only what comes on stdin is reaped.
  }
}

process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk: string) => {
  pending += chunk;
  let end = pending.indexOf("\n");
  while (end !== -1) {
    onLine(pending.slice(0, end));
    pending = pending.slice(end + 1);
    end = pending.indexOf("\n");
  }
});
const reap = (): void => {
  for (const marks of listed.values()) killCallProcesses(marks);
  process.exit(0);
};
process.stdin.on("end", reap);
process.stdin.on("error", reap);
