/**
 * The reaper of a gateway's upstream servers: a process of its own that outlives a gateway
 * killed outright (SIGKILL, the OOM killer), which runs no handler of its own. The gateway
 * writes a line on this process's stdin for each upstream server it starts (`+` and the JSON of
 * how its processes are found) and for each it stops (`-` and its marker). When stdin ends (the
 * gateway is gone, however it ended), every process of the servers still listed is killed, as
 * the gateway would have killed them ({@link killCallProcesses}), and this process exits. The
 * servers running when it is started come as its argument (a JSON array of the same objects).
 *
 *   node upstream-reaper-main.js [LISTED]   (started by upstream-reaper.ts, never by hand)
 *
 * @internal
 */
import { type CallProcessMarks, killCallProcesses } from "../sandbox/kill-process-tree.js";

const listed = new Map<string, CallProcessMarks>();
let pending = "";

/** Lists the server `marks` finds, when it is well formed. */
function list(marks: CallProcessMarks): void {
  if (
    Number.isInteger(marks?.pid) &&
    marks.pid > 1 &&
    Number.isInteger(marks.startTime) &&
    typeof marks.environmentMarker === "string" &&
    Array.isArray(marks.pipes)
  ) {
    listed.set(marks.environmentMarker, { ...marks, ownGroup: false });
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
    // A line cut short by the gateway's death: nothing it names was complete.
  }
}

// The servers listed when the gateway started this process: in its arguments, so that a gateway
// killed right after starting it still has them reaped.
try {
  const initial: unknown = JSON.parse(process.argv[2] ?? "[]");
  if (Array.isArray(initial)) for (const marks of initial) list(marks as CallProcessMarks);
} catch {
  // Not from the gateway: only what comes on stdin is reaped.
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
