import type { Tool } from "../tools/index.js";
import type { CallVerdict } from "./call-gate.js";
import type { ApprovalRequirementDetails } from "./process-call.js";
import type { ToolCallRequest } from "./tool-call-request.js";

/** How long a check's verdict may be reused by `processCall`: past it, the call is decided again. */
export const checkedCallMaxAgeMs = 1_000;

/** What a {@link CheckedCall} holds; only the processor that made it reads it. */
export interface CheckedCallParts {
  /** The processor that judged the call: another one decides again. */
  readonly owner: object;
  readonly tool: Tool | undefined;
  readonly sessionId: string;
  readonly callId: string | undefined;
  /** The object the caller passed: `processCall` must be given this very object to reuse. */
  readonly sent: unknown;
  /** The coerced, assessed request (frozen parameters): what runs when the verdict is reused. */
  readonly request: ToolCallRequest | undefined;
  /** The policy's verdict with remembered permissions; undefined when the call is invalid. */
  readonly verdict: CallVerdict | undefined;
  /** `Date.now()` when it was judged. */
  readonly atMs: number;
  readonly needsApproval: false | ApprovalRequirementDetails;
}

let partsOf: (checked: CheckedCall) => CheckedCallParts;
let markUsed: (checked: CheckedCall) => boolean;

/**
 * One call as a {@link ToolCallProcessor} judged it (`checkCall`): validated, risk-assessed and
 * decided by the policy and remembered permissions, with {@link needsApproval} saying whether a
 * person must be asked. Pass it to `processCall` as `checked`, with the same tool, arguments
 * object, call id and session, within a second and once: the call then runs on that verdict and
 * on the arguments that were judged (a frozen copy) instead of being judged again. Any other use
 * (another processor, session, tool, call id or arguments object, later, a second time, a call
 * that needed approval) is decided again, as without it. It cannot be made or changed outside
 * the processor.
 *
 * @example
 * ```ts
 * const checked = await processor.checkCall({ toolId, parameters, callId, sessionId });
 * if (checked.needsApproval === false) {
 *   return processor.processCall({ toolId, parameters, callId, sessionId, checked });
 * }
 * ask(checked.needsApproval.reason);
 * ```
 */
export class CheckedCall {
  readonly #parts: CheckedCallParts;
  #used = false;

  static {
    partsOf = (checked) => checked.#parts;
    // Whether it was unused; it is used from now on.
    markUsed = (checked) => {
      const unused = !checked.#used;
      checked.#used = true;
      return unused;
    };
  }

  /** @internal Made by the processor only (`checkCall`). */
  constructor(token: typeof makeToken, parts: CheckedCallParts) {
    if (token !== makeToken) throw new TypeError("A CheckedCall is made by processor.checkCall");
    this.#parts = parts;
  }

  /**
   * `false` when the call would run unasked (the policy allows it, a remembered permission
   * covers it) or would not run at all (unknown tool, invalid arguments, denied by a rule);
   * otherwise why a person must be asked: what `needsApproval` answers.
   */
  get needsApproval(): false | ApprovalRequirementDetails {
    return this.#parts.needsApproval;
  }

  /** Whether `value` is a CheckedCall made by a processor of this copy of aintern. */
  static isInstance(value: unknown): value is CheckedCall {
    return typeof value === "object" && value !== null && #parts in value;
  }
}

const makeToken = Symbol("CheckedCall");

/** A new {@link CheckedCall} (the processor's `checkCall`). */
export function makeCheckedCall(parts: CheckedCallParts): CheckedCall {
  return new CheckedCall(makeToken, parts);
}

/**
 * The parts of `checked` when they may be reused for this call, marking them used; undefined
 * when the call must be decided again.
 */
export function takeCheckedCall(
  checked: CheckedCall,
  call: {
    readonly owner: object;
    readonly tool: Tool | undefined;
    readonly sessionId: string;
    readonly callId: string | undefined;
    readonly sent: unknown;
  },
): (CheckedCallParts & { readonly request: ToolCallRequest; verdict: CallVerdict }) | undefined {
  const parts = partsOf(checked);
  const { verdict, request } = parts;
  // An "ask" is never reused: the call is decided again and a person is asked.
  if (verdict === undefined || verdict.kind === "ask" || request === undefined) return undefined;
  if (
    parts.owner !== call.owner ||
    parts.tool === undefined ||
    parts.tool !== call.tool ||
    parts.sessionId !== call.sessionId ||
    parts.callId !== call.callId ||
    parts.sent !== call.sent
  ) {
    return undefined;
  }
  const age = Date.now() - parts.atMs;
  if (age < 0 || age > checkedCallMaxAgeMs) return undefined;
  if (!markUsed(checked)) return undefined;
  return parts as CheckedCallParts & { readonly request: ToolCallRequest; verdict: CallVerdict };
}
