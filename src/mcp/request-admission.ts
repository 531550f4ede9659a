import type { JSONRPCMessage } from "@modelcontextprotocol/server";

/** A request's id as JSON-RPC gives it. */
type RequestId = string | number;

/** What {@link RequestAdmission} hands on, and what it tells the sender. */
export interface RequestAdmissionHooks {
  /** Passes a message on to the server. */
  readonly deliver: (message: JSONRPCMessage) => void;
  /** A request whose id is one of a request still in flight: answered with an error instead. */
  readonly duplicate: (id: RequestId) => void;
  /** Called when fewer requests than `maxWaiting` wait again, after {@link RequestAdmission.full}. */
  readonly roomAgain: () => void;
}

/**
 * Flow control for one connection's incoming requests. At most `maxInFlight` requests are with
 * the server at a time, and none is handed on while the output waits to drain ({@link
 * RequestAdmission.blocked}); the others wait here, in order, and every one is answered in the
 * end. So a client that sends calls without reading the answers makes the server hold at most
 * `maxInFlight` answers, not one for every call it sent; and 10,000 calls in flight are served
 * `maxInFlight` at a time.
 *
 * Notifications and responses pass at once: a `notifications/cancelled` for a request still
 * waiting here takes it out (it is never run nor answered, as MCP allows), one for a request with
 * the server frees its place (the server does not answer a cancelled request). A request whose
 * id is one still in flight, here or with the server, is refused: its answer could not be told
 * apart, and a cancellation would not say which it meant.
 */
export class RequestAdmission {
  readonly #maxInFlight: number;
  readonly #maxWaiting: number;
  readonly #hooks: RequestAdmissionHooks;
  /** Ids of the requests with the server. */
  readonly #withServer = new Set<RequestId>();
  /** Requests waiting, in order, by id. */
  readonly #waiting = new Map<RequestId, JSONRPCMessage>();
  #blocked = false;
  #pumping = false;

  /**
   * @param maxInFlight the most requests with the server at a time.
   * @param maxWaiting past this many waiting requests, {@link RequestAdmission.full} says to stop
   *   reading more.
   */
  constructor(maxInFlight: number, maxWaiting: number, hooks: RequestAdmissionHooks) {
    this.#maxInFlight = maxInFlight;
    this.#maxWaiting = maxWaiting;
    this.#hooks = hooks;
  }

  /** How many requests wait to be handed on. */
  get waiting(): number {
    return this.#waiting.size;
  }

  /** Enough requests wait: read no more until {@link RequestAdmissionHooks.roomAgain}. */
  get full(): boolean {
    return this.#waiting.size >= this.#maxWaiting;
  }

  /** While true (the output is full), no request is handed on. */
  set blocked(blocked: boolean) {
    this.#blocked = blocked;
    if (!blocked) this.#pump();
  }

  /** A message from the client. */
  accept(message: JSONRPCMessage): void {
    const id = requestIdOf(message);
    if (id === undefined) {
      const cancelled = cancelledIdOf(message);
      if (cancelled !== undefined && this.#waiting.delete(cancelled)) return;
      if (cancelled !== undefined && this.#withServer.delete(cancelled)) {
        this.#hooks.deliver(message);
        this.#pump();
        return;
      }
      this.#hooks.deliver(message);
      return;
    }
    if (this.#withServer.has(id) || this.#waiting.has(id)) {
      this.#hooks.duplicate(id);
      return;
    }
    this.#waiting.set(id, message);
    this.#pump();
  }

  /** A message to the client: an answer frees its request's place. */
  sent(message: JSONRPCMessage): void {
    const id = answeredIdOf(message);
    if (id !== undefined && this.#withServer.delete(id)) this.#pump();
  }

  /** The connection closed: nothing more is handed on. */
  close(): void {
    this.#waiting.clear();
    this.#withServer.clear();
    this.#blocked = true;
  }

  #pump(): void {
    // A delivery may answer at once (and so call back here): one loop does the work.
    if (this.#pumping) return;
    this.#pumping = true;
    const wasFull = this.full;
    try {
      while (!this.#blocked && this.#withServer.size < this.#maxInFlight) {
        const next = this.#waiting.entries().next();
        if (next.done === true) return;
        const [id, message] = next.value;
        this.#waiting.delete(id);
        this.#withServer.add(id);
        this.#hooks.deliver(message);
      }
    } finally {
      this.#pumping = false;
      if (wasFull && !this.full) this.#hooks.roomAgain();
    }
  }
}

function requestIdOf(message: JSONRPCMessage): RequestId | undefined {
  const m = message as { method?: unknown; id?: unknown };
  if (typeof m.method !== "string") return undefined;
  return typeof m.id === "string" || typeof m.id === "number" ? m.id : undefined;
}

function answeredIdOf(message: JSONRPCMessage): RequestId | undefined {
  const m = message as { method?: unknown; id?: unknown };
  if (typeof m.method === "string") return undefined;
  return typeof m.id === "string" || typeof m.id === "number" ? m.id : undefined;
}

function cancelledIdOf(message: JSONRPCMessage): RequestId | undefined {
  const m = message as { method?: unknown; params?: { requestId?: unknown } };
  if (m.method !== "notifications/cancelled") return undefined;
  const id = m.params?.requestId;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}
