/**
 * The entry script of a process-isolated worker (started by `ProcessSandbox`, never imported).
 * It reads run requests from the framed channel on fd 3, loads each tool from its source, runs
 * it with a context rebuilt from the data the host sent, and sends back progress and the result
 * (or the error). It exits when the host closes the channel.
 *
 * @module
 */
import { Socket } from "node:net";
import { ServiceContainer, ToolExecutionContext, type ToolProgress } from "../context/index.js";
import type { Tool } from "../core/index.js";
import type { ToolResult } from "../result/index.js";
import { encodeFrame, FrameDecoder, type MessageLimits } from "./message-framing.js";
import {
  type ContextData,
  isOutOfMemoryMessage,
  type MarkersWritten,
  type RunRequest,
  toErrorData,
} from "./sandbox-protocol.js";

const settings = JSON.parse(process.argv[2] ?? "{}") as MessageLimits & {
  readonly preload?: readonly string[];
};
const limits: MessageLimits = settings;
const channel = new Socket({ fd: 3, readable: true, writable: true });
// The host's messages are trusted: only their size is bounded.
const decoder = new FrameDecoder({ ...limits, maxMessageDepth: Number.POSITIVE_INFINITY });
const tools = new Map<string, Tool>();
const runEnded = new Error("The run has ended.");

function send(message: object): void {
  // The host enforces the message limits; its refusal of an over-size result says which one.
  channel.write(encodeFrame(message, Number.MAX_SAFE_INTEGER));
}

function isTool(value: unknown): value is Tool {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Tool).execute === "function" &&
    typeof (value as Tool).id === "string"
  );
}

function isToolResult(value: unknown): value is ToolResult {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as ToolResult).success === "boolean" &&
    typeof (value as ToolResult).toJSON === "function"
  );
}

/** The tool of a request: from the cache without an await, else imported. */
function loadTool(request: RunRequest): Tool | Promise<Tool> {
  const key = `${request.module}#${request.exportName}`;
  const cached = tools.get(key);
  if (cached !== undefined) return checkId(cached, request);
  return importTool(request).then((tool) => {
    tools.set(key, tool);
    return checkId(tool, request);
  });
}

function checkId(tool: Tool, request: RunRequest): Tool {
  if (tool.id !== request.toolId) {
    throw new Error(
      `Export '${request.exportName}' of '${request.module}' is tool '${tool.id}', not '${request.toolId}': the source must name the same tool.`,
    );
  }
  return tool;
}

async function importTool(request: RunRequest): Promise<Tool> {
  const namespace = (await import(request.module)) as Record<string, unknown>;
  if (!Object.hasOwn(namespace, request.exportName)) {
    const names = Object.keys(namespace).join(", ");
    throw new Error(
      `Module '${request.module}' has no export '${request.exportName}' (it exports: ${names === "" ? "nothing" : names}).`,
    );
  }
  const tool = namespace[request.exportName];
  if (!isTool(tool)) {
    throw new Error(
      `Export '${request.exportName}' of '${request.module}' is not a tool (no id and execute method).`,
    );
  }
  return tool;
}

function buildContext(
  data: ContextData,
  signal: AbortSignal,
  progress: ((progress: ToolProgress) => void) | undefined,
): ToolExecutionContext {
  const approval = data.approval;
  return new ToolExecutionContext({
    services: new ServiceContainer(),
    executionId: data.executionId,
    sessionId: data.sessionId,
    toolId: data.toolId,
    ...(data.toolCallId !== undefined && { toolCallId: data.toolCallId }),
    ...(data.workspacePath !== undefined && { workspacePath: data.workspacePath }),
    parameters: data.parameters,
    ...(data.modifiedParameters !== undefined && { modifiedParameters: data.modifiedParameters }),
    signal,
    ...(progress !== undefined && { progress }),
    isApproved: data.isApproved,
    ...(approval !== undefined && {
      approval: {
        ...approval,
        decidedAt: approval.decidedAt === undefined ? undefined : new Date(approval.decidedAt),
      },
    }),
    metadata: data.metadata,
    startedAt: new Date(data.startedAt),
  });
}

// What the process wrote to stdout / stderr since the last run ended: only a stream written to
// gets an end marker, so a run that prints nothing costs no extra writes and reads. (Output
// written around the streams, by fs.writeSync(1, ...) or a child process, is still counted
// against the limit while the run lasts; at its end the host may cut it short.)
const written = { stdout: false, stderr: false };

function track(stream: NodeJS.WriteStream, key: keyof typeof written): void {
  const write = stream.write;
  stream.write = function (this: NodeJS.WriteStream, ...args: unknown[]): boolean {
    written[key] = true;
    return (write as (...rest: unknown[]) => boolean).apply(this, args);
  } as NodeJS.WriteStream["write"];
}

track(process.stdout, "stdout");
track(process.stderr, "stderr");

// Written after the run so the host knows where the run's output ends in each stream.
function writeMarker(stream: NodeJS.WriteStream, marker: string): Promise<boolean> {
  if (!stream.writable) return Promise.resolve(false);
  return new Promise((resolve) => {
    try {
      stream.write(marker, (error) => resolve(error === null || error === undefined));
    } catch {
      resolve(false);
    }
  });
}

const noMarkers: MarkersWritten = [false, false];

function markers(marker: string): MarkersWritten | Promise<MarkersWritten> {
  const { stdout, stderr } = written;
  if (!stdout && !stderr) return noMarkers;
  const pending = Promise.all([
    stdout ? writeMarker(process.stdout, marker) : false,
    stderr ? writeMarker(process.stderr, marker) : false,
  ]);
  // After the marker writes, which go through the tracked write too.
  written.stdout = false;
  written.stderr = false;
  return pending;
}

async function run(request: RunRequest): Promise<void> {
  const { id } = request;
  let tool: Tool;
  try {
    const loaded = loadTool(request);
    tool = loaded instanceof Promise ? await loaded : loaded;
  } catch (error) {
    send({
      type: "threw",
      id,
      phase: "load",
      error: toErrorData(error),
      markers: await markers(request.marker),
    });
    return;
  }
  const controller = new AbortController();
  let active = true;
  const progress = request.progress
    ? (update: ToolProgress): void => {
        if (active) send({ type: "progress", id, progress: update.toInit() });
      }
    : undefined;
  let message: object;
  try {
    const context = buildContext(request.context, controller.signal, progress);
    const result: unknown = await tool.execute(context, controller.signal);
    if (!isToolResult(result)) {
      throw new TypeError(`Tool '${tool.id}' returned ${typeof result}, not a ToolResult.`);
    }
    const json = result.toJSON();
    const outOfMemory = !result.success && isOutOfMemoryMessage(result.error);
    message = {
      type: "result",
      id,
      result: json,
      ...(result.exception !== undefined && { exception: toErrorData(result.exception) }),
      ...(outOfMemory && { outOfMemory }),
    };
  } catch (error) {
    const data = toErrorData(error);
    message = {
      type: "threw",
      id,
      phase: "execute",
      error: data,
      ...(isOutOfMemoryMessage(data.message) && { outOfMemory: true }),
    };
  } finally {
    active = false;
  }
  const pending = markers(request.marker);
  const markersWritten = pending instanceof Promise ? await pending : pending;
  try {
    send({ ...message, markers: markersWritten });
  } catch (error) {
    // JSON.stringify throws on data nested deeper than its stack allows.
    const reason = error instanceof Error ? error.message : String(error);
    const failure = new Error(`The result of tool '${tool.id}' could not be sent: ${reason}`);
    send({
      type: "threw",
      id,
      phase: "execute",
      error: toErrorData(failure),
      markers: markersWritten,
    });
  }
  // Work the tool left behind is asked to stop: the process serves the next run.
  controller.abort(runEnded);
}

channel.on("data", (chunk: Buffer) => {
  const { messages, violation } = decoder.push(chunk);
  // The host is this package: a bad frame from it is a bug; nothing sensible remains to do.
  if (violation !== undefined) process.exit(70);
  for (const message of messages) {
    const request = message as RunRequest;
    // The host sends the next run only once this one has answered: no queue is needed. A run
    // that cannot even report its failure has lost its channel.
    if (request.type === "run") run(request).catch(() => process.exit(71));
  }
});
// The host closed the channel (it closed the sandbox, or died): nothing more to do.
channel.on("end", () => process.exit(0));
channel.on("error", () => process.exit(0));

// A module that fails to load ends the process: its error is on stderr, which the host reports.
for (const module of settings.preload ?? []) await import(module);
send({ type: "ready" });
