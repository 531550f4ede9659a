import { randomBytes, randomUUID } from "node:crypto";
import {
  type AuthInfo,
  type CallToolRequest,
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  createRequestStateCodec,
  type ElicitRequest,
  inputRequired,
  inputResponse,
  type ListToolsResult,
  type McpRequestContext,
  type Tool as McpTool,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  type RequestStateCodec,
  SdkError,
  SdkErrorCode,
  Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { ParameterKindConfig } from "../approval/index.js";
import {
  ApprovalDecision,
  type ApprovalPromptDetails,
  type CheckedCall,
  hashToolCallArguments,
  type ProcessCallResult,
  type ToolCallProcessor,
  ToolCallRequest,
  ToolCallStatus,
} from "../calls/index.js";
import { closestNames, displayText, isJsonObject, type JsonObject } from "../core/index.js";
import type { ToolRegistry } from "../registry/index.js";
import { toJsonSafe } from "../result/index.js";
import { type Tool, toolDefinitionDigest } from "../tools/index.js";
import { coerceScalarParameters } from "../validation/index.js";
import { ApprovalChoice, approvalForm, decisionFromAnswer } from "./approval-form.js";
import { McpToolNames } from "./mcp-tool-names.js";
import { OpenApprovalRounds } from "./open-approval-rounds.js";
import { readableErrorOf, sendReadableErrors } from "./readable-errors.js";
import { toolAnnotations } from "./tool-annotations.js";
import { UrlElicitationCompletions } from "./url-elicitation-completions.js";

/**
 * How calls that need a person's approval are asked:
 * - `"elicit"` (default): a form-mode elicitation to the client (approve once / for this session /
 *   always / for a pattern, or deny with a reason); a client that cannot show forms gets the
 *   headless rule (the call is denied, saying how to allow it).
 * - `"deny"`: never ask; such calls are denied with that message (the headless rule).
 * - `"handler"`: the processor's own `approvalHandler` asks (the web console's
 *   `ConsoleApprovalHandler` for `aintern mcp --approvals console`, a terminal prompt), bounded by
 *   the processor's `approvalTimeoutMs` and the call's cancellation.
 */
export type McpApprovals = "elicit" | "deny" | "handler";

/**
 * Where a person approves a call from a browser (the web console): for clients that support URL
 * elicitation, the server records the call there and sends the address of its page; on the
 * client's retry, the processor's approval handler waits for the decision made on that page. The
 * handler must wait on the same record: the console's `ConsoleApprovalHandler`, which finds a row
 * by the call id and the hash of the arguments.
 */
export interface McpApprovalPages {
  /**
   * Records `request` (its `providerCallId` is the call id the retry will use) as waiting for a
   * person and returns the record's id and the address of its page. The address carries no
   * credential: the person signs in to the console as usual.
   */
  open(
    request: ToolCallRequest,
    details: ApprovalPromptDetails,
  ): Promise<{ readonly id: string; readonly url: string }>;
  /** Gives up on a record whose page the person refused to open (the call is denied). */
  withdraw(id: string): Promise<void>;
  /**
   * Resolves once the record `id` no longer waits for a person: decided on its page (approved or
   * denied), expired, or withdrawn; early, to nothing, when `signal` aborts. With it, a 2025-era
   * client is told as soon as the page is done (`notifications/elicitation/complete`), so it need
   * not wait for the person to say so; without it, only when the call ends. The decision itself
   * still reaches the call only through the processor's handler.
   */
  settled?(id: string, signal: AbortSignal): Promise<void>;
}

/** Construction options of {@link AinternMcpServer}. */
export interface AinternMcpServerConfig {
  /** The tools clients see (`getAvailableTools()`), looked up by id for each call. */
  readonly registry: ToolRegistry;
  /**
   * Every `tools/call` goes through its `processCall`: validation, policy, remembered
   * permissions, approvals, execution, audit. One processor serves every connection; a
   * connection (an HTTP session) is the call's session.
   */
  readonly processor: ToolCallProcessor;
  /** Default `"elicit"`. */
  readonly approvals?: McpApprovals;
  /**
   * The web console's pages, for URL elicitation in `"elicit"` mode (the processor's
   * `approvalHandler` must wait on the same records). Without it, or for a client that supports
   * only forms, the person is asked with a form.
   */
  readonly approvalPages?: McpApprovalPages;
  /**
   * While a call waits for a person through the processor's approval handler (the console), a
   * call with a progress token gets a progress notification this often, so a client that resets
   * its request timeout on progress keeps waiting. Default 15 s.
   */
  readonly approvalKeepAliveMs?: number;
  /**
   * How long a person has to answer an elicitation. Default 5 minutes. A call nobody answered in
   * time is denied and audited as such (`decided_by` "timeout"); on the 2026-07-28 era, a round
   * whose retry does not come within this (and a second's grace for the retry to travel) is.
   */
  readonly approvalTimeoutMs?: number;
  /**
   * The most approval rounds (input_required, or a console page) waiting for an answer at once;
   * a call that needs approval beyond them is denied without asking (default 1,000). Each holds
   * its call's arguments until it is answered or expires.
   */
  readonly maxOpenApprovalRounds?: number;
  /** Which parameters hold paths and commands (for suggested patterns). */
  readonly parameterKinds?: ParameterKindConfig;
  /** The server's name and version in `initialize`. Default `aintern` and the package version. */
  readonly serverInfo?: { readonly name: string; readonly version: string };
  /** Instructions for the model, sent in `initialize`. */
  readonly instructions?: string;
  /** Out-of-band errors (a transport that failed, a notification that could not be sent). */
  readonly onError?: (error: Error) => void;
}

/** What a requestState carries between the rounds of one approval. */
interface ApprovalState {
  /** Tool id. */
  readonly t: string;
  /** Hash of the arguments the person was shown. */
  readonly h: string;
  /** When the person was asked (ms since the epoch). */
  readonly at: number;
  /** A nonce: an answer carrying this state is honoured once (an "approve once" runs once). */
  readonly n: string;
  /**
   * The call id the answer runs under (URL elicitation: the console's record is keyed by it); a
   * round never answered is audited under it.
   */
  readonly c?: string;
  /** URL elicitation: the console record's id. */
  readonly p?: string;
  /**
   * The digest of the tool's definition the person was shown: an answer that comes back after
   * the tool changed (an upstream's `list_changed`) approves nothing.
   */
  readonly d?: string;
}

/** One connection (stdio, an HTTP session, or one modern-era HTTP request). */
interface Connection {
  readonly id: string;
  readonly server: Server;
  /** Aborted when the connection closes: every call in flight is cancelled. */
  readonly closed: AbortController;
  /**
   * Every session id its calls ran under (the connection's own, or an HTTP Mcp-Session-Id): the
   * session approvals to forget when it closes.
   */
  readonly sessionIds: Set<string>;
}

const headlessHint =
  "To let it run, add an allow rule to aintern.config.json (policy.allow or policy.tools), " +
  "remember an approval with a client that supports elicitation, use a client that can ask you (form elicitation), " +
  "or approve from the web console (aintern mcp --approvals console --console).";

/** A call the pre-check let run unasked: `processCall` runs it on that check, under its id. */
interface CheckedApproval {
  readonly call: CheckedCall;
  readonly callId: string;
}

/**
 * aintern's tools as an MCP server. Every `tools/call` goes through the processor's `processCall`
 * (the one gate every front end uses): arguments are
 * validated, the policy judges the call, a person is asked (elicitation) when the policy says so,
 * the tool runs under its timeout and isolation, and the execution is audited. Validation
 * failures, denials and tool failures are tool results with `isError: true`; an unknown tool is a
 * protocol error (`-32602`).
 *
 * {@link AinternMcpServer.createServer} is an `McpServerFactory`: one SDK `Server` per connection.
 * Serve it with `serveStdio` (`serveMcpStdio`) or over HTTP (`serveMcpHttp`).
 *
 * @example
 * ```ts
 * const mcp = new AinternMcpServer({ registry, processor: new ToolCallProcessor({ executor }) });
 * await serveStdio((ctx) => mcp.createServer(ctx));
 * ```
 */
export class AinternMcpServer {
  readonly registry: ToolRegistry;
  readonly processor: ToolCallProcessor;
  readonly names: McpToolNames;
  readonly #config: AinternMcpServerConfig;
  readonly #codec: RequestStateCodec<ApprovalState>;
  readonly #connections = new Set<Connection>();
  /** Nonces of the states already answered, with when each state expires (ms). */
  readonly #answered = new Map<string, number>();
  readonly #stateTtlMs: number;
  readonly #unsubscribe: () => void;
  /** Console pages sent by URL elicitation whose client is to be told when they are done. */
  readonly #pagesSent: UrlElicitationCompletions;
  /** Approval rounds sent as input_required whose answer has not come back yet. */
  readonly #openRounds: OpenApprovalRounds;

  constructor(config: AinternMcpServerConfig) {
    this.#config = config;
    this.registry = config.registry;
    this.processor = config.processor;
    this.names = new McpToolNames(config.registry.tools.map((t) => t.id));
    const ttlSeconds = Math.ceil((config.approvalTimeoutMs ?? 300_000) / 1000) + 60;
    this.#stateTtlMs = ttlSeconds * 1000;
    this.#pagesSent = new UrlElicitationCompletions(config.onError);
    this.#openRounds = new OpenApprovalRounds(this.#stateTtlMs, config.onError);
    this.#codec = createRequestStateCodec<ApprovalState>({
      key: randomBytes(32),
      ttlSeconds,
      // Bound to the session and to the authenticated principal (the spec's user-binding MUST):
      // a state sent to one user's client cannot carry another user's answer, also on 2026-era
      // requests, which have no session.
      bind: (ctx) =>
        `${ctx.mcpReq.method}\0${ctx.sessionId ?? ""}\0${principalOf(ctx.http?.authInfo)}`,
    });
    this.#unsubscribe = config.registry.onToolsChanged(() => {
      for (const tool of config.registry.tools) this.names.add(tool.id);
      for (const connection of this.#connections) {
        connection.server.sendToolListChanged().catch(() => undefined);
      }
    });
  }

  /** How many connections are open. */
  get connectionCount(): number {
    return this.#connections.size;
  }

  /**
   * A new SDK `Server` for one connection (an `McpServerFactory`). Calls in flight are cancelled
   * when it closes, and its session-scoped approvals are forgotten.
   */
  createServer(_context?: McpRequestContext): Server {
    const server = new Server(this.#config.serverInfo ?? { name: "aintern", version: "0.1.0" }, {
      capabilities: { tools: { listChanged: true } },
      ...(this.#config.instructions === undefined
        ? {}
        : { instructions: this.#config.instructions }),
      inputRequired: { roundTimeoutMs: this.#config.approvalTimeoutMs ?? 300_000 },
      requestState: { verify: (state, ctx) => this.#codec.verify(state, ctx) },
    });
    const connection: Connection = {
      id: randomUUID(),
      server,
      closed: new AbortController(),
      sessionIds: new Set(),
    };
    connection.sessionIds.add(connection.id);
    this.#connections.add(connection);
    server.onclose = () => {
      if (!this.#connections.delete(connection)) return;
      connection.closed.abort(new Error("The MCP connection closed"));
      for (const sessionId of connection.sessionIds) {
        this.processor.permissions.endSession(sessionId).catch(() => undefined);
      }
    };
    server.onerror = (error) => this.#config.onError?.(readableErrorOf(error));
    // Whatever transport serves it: the SDK's request-check errors reach the client as sentences.
    const connect = server.connect.bind(server);
    server.connect = (transport) => connect(sendReadableErrors(transport));
    server.setRequestHandler("tools/list", (request) => this.#listTools(request.params?.cursor));
    server.setRequestHandler("tools/call", (request, ctx) =>
      this.#callTool(connection, request, ctx),
    );
    return server;
  }

  /** Closes every open connection. */
  async close(): Promise<void> {
    this.#unsubscribe();
    this.#openRounds.close();
    await Promise.all([...this.#connections].map((c) => c.server.close().catch(() => undefined)));
  }

  /** What `tools/list` answers: every available tool, in registry order. */
  listTools(): McpTool[] {
    return this.registry.getAvailableTools().map((tool) => this.#describe(tool));
  }

  /**
   * One page of `tools/list`: tools in registry order from the request's cursor, until the page
   * holds {@link TOOLS_PAGE_MAX} tools or about {@link TOOLS_PAGE_CHARACTERS} of JSON, with a
   * `nextCursor` when more follow. A gateway's upstreams may list many large tools: answered in
   * one message, the listing outgrew what clients read (the official SDK closes the connection
   * on a message over 10 MB), and every tool, built-in ones too, was lost to them.
   */
  #listTools(cursor: string | undefined): ListToolsResult {
    const tools = this.registry.getAvailableTools();
    let at = cursor === undefined ? 0 : pageStart(cursor, tools.length);
    const page: McpTool[] = [];
    let characters = 0;
    for (; at < tools.length; at++) {
      const described = this.#describe(tools[at] as Tool);
      const size = JSON.stringify(described).length;
      if (
        page.length > 0 &&
        (page.length >= TOOLS_PAGE_MAX || characters + size > TOOLS_PAGE_CHARACTERS)
      ) {
        break;
      }
      page.push(described);
      characters += size;
    }
    return at < tools.length ? { tools: page, nextCursor: cursorOf(at) } : { tools: page };
  }

  #describe(tool: Tool): McpTool {
    const outputSchema = outputSchemaOf(tool);
    return {
      name: this.names.add(tool.id),
      title: tool.name,
      description: tool.description,
      inputSchema: objectSchema(tool.inputSchema as Record<string, unknown>),
      ...(outputSchema === undefined ? {} : { outputSchema: objectSchema(outputSchema) }),
      annotations: toolAnnotations(tool),
    };
  }

  async #callTool(
    connection: Connection,
    request: CallToolRequest,
    ctx: ServerContext,
  ): Promise<CallToolResult> {
    const name = request.params.name;
    const toolId = this.names.idOf(name);
    const tool = toolId === undefined ? undefined : this.registry.getTool(toolId);
    if (tool === undefined || !tool.isAvailable) {
      const available = this.registry.getAvailableTools().map((t) => this.names.add(t.id));
      const close = closestNames(name, available);
      await this.#auditUnknown(name, request.params.arguments, ctx.sessionId ?? connection.id);
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Tool '${name}' not found.${close.length > 0 ? ` Did you mean '${close.join("', '")}'?` : ""} Available: ${available.join(", ")}`,
      );
    }
    const args: unknown = request.params.arguments ?? {};
    const parameters: JsonObject = isJsonObject(args) ? args : {};
    const sessionId = ctx.sessionId ?? connection.id;
    connection.sessionIds.add(sessionId);

    let decision: ApprovalDecision | undefined;
    let callId: string | undefined;
    let checked: CheckedApproval | undefined;
    // The call ends when the client cancels it or the connection closes: the SDK aborts the
    // request's signal on both (notifications/cancelled, and its close of every request in flight).
    let signal = ctx.mcpReq.signal;
    const approvals = this.#config.approvals ?? "elicit";
    if (approvals !== "handler") {
      const asked = await this.#approval(
        approvals,
        tool,
        name,
        parameters,
        sessionId,
        ctx,
        connection,
      );
      if (asked.kind === "reply") return asked.result;
      decision = asked.decision;
      callId = asked.callId;
      checked = asked.checked;
      // Ended while the person was asked: the processor records it as cancelled.
      if (asked.cancelled === true && !signal.aborted) signal = AbortSignal.abort();
    }

    const onProgress = progressSender(ctx, this.#config.onError);
    const id = callId ?? checked?.callId ?? randomUUID();
    // The processor's handler may wait minutes for a person (the console): keep the client's
    // request alive meanwhile, for clients that reset their timeout on progress.
    const stopKeepAlive =
      onProgress !== undefined &&
      decision === undefined &&
      (approvals === "handler" || callId !== undefined)
        ? this.#keepAliveWhileAsking(id, onProgress)
        : undefined;
    let result: ProcessCallResult;
    try {
      result = await this.processor.processCall({
        toolId: tool.id,
        parameters,
        callId: id,
        sessionId,
        signal,
        ...(onProgress === undefined ? {} : { onProgress }),
        ...(decision === undefined ? {} : { decision }),
        // The pre-check's verdict: the call is not judged a second time.
        ...(checked === undefined ? {} : { checked: checked.call }),
      });
    } finally {
      stopKeepAlive?.();
      // The console's page of this call is done: its client hears so before the result.
      if (callId !== undefined) await this.#pagesSent.done(callId);
    }
    const outputSchema = outputSchemaOf(tool);
    return connection.server.projectCallToolResult(
      toCallToolResult(result, outputSchema !== undefined),
      outputSchema === undefined ? undefined : objectSchema(outputSchema),
    );
  }

  /**
   * Records a call of a tool no one has registered under `name` in the audit log (a probing
   * model leaves a trace): the processor records such a call as one that did not run. Only when
   * neither the server's registry nor the processor's knows the name in any case: the processor
   * must have nothing to run.
   */
  async #auditUnknown(name: string, args: unknown, sessionId: string): Promise<void> {
    if (this.registry.getTool(name) !== undefined) return;
    if (this.processor.executor.registry.getTool(name) !== undefined) return;
    try {
      await this.processor.processCall({ toolId: name, parameters: args ?? {}, sessionId });
    } catch (error) {
      this.#config.onError?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** Marks `state` answered; false when it already was (its answer is not honoured again). */
  #firstAnswer(state: ApprovalState): boolean {
    const now = Date.now();
    if (typeof state.n !== "string" || this.#answered.has(state.n)) return false;
    if (this.#answered.size >= 1024) {
      for (const [n, expires] of this.#answered) if (expires <= now) this.#answered.delete(n);
    }
    // Kept until the state itself expires: past that, the codec refuses it anyway.
    this.#answered.set(state.n, state.at + this.#stateTtlMs);
    return true;
  }

  /**
   * Sends a progress notification every `approvalKeepAliveMs` while the call `callId` awaits
   * approval in the processor; returns the function that stops.
   */
  #keepAliveWhileAsking(callId: string, send: (progress: ProgressReport) => void): () => void {
    let asking = false;
    const off = this.processor.events.on("transition", (transition) => {
      if (transition.lifecycle.request.providerCallId !== callId) return;
      asking = transition.to === ToolCallStatus.AwaitingApproval;
    });
    const timer = setInterval(() => {
      if (asking) send({ message: "Waiting for a person's approval" });
    }, this.#config.approvalKeepAliveMs ?? 15_000);
    timer.unref();
    return () => {
      clearInterval(timer);
      off();
    };
  }

  /**
   * On a 2025-era connection, watches the console page `pageId` sent for the call `callId`, to
   * tell the client (`notifications/elicitation/complete`, on the call's own request) when the
   * page is done; returns the `elicitationId` the elicitation must carry. Undefined on the
   * 2026-07-28 era, which has no such notification (the client retries when the person says so).
   */
  #watchPage(
    connection: Connection,
    ctx: ServerContext,
    callId: string,
    pageId: string,
  ): string | undefined {
    const pages = this.#config.approvalPages;
    if (pages === undefined || isModernRequest(ctx)) return undefined;
    const elicitationId = randomUUID();
    let notify: () => Promise<void>;
    try {
      notify = connection.server.createElicitationCompletionNotifier(elicitationId, {
        relatedRequestId: ctx.mcpReq.id,
      });
    } catch {
      return undefined; // URL elicitation not declared in `initialize`: nothing to notify
    }
    this.#pagesSent.watch(callId, {
      // Without `settled`, the client hears only when the call ends (`done` in #callTool).
      settled: (signal) => pages.settled?.(pageId, signal) ?? new Promise<void>(() => undefined),
      notify,
      withdraw: () => pages.withdraw(pageId),
      closed: connection.closed.signal,
      // The SDK's shim waits this long for the client's answer (its round timeout), from a moment
      // later than now: a little margin, so an answer it still takes finds the page watched.
      answerWithinMs: (this.#config.approvalTimeoutMs ?? 300_000) + 5_000,
    });
    return elicitationId;
  }

  /** How long a person has to answer (and an input_required round lasts). */
  get #approvalTimeoutMs(): number {
    return this.#config.approvalTimeoutMs ?? 300_000;
  }

  /**
   * Watches the approval round sent as input_required with the nonce `nonce`: a call whose answer
   * does not come back in time is audited as denied ("timeout"); a 2025-era call that ends while
   * its person is asked (the SDK's shim holds its request open) as cancelled.
   */
  #openRound(
    nonce: string,
    ctx: ServerContext,
    call: {
      readonly toolId: string;
      readonly parameters: JsonObject;
      readonly callId: string;
      readonly sessionId: string;
      readonly pageId?: string;
    },
  ): void {
    const timeoutMs = this.#approvalTimeoutMs;
    const withdraw = async (): Promise<void> => {
      if (call.pageId === undefined) return;
      await this.#config.approvalPages?.withdraw(call.pageId).catch(() => undefined);
    };
    const { toolId, parameters, callId, sessionId } = call;
    const legacy = !isModernRequest(ctx);
    this.#openRounds.open(nonce, timeoutMs + retryGraceMs, {
      expire: async () => {
        await withdraw();
        await this.processor.recordDecision({
          toolId,
          parameters,
          callId,
          sessionId,
          decision: ApprovalDecision.deny(noAnswerReason(timeoutMs), {
            decisionDurationMs: timeoutMs,
          }),
          decidedBy: "timeout",
        });
      },
      ...(legacy
        ? {
            signal: ctx.mcpReq.signal,
            cancel: async () => {
              await withdraw();
              await this.processor.processCall({
                toolId,
                parameters,
                callId,
                sessionId,
                signal: ctx.mcpReq.signal,
              });
            },
          }
        : {}),
    });
  }

  /**
   * Asks the person with `form` on a 2025-era connection (`elicitation/create`, related to the
   * call's request) and turns what happens into the call's decision: the answer, a denial when
   * nobody answered within the approval timeout or the form failed, or `cancelled` when the call
   * ended meanwhile (the client cancelled it, or left).
   */
  async #askWithForm(
    connection: Connection,
    ctx: ServerContext,
    form: ReturnType<typeof approvalForm>,
  ): Promise<{ decision: ApprovalDecision; cancelled?: never } | { cancelled: true }> {
    const timeoutMs = this.#approvalTimeoutMs;
    const askedAt = Date.now();
    const signal = ctx.mcpReq.signal;
    let answer: { action: "accept" | "decline" | "cancel"; content?: Record<string, unknown> };
    try {
      answer = await connection.server.request(
        { method: "elicitation/create", params: { ...form, mode: "form" } },
        { relatedRequestId: ctx.mcpReq.id, timeout: timeoutMs, signal },
      );
    } catch (error) {
      const code = SdkError.isInstance(error) ? error.code : undefined;
      if (
        signal.aborted ||
        connection.closed.signal.aborted ||
        code === SdkErrorCode.ConnectionClosed
      ) {
        return { cancelled: true };
      }
      const timing = { decisionDurationMs: Date.now() - askedAt };
      if (code === SdkErrorCode.RequestTimeout) {
        // Named "timeout" in the audit, as the processor's own handler timeouts are.
        return { decision: ApprovalDecision.deny(noAnswerReason(timeoutMs), timing).by("timeout") };
      }
      const why = error instanceof Error ? error.message : String(error);
      return {
        decision: ApprovalDecision.deny(
          `The approval form failed (${why}), so the call was denied; nothing ran.`,
          timing,
        ).by("handler-error"),
      };
    }
    const decision = decisionFromAnswer(answer, Date.now() - askedAt);
    const subject = oauthSubject(ctx);
    return { decision: subject === undefined ? decision : decision.by(subject) };
  }

  /**
   * Decides how the call's approval is settled: no need (undefined decision), a result to send
   * as it is (`reply`: an input_required round, or the answer to a round that expired), or a
   * decision (the person's answer, a denial, or `cancelled` when the call ended while asked).
   */
  async #approval(
    mode: "elicit" | "deny",
    tool: Tool,
    name: string,
    parameters: JsonObject,
    sessionId: string,
    ctx: ServerContext,
    connection: Connection,
  ): Promise<
    | {
        kind: "decided";
        decision: ApprovalDecision | undefined;
        callId?: string;
        checked?: CheckedApproval;
        cancelled?: boolean;
      }
    | { kind: "reply"; result: CallToolResult }
  > {
    const responses = ctx.mcpReq.inputResponses;
    const view = responses === undefined ? undefined : inputResponse(responses, "approval");
    // A retry that carries no answer to the question asked leaves its round as it is (its
    // deadline still runs, and records it if nothing answers): the call is asked as a new one.
    if (view !== undefined && view.kind === "elicit") {
      // The client answers the form sent in a previous round: the state (signed by this server)
      // says which call the person was shown; an answer for other arguments approves nothing.
      const state = ctx.mcpReq.requestState<ApprovalState>();
      if (
        typeof state !== "object" ||
        state === null ||
        state.t !== tool.id ||
        state.h !== hashToolCallArguments(parameters)
      ) {
        return {
          kind: "decided",
          decision: ApprovalDecision.deny("The approval answered another call; nothing ran."),
        };
      }
      // One answer per question: a retry sent again (a replay, a client's own retry) would
      // otherwise run an "approve once" call as often as it is sent while the state lives. The
      // call it answered has its row already: the replay adds none.
      if (!this.#firstAnswer(state)) {
        return {
          kind: "reply",
          result: deniedResult(
            "This approval was already used: an answer approves one run of the call. Call the tool again to be asked again.",
          ),
        };
      }
      // A round that expired is audited already (denied, nobody answered in time): its late
      // answer neither runs the call nor records it twice.
      if ((await this.#openRounds.answered(state.n)) === "expired") {
        return { kind: "reply", result: deniedResult(lateAnswerReason(this.#approvalTimeoutMs)) };
      }
      // The person approved the tool as it was shown; one replaced meanwhile is another tool.
      if (state.d !== toolDefinitionDigest(tool) && view.action === "accept") {
        if (state.p !== undefined) {
          await this.#config.approvalPages?.withdraw(state.p).catch(() => undefined);
        }
        if (state.c !== undefined) await this.#pagesSent.done(state.c);
        return {
          kind: "decided",
          decision: changedWhileAsked(name),
          ...(state.c === undefined ? {} : { callId: state.c }),
        };
      }
      if (state.c !== undefined && state.p !== undefined) {
        // The console's page was sent (URL elicitation): the processor's handler waits for the
        // decision made there, on the record keyed by this call id.
        if (view.action === "accept") {
          this.#pagesSent.answered(state.c);
          return { kind: "decided", decision: undefined, callId: state.c };
        }
        await this.#config.approvalPages?.withdraw(state.p).catch(() => undefined);
        await this.#pagesSent.done(state.c);
        return {
          kind: "decided",
          decision: ApprovalDecision.deny(
            view.action === "decline"
              ? "The user declined to open the approval page."
              : "The user dismissed the approval request.",
          ),
        };
      }
      const answer =
        isModernRequest(ctx) && view.content?.decision === ApprovalChoice.Session
          ? ApprovalDecision.deny(
              "The approval answer was not one of the choices: a 2026-07-28 request has no session to approve for.",
            )
          : decisionFromAnswer(view, Date.now() - state.at);
      const subject = oauthSubject(ctx);
      return {
        kind: "decided",
        decision: subject === undefined ? answer : answer.by(subject),
        ...(state.c === undefined ? {} : { callId: state.c }),
      };
    }
    const checkedId = randomUUID();
    const check = await this.processor.checkCall({
      toolId: tool.id,
      parameters,
      callId: checkedId,
      sessionId,
    });
    const need = check.needsApproval;
    if (need === false) {
      return { kind: "decided", decision: undefined, checked: { call: check, callId: checkedId } };
    }
    // Each open round holds its call's arguments until it is answered or expires: a client that
    // sends calls needing approval and never answers must not grow the server without bound.
    const maxOpen = this.#config.maxOpenApprovalRounds ?? defaultMaxOpenRounds;
    if (this.#openRounds.size >= maxOpen) {
      return {
        kind: "decided",
        decision: ApprovalDecision.deny(
          `${maxOpen} call(s) already wait for a person's approval; this one was denied without asking. Wait for them to be answered or to expire, then call the tool again.`,
        ),
      };
    }
    const capabilities = clientCapabilities(ctx, connection.server);
    const pages = this.#config.approvalPages;
    if (mode === "elicit" && pages !== undefined && supportsUrlElicitation(capabilities)) {
      const callId = randomUUID();
      const request = new ToolCallRequest({
        toolId: tool.id,
        toolName: tool.name,
        // As processCall will coerce them ('5' to 5): the processor's handler then finds this
        // record (keyed by the call id and the hash of these arguments) instead of opening
        // another one that no page was sent for.
        parameters: coercedArguments(tool, parameters),
        providerCallId: callId,
        riskLevel: need.riskLevel,
        executionSummary: need.summary,
        requiresApproval: true,
      });
      const page = await pages.open(request, {
        reason: need.reason,
        riskLevel: need.riskLevel,
        round: 1,
        sessionId,
        callId,
        summary: need.summary,
        toolDefinition: toolDefinitionDigest(tool),
        ...(need.warning === undefined ? {} : { warning: need.warning }),
      });
      const n = nonce();
      const requestState = await this.#codec.mint(
        {
          t: tool.id,
          h: hashToolCallArguments(parameters),
          at: Date.now(),
          n,
          c: callId,
          p: page.id,
          d: toolDefinitionDigest(tool),
        },
        ctx,
      );
      const elicitationId = this.#watchPage(connection, ctx, callId, page.id);
      this.#openRound(n, ctx, { toolId: tool.id, parameters, callId, sessionId, pageId: page.id });
      return {
        kind: "reply",
        result: inputRequired({
          inputRequests: {
            approval: elicitPage(
              // Escaped as the form's text is (approval-form.ts): a terminal client shows it.
              `Approve or deny in the aintern console: ${displayText(need.summary, { maxLength: 2_000 })} (${displayText(need.reason, { maxLength: 2_000 })})`,
              page.url,
              elicitationId,
            ),
          },
          requestState,
        }) as unknown as CallToolResult,
      };
    }
    if (mode === "elicit" && supportsFormElicitation(capabilities)) {
      const modern = isModernRequest(ctx);
      const form = approvalForm({
        toolId: tool.id,
        toolName: name,
        parameters,
        need,
        ...(this.#config.parameterKinds === undefined
          ? {}
          : { parameterKinds: this.#config.parameterKinds }),
        ...(this.processor.workspacePath === undefined
          ? {}
          : { workspacePath: this.processor.workspacePath }),
        // A 2026-07-28 request has no session for "approve for this session" to last.
        offerSessionChoice: !modern,
      });
      if (!modern) {
        // Asked here rather than through the SDK's shim: a call that ends unanswered is then
        // decided (and audited) like any other, and a timeout is a denial the model can act on.
        const asked = await this.#askWithForm(connection, ctx, form);
        if (asked.cancelled === true) {
          return { kind: "decided", decision: undefined, cancelled: true };
        }
        if (asked.decision.approved) {
          const now = this.registry.getTool(tool.id);
          if (now === undefined || toolDefinitionDigest(now) !== toolDefinitionDigest(tool)) {
            return { kind: "decided", decision: changedWhileAsked(name) };
          }
        }
        return { kind: "decided", decision: asked.decision };
      }
      const n = nonce();
      const callId = randomUUID();
      const requestState = await this.#codec.mint(
        {
          t: tool.id,
          h: hashToolCallArguments(parameters),
          at: Date.now(),
          n,
          c: callId,
          d: toolDefinitionDigest(tool),
        },
        ctx,
      );
      this.#openRound(n, ctx, { toolId: tool.id, parameters, callId, sessionId });
      return {
        kind: "reply",
        result: inputRequired({
          inputRequests: { approval: inputRequired.elicit(form) },
          requestState,
        }) as unknown as CallToolResult,
      };
    }
    const why =
      mode === "deny"
        ? "This server is set not to ask for approvals (--approvals deny)."
        : "This MCP client cannot ask you (it does not support form elicitation, nor URL elicitation to the web console).";
    return {
      kind: "decided",
      decision: ApprovalDecision.deny(
        `This call needs approval (${need.reason}), and no one can be asked: ${why} ${headlessHint}`,
      ),
    };
  }
}

/** The most approval rounds waiting for an answer at once, unless configured. */
const defaultMaxOpenRounds = 1_000;

/** The client's retry of an input_required round may travel this long after the person answered. */
const retryGraceMs = 1_000;

/** Why a call nobody answered in time was denied. */
function noAnswerReason(timeoutMs: number): string {
  return `Nobody approved the call within ${durationText(timeoutMs)}, so it was denied and nothing ran. Call the tool again to ask again, or ask the user to allow it.`;
}

/** What a round's answer that came after its deadline gets. */
function lateAnswerReason(timeoutMs: number): string {
  return `This approval came too late: nobody approved the call within ${durationText(timeoutMs)}, so it was denied and nothing ran. Call the tool again to ask again.`;
}

function durationText(ms: number): string {
  return ms < 1_000 || ms % 1_000 !== 0 ? `${ms} ms` : `${ms / 1_000} s`;
}

/** A denial told to the model, for a call the processor has already recorded. */
function deniedResult(reason: string): CallToolResult {
  return {
    content: [{ type: "text", text: `Denied: ${reason}` }],
    isError: true,
    structuredContent: { status: ToolCallStatus.Denied, error: reason },
  };
}

/** The denial of an approval given for a tool whose definition was replaced meanwhile. */
function changedWhileAsked(name: string): ApprovalDecision {
  return ApprovalDecision.deny(
    `Approval refused: tool '${name}' changed while it was asked about (its definition was replaced or removed); nothing ran. Call it again to be asked about it as it is now.`,
  );
}

/** The result of one call on the wire: the text for the model, plus the data as structured content. */
export function toCallToolResult(
  result: ProcessCallResult,
  hasOutputSchema = false,
): CallToolResult {
  const content: CallToolResult["content"] = [{ type: "text", text: result.content }];
  if (result.isError) {
    return {
      content,
      isError: true,
      ...(hasOutputSchema
        ? {}
        : {
            structuredContent: {
              status: result.status,
              ...(result.result.errorCode === undefined
                ? {}
                : { errorCode: result.result.errorCode }),
              error: result.result.error ?? result.content,
            },
          }),
    };
  }
  // A JSON copy of the data (dates as strings, no functions), as the result serializes it: an
  // in-process client gets plain data that is not the tool's own object.
  const data = result.result.hasData ? toJsonSafe(result.result.data) : undefined;
  return {
    content,
    ...(data === undefined
      ? {}
      : { structuredContent: isJsonObject(data) ? data : { result: data } }),
  };
}

/** MCP wants an object schema at the root; aintern's input schemas are, this makes sure. */
/** The most tools one `tools/list` page holds. */
const TOOLS_PAGE_MAX = 500;
/** About the most characters of JSON one `tools/list` page holds (clients read 10 MB or more). */
const TOOLS_PAGE_CHARACTERS = 4_000_000;

/** The cursor of the page that starts at tool `at`. */
function cursorOf(at: number): string {
  return Buffer.from(`tools:${at}`).toString("base64url");
}

/** Where the page `cursor` names starts; a protocol error for a cursor this server did not give. */
function pageStart(cursor: string, count: number): number {
  const match = /^tools:(\d{1,9})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  const at = match === null ? Number.NaN : Number(match[1]);
  if (!Number.isSafeInteger(at) || at > count) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      "Invalid cursor: pass the nextCursor of the previous tools/list answer, or none for the first page",
    );
  }
  return at;
}

function objectSchema(schema: Record<string, unknown>): McpTool["inputSchema"] {
  const { $schema: _ignored, ...rest } = schema;
  return { ...rest, type: "object" } as McpTool["inputSchema"];
}

function outputSchemaOf(tool: Tool): Record<string, unknown> | undefined {
  const schema: unknown = tool.outputSchema;
  return isJsonObject(schema) ? (schema as Record<string, unknown>) : undefined;
}

/** The client's capabilities: per request on the 2026 era, from `initialize` on 2025 ones. */
function clientCapabilities(ctx: ServerContext, server: Server): ClientCapabilities | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const fromEnvelope = envelope?.[CLIENT_CAPABILITIES_META_KEY];
  if (typeof fromEnvelope === "object" && fromEnvelope !== null) {
    return fromEnvelope as ClientCapabilities;
  }
  return server.getClientCapabilities();
}

function supportsFormElicitation(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation as Record<string, unknown> | undefined;
  if (elicitation === undefined) return false;
  // An empty object means form mode (2025-06-18); otherwise form must be named.
  return Object.keys(elicitation).length === 0 || elicitation.form !== undefined;
}

/**
 * Who an HTTP request's OAuth access token speaks for (its `sub`, else its client id): the person
 * who answered an elicitation on that client.
 */
function oauthSubject(ctx: ServerContext): string | undefined {
  return subjectOf(ctx.http?.authInfo);
}

function subjectOf(auth: AuthInfo | undefined): string | undefined {
  if (auth === undefined) return undefined;
  const sub = auth.extra?.sub;
  if (typeof sub === "string" && sub !== "") return sub;
  return auth.clientId === "" ? undefined : auth.clientId;
}

/** Who a request is authenticated as, for binding: the subject and client, or "" without auth. */
function principalOf(auth: AuthInfo | undefined): string {
  if (auth === undefined) return "";
  return `${subjectOf(auth) ?? ""}\0${auth.clientId}`;
}

/** `parameters` with scalars coerced to the tool's schema, as the processor does before judging. */
function coercedArguments(tool: Tool, parameters: JsonObject): JsonObject {
  try {
    return coerceScalarParameters(tool.inputSchema, parameters).parameters;
  } catch {
    return parameters;
  }
}

/** A fresh nonce for one approval question. */
function nonce(): string {
  return randomBytes(12).toString("base64url");
}

/** Whether the request is of the 2026-07-28 era: its `_meta` envelope names the revision. */
function isModernRequest(ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return envelope?.[PROTOCOL_VERSION_META_KEY] !== undefined;
}

/**
 * The URL elicitation of a console page. On the 2025-11-25 era it carries `elicitationId` (the
 * SDK's shim keeps an id it is given), which the completion notification names.
 */
function elicitPage(
  message: string,
  url: string,
  elicitationId: string | undefined,
): ElicitRequest {
  const request = inputRequired.elicitUrl({ message, url }) as ElicitRequest;
  return elicitationId === undefined
    ? request
    : ({ ...request, params: { ...request.params, elicitationId } } as ElicitRequest);
}

function supportsUrlElicitation(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation as Record<string, unknown> | undefined;
  return elicitation?.url !== undefined;
}

/** What a progress notification is made from: a tool's report, or the server's own note. */
interface ProgressReport {
  readonly message: string;
  readonly percentComplete?: number | undefined;
  readonly itemsProcessed?: number | undefined;
  readonly totalItems?: number | undefined;
}

/** Sends the tool's progress reports as `notifications/progress`, when the call asked for them. */
function progressSender(
  ctx: ServerContext,
  onError: ((error: Error) => void) | undefined,
): ((progress: ProgressReport) => void) | undefined {
  const token = ctx.mcpReq._meta?.progressToken;
  if (token === undefined) return undefined;
  let last = 0;
  return (progress) => {
    const total =
      progress.totalItems !== undefined && progress.itemsProcessed !== undefined
        ? progress.totalItems
        : 100;
    const value =
      progress.totalItems !== undefined && progress.itemsProcessed !== undefined
        ? progress.itemsProcessed
        : progress.percentComplete;
    // Progress must increase with each notification: a report that does not move it forward
    // advances it by a hair rather than being dropped (its message still counts).
    const next = value !== undefined && value > last ? value : last + 1e-3;
    last = next;
    ctx.mcpReq
      .notify({
        method: "notifications/progress",
        params: {
          progressToken: token,
          progress: next,
          total: Math.max(total, next),
          ...(progress.message === "" ? {} : { message: progress.message }),
        },
      })
      .catch((error: unknown) =>
        onError?.(error instanceof Error ? error : new Error(String(error))),
      );
  };
}
