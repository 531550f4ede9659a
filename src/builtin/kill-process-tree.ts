import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/**
 * Finds and kills every process a shell command started, including those that left its
 * process group (`setsid cmd &`) or were re-parented when their parent exited: on Linux, a
 * process is the call's when it descends from the shell (ppid chain), holds one of the call's
 * output pipes, or carries the call's marker in its environment. Elsewhere only the process
 * group is killed.
 *
 * @internal
 */

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
}

const onLinux = process.platform === "linux";

/** The link texts of the shell's standard output and error, read while it runs. */
export function outputPipesOf(pid: number): string[] {
  if (!onLinux) return [];
  const pipes: string[] = [];
  for (const fd of [1, 2]) {
    try {
      pipes.push(readlinkSync(`/proc/${pid}/fd/${fd}`));
    } catch {
      // Already gone.
    }
  }
  return pipes;
}

/** A process's parent and start time (clock ticks since boot), from `/proc/<pid>/stat`. */
export function statOf(pid: string | number): { parent: number; startTime: number } | undefined {
  if (!onLinux) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name may hold spaces and parentheses: fields start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { parent: Number(fields[1]), startTime: Number(fields[19]) };
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

function carriesMarker(pid: string, marker: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(marker);
  } catch {
    return false;
  }
}

/** Every live process of the call (the shell included), found in one pass over `/proc`. */
export function findCallProcesses(marks: CallProcessMarks): number[] {
  if (!onLinux) return [];
  let entries: string[];
  try {
    entries = readdirSync("/proc").filter((name) => /^[0-9]+$/.test(name));
  } catch {
    return [];
  }
  const self = String(process.pid);
  const parents = new Map<number, number>();
  const found = new Set<number>();
  for (const entry of entries) {
    if (entry === self) continue;
    const pid = Number(entry);
    const stat = statOf(entry);
    // Processes older than the shell cannot be the call's: skip the costly checks.
    if (stat === undefined || stat.startTime < marks.startTime) continue;
    parents.set(pid, stat.parent);
    if (
      pid === marks.pid ||
      holdsPipe(entry, marks.pipes) ||
      carriesMarker(entry, marks.environmentMarker)
    ) {
      found.add(pid);
    }
  }
  // Descendants of anything found so far.
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (!found.has(pid) && (found.has(parent) || parent === marks.pid)) {
        found.add(pid);
        grew = true;
      }
    }
  }
  return [...found];
}

function kill(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // ESRCH: already gone.
  }
}

/**
 * Kills the call's process group and every process {@link findCallProcesses} finds, again
 * until none is left (a process may fork while it is being killed), at most a few rounds.
 */
export function killCallProcesses(marks: CallProcessMarks): void {
  kill(-marks.pid);
  for (let round = 0; round < 5; round++) {
    const left = findCallProcesses(marks);
    if (left.length === 0) return;
    for (const pid of left) kill(pid);
  }
}
