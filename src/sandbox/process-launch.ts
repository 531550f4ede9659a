import { execFile } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isRunningFromSource, packageFileUrl } from "../core/index.js";

/**
 * How a worker's memory is capped at the OS level, beyond the V8 heap cap. The cap is on the
 * data segment (RLIMIT_DATA, which Linux applies to every private writable mapping since 4.7, so
 * Buffers and other memory outside the V8 heap count), and it is set relative to what an idle
 * worker already has there, measured, not guessed (see `dataLimitBytes`):
 *
 * - `"prlimit"`: once the worker is ready, the host sets its limit with util-linux
 *   `prlimit --pid <pid> --data=<bytes>` (soft and hard);
 * - `"ulimit"`: where `prlimit` is missing, through `/bin/sh -c 'ulimit -d <KiB>; exec node ...'`
 *   at launch, from the idle data size of a first worker the sandbox started and measured;
 * - `"none"`: no OS limit (not Linux, or neither is found): only the V8 heap cap and the
 *   sandbox's resident-memory watchdog apply.
 *
 * Why relative: an idle worker's data segment is mostly address space V8 commits without using
 * it. From Node.js 24 (V8 13.6) each isolate commits its whole 512 MiB code range as writable
 * and executable memory up front, which RLIMIT_DATA counts, although almost none of it is ever
 * resident; a worker under tsx has two isolates (tsx's module hooks run on a thread of their
 * own), so it starts with about 1.1 GiB of data and about 80 MiB resident. Measured idle data
 * sizes here: Node 20 about 80 MiB (135 with tsx), Node 22 about 60 MiB (120 with tsx), Node 24
 * about 590 MiB (1,150 with tsx). A fixed limit would either stop healthy workers on Node 24 or
 * allow a gigabyte more on Node 20.
 *
 * RLIMIT_DATA, not RLIMIT_AS: V8 and WebAssembly reserve far more address space than they use
 * (a worker running tsx reserves 32 GB), so an address-space limit would stop healthy workers.
 */
export type MemoryLimitMethod = "prlimit" | "ulimit" | "none";

/** The command line that starts one worker. Internal to the folder. */
export interface WorkerLaunch {
  readonly command: string;
  readonly args: readonly string[];
  readonly memoryLimit: MemoryLimitMethod;
}

/** What {@link workerLaunch} needs. */
export interface WorkerLaunchOptions {
  /** V8 old-space cap, in MiB. */
  readonly memoryMb: number;
  /**
   * The data limit set at launch, in bytes (`"ulimit"` only: `"prlimit"` sets it once the worker
   * is ready); `undefined` launches without one, to measure an idle worker.
   */
  readonly launchDataLimitBytes: number | undefined;
  readonly memoryLimit: MemoryLimitMethod;
  /** Extra Node options, before the worker script. */
  readonly execArgv: readonly string[];
  /** Arguments after the worker script. */
  readonly workerArgs: readonly string[];
}

const searchPath = (): string[] => [
  ...(process.env.PATH ?? "").split(delimiter).filter((entry) => entry !== ""),
  "/usr/bin",
  "/bin",
  "/usr/sbin",
  "/sbin",
];

/** The absolute path of an executable found on PATH (or the usual bin folders), if any. */
export function findExecutable(name: string): string | undefined {
  for (const folder of searchPath()) {
    const candidate = join(folder, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

let detected: { memoryLimit: MemoryLimitMethod; setpriv: string | undefined } | undefined;

function detect(): { memoryLimit: MemoryLimitMethod; setpriv: string | undefined } {
  if (detected !== undefined) return detected;
  if (process.platform !== "linux") {
    detected = { memoryLimit: "none", setpriv: undefined };
  } else {
    const memoryLimit: MemoryLimitMethod =
      findExecutable("prlimit") !== undefined
        ? "prlimit"
        : findExecutable("sh") !== undefined
          ? "ulimit"
          : "none";
    detected = { memoryLimit, setpriv: findExecutable("setpriv") };
  }
  return detected;
}

/** The OS memory limit this machine supports (see {@link MemoryLimitMethod}). */
export function detectMemoryLimitMethod(): MemoryLimitMethod {
  return detect().memoryLimit;
}

/**
 * The worker's entry script: src/sandbox/process-worker-main.ts under vitest or tsx (which then
 * needs tsx's loader), dist/sandbox/process-worker-main.js when installed.
 */
export function workerScriptPath(): string {
  return fileURLToPath(packageFileUrl("sandbox/process-worker-main.ts"));
}

/**
 * `--import <tsx>` when running from TypeScript sources, else nothing: what a Node process
 * started on one of aintern's own scripts needs before it.
 */
export function sourceLoaderArgs(): string[] {
  if (!isRunningFromSource()) return [];
  const tsx = createRequire(import.meta.url).resolve("tsx");
  return ["--import", pathToFileURL(tsx).href];
}

/**
 * The data limit of a worker whose idle data segment is `idleDataBytes`: that, plus the heap cap,
 * plus `headroomMb` for what the runtime allocates outside the heap cap (young generation, code,
 * Buffers, native allocations).
 */
export function dataLimitBytes(
  idleDataBytes: number,
  memoryMb: number,
  headroomMb: number,
): number {
  return idleDataBytes + Math.round((memoryMb + headroomMb) * 1024 * 1024);
}

/**
 * Sets a running process's data limit, soft and hard (so the process cannot raise it again
 * without CAP_SYS_RESOURCE), through util-linux `prlimit --pid`. Rejects with prlimit's own
 * message when it fails. Internal to the folder.
 */
export function setDataLimit(pid: number, bytes: number): Promise<void> {
  const prlimit = findExecutable("prlimit");
  if (prlimit === undefined) return Promise.reject(new Error("prlimit is not installed."));
  return new Promise((resolve, reject) => {
    execFile(
      prlimit,
      ["--pid", String(pid), `--data=${bytes}:${bytes}`],
      { timeout: 10_000 },
      (error, _stdout, stderr) => {
        if (error === null) resolve();
        else
          reject(
            new Error(`prlimit could not set the data limit: ${stderr.trim() || error.message}`),
          );
      },
    );
  });
}

/**
 * The command line of one worker: Node with the heap cap and the worker script, wrapped in the
 * OS memory limit where it is set at launch, and, where util-linux `setpriv` exists, with a parent-death signal so a
 * worker does not outlive a host that dies without closing the sandbox.
 */
export function workerLaunch(options: WorkerLaunchOptions): WorkerLaunch {
  const nodeArgs = [
    `--max-old-space-size=${options.memoryMb}`,
    ...sourceLoaderArgs(),
    ...options.execArgv,
    workerScriptPath(),
    ...options.workerArgs,
  ];
  let command = process.execPath;
  let args: string[] = nodeArgs;
  const { setpriv } = detect();
  const dataBytes = options.launchDataLimitBytes;
  if (options.memoryLimit === "ulimit" && dataBytes !== undefined) {
    // $0 and "$@" carry the command line unparsed by the shell.
    args = ["-c", `ulimit -d ${Math.ceil(dataBytes / 1024)} && exec "$0" "$@"`, command, ...args];
    command = findExecutable("sh") ?? "/bin/sh";
  }
  if (setpriv !== undefined && process.platform === "linux") {
    args = ["--pdeathsig", "KILL", "--", command, ...args];
    command = setpriv;
  }
  return { command, args, memoryLimit: options.memoryLimit };
}
