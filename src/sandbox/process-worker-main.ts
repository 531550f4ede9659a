/**
 * The entry script of a process-isolated worker (started by `ProcessSandbox`, never imported).
 * It reads run requests from the framed channel on fd 3, loads each tool from its source, runs
 * it with a context rebuilt from the data the host sent, and sends back progress and the result
 * (or the error). It exits when the host closes the channel.
 *
 * @module
 */
import { type OnReadOpts, Socket, type SocketConstructorOpts } from "node:net";
import { ServiceContainer, ToolExecutionContext, type ToolProgress } from "../context/index.js";
import { Cancellation } from "../core/index.js";
import type { ToolResult } from "../result/index.js";
import { type Tool, takesSignal } from "../tools/index.js";
import { encodeFrame, FrameDecoder, type MessageLimits } from "./message-framing.js";
import {
  type ContextData,
  type ErrorData,
  isOutOfMemoryMessage,
  type MarkersWritten,
  type RunRequest,
  runEndMarker,
  type ToolSourceData,
  toErrorData,
} from "./sandbox-protocol.js";

const settings = JSON.parse(process.argv[2] ?? "{}") as MessageLimits & {
  readonly preload?: readonly string[];
};
const limits: MessageLimits = settings;
// The run-end marker salt, from the first request. Not a secret from the tools (they share this
// process); what makes a forged marker harmless is the host, which still counts the output that
// follows it against the run's limit.
let salt = "";
// The host's messages are trusted: only their size is bounded.
const decoder = new FrameDecoder({ ...limits, maxMessageDepth: Number.POSITIVE_INFINITY });
// The tools loaded so far, by the host's number for them.
const tools: (Tool | undefined)[] = [];
const runEnded = new Error("The run has ended.");

// The channel is read into one reused buffer, straight to the decoder: no stream machinery and
// no new buffer per read.
const readBuffer = Buffer.allocUnsafe(64 * 1024);
const channelOptions: SocketConstructorOpts & { readonly onread: OnReadOpts } = {
  fd: 3,
  readable: true,
  writable: true,
  onread: { buffer: readBuffer, callback: onChannelData },
};
const channel = new Socket(channelOptions);

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

/** The tool of a request: the one loaded under its number, else imported from its source. */
function loadTool(request: RunRequest): Tool | Promise<Tool> {
  const load = request.load;
  if (load === undefined) {
    const tool = tools[request.tool];
    // The host names a tool by number only once this process has loaded it.
    if (tool === undefined) throw new Error(`No tool was loaded as number ${request.tool}.`);
    return tool;
  }
  return importTool(load).then((tool) => {
    tools[request.tool] = tool;
    return tool;
  });
}

async function importTool(load: ToolSourceData): Promise<Tool> {
  const { module, exportName, toolId } = load;
  const namespace = (await import(module)) as Record<string, unknown>;
  if (!Object.hasOwn(namespace, exportName)) {
    const names = Object.keys(namespace).join(", ");
    throw new Error(
      `Module '${module}' has no export '${exportName}' (it exports: ${names === "" ? "nothing" : names}).`,
    );
  }
  const tool = namespace[exportName];
  if (!isTool(tool)) {
    throw new Error(
      `Export '${exportName}' of '${module}' is not a tool (no id and execute method).`,
    );
  }
  if (tool.id !== toolId) {
    throw new Error(
      `Export '${exportName}' of '${module}' is tool '${tool.id}', not '${toolId}': the source must name the same tool.`,
    );
  }
  return tool;
}

function buildContext(
  data: ContextData,
  toolId: string,
  cancellation: Cancellation,
  progress: ((progress: ToolProgress) => void) | undefined,
): ToolExecutionContext {
  const approval = data.approval;
  return new ToolExecutionContext({
    services: new ServiceContainer(),
    executionId: data.executionId,
    sessionId: data.sessionId,
    toolId: data.toolId ?? toolId,
    toolCallId: data.toolCallId,
    workspacePath: data.workspacePath,
    parameters: data.parameters,
    modifiedParameters: data.modifiedParameters,
    // The signal is made only if the tool reads it: most never do.
    cancellation,
    progress,
    isApproved: data.isApproved,
    approval:
      approval === undefined
        ? undefined
        : {
            ...approval,
            decidedAt: approval.decidedAt === undefined ? undefined : new Date(approval.decidedAt),
          },
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

function markers(id: number): MarkersWritten | Promise<MarkersWritten> {
  const { stdout, stderr } = written;
  if (!stdout && !stderr) return noMarkers;
  const marker = runEndMarker(salt, id);
  const pending = Promise.all([
    stdout ? writeMarker(process.stdout, marker) : false,
    stderr ? writeMarker(process.stderr, marker) : false,
  ]);
  // After the marker writes, which go through the tracked write too.
  written.stdout = false;
  written.stderr = false;
  return pending;
}

function threwMessage(id: number, error: ErrorData, markersWritten: MarkersWritten): object {
  return {
    type: "threw",
    id,
    phase: "execute",
    error,
    ...(isOutOfMemoryMessage(error.message) && { outOfMemory: true }),
    markers: markersWritten,
  };
}

async function run(request: RunRequest): Promise<void> {
  const { id } = request;
  let tool: Tool;
  try {
    const loaded = loadTool(request);
    tool = loaded instanceof Promise ? await loaded : loaded;
  } catch (error) {
    const pending = markers(id);
    send({
      type: "threw",
      id,
      phase: "load",
      error: toErrorData(error),
      markers: pending instanceof Promise ? await pending : pending,
    });
    return;
  }
  const cancellation = new Cancellation();
  let active = true;
  const progress = request.progress
    ? (update: ToolProgress): void => {
        if (active) send({ type: "progress", id, progress: update.toInit() });
      }
    : undefined;
  let result: ToolResult | undefined;
  let failure: unknown;
  try {
    const context = buildContext(request.context, tool.id, cancellation, progress);
    // As in the host: the signal goes to an `execute` that declares it.
    const returned: unknown = await (takesSignal(tool)
      ? tool.execute(context, cancellation.signal)
      : tool.execute(context));
    if (!isToolResult(returned)) {
      throw new TypeError(`Tool '${tool.id}' returned ${typeof returned}, not a ToolResult.`);
    }
    result = returned;
  } catch (error) {
    failure = error;
  } finally {
    active = false;
  }
  const pending = markers(id);
  const markersWritten = pending instanceof Promise ? await pending : pending;
  let message: object;
  try {
    if (result === undefined) throw failure;
    const json = result.toJSON();
    const outOfMemory = !result.success && isOutOfMemoryMessage(result.error);
    message = {
      type: "result",
      id,
      result: json,
      exception: result.exception === undefined ? undefined : toErrorData(result.exception),
      outOfMemory: outOfMemory ? true : undefined,
      markers: markersWritten,
    };
  } catch (error) {
    message = threwMessage(id, toErrorData(error), markersWritten);
  }
  try {
    send(message);
  } catch (error) {
    // JSON.stringify throws on data nested deeper than its stack allows.
    const reason = error instanceof Error ? error.message : String(error);
    const failed = new Error(`The result of tool '${tool.id}' could not be sent: ${reason}`);
    send(threwMessage(id, toErrorData(failed), markersWritten));
  }
  // Work the tool left behind is asked to stop: the process serves the next run.
  cancellation.abort(runEnded);
}

// Called with the bytes read into readBuffer, which the next read overwrites.
function onChannelData(bytes: number): boolean {
  const { messages, violation } = decoder.push(readBuffer.subarray(0, bytes), true);
  // The host is this package: a bad frame from it is a bug; nothing sensible remains to do.
  if (violation !== undefined) process.exit(70);
  for (const message of messages) {
    const request = message as RunRequest;
    if (request.salt !== undefined) salt = request.salt;
    // The host sends the next run only once this one has answered: no queue is needed. A run
    // that cannot even report its failure has lost its channel.
    if (request.type === "run") run(request).catch(() => process.exit(71));
  }
  return true;
}

// The host closed the channel (it closed the sandbox, or died): nothing more to do.
channel.on("end", () => process.exit(0));
channel.on("error", () => process.exit(0));

// A module that fails to load ends the process: its error is on stderr, which the host reports.
for (const module of settings.preload ?? []) await import(module);
send({ type: "ready" });
