/** How one open round ends when its answer does not come. */
export interface OpenRoundEnds {
  /** Records the call as not approved in time; called once, when the deadline passes. */
  readonly expire: () => Promise<void>;
  /**
   * Aborted when the call itself ends (the client cancelled it, or the connection closed) while
   * the person is asked: a 2025-era call, whose request stays open during the round. Not given
   * for a 2026-07-28 round, whose request has already been answered (input_required).
   */
  readonly signal?: AbortSignal;
  /** Records the call as cancelled; called once, when `signal` aborts first. */
  readonly cancel?: () => Promise<void>;
}

/** What became of a round when its answer arrived. */
export type RoundAnswer = "in-time" | "expired" | "unknown";

interface OpenRound {
  readonly ends: OpenRoundEnds;
  timer: ReturnType<typeof setTimeout> | undefined;
  onAbort: (() => void) | undefined;
  /** Set once the round ended unanswered: its recording. */
  ended?: Promise<void>;
}

/**
 * The approval rounds an MCP server asked by `input_required` that wait for the client's answer,
 * keyed by their requestState's nonce. A round whose answer does not arrive within its deadline
 * is recorded once (`expire`), as is one whose call ends while it waits (`cancel`); a later
 * answer to it learns so from {@link OpenApprovalRounds.answered} and must not record it again.
 */
export class OpenApprovalRounds {
  readonly #open = new Map<string, OpenRound>();
  /** Nonces of rounds that ended unanswered, with when their state expires (ms). */
  readonly #ended = new Map<string, number>();
  readonly #keepEndedMs: number;
  readonly #onError: ((error: Error) => void) | undefined;

  /**
   * @param keepEndedMs How long a round that ended unanswered is remembered: at least as long as
   *   its requestState lives, so a late answer is told apart from an unknown one.
   */
  constructor(keepEndedMs: number, onError?: (error: Error) => void) {
    this.#keepEndedMs = keepEndedMs;
    this.#onError = onError;
  }

  /** How many rounds wait for their answer. */
  get size(): number {
    return this.#open.size;
  }

  /** Starts the round `nonce`: past `withinMs` without an answer, `ends.expire` records it. */
  open(nonce: string, withinMs: number, ends: OpenRoundEnds): void {
    const round: OpenRound = { ends, timer: undefined, onAbort: undefined };
    this.#open.set(nonce, round);
    round.timer = setTimeout(() => this.#end(nonce, round, ends.expire), withinMs);
    round.timer.unref?.();
    const { signal, cancel } = ends;
    if (signal !== undefined && cancel !== undefined) {
      round.onAbort = () => this.#end(nonce, round, cancel);
      if (signal.aborted) round.onAbort();
      else signal.addEventListener("abort", round.onAbort, { once: true });
    }
  }

  /**
   * The answer to the round `nonce` arrived: `in-time` stops its deadline (the call goes on and
   * is recorded as it ends); `expired` once the round's own recording is done (the call is
   * recorded already); `unknown` for a round this server did not open or has forgotten.
   */
  async answered(nonce: string): Promise<RoundAnswer> {
    const round = this.#open.get(nonce);
    if (round === undefined) return this.#ended.has(nonce) ? "expired" : "unknown";
    if (round.ended !== undefined) {
      await round.ended;
      return "expired";
    }
    this.#stop(nonce, round);
    return "in-time";
  }

  /** Stops every deadline (the server closes): rounds still open are not recorded. */
  close(): void {
    for (const [nonce, round] of this.#open) this.#stop(nonce, round);
  }

  #end(nonce: string, round: OpenRound, record: () => Promise<void>): void {
    if (round.ended !== undefined || this.#open.get(nonce) !== round) return;
    this.#forgetOld();
    this.#ended.set(nonce, Date.now() + this.#keepEndedMs);
    round.ended = record()
      .catch((error: unknown) =>
        this.#onError?.(error instanceof Error ? error : new Error(String(error))),
      )
      .finally(() => this.#stop(nonce, round));
  }

  #stop(nonce: string, round: OpenRound): void {
    clearTimeout(round.timer);
    if (round.onAbort !== undefined) round.ends.signal?.removeEventListener("abort", round.onAbort);
    if (this.#open.get(nonce) === round) this.#open.delete(nonce);
  }

  #forgetOld(): void {
    if (this.#ended.size < 1024) return;
    const now = Date.now();
    for (const [nonce, until] of this.#ended) if (until <= now) this.#ended.delete(nonce);
  }
}
