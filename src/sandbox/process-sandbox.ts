// Over 500 lines: the pool (start, reuse, replace, retire workers) and a run's life on a worker
// (send, progress, timeout, kill, result) share the workers' state; the process launch, framing,
// protocol, output capture and memory watchdog are in their own files.
import { isAbsolute } from "node:path";
import { pathToFileURL } from "node:url";
import type { ToolApprovalDetails, ToolExecutionContext } from "../context/index.js";
import { isJsonObject, type JsonObject } from "../core/index.js";
import { ToolResult, toJsonSafe } from "../result/index.js";
import type { Tool, ToolSource } from "../tools/index.js";
import { MessageViolation } from "./message-framing.js";
import { detectMemoryLimitMethod, type MemoryLimitMethod } from "./process-launch.js";
import { SandboxError, SandboxErrorCode } from "./sandbox-error.js";
import type { ContextData, ToolSourceData } from "./sandbox-protocol.js";
import {
  onRunAborted,
  runAborted,
  type SandboxOutcome,
  type SandboxRunOptions,
  type ToolSandbox,
} from "./tool-sandbox.js";
import {
  type RunEnd,
  WorkerProcess,
  type WorkerProcessConfig,
  type WorkerTool,
} from "./worker-process.js";

/** Construction options of a {@link ProcessSandbox}; every member has a default. */
export interface ProcessSandboxConfig {
  /** Workers kept started and waiting, so a call does not pay a process start (default 2). */
  readonly poolSize?: number;
  /**
   * Memory per worker, in MiB (default 256): the V8 heap cap (`--max-old-space-size`) and how
   * far the worker's resident memory may grow over an idle worker's. A tool with a smaller
   * `constraints.maxMemoryMb` gets a worker of its own with that limit, not kept afterwards.
   */
  readonly maxMemoryMb?: number;
  /**
   * What the OS limit allows beyond `maxMemoryMb` for the runtime's own allocations outside the
   * heap cap (young generation, code, Buffers), in MiB (default 256): a worker's data segment
   * (RLIMIT_DATA) is capped at the size it had when idle, measured once it is ready, plus
   * `maxMemoryMb + osMemoryHeadroomMb` (see {@link MemoryLimitMethod}). On Node.js 24 a tool
   * that starts worker threads needs 512 MiB more per thread (each isolate's code range).
   */
  readonly osMemoryHeadroomMb?: number;
  /** How the OS memory limit is applied (default: detected, see {@link MemoryLimitMethod}). */
  readonly memoryLimit?: MemoryLimitMethod;
  /**
   * The most bytes a run may write to stdout and stderr together (default 10 MiB); a tool's
   * smaller `constraints.maxOutputBytes` applies to its runs.
   */
  readonly maxOutputBytes?: number;
  /** The most bytes of one message between the processes (default 16 MiB). */
  readonly maxMessageBytes?: number;
  /** The most nesting levels of one message, its 2-level envelope included (default 64). */
  readonly maxMessageDepth?: number;
  /**
   * Modules (absolute paths or `file:` URLs) each worker imports before it is ready, so the
   * first call of their tools in a new worker does not pay their loading.
   */
  readonly preloadModules?: readonly string[];
  /** Extra Node options for workers, e.g. `["--import", "tsx"]` for tools written in TypeScript. */
  readonly execArgv?: readonly string[];
  /** The workers' environment (default the host's). */
  readonly env?: NodeJS.ProcessEnv;
  /** The workers' working directory (default the host's). */
  readonly cwd?: string;
  /** How long a worker may take to start (default 15 s). */
  readonly startupTimeoutMs?: number;
  /** How often a running worker's resident memory is checked (default 25 ms). */
  readonly memoryCheckIntervalMs?: number;
}

/** The result metadata key under which a run's captured `{ stdout, stderr }` text is returned. */
export const processOutputMetadataKey = "processOutput";

const mib = 1024 * 1024;
// How long after `timeoutMs` the sandbox's own timer stops a run whose signal did not abort.
const backstopGraceMs = 25;

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new SandboxError(
      SandboxErrorCode.InvalidConfig,
      `ProcessSandbox option '${name}' must be a positive number; got ${value}.`,
    );
  }
  return value;
}

const moduleUrls = new Map<string, string | undefined>();

/** A `file:` URL for a tool source's module, or undefined when it is neither absolute nor a URL. */
function moduleUrl(module: string): string | undefined {
  if (moduleUrls.has(module)) return moduleUrls.get(module);
  const url = toModuleUrl(module);
  // Tools are few and long-lived: the cache stays small.
  if (moduleUrls.size < 1000) moduleUrls.set(module, url);
  return url;
}

function toModuleUrl(module: string): string | undefined {
  if (module.startsWith("file:")) {
    try {
      return new URL(module).href;
    } catch {
      return undefined;
    }
  }
  return isAbsolute(module) ? pathToFileURL(module).href : undefined;
}

/** A tool's {@link WorkerTool}, with the source it was made from. */
interface ToolRef extends WorkerTool {
  readonly source: ToolSource;
  readonly toolId: string;
}

// Tools are named to workers by number: a worker keeps what it loaded, so a call sends the
// number, not the module, export and id. One number per distinct (module, export, id), for the
// life of the process: the map grows with the distinct tools run, which are few and fixed.
const refsByKey = new Map<string, ToolRef>();
const refsByTool = new WeakMap<Tool, ToolRef>();

/** The {@link ToolRef} of a tool; undefined when its source module is not absolute. */
function toolRef(tool: Tool, source: ToolSource): ToolRef | undefined {
  const known = refsByTool.get(tool);
  if (known !== undefined && known.source === source && known.toolId === tool.id) return known;
  const module = moduleUrl(source.module);
  if (module === undefined) return undefined;
  const exportName = source.exportName ?? "default";
  const key = `${module}\n${exportName}\n${tool.id}`;
  const shared = refsByKey.get(key);
  const load: ToolSourceData = shared?.load ?? { module, exportName, toolId: tool.id };
  const ref: ToolRef = { index: shared?.index ?? refsByKey.size, load, source, toolId: tool.id };
  if (shared === undefined) refsByKey.set(key, ref);
  refsByTool.set(tool, ref);
  return ref;
}

function hasOwnKeys(object: object): boolean {
  for (const key in object) if (Object.hasOwn(object, key)) return true;
  return false;
}

function approvalData(approval: ToolApprovalDetails): ContextData["approval"] {
  return {
    approvedBy: approval.approvedBy,
    reason: approval.reason,
    decidedAt: approval.decidedAt?.getTime(),
    automatic: approval.automatic,
  };
}

// One shape for every call (members that are undefined stay out of the JSON).
function contextData(context: ToolExecutionContext, toolId: string): ContextData {
  const { approval, metadata } = context;
  let safeMetadata: JsonObject | undefined;
  if (hasOwnKeys(metadata)) {
    const converted = toJsonSafe({ ...metadata });
    safeMetadata = isJsonObject(converted) ? converted : undefined;
  }
  return {
    executionId: context.executionId,
    sessionId: context.sessionId,
    toolId: context.toolId === toolId ? undefined : context.toolId,
    toolCallId: context.toolCallId,
    workspacePath: context.workspacePath,
    parameters: context.parameters,
    modifiedParameters: context.modifiedParameters,
    isApproved: context.isApproved,
    approval: approval === undefined ? undefined : approvalData(approval),
    metadata: safeMetadata,
    startedAt: context.startedAt.getTime(),
  };
}

/** An aborted outcome of a run whose process is known to be stopped (or never started). */
const abortedAndStopped: SandboxOutcome = Object.freeze({
  kind: "aborted",
  mayStillBeRunning: false,
});

/** The limits and timing of one run. */
interface RunLimits {
  readonly memoryMb: number;
  readonly maxOutputBytes: number;
  readonly timeoutMs: number;
  /** `performance.now()` when the run was asked for. */
  readonly started: number;
}

/**
 * The sandbox's own timers for runs whose signal does not abort in time: one timer for all the
 * runs of a sandbox, set for the earliest deadline, instead of a timer set and cleared per call.
 */
class Backstops {
  // A worker's deadline, or Infinity between its runs (dropped when the timer fires).
  readonly #deadlines = new Map<WorkerProcess, number>();
  #timer: NodeJS.Timeout | undefined;
  #due = Number.POSITIVE_INFINITY;

  /** Stops `worker`'s run as timed out at `deadline` (a `performance.now()` time). */
  add(worker: WorkerProcess, deadline: number): void {
    this.#deadlines.set(worker, deadline);
    if (deadline < this.#due) this.#arm(deadline);
  }

  delete(worker: WorkerProcess): void {
    // The entry and the timer stay: the next run of the worker sets its entry again, and a
    // timer that fires with nothing due drops the entries and is not set again.
    this.#deadlines.set(worker, Number.POSITIVE_INFINITY);
  }

  #arm(deadline: number): void {
    clearTimeout(this.#timer);
    this.#due = deadline;
    // setTimeout takes at most 2^31 - 1 ms (24.8 days); a later deadline re-arms on firing.
    const delay = Math.min(Math.max(0, deadline - performance.now()), 2_147_483_647);
    this.#timer = setTimeout(() => this.#fire(), delay);
    // A busy worker keeps the host alive while its run lasts; this timer need not.
    this.#timer.unref();
  }

  #fire(): void {
    this.#timer = undefined;
    this.#due = Number.POSITIVE_INFINITY;
    // Timers count whole milliseconds: one may fire a fraction of one early.
    const now = performance.now() + 1;
    let next = Number.POSITIVE_INFINITY;
    for (const [worker, deadline] of this.#deadlines) {
      if (deadline === Number.POSITIVE_INFINITY) {
        this.#deadlines.delete(worker);
      } else if (deadline <= now) {
        this.#deadlines.delete(worker);
        try {
          worker.stop("timeout");
        } catch {
          // Stopping one worker must not keep the others due now from being stopped.
        }
      } else if (deadline < next) {
        next = deadline;
      }
    }
    if (next < Number.POSITIVE_INFINITY) this.#arm(next);
  }
}

/**
 * Runs each tool in a child Node process that the host can kill: a timeout or cancellation
 * kills the child's whole process group (the tool's own children too) with SIGKILL, so a tool
 * that loops, blocks in a system call, ignores signals or spawns processes is really stopped;
 * the run ends `aborted` with `mayStillBeRunning: false` once the process has exited (at most
 * 40 ms after the SIGKILL: a killed process runs no more code, however long the kernel takes to
 * tear it down). Children come from a warm pool; each serves one run at a time, is reused after
 * a clean run and replaced as soon as it is killed. Where util-linux `setpriv` exists, children
 * also die with the host process, even one killed without closing the sandbox.
 *
 * **Limits.** Memory: the V8 heap is capped at `maxMemoryMb` (`--max-old-space-size`), the
 * process's data segment by the OS at its idle size plus `maxMemoryMb + osMemoryHeadroomMb`
 * (RLIMIT_DATA through `prlimit`, or `ulimit -d` in `/bin/sh` where `prlimit` is missing; none
 * off Linux), and the host watches the child's resident memory,
 * so a heap bomb or a Buffer bomb ends in a failed result ("the tool ran out of memory", code
 * `OutOfMemory`). Output: stdout and stderr together are capped at `maxOutputBytes`; a child that
 * writes more is killed (`OutputLimitExceeded`). Messages: every message is a length-prefixed
 * JSON frame checked against `maxMessageBytes` (from its header, before its body is read) and
 * `maxMessageDepth` (before it is parsed); a child that breaks them, or sends anything outside
 * the protocol, is killed (`MessageLimitExceeded`). A child that dies on its own ends the run
 * `threw` with a {@link SandboxError} (`SANDBOX_PROCESS_EXITED`) giving its exit code or signal.
 *
 * **What crosses the process boundary.** A tool runs in the child as the module named by its
 * `source: { module, exportName }` exports it (an absolute path or `file:` URL, e.g.
 * `import.meta.url`; the export must be the tool with the same id), not as the object the host
 * holds. To the child go: the parameters (and a person's edits), the execution, session, tool
 * and tool-call ids, the workspace path, the approval details, the start time, and the context's
 * metadata made JSON-safe. From the child come: progress reports (as `ToolProgress`), and the
 * result rebuilt from its JSON form: success, message, error and code, the data as JSON (a `Date`
 * becomes its ISO string, a `Map` an object), artifacts (all but their timestamp), duration,
 * follow-ups, truncation, metadata, and the exception's name, message, stack and code. What the
 * tool prints to stdout and stderr comes back as `metadata.processOutput` (`{ stdout, stderr }`).
 * Nothing else crosses: not the closures or state of the host's copy of the tool, not services
 * (the child's context has an empty service container), not non-JSON data. In the child the
 * abort signal does not fire during a run (stopping is by killing); it fires when the run ends,
 * so work the tool left behind stops before the child serves the next run.
 *
 * A tool without `source` cannot be isolated: its run ends `threw` with a {@link SandboxError}
 * (`TOOL_SOURCE_MISSING`) saying to set it. Off Linux there is no OS memory limit, and on Windows
 * only the child itself (not its process tree) is killed.
 *
 * @example
 * ```ts
 * export const grep = defineTool({
 *   id: "grep", name: "Grep", description: "...", inputSchema,
 *   isolation: "process",
 *   source: { module: import.meta.url, exportName: "grep" },
 *   async execute(input, context) { ... },
 * });
 * const sandbox = new ProcessSandbox({ poolSize: 4, preloadModules: [import.meta.url] });
 * const executor = new ToolExecutor({ registry, sandbox });
 * ```
 */
export class ProcessSandbox implements ToolSandbox {
  readonly name = "process";
  /** How the OS memory limit is applied on this machine. */
  readonly memoryLimit: MemoryLimitMethod;
  readonly #poolSize: number;
  readonly #memoryMb: number;
  readonly #maxOutputBytes: number;
  readonly #workerConfig: WorkerProcessConfig;
  readonly #idle: WorkerProcess[] = [];
  // Started, not yet ready, and not claimed by a run: they join #idle when ready.
  readonly #warming = new Set<WorkerProcess>();
  readonly #all = new Set<WorkerProcess>();
  readonly #backstops = new Backstops();
  #started = false;
  #closed = false;
  // "ulimit" only: an idle worker's data segment size, measured by #measure.
  #idleDataBytes: number | undefined;
  #measuring: Promise<void> | undefined;

  constructor(config: ProcessSandboxConfig = {}) {
    this.#poolSize = Math.floor(positive("poolSize", config.poolSize, 2));
    this.#memoryMb = Math.ceil(positive("maxMemoryMb", config.maxMemoryMb, 256));
    const headroomMb = positive("osMemoryHeadroomMb", config.osMemoryHeadroomMb, 256);
    this.#maxOutputBytes = positive("maxOutputBytes", config.maxOutputBytes, 10 * mib);
    this.memoryLimit = config.memoryLimit ?? detectMemoryLimitMethod();
    this.#workerConfig = {
      memoryMb: this.#memoryMb,
      osMemoryHeadroomMb: headroomMb,
      memoryLimit: this.memoryLimit,
      execArgv: [...(config.execArgv ?? [])],
      limits: {
        maxMessageBytes: Math.floor(positive("maxMessageBytes", config.maxMessageBytes, 16 * mib)),
        maxMessageDepth: Math.floor(positive("maxMessageDepth", config.maxMessageDepth, 64)),
      },
      preload: (config.preloadModules ?? []).map((module) => {
        const url = moduleUrl(module);
        if (url === undefined) {
          throw new SandboxError(
            SandboxErrorCode.InvalidConfig,
            `ProcessSandbox option 'preloadModules' needs absolute paths or file: URLs; got '${module}'.`,
          );
        }
        return url;
      }),
      startupTimeoutMs: positive("startupTimeoutMs", config.startupTimeoutMs, 15_000),
      memoryCheckIntervalMs: positive("memoryCheckIntervalMs", config.memoryCheckIntervalMs, 25),
      env: config.env,
      cwd: config.cwd,
    };
  }

  /** The process ids of the sandbox's live workers (busy, idle and starting). */
  get pids(): readonly number[] {
    return [...this.#all].flatMap((worker) =>
      worker.pid === undefined || worker.isDead ? [] : [worker.pid],
    );
  }

  /** How many started workers wait for a run (a call takes one without waiting for a start). */
  get idleWorkers(): number {
    return this.#idle.length;
  }

  /**
   * Starts the pool now rather than on the first run, and resolves once its workers are ready.
   *
   * @throws SandboxError `SANDBOX_CLOSED` after {@link ProcessSandbox.close}; `SANDBOX_START_FAILED`
   *   when no worker could start.
   */
  async warm(): Promise<void> {
    if (this.#closed) throw this.#closedError();
    this.#started = true;
    try {
      await this.#measure();
    } catch (error) {
      throw new SandboxError(
        SandboxErrorCode.StartFailed,
        `No process-sandbox worker could start: ${String(error)}`,
        { cause: error },
      );
    }
    this.#refill();
    const results = await Promise.allSettled([...this.#warming].map((worker) => worker.ready));
    const failure = results.find((result) => result.status === "rejected");
    if (failure !== undefined && this.#idle.length === 0) {
      throw new SandboxError(
        SandboxErrorCode.StartFailed,
        `No process-sandbox worker could start: ${String((failure as PromiseRejectedResult).reason)}`,
        { cause: (failure as PromiseRejectedResult).reason },
      );
    }
  }

  /** Runs `tool` in a worker; resolves once it ends or, on abort, once its process group is dead. */
  run(
    tool: Tool,
    context: ToolExecutionContext,
    options: SandboxRunOptions,
  ): Promise<SandboxOutcome> {
    try {
      return this.#start(tool, context, options);
    } catch (error) {
      return Promise.resolve({ kind: "threw", error });
    }
  }

  /** Kills every worker (and everything they started) and refuses further runs. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#idle.length = 0;
    this.#warming.clear();
    await Promise.all([...this.#all].map((worker) => worker.kill()));
  }

  // ------------------------------------------------------------------------------ the run

  // What a call costs on top of the round trip to the worker is the work done from here to the
  // request's write, and from the result's read to the caller's resumption. The common case (a
  // warm worker waiting, a tool it has loaded) takes no await before the write and makes no
  // signal; its timeout is an entry in the sandbox's Backstops (which arms its one timer only
  // when this deadline is the earliest); the caller's promise is resolved from the worker's end
  // of the run.
  #start(
    tool: Tool,
    context: ToolExecutionContext,
    options: SandboxRunOptions,
  ): Promise<SandboxOutcome> {
    if (this.#closed) return Promise.resolve({ kind: "threw", error: this.#closedError(tool.id) });
    const source = tool.source;
    if (source === undefined) {
      return Promise.resolve({
        kind: "threw",
        error: new SandboxError(
          SandboxErrorCode.ToolSourceMissing,
          `Tool '${tool.id}' cannot run in process isolation: it has no source. Set ` +
            "`source: { module, exportName }` in its definition (the module's absolute path or " +
            "file: URL, e.g. import.meta.url, and the name it exports the tool under) so the " +
            "child process can load the same tool.",
          { toolId: tool.id },
        ),
      });
    }
    const ref = toolRef(tool, source);
    if (ref === undefined) {
      return Promise.resolve({
        kind: "threw",
        error: new SandboxError(
          SandboxErrorCode.ToolSourceInvalid,
          `Tool '${tool.id}' has source module '${source.module}', which is neither an absolute ` +
            "path nor a file: URL. Use import.meta.url or an absolute path.",
          { toolId: tool.id },
        ),
      });
    }
    if (runAborted(options)) return Promise.resolve(abortedAndStopped);

    const started = performance.now();
    // A tool's constraints can only tighten the sandbox's limits.
    const constraints = tool.constraints;
    const memoryMb =
      constraints?.maxMemoryMb === undefined
        ? this.#memoryMb
        : Math.min(this.#memoryMb, Math.ceil(positiveOr(constraints.maxMemoryMb, this.#memoryMb)));
    const limits: RunLimits = {
      memoryMb,
      maxOutputBytes:
        constraints?.maxOutputBytes === undefined
          ? this.#maxOutputBytes
          : Math.min(
              this.#maxOutputBytes,
              positiveOr(constraints.maxOutputBytes, this.#maxOutputBytes),
            ),
      timeoutMs: options.timeoutMs,
      started,
    };
    const idle = memoryMb === this.#memoryMb ? this.#takeIdle() : undefined;
    if (idle !== undefined) return this.#runIn(idle, tool, ref, context, options, limits);
    return this.#acquireAndRun(tool, ref, context, options, limits);
  }

  async #acquireAndRun(
    tool: Tool,
    ref: ToolRef,
    context: ToolExecutionContext,
    options: SandboxRunOptions,
    limits: RunLimits,
  ): Promise<SandboxOutcome> {
    try {
      // Waiting for a worker to start is not the tool's time: hold its timeout meanwhile.
      const resumeTimeout = options.holdTimeout?.();
      let worker: WorkerProcess | undefined;
      try {
        worker = await this.#acquire(limits.memoryMb, options);
      } finally {
        resumeTimeout?.();
      }
      if (worker === undefined) return abortedAndStopped;
      if (runAborted(options)) {
        this.#release(worker);
        return abortedAndStopped;
      }
      const started = resumeTimeout === undefined ? limits.started : performance.now();
      return await this.#runIn(worker, tool, ref, context, options, { ...limits, started });
    } catch (error) {
      return { kind: "threw", error };
    }
  }

  #runIn(
    worker: WorkerProcess,
    tool: Tool,
    ref: ToolRef,
    context: ToolExecutionContext,
    options: SandboxRunOptions,
    limits: RunLimits,
  ): Promise<SandboxOutcome> {
    return new Promise<SandboxOutcome>((resolve) => {
      const { timeoutMs } = limits;
      const timed = Number.isFinite(timeoutMs);
      let stopListening: (() => void) | undefined;
      const done = (end: RunEnd, stdout: string, stderr: string): void => {
        if (timed) this.#backstops.delete(worker);
        stopListening?.();
        try {
          resolve(this.#outcome(tool, end, stdout, stderr, limits));
        } catch (error) {
          resolve({ kind: "threw", error });
        }
        // Last, and guarded: refilling the pool may spawn, and a spawn that throws (ENOMEM,
        // EMFILE) must neither leave this call unanswered nor escape into a timer or stream.
        try {
          this.#release(worker);
        } catch {
          // The pool is one worker short; the next run that needs one spawns it.
        }
      };
      const progress = context.progress === undefined ? undefined : context;
      try {
        worker.run(ref, contextData(context, tool.id), limits.maxOutputBytes, progress, done);
      } catch (error) {
        this.#release(worker);
        resolve(
          error instanceof MessageViolation
            ? {
                kind: "threw",
                error: new SandboxError(
                  SandboxErrorCode.RequestTooLarge,
                  `Cannot send tool '${tool.id}' its parameters: ${error.message}`,
                  { toolId: tool.id },
                ),
              }
            : { kind: "threw", error },
        );
        return;
      }
      stopListening = onRunAborted(options, worker.abortRun);
      // The executor's own timer, which knows a timeout from a cancellation, goes first.
      if (timed) this.#backstops.add(worker, limits.started + timeoutMs + backstopGraceMs);
    });
  }

  #outcome(
    tool: Tool,
    end: RunEnd,
    stdout: string,
    stderr: string,
    limits: RunLimits,
  ): SandboxOutcome {
    const { memoryMb, maxOutputBytes, timeoutMs } = limits;
    const outOfMemory = (): SandboxOutcome => ({
      kind: "completed",
      result: ToolResult.failed(
        `The tool ran out of memory: it used more than its ${memoryMb} MB (maxMemoryMb), and its process was stopped.`,
        SandboxErrorCode.OutOfMemory,
      ),
    });
    switch (end.kind) {
      case "completed":
        if (end.outOfMemory) return outOfMemory();
        return { kind: "completed", result: withOutput(end.result, stdout, stderr) };
      case "threw":
        if (end.outOfMemory) return outOfMemory();
        if (end.phase === "load") {
          return {
            kind: "threw",
            error: new SandboxError(
              SandboxErrorCode.ToolSourceInvalid,
              `The child process could not load tool '${tool.id}' from its source: ${end.error.message}`,
              { toolId: tool.id, cause: end.error },
            ),
          };
        }
        return { kind: "threw", error: end.error };
      case "stopped":
        switch (end.reason) {
          case "aborted":
            return abortedAndStopped;
          case "timeout":
            return { kind: "completed", result: ToolResult.timeout(timeoutMs) };
          case "memory":
            return outOfMemory();
          case "output":
            return {
              kind: "completed",
              result: ToolResult.failed(
                `The tool wrote more than ${maxOutputBytes} bytes of output (maxOutputBytes), and its process was stopped.`,
                SandboxErrorCode.OutputLimitExceeded,
              ),
            };
          case "message":
            return {
              kind: "completed",
              result: ToolResult.failed(
                `The tool's process sent ${end.detail}, and was stopped.`,
                SandboxErrorCode.MessageLimitExceeded,
              ),
            };
          default:
            return end.reason satisfies never;
        }
      case "exited": {
        if (end.outOfMemory) return outOfMemory();
        const how =
          end.signal === null ? `exited with code ${end.code}` : `was killed by ${end.signal}`;
        const tail = end.stderrTail.trim();
        return {
          kind: "threw",
          error: new SandboxError(
            SandboxErrorCode.ProcessExited,
            `The process running tool '${tool.id}' ${how} before returning a result.` +
              (tail === "" ? "" : ` Its last output on stderr: ${tail.slice(-1000)}`),
            { toolId: tool.id },
          ),
        };
      }
      default:
        return end satisfies never;
    }
  }

  // ------------------------------------------------------------------------------ the pool

  async #acquire(memoryMb: number, options: SandboxRunOptions): Promise<WorkerProcess | undefined> {
    if (!this.#started) {
      this.#started = true;
      this.#refill();
    }
    let worker: WorkerProcess | undefined;
    if (memoryMb === this.#memoryMb) {
      worker = this.#takeIdle();
      if (worker !== undefined) return worker;
      const [warming] = this.#warming;
      if (warming !== undefined) {
        this.#warming.delete(warming);
        worker = warming;
      }
    }
    if (worker === undefined) {
      try {
        await this.#measure();
      } catch (error) {
        throw new SandboxError(
          SandboxErrorCode.StartFailed,
          `A process-sandbox worker could not start: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      }
      if (this.#closed) throw this.#closedError();
      worker = this.#spawn(memoryMb);
    }
    const chosen = worker;
    let stopListening: () => void = () => {};
    const aborted = new Promise<"aborted">((resolve) => {
      stopListening = onRunAborted(options, () => resolve("aborted"));
    });
    try {
      const first = await Promise.race([chosen.ready.then(() => "ready" as const), aborted]);
      if (first === "aborted") {
        chosen.ready.then(
          () => this.#release(chosen),
          () => {},
        );
        return undefined;
      }
      return chosen;
    } catch (error) {
      throw new SandboxError(
        SandboxErrorCode.StartFailed,
        `A process-sandbox worker could not start: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    } finally {
      stopListening();
    }
  }

  // Idle workers leave #idle when they die; this skips one whose death is still being reported.
  #takeIdle(): WorkerProcess | undefined {
    let worker = this.#idle.pop();
    while (worker !== undefined && !worker.isIdle) worker = this.#idle.pop();
    return worker;
  }

  #release(worker: WorkerProcess): void {
    const keep =
      !this.#closed &&
      worker.isIdle &&
      worker.memoryMb === this.#memoryMb &&
      this.#idle.length + this.#warming.size < this.#poolSize;
    if (keep) this.#idle.push(worker);
    else if (!worker.isDead) void worker.kill();
    // A killed worker is replaced at once, not when the kernel has finished tearing it down.
    else this.#refill();
  }

  /**
   * `"ulimit"` sets the data limit at launch, so it needs an idle worker's data size first: one
   * worker starts without a limit, runs nothing, is measured once ready, and is stopped.
   */
  #measure(): Promise<void> {
    if (this.memoryLimit !== "ulimit" || this.#idleDataBytes !== undefined) {
      return Promise.resolve();
    }
    this.#measuring ??= (async () => {
      const probe = new WorkerProcess(this.#workerConfig, this.#memoryMb);
      this.#all.add(probe);
      try {
        await probe.ready;
        this.#idleDataBytes = probe.idleDataBytes;
      } finally {
        this.#all.delete(probe);
        await probe.kill();
      }
    })().catch((error: unknown) => {
      // The next start tries again.
      this.#measuring = undefined;
      throw error;
    });
    return this.#measuring;
  }

  #spawn(memoryMb: number): WorkerProcess {
    const worker = new WorkerProcess(this.#workerConfig, memoryMb, this.#idleDataBytes);
    this.#all.add(worker);
    worker.onDeath = (dead) => {
      this.#all.delete(dead);
      const index = this.#idle.indexOf(dead);
      if (index >= 0) this.#idle.splice(index, 1);
      this.#warming.delete(dead);
      // A worker that never started is not replaced: that would loop on a broken setup.
      if (dead.wasReady) this.#refill();
    };
    return worker;
  }

  /** Starts workers until the pool has `poolSize` idle or starting ones. */
  #refill(): void {
    if (this.#closed || !this.#started) return;
    if (this.memoryLimit === "ulimit" && this.#idleDataBytes === undefined) {
      this.#measure().then(
        () => this.#refill(),
        () => {},
      );
      return;
    }
    while (this.#idle.length + this.#warming.size < this.#poolSize) {
      const worker = this.#spawn(this.#memoryMb);
      this.#warming.add(worker);
      worker.ready.then(
        () => {
          if (!this.#warming.delete(worker)) return;
          if (this.#closed) void worker.kill();
          else this.#idle.push(worker);
        },
        () => this.#warming.delete(worker),
      );
    }
  }

  #closedError(toolId?: string): SandboxError {
    return new SandboxError(
      SandboxErrorCode.Closed,
      "The process sandbox is closed; create a new one to run tools in process isolation.",
      toolId === undefined ? {} : { toolId },
    );
  }
}

function positiveOr(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}

function withOutput(result: ToolResult, stdout: string, stderr: string): ToolResult {
  if (stdout === "" && stderr === "") return result;
  return result.withMetadata(processOutputMetadataKey, {
    ...(stdout !== "" && { stdout }),
    ...(stderr !== "" && { stderr }),
  });
}
