import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { basename } from "node:path";
import type { Readable, Writable } from "node:stream";
import {
  type CallProcessMarks,
  killCallProcesses,
  markerVariable,
  outputPipesOf,
  statOf,
} from "../sandbox/kill-process-tree.js";
import { reapIfOwnerDies, reapMarkedIfOwnerDies, stopReaping } from "../sandbox/orphan-reaper.js";
import { assertRunnableProgram } from "./runnable-program.js";

/** After the call's processes are killed, output still not closed within this is abandoned. */
const closeGraceMs = 200;
/** After the shell exits, output still open this long means a process left its group. */
const exitSweepMs = 50;

/**
 * What runs first on Linux (`WRAPPER -c WAIT_THEN_RUN SHELL COMMAND`, the call's fourth stdio
 * a socket only this process holds the other end of): it waits for `go` on that socket, so that
 * the shell's output sockets are read, and listed with the orphan reaper, before anything of the
 * command has run (a command that moves to a session of its own, drops its marker and exits at
 * once would otherwise be gone before they were read, and what it left, unrecognised). Then it
 * closes the socket and becomes `SHELL -c COMMAND` (same pid, group and environment). Without
 * `go` (the call cancelled, its owner killed: the socket closes) it exits and nothing runs. No
 * other process can release it (short of one allowed to ptrace this one): a socket cannot be
 * opened through `/proc`, and a signal does not end a `read` in its favour.
 */
const waitThenRun =
  'IFS= read -r aintern_go <&3 && [ "$aintern_go" = go ] || exit 125; unset aintern_go; exec 3<&-; exec "$0" -c "$1"';

/**
 * Shells that run {@link waitThenRun} themselves, unchanged by running twice: they read no
 * start-up file of the user's on the way (zsh reads `.zshenv`; bash reads only `BASH_ENV`, if
 * set) and count `SHLVL` once (busybox `ash` would count it twice). Another shell (zsh, fish,
 * ash) is started by `/bin/sh`, which passes on only environment variables whose names are shell
 * identifiers.
 */
const posixShells = new Set(["sh", "dash", "bash", "ksh", "ksh93", "mksh", "yash"]);

/** The commands running now: killed, with what they started, when this process exits. */
const running = new Set<CallProcessMarks>();
let exitHookInstalled = false;

/**
 * Kills every running command's processes when this process exits with commands still running
 * (`process.exit`, a sandbox worker whose host closed its channel). A process killed outright
 * runs no handler: the orphan reaper covers that.
 */
function killRunningOnExit(marks: CallProcessMarks): void {
  running.add(marks);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const left of running) killCallProcesses(left);
  });
}

function ended(marks: CallProcessMarks): void {
  running.delete(marks);
  stopReaping(marks);
}

/** What {@link runShellCommand} runs, and its limits. */
export interface ShellCommandRequest {
  readonly command: string;
  /** The working directory (already confined by the caller). */
  readonly cwd: string;
  /** The most bytes of stdout plus stderr kept; the rest is read and dropped. */
  readonly maxOutputBytes: number;
  /** Stops the command: its whole process group is killed. */
  readonly signal: AbortSignal;
  /** The shell (default `/bin/sh`). */
  readonly shell?: string;
  /** The environment (default the host's). */
  readonly env?: NodeJS.ProcessEnv;
  /** Called with each piece of output as it arrives (for progress). */
  readonly onOutput?: (stream: "stdout" | "stderr", text: string, totalBytes: number) => void;
}

/** How a command ended. */
export interface ShellCommandOutcome {
  /** The exit code; undefined when a signal ended it. */
  readonly exitCode: number | undefined;
  /** The signal that ended the shell, when one did (`"SIGKILL"` after an abort). */
  readonly exitSignal: NodeJS.Signals | undefined;
  readonly stdout: string;
  readonly stderr: string;
  /** All bytes the command wrote, kept or not. */
  readonly totalBytes: number;
  /** True when output beyond `maxOutputBytes` was dropped. */
  readonly truncated: boolean;
  /** True when `signal` aborted the command. */
  readonly aborted: boolean;
  /** The process id of the shell (also its process group id). */
  readonly pid: number | undefined;
}

/** Kills a whole process group; a group that is already gone is fine. */
export function killProcessGroup(pgid: number): void {
  try {
    process.kill(-pgid, "SIGKILL");
  } catch {
    // ESRCH: nothing is left in the group.
  }
}

/**
 * Runs `command` with `/bin/sh -c` (or `shell`) in its own process group (spawned detached,
 * stdin closed) and resolves when its output is closed. On Linux the shell runs none of it until
 * its output sockets are noted ({@link waitThenRun}). An abort kills with SIGKILL the whole group and, on
 * Linux, every process of the call found in `/proc` (descendants by ppid, holders of its output
 * pipes, carriers of its environment marker), so a process that left the group with `setsid`
 * ends too. When the shell exits on its own, every process of the call is found and killed the
 * same way (also one that left the group and closed its output), and searched for again if the
 * output is still open 50 ms later. Output still open 200 ms after that is no longer read: the
 * call ends anyway.
 *
 * Output is decoded as UTF-8 and capped at `maxOutputBytes` for stdout and stderr together;
 * the rest is still read (so the command never blocks on a full pipe) and dropped. The split
 * does not depend on which pipe was read first: stderr keeps up to half the cap (a flood on
 * stdout never hides the error), stdout what is left, and stderr any room stdout leaves.
 *
 * @internal
 */
export function runShellCommand(request: ShellCommandRequest): Promise<ShellCommandOutcome> {
  const { command, cwd, maxOutputBytes, signal, onOutput } = request;
  return new Promise((resolvePromise, rejectPromise) => {
    const marker = randomUUID();
    const environmentMarker = `${markerVariable}=${marker}`;
    const given = request.env ?? process.env;
    const env = { ...given, [markerVariable]: marker };
    // Listed before it starts: this process may be killed before it has read the shell's pid.
    const provisional = reapMarkedIfOwnerDies(environmentMarker);
    const shell = request.shell ?? "/bin/sh";
    const waitFirst = process.platform === "linux";
    const wrapper = posixShells.has(basename(shell)) ? shell : "/bin/sh";
    let child: ChildProcess;
    try {
      // Started by /bin/sh, a shell that cannot run would be reported only in its output.
      if (waitFirst && wrapper !== shell) assertRunnableProgram(shell, cwd, given.PATH);
      child = spawn(
        waitFirst ? wrapper : shell,
        waitFirst ? ["-c", waitThenRun, shell, command] : ["-c", command],
        {
          cwd,
          env,
          detached: true,
          stdio: waitFirst ? ["ignore", "pipe", "pipe", "pipe"] : ["ignore", "pipe", "pipe"],
          windowsHide: true,
        },
      );
    } catch (error) {
      stopReaping(provisional);
      throw error;
    }
    const stdout = child.stdout as Readable;
    const stderr = child.stderr as Readable;
    const pid = child.pid;
    if (pid === undefined) stopReaping(provisional);
    // Read while the shell waits for `go`: nothing of the command has run yet.
    const marks: CallProcessMarks | undefined =
      pid === undefined
        ? undefined
        : {
            pid,
            environmentMarker,
            pipes: outputPipesOf(pid),
            startTime: statOf(pid)?.startTime ?? 0,
          };
    if (marks !== undefined) {
      killRunningOnExit(marks);
      // Killed outright, this process runs no handler: the orphan reaper then ends the command.
      reapIfOwnerDies(marks);
    }
    const release = child.stdio[3] as Writable | null | undefined;
    if (release) {
      // The shell gone already (EPIPE) is found at its exit.
      release.on("error", () => undefined);
      if (signal.aborted || marks === undefined) release.destroy();
      else release.end("go\n");
    }
    let settled = false;
    let graceTimer: NodeJS.Timeout | undefined;
    const killAll = (): void => {
      if (marks !== undefined) killCallProcesses(marks);
      // A process we could not find may still hold the output open: stop waiting for it.
      graceTimer ??= setTimeout(() => {
        stdout.destroy();
        stderr.destroy();
        finish();
      }, closeGraceMs);
      graceTimer.unref?.();
    };
    // Each stream keeps its first `maxOutputBytes`; the split between them is made at the end.
    const kept = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
    const keptBytes = { stdout: 0, stderr: 0 };
    let totalBytes = 0;
    let aborted = false;
    let exitCode: number | undefined;
    let exitSignal: NodeJS.Signals | undefined;

    const onAbort = (): void => {
      aborted = true;
      killAll();
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });

    const collect = (stream: "stdout" | "stderr") => (chunk: Buffer) => {
      totalBytes += chunk.length;
      const room = maxOutputBytes - keptBytes[stream];
      if (room > 0) {
        const piece = chunk.length > room ? chunk.subarray(0, room) : chunk;
        kept[stream].push(piece);
        keptBytes[stream] += piece.length;
      }
      onOutput?.(stream, chunk.toString("utf8"), totalBytes);
    };
    stdout.on("data", collect("stdout"));
    stderr.on("data", collect("stderr"));

    child.once("error", (error) => {
      if (marks !== undefined) ended(marks);
      signal.removeEventListener("abort", onAbort);
      rejectPromise(error);
    });
    child.once("exit", (code, exit) => {
      exitCode = code ?? undefined;
      exitSignal = exit ?? undefined;
      // What the shell left behind ends with it: its group, and what left the group (`setsid`,
      // its output redirected away) found as a timeout finds it. If the output is still open a
      // moment later (a process not found yet holds it), all of them are searched for again.
      if (marks !== undefined) killCallProcesses(marks);
      else if (pid !== undefined) killProcessGroup(pid);
      const sweep = setTimeout(() => {
        if (!settled) killAll();
      }, exitSweepMs);
      sweep.unref?.();
    });
    const finish = (): void => {
      if (settled) return;
      settled = true;
      if (marks !== undefined) ended(marks);
      if (graceTimer !== undefined) clearTimeout(graceTimer);
      signal.removeEventListener("abort", onAbort);
      const output = splitOutput(
        Buffer.concat(kept.stdout),
        Buffer.concat(kept.stderr),
        maxOutputBytes,
      );
      resolvePromise({
        exitCode,
        exitSignal,
        stdout: output.stdout.toString("utf8"),
        stderr: output.stderr.toString("utf8"),
        totalBytes,
        truncated: totalBytes > maxOutputBytes,
        aborted,
        pid,
      });
    };
    child.once("close", finish);
  });
}

/**
 * Shares `max` bytes between the two streams' heads: stderr first up to half, stdout the rest,
 * then stderr any room stdout left.
 */
function splitOutput(
  stdout: Buffer,
  stderr: Buffer,
  max: number,
): { stdout: Buffer; stderr: Buffer } {
  const stderrFirst = Math.min(stderr.length, Math.floor(max / 2));
  const stdoutShare = Math.min(stdout.length, max - stderrFirst);
  const stderrShare = Math.min(stderr.length, max - stdoutShare);
  return { stdout: stdout.subarray(0, stdoutShare), stderr: stderr.subarray(0, stderrShare) };
}
