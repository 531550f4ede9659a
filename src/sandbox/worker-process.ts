// Over 500 lines: one child process's whole protocol on the host side (start, handshake, load a
// tool, run, progress, result, death), which shares the channel's state; framing and the
// protocol messages are in message-framing.ts and sandbox-protocol.ts.
import { type ChildProcess, spawn } from "node:child_process";
import type { Socket } from "node:net";
import type { Readable } from "node:stream";
import type { ToolProgress } from "../context/index.js";
import { type ToolResult, toolResultFromJson } from "../result/index.js";
import {
  type CallProcessMarks,
  killCallProcesses,
  markerVariable,
  statOf,
} from "./kill-process-tree.js";
import { ResidentMemoryWatch, readMemoryUse } from "./memory-watchdog.js";
import { encodeFrame, FrameDecoder, type MessageLimits } from "./message-framing.js";
import { reapIfOwnerDies, reapMarkedIfOwnerDies, stopReaping } from "./orphan-reaper.js";
import { OutputCapture } from "./output-capture.js";
import {
  dataLimitBytes,
  type MemoryLimitMethod,
  setDataLimit,
  workerLaunch,
} from "./process-launch.js";
import {
  type ContextData,
  fromErrorData,
  isOutOfMemoryMessage,
  parseWorkerMessage,
  type ResultMessage,
  type RunRequest,
  runEndMarker,
  type ThrewMessage,
  type ToolSourceData,
  type WorkerMessage,
} from "./sandbox-protocol.js";
import { toolProgressFromJson } from "./tool-progress-from-json.js";

/** How one worker is started. Internal to the folder. */
export interface WorkerProcessConfig {
  /** V8 heap cap and resident-memory allowance above the idle worker, in MiB. */
  readonly memoryMb: number;
  /** What the OS data limit allows above the idle data segment and the heap cap, in MiB. */
  readonly osMemoryHeadroomMb: number;
  readonly memoryLimit: MemoryLimitMethod;
  readonly execArgv: readonly string[];
  readonly limits: MessageLimits;
  /** `file:` URLs of modules each worker imports before it is ready. */
  readonly preload: readonly string[];
  readonly startupTimeoutMs: number;
  readonly memoryCheckIntervalMs: number;
  readonly env: NodeJS.ProcessEnv | undefined;
  readonly cwd: string | undefined;
}

/** Why the host stopped a run by killing its worker. */
export type StopReason = "aborted" | "timeout" | "memory" | "output" | "message";

/** How a run in a worker ended. */
export type RunEnd =
  /** The tool returned; `outOfMemory` when its result reports a failed allocation. */
  | { readonly kind: "completed"; readonly result: ToolResult; readonly outOfMemory: boolean }
  /** The tool threw, or could not be loaded (`phase: "load"`). */
  | {
      readonly kind: "threw";
      readonly error: Error;
      readonly phase: "load" | "execute";
      readonly outOfMemory: boolean;
    }
  /** The host killed the worker's process group. */
  | { readonly kind: "stopped"; readonly reason: StopReason; readonly detail: string }
  /** The worker died on its own before returning a result. */
  | {
      readonly kind: "exited";
      readonly code: number | null;
      readonly signal: NodeJS.Signals | null;
      readonly stderrTail: string;
      readonly outOfMemory: boolean;
    };

/** Receives a run's end with the output the tool wrote; called once per run. */
export type WorkerRunDone = (end: RunEnd, stdout: string, stderr: string) => void;

/** Where a run's progress reports go (a tool execution context). */
export interface ProgressTarget {
  reportProgress(progress: ToolProgress): void;
}

/** A tool as the host names it to its workers: a number, and where to load it from. */
export interface WorkerTool {
  readonly index: number;
  readonly load: ToolSourceData;
}

type State = "starting" | "idle" | "busy" | "dead";

class ActiveRun {
  readonly id: number;
  readonly tool: number;
  readonly maxOutputBytes: number;
  readonly progress: ProgressTarget | undefined;
  readonly done: WorkerRunDone;
  final: RunEnd | undefined = undefined;
  stdoutDone = false;
  stderrDone = false;
  needStdout = false;
  needStderr = false;
  stopping: { reason: StopReason; detail: string } | undefined = undefined;
  timer: NodeJS.Timeout | undefined = undefined;
  /** Output that arrived after a stream's end marker while the run lasted: dropped, but counted. */
  uncapturedBytes = 0;

  constructor(
    id: number,
    tool: number,
    maxOutputBytes: number,
    progress: ProgressTarget | undefined,
    done: WorkerRunDone,
  ) {
    this.id = id;
    this.tool = tool;
    this.maxOutputBytes = maxOutputBytes;
    this.progress = progress;
    this.done = done;
  }
}

const mib = 1024 * 1024;
const stderrTailBytes = 4096;
// How long to wait for output still in the pipes once a run has ended or a worker has died.
const drainMs = 100;
// A process that survives SIGKILL this long is in uninterruptible sleep; stop waiting for it.
const killWaitMs = 2000;
// How long a stopped run waits for its killed process to be reaped before it ends anyway.
const killSettleMs = 40;

const noTail = Buffer.alloc(0);

/**
 * One child process of a {@link ProcessSandbox}, seen from the host: started in its own process
 * group (and session), it loads the worker script, then serves one run at a time over a framed
 * message channel on fd 3. stdout and stderr are the tool's output, counted and capped.
 * Internal to the folder.
 */
export class WorkerProcess {
  readonly memoryMb: number;
  readonly pid: number | undefined;
  /** Resolves once the worker is ready for runs; rejects when it could not start. */
  readonly ready: Promise<void>;
  /** Resolves once the process has exited (and been reaped). */
  readonly exited: Promise<void>;
  /** Milliseconds from spawn to ready, once ready. */
  startupMs: number | undefined;
  /** Called once when the process dies, whatever the reason. */
  onDeath: ((worker: WorkerProcess) => void) | undefined;
  /** True once the worker has been ready (a worker that never started is not replaced). */
  wasReady = false;
  /** The data segment size of the worker when it became ready, in bytes (Linux only). */
  idleDataBytes: number | undefined;
  /** The OS data limit (RLIMIT_DATA) of the worker, in bytes, once set. */
  dataLimitBytes: number | undefined;
  /** Stops the current run as aborted: an abort listener made once per worker. */
  readonly abortRun = (): void => this.stop("aborted");

  readonly #config: WorkerProcessConfig;
  readonly #child: ChildProcess;
  readonly #channel: Socket;
  readonly #decoder: FrameDecoder;
  readonly #stdout = new OutputCapture();
  readonly #stderr = new OutputCapture();
  readonly #spawnedAt = performance.now();
  readonly #stderrClosed: Promise<void>;
  // Makes the run-end markers of this worker's output unguessable by the tools it runs.
  readonly #salt = crypto.randomUUID();
  /** How the worker's processes are found on Linux (see {@link killCallProcesses}). */
  #marks: CallProcessMarks | undefined;
  #saltSent = false;
  // The tools this worker has loaded, by their WorkerTool number.
  readonly #loaded = new Set<number>();
  readonly #onStdoutMarker = (): void => this.#markerSeen(true);
  readonly #onStderrMarker = (): void => this.#markerSeen(false);
  #stderrTail: Buffer = noTail;
  #state: State = "starting";
  #run: ActiveRun | undefined;
  #nextRunId = 1;
  #watch: ResidentMemoryWatch | undefined;
  #exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  #resolveReady!: () => void;
  #rejectReady!: (error: Error) => void;
  #resolveExited!: () => void;
  #startupTimer: NodeJS.Timeout | undefined;
  #startSettled = false;
  #deathReported = false;

  /**
   * @param idleDataBytes an idle worker's data segment size, measured before (`"ulimit"` only,
   *   which sets the data limit at launch; without it the worker starts without one, to be
   *   measured).
   */
  constructor(config: WorkerProcessConfig, memoryMb: number, idleDataBytes?: number) {
    this.#config = config;
    this.memoryMb = memoryMb;
    this.#decoder = new FrameDecoder(config.limits);
    this.ready = new Promise<void>((resolve, reject) => {
      this.#resolveReady = resolve;
      this.#rejectReady = reject;
    });
    // A rejection nobody awaits (a warm worker that fails to start) must not crash the host.
    this.ready.catch(() => {});
    this.exited = new Promise<void>((resolve) => {
      this.#resolveExited = resolve;
    });
    if (config.memoryLimit === "ulimit" && idleDataBytes !== undefined) {
      this.dataLimitBytes = dataLimitBytes(idleDataBytes, memoryMb, config.osMemoryHeadroomMb);
    }
    const launch = workerLaunch({
      memoryMb,
      launchDataLimitBytes: this.dataLimitBytes,
      memoryLimit: config.memoryLimit,
      execArgv: config.execArgv,
      workerArgs: [JSON.stringify({ ...config.limits, preload: config.preload })],
    });
    // Marks the worker's processes: a tool's children that leave its process group (the
    // terminal tool's shells do) are found by it, or by descent, when the worker is killed.
    const marker = crypto.randomUUID();
    // Listed before it starts: this process may be killed before it has read the worker's pid.
    const provisional = reapMarkedIfOwnerDies(`${markerVariable}=${marker}`);
    try {
      this.#child = spawn(launch.command, launch.args, {
        detached: true,
        stdio: ["ignore", "pipe", "pipe", "pipe"],
        env: { ...(config.env ?? process.env), [markerVariable]: marker },
        ...(config.cwd !== undefined && { cwd: config.cwd }),
        windowsHide: true,
      });
    } catch (error) {
      stopReaping(provisional);
      throw error;
    }
    this.pid = this.#child.pid;
    // Elsewhere no reaper runs, and the worker is stopped through its pid only.
    if (this.pid === undefined || process.platform !== "linux") stopReaping(provisional);
    else {
      this.#marks = {
        pid: this.pid,
        environmentMarker: `${markerVariable}=${marker}`,
        pipes: [],
        startTime: statOf(this.pid)?.startTime ?? 0,
      };
      // A hung tool cannot hear its channel end: killed outright, this process has the orphan
      // reaper end the worker and what its tool started.
      reapIfOwnerDies(this.#marks);
    }
    this.#channel = this.#child.stdio[3] as Socket;
    const stdout = this.#child.stdout as Readable;
    const stderr = this.#child.stderr as Readable;
    this.#stderrClosed = new Promise<void>((resolve) => stderr.once("close", resolve));

    this.#child.on("error", (error) => this.#onSpawnError(error));
    this.#child.on("exit", (code, signal) => this.#onExit(code, signal));
    stdout.on("data", (chunk: Buffer) => this.#onOutput(this.#stdout, chunk));
    stderr.on("data", (chunk: Buffer) => {
      const recent = chunk.length > stderrTailBytes ? chunk.subarray(-stderrTailBytes) : chunk;
      const tail = Buffer.concat([this.#stderrTail, recent]);
      this.#stderrTail = tail.length > stderrTailBytes ? tail.subarray(-stderrTailBytes) : tail;
      this.#onOutput(this.#stderr, chunk);
    });
    this.#channel.on("data", (chunk: Buffer) => this.#onChannelData(chunk));
    for (const stream of [this.#channel, stdout, stderr]) {
      // EPIPE / ECONNRESET once the process is killed; its exit is what counts.
      stream.on("error", () => {});
      (stream as Socket).unref();
    }

    this.#startupTimer = setTimeout(() => {
      if (this.#state === "starting") {
        this.#failStart(
          new Error(`The worker did not start within ${config.startupTimeoutMs} ms.`),
        );
      }
    }, config.startupTimeoutMs);
  }

  /** Whether the worker waits for a run. */
  get isIdle(): boolean {
    return this.#state === "idle";
  }

  /** Whether the process has died (or is being killed). */
  get isDead(): boolean {
    return this.#state === "dead";
  }

  /**
   * Sends a run to the (idle) worker; `done` is called once when it ends, however it ends (never
   * before this returns). `progress` receives the tool's progress reports, when given.
   *
   * @throws MessageViolation when the request is over the message size limit (nothing is sent
   *   and the worker stays idle).
   */
  run(
    tool: WorkerTool,
    context: ContextData,
    maxOutputBytes: number,
    progress: ProgressTarget | undefined,
    done: WorkerRunDone,
  ): void {
    if (this.#state !== "idle") throw new Error(`A ${this.#state} worker cannot take a run.`);
    const id = this.#nextRunId;
    const request: RunRequest = {
      type: "run",
      id,
      tool: tool.index,
      // JSON leaves `load` out once the worker has the tool.
      load: this.#loaded.has(tool.index) ? undefined : tool.load,
      progress: progress !== undefined,
      context,
      salt: this.#saltSent ? undefined : this.#salt,
    };
    const frame = encodeFrame(request, this.#config.limits.maxMessageBytes);
    this.#saltSent = true;
    this.#nextRunId++;
    this.#state = "busy";
    this.#ref(true);
    this.#run = new ActiveRun(id, tool.index, maxOutputBytes, progress, done);
    // Sent first: the worker starts on it while the host gets ready for the run's end (no event
    // can arrive before this function returns).
    this.#channel.write(frame);
    const marker = runEndMarker(this.#salt, id);
    this.#stdout.begin(marker, this.#onStdoutMarker);
    this.#stderr.begin(marker, this.#onStderrMarker);
    this.#watch?.start();
  }

  /** Stops the current run by killing the worker's process group; the run resolves `stopped`. */
  stop(reason: StopReason, detail = ""): void {
    const run = this.#run;
    if (run === undefined || run.stopping !== undefined) return;
    run.stopping = { reason, detail };
    this.#watch?.stop();
    this.#stdout.end();
    this.#stderr.end();
    this.#state = "dead";
    this.#killGroup();
    if (this.#exitInfo !== undefined) {
      this.#finish(run, { kind: "stopped", reason, detail });
      return;
    }
    // SIGKILL cannot be caught: the process runs no more code. Its exit is awaited so that it
    // is reaped when the run ends, but the kernel may take a while to tear a process down on a
    // loaded machine: past killSettleMs the run ends anyway, and the exit is reaped after.
    clearTimeout(run.timer);
    run.timer = setTimeout(
      () => this.#finish(run, { kind: "stopped", reason, detail }),
      killSettleMs,
    );
  }

  /**
   * Kills the worker's process group and resolves once the worker has exited. A run under way
   * ends `stopped` (reason `"aborted"`).
   */
  kill(): Promise<void> {
    // Until it has exited, the process must keep the host alive to hear of its exit.
    if (this.#exitInfo === undefined) this.#ref(true);
    if (this.#run !== undefined) {
      this.stop("aborted", "the sandbox was closed");
    } else {
      this.#state = "dead";
      this.#killGroup();
    }
    return Promise.race([this.exited, delay(killWaitMs)]);
  }

  // ------------------------------------------------------------------------------ events

  #onChannelData(chunk: Buffer): void {
    const { messages, violation } = this.#decoder.push(chunk);
    for (const raw of messages) {
      if (this.#state === "dead") return;
      const message = parseWorkerMessage(raw);
      if (message === undefined) {
        this.#violation("a message that is not part of the worker protocol");
        return;
      }
      this.#onMessage(message);
    }
    if (violation !== undefined && this.#state !== "dead") this.#violation(violation.message);
  }

  #onMessage(message: WorkerMessage): void {
    if (message.type === "ready") {
      if (this.#state !== "starting") {
        this.#violation("an unexpected 'ready' message");
        return;
      }
      this.#becomeReady();
      return;
    }
    const run = this.#run;
    if (run === undefined || message.id !== run.id || run.final !== undefined) {
      this.#violation(`an unexpected '${message.type}' message`);
      return;
    }
    if (message.type === "progress") {
      try {
        run.progress?.reportProgress(toolProgressFromJson(message.progress));
      } catch {
        // A broken progress display must not fail the work it displays.
      }
      return;
    }
    let end: RunEnd;
    try {
      end = message.type === "result" ? completedEnd(message) : threwEnd(message);
    } catch (error) {
      this.#violation(error instanceof Error ? error.message : String(error));
      return;
    }
    run.final = end;
    // The worker keeps a tool it loaded: later requests name it by its number alone.
    if (end.kind === "completed" || (end.kind === "threw" && end.phase === "execute")) {
      this.#loaded.add(run.tool);
    }
    run.needStdout = message.markers[0];
    run.needStderr = message.markers[1];
    if (!this.#maybeFinish(run)) {
      // The end marker may never come (the tool closed or redirected its stdout).
      run.timer = setTimeout(() => this.#finish(run, end), drainMs);
    }
  }

  #markerSeen(stdout: boolean): void {
    const run = this.#run;
    if (run === undefined) return;
    if (stdout) run.stdoutDone = true;
    else run.stderrDone = true;
    this.#maybeFinish(run);
  }

  #maybeFinish(run: ActiveRun): boolean {
    if (run.final === undefined || run.stopping !== undefined) return false;
    if ((run.needStdout && !run.stdoutDone) || (run.needStderr && !run.stderrDone)) return false;
    this.#finish(run, run.final);
    return true;
  }

  #onOutput(capture: OutputCapture, chunk: Buffer): void {
    const run = this.#run;
    const collecting = capture.active;
    const added = capture.push(chunk);
    if (run === undefined) return;
    // Code in the worker can learn the marker (it shares the process) and write it early; what
    // follows is then not kept, but it still counts against the run's limit until the run ends.
    if (!collecting) run.uncapturedBytes += chunk.length;
    else if (added === 0) return;
    const total = this.#stdout.bytes + this.#stderr.bytes + run.uncapturedBytes;
    if (total > run.maxOutputBytes && run.stopping === undefined) {
      this.stop("output", `more than ${run.maxOutputBytes} bytes of output (maxOutputBytes)`);
    }
  }

  #violation(detail: string): void {
    if (this.#run !== undefined) {
      this.stop("message", detail);
      return;
    }
    if (this.#state === "starting") {
      this.#failStart(new Error(`The worker sent ${detail} while starting.`));
      return;
    }
    void this.kill();
  }

  #becomeReady(): void {
    clearTimeout(this.#startupTimer);
    const finish = (): void => {
      if (this.#state !== "starting" || this.#startSettled) return;
      this.#startSettled = true;
      this.startupMs = performance.now() - this.#spawnedAt;
      this.wasReady = true;
      this.#state = "idle";
      this.#ref(false);
      this.#resolveReady();
    };
    if (this.pid === undefined) {
      finish();
      return;
    }
    const pid = this.pid;
    readMemoryUse(pid, (use) => {
      if (this.#state !== "starting") return;
      if (use === undefined) {
        // Off Linux, or the process is already gone (its exit is what counts then).
        if (this.#config.memoryLimit === "prlimit") {
          this.#failStart(new Error(`Could not read /proc/${pid}/status to set its memory limit.`));
        } else finish();
        return;
      }
      const { residentBytes: resident, dataBytes } = use;
      this.idleDataBytes = dataBytes;
      this.#watch = new ResidentMemoryWatch(
        pid,
        resident + this.memoryMb * mib,
        this.#config.memoryCheckIntervalMs,
        (now) =>
          this.stop(
            "memory",
            `resident memory reached ${Math.round(now / mib)} MB (${this.memoryMb} MB over an idle worker's ${Math.round(resident / mib)} MB allowed)`,
          ),
      );
      if (this.#config.memoryLimit !== "prlimit") {
        finish();
        return;
      }
      // Set now, relative to what the idle worker has, before it runs any tool code.
      const limit = dataLimitBytes(dataBytes, this.memoryMb, this.#config.osMemoryHeadroomMb);
      setDataLimit(pid, limit).then(
        () => {
          this.dataLimitBytes = limit;
          finish();
        },
        (error: unknown) =>
          this.#failStart(error instanceof Error ? error : new Error(String(error))),
      );
    });
  }

  #onSpawnError(error: Error): void {
    this.#failStart(error);
    this.#markExited(null, null);
  }

  #failStart(error: Error): void {
    if (this.#startSettled) return;
    this.#startSettled = true;
    clearTimeout(this.#startupTimer);
    this.#state = "dead";
    this.#killGroup();
    void this.#stderrDrained().then(() => {
      const tail = this.#stderrTail.toString("utf8").trim();
      this.#rejectReady(
        new Error(tail === "" ? error.message : `${error.message} Its stderr: ${tail}`, {
          cause: error,
        }),
      );
    });
  }

  #onExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.#markExited(code, signal);
    // The group's other members (the tool's own children) go with it.
    this.#killGroup();
    if (this.#marks !== undefined) stopReaping(this.#marks);
    if (!this.#startSettled) {
      const how = signal === null ? `exited with code ${code}` : `was killed by ${signal}`;
      this.#failStart(new Error(`The worker ${how} before it was ready.`));
    }
    const run = this.#run;
    if (run === undefined) return;
    if (run.stopping !== undefined) {
      this.#finish(run, { kind: "stopped", ...run.stopping });
    } else if (run.final !== undefined) {
      this.#finish(run, run.final);
    } else {
      this.#watch?.stop();
      void this.#stderrDrained().then(() => {
        const stderrTail = this.#stderrTail.toString("utf8");
        this.#finish(run, {
          kind: "exited",
          code,
          signal,
          stderrTail,
          outOfMemory: isOutOfMemoryMessage(stderrTail),
        });
      });
    }
  }

  #markExited(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.#exitInfo !== undefined) return;
    this.#exitInfo = { code, signal };
    this.#state = "dead";
    this.#watch?.close();
    this.#ref(false);
    this.#resolveExited();
    if (!this.#deathReported) {
      this.#deathReported = true;
      queueMicrotask(() => this.onDeath?.(this));
    }
  }

  #finish(run: ActiveRun, end: RunEnd): void {
    if (this.#run !== run) return;
    this.#run = undefined;
    clearTimeout(run.timer);
    this.#watch?.stop();
    this.#stdout.end();
    this.#stderr.end();
    const outOfMemory = (end.kind === "completed" || end.kind === "threw") && end.outOfMemory;
    if (this.#state === "busy") {
      if (outOfMemory) {
        // An allocation failed: the worker's heap may be in any state. Replace it.
        void this.kill();
      } else {
        this.#state = "idle";
        this.#ref(false);
      }
    }
    run.done(end, this.#stdout.text(), this.#stderr.text());
  }

  // ------------------------------------------------------------------------------ helpers

  #stderrDrained(): Promise<void> {
    return Promise.race([this.#stderrClosed, delay(drainMs)]);
  }

  #killGroup(): void {
    const pid = this.pid;
    if (pid === undefined) return;
    if (this.#marks !== undefined) {
      // The group, and the processes the tool started in groups of their own.
      killCallProcesses(this.#marks);
      return;
    }
    try {
      if (process.platform === "win32") this.#child.kill("SIGKILL");
      // The negative pid names the process group: the worker and everything the tool started.
      else process.kill(-pid, "SIGKILL");
    } catch {
      // ESRCH: the group is already gone.
    }
  }

  // Idle workers must not keep the host's event loop alive; starting, busy and dying ones must,
  // until their exit is heard. The process handle alone does it: the pipes stay unreferenced.
  #ref(on: boolean): void {
    if (on) this.#child.ref();
    else this.#child.unref();
  }
}

function completedEnd(message: ResultMessage): RunEnd {
  const exception = message.exception === undefined ? undefined : fromErrorData(message.exception);
  const result = toolResultFromJson(message.result, exception);
  const outOfMemory =
    message.outOfMemory === true || (!result.success && isOutOfMemoryMessage(result.error));
  return { kind: "completed", result, outOfMemory };
}

function threwEnd(message: ThrewMessage): RunEnd {
  return {
    kind: "threw",
    error: fromErrorData(message.error),
    phase: message.phase,
    outOfMemory:
      message.outOfMemory === true ||
      (message.phase === "execute" && isOutOfMemoryMessage(message.error.message)),
  };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
