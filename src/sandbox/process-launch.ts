import { accessSync, constants } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isRunningFromSource, packageFileUrl } from "../core/index.js";

/**
 * How a worker's memory is capped at the OS level, beyond the V8 heap cap:
 *
 * - `"prlimit"`: started through util-linux `prlimit --data=<bytes>` (RLIMIT_DATA, which Linux
 *   applies to every private writable mapping since 4.7, so Buffers and other memory outside the
 *   V8 heap count);
 * - `"ulimit"`: through `/bin/sh -c 'ulimit -d <KiB>; exec node ...'`, the same limit where
 *   `prlimit` is missing;
 * - `"none"`: no OS limit (not Linux, or neither is found): only the V8 heap cap and the
 *   sandbox's resident-memory watchdog apply.
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
  /** The OS data limit, in MiB (the heap cap plus the runtime's own needs). */
  readonly osMemoryMb: number;
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

/** `--import <tsx>` when running from TypeScript sources, else nothing. */
function loaderArgs(): string[] {
  if (!isRunningFromSource()) return [];
  const tsx = createRequire(import.meta.url).resolve("tsx");
  return ["--import", pathToFileURL(tsx).href];
}

/**
 * The command line of one worker: Node with the heap cap and the worker script, wrapped in the
 * OS memory limit, and, where util-linux `setpriv` exists, with a parent-death signal so a
 * worker does not outlive a host that dies without closing the sandbox.
 */
export function workerLaunch(options: WorkerLaunchOptions): WorkerLaunch {
  const nodeArgs = [
    `--max-old-space-size=${options.memoryMb}`,
    ...loaderArgs(),
    ...options.execArgv,
    workerScriptPath(),
    ...options.workerArgs,
  ];
  const dataBytes = Math.round(options.osMemoryMb * 1024 * 1024);
  let command = process.execPath;
  let args: string[] = nodeArgs;
  const { setpriv } = detect();
  if (options.memoryLimit === "prlimit") {
    const prlimit = findExecutable("prlimit");
    if (prlimit !== undefined) {
      args = [`--data=${dataBytes}`, "--", command, ...args];
      command = prlimit;
    }
  } else if (options.memoryLimit === "ulimit") {
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
