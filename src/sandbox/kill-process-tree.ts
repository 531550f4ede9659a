import { closeSync, openSync, readdirSync, readFileSync, readlinkSync, readSync } from "node:fs";

/**
 * Finds and kills every process a shell command (or a sandbox worker) started, including those
 * that left its process group (`setsid cmd &`) or were re-parented when their parent exited: on
 * Linux, a process is the call's when it descends from the shell (ppid chain), holds one of the
 * call's output pipes, or carries in its environment the call's marker or the marker of another
 * of the call's processes (a shell started inside a sandbox worker marks its own children).
 * Elsewhere only the process group is killed. The gateway's upstream servers are found the same
 * way (they are not in a group of their own: `ownGroup: false`).
 *
 * @internal
 */

/** The environment variable a call's marker is put in. */
export const markerVariable = "AINTERN_CALL";

/** How a call's processes are recognised. */
export interface CallProcessMarks {
  /** The shell's pid (also its process group id). */
  readonly pid: number;
  /** `NAME=value` put in the shell's environment; children inherit it. */
  readonly environmentMarker: string;
  /** The `/proc/<pid>/fd` link texts of the call's output pipes (`socket:[123]`). */
  readonly pipes: readonly string[];
  /** The shell's start time in clock ticks since boot: no process of the call started before. */
  readonly startTime: number;
  /**
   * Whether the shell leads a process group of its own (spawned detached), signalled as a whole
   * too. Default true. Without one, `-pid` names no group of the call's, or another's once the
   * pid is reused.
   */
  readonly ownGroup?: boolean;
  /**
   * Processes found to be the call's by an earlier search (pid to start time), found again while
   * they run with the same start time, with their descendants: the tree as it was before a
   * graceful stop, whose members the exit of their parent re-parented out of it.
   */
  readonly members?: ReadonlyMap<number, number>;
}

const onLinux = process.platform === "linux";

/**
 * A link text that names a socket (`socket:[123]`): what a child's standard output and error are
 * when Node spawns it with `"pipe"` (libuv makes a socket pair). Anything else a shell may have
 * put there before its links were read (`exec >/dev/null`, `exec >/proc/<pid>/fd/1`, a file) is
 * shared with processes that are not the call's: a process holding it must not be taken for one
 * of the call's. A socket cannot be opened by path, so only the call's processes hold this one.
 */
const socketLink = /^socket:\[[0-9]+\]$/;

/** Whether `link` is one a call's output can be recognised by ({@link socketLink}). */
function isOutputSocket(link: string): boolean {
  return socketLink.test(link);
}

/** The link texts of the shell's standard output and error (or `fds`), read while it runs. */
export function outputPipesOf(pid: number, fds: readonly number[] = [1, 2]): string[] {
  if (!onLinux) return [];
  const pipes: string[] = [];
  for (const fd of fds) {
    try {
      const link = readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (isOutputSocket(link)) pipes.push(link);
    } catch {
      // Already gone.
    }
  }
  return pipes;
}

/** One buffer for {@link readSmallFile}: a search reads the stat file of every process. */
const smallFileBuffer = Buffer.allocUnsafe(4096);

/**
 * A small file's text, read in one `read` (open, read, close): `readFileSync` also asks for the
 * file's size, which `/proc` does not know, and reads once more to find the end. A search at
 * each command's exit reads the stat file of every process on the machine (bench/terminal.bench.ts).
 */
function readSmallFile(path: string): string {
  const fd = openSync(path, "r");
  try {
    const bytes = readSync(fd, smallFileBuffer, 0, smallFileBuffer.length, 0);
    if (bytes < smallFileBuffer.length) return smallFileBuffer.toString("utf8", 0, bytes);
  } finally {
    closeSync(fd);
  }
  return readFileSync(path, "utf8");
}

/**
 * A process's parent, start time (clock ticks since boot) and whether it has exited (a zombie
 * waiting to be reaped), from `/proc/<pid>/stat`.
 */
export function statOf(
  pid: string | number,
): { parent: number; startTime: number; exited: boolean } | undefined {
  if (!onLinux) return undefined;
  try {
    const stat = readSmallFile(`/proc/${pid}/stat`);
    // The command name may hold spaces and parentheses: fields start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return {
      parent: Number(fields[1]),
      startTime: Number(fields[19]),
      exited: fields[0] === "Z" || fields[0] === "X",
    };
  } catch {
    return undefined;
  }
}

function holdsPipe(pid: string, pipes: readonly string[]): boolean {
  if (pipes.length === 0) return false;
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        if (pipes.includes(readlinkSync(`/proc/${pid}/fd/${fd}`))) return true;
      } catch {
        // Closed meanwhile.
      }
    }
  } catch {
    // Gone, or not ours to read.
  }
  return false;
}

/** The process's `AINTERN_CALL=...` entry, if its environment has one. */
function markerOf(pid: string): string | undefined {
  try {
    const prefix = `${markerVariable}=`;
    return readFileSync(`/proc/${pid}/environ`, "latin1")
      .split("\0")
      .find((entry) => entry.startsWith(prefix));
  } catch {
    return undefined;
  }
}

/** Every live process of the call (the shell included), found in one pass over `/proc`. */
export function findCallProcesses(marks: CallProcessMarks): number[] {
  return [...findCallProcessStarts(marks).keys()];
}

/** As {@link findCallProcesses}, with each process's start time (clock ticks since boot). */
export function findCallProcessStarts(marks: CallProcessMarks): Map<number, number> {
  const starts = new Map<number, number>();
  if (!onLinux) return starts;
  let entries: string[];
  try {
    entries = readdirSync("/proc").filter((name) => /^[0-9]+$/.test(name));
  } catch {
    return starts;
  }
  const self = String(process.pid);
  // Marks from elsewhere (a reaper's input) may name what is not the call's own.
  const pipes = marks.pipes.filter(isOutputSocket);
  const parents = new Map<number, number>();
  const markers = new Map<number, string>();
  const found = new Set<number>();
  for (const entry of entries) {
    if (entry === self) continue;
    const pid = Number(entry);
    const stat = statOf(entry);
    // Processes older than the shell cannot be the call's: skip the costly checks. One that
    // has exited runs no code, and its children were re-parented when it exited.
    if (stat === undefined || stat.startTime < marks.startTime || stat.exited) continue;
    parents.set(pid, stat.parent);
    starts.set(pid, stat.startTime);
    const marker = markerOf(entry);
    // An empty marker (`AINTERN_CALL=`) marks nothing: it would tie every process carrying one.
    if (marker !== undefined && marker.length > markerVariable.length + 1) markers.set(pid, marker);
    // The shell's pid only while it is the shell: a pid reused after it was reaped is another's.
    // Never pid 1 (or 0, marks listed before their process started): all descend from it.
    const isShell =
      marks.pid > 1 &&
      pid === marks.pid &&
      (marks.startTime === 0 || stat.startTime === marks.startTime);
    const isMember = marks.members?.get(pid) === stat.startTime;
    if (isShell || isMember || marker === marks.environmentMarker || holdsPipe(entry, pipes)) {
      found.add(pid);
    }
  }
  // Descendants of anything found so far, and carriers of a found process's marker.
  const foundMarkers = new Set([marks.environmentMarker]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const pid of found) {
      const marker = markers.get(pid);
      if (marker !== undefined) foundMarkers.add(marker);
    }
    for (const [pid, parent] of parents) {
      if (found.has(pid)) continue;
      const marker = markers.get(pid);
      if (found.has(parent) || (marker !== undefined && foundMarkers.has(marker))) {
        found.add(pid);
        grew = true;
      }
    }
  }
  for (const pid of starts.keys()) if (!found.has(pid)) starts.delete(pid);
  return starts;
}

function signal(pid: number, name: "SIGKILL" | "SIGSTOP"): void {
  try {
    process.kill(pid, name);
  } catch {
    // ESRCH: already gone.
  }
}

/**
 * Waits (at most 50 ms, spinning: the kill is synchronous) until each of `pids` is stopped or
 * gone: a signal is delivered when its process next runs, and one still running may fork once
 * more after it was sent.
 */
function awaitStopped(pids: readonly number[]): void {
  const until = performance.now() + 50;
  for (const pid of pids) {
    while (performance.now() < until) {
      const state = stateOf(pid);
      if (state === undefined || state === "T" || state === "t" || state === "Z" || state === "X") {
        break;
      }
    }
  }
}

/** A process's state letter from `/proc/<pid>/stat`, or undefined when it is gone. */
export function stateOf(pid: number): string | undefined {
  try {
    const stat = readSmallFile(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  } catch {
    return undefined;
  }
}

/**
 * Kills the call's process group (unless `ownGroup: false`) and every process
 * {@link findCallProcesses} finds, in a few rounds. Each round first stops (SIGSTOP) what it
 * found and searches again before killing: a stopped process forks no more, and the children it
 * forked meanwhile still name it as their parent, where killing it at once would orphan them
 * unseen. The first search runs before the group is touched for the same reason. A process that
 * left the call's tree, cleared its environment and closed its output before the first search is
 * not found (`env -i` and a double fork): only an operating-system container (a cgroup, a PID
 * namespace) would hold it.
 */
export function killCallProcesses(marks: CallProcessMarks): void {
  // No pid yet (marks listed before their process started): no group; `-0` is this one's.
  const group = marks.ownGroup === false || marks.pid <= 1 ? undefined : -marks.pid;
  let left = findCallProcesses(marks);
  if (group !== undefined) signal(group, "SIGSTOP");
  for (let round = 0; round < 5 && left.length > 0; round++) {
    for (const pid of left) signal(pid, "SIGSTOP");
    awaitStopped(left);
    const found = new Set([...left, ...findCallProcesses(marks)]);
    for (const pid of found) signal(pid, "SIGSTOP");
    if (group !== undefined) signal(group, "SIGKILL");
    for (const pid of found) signal(pid, "SIGKILL");
    left = findCallProcesses(marks);
  }
  if (group !== undefined) signal(group, "SIGKILL");
}
