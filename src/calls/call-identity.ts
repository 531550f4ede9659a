import { hasSecretParameters, redactSecretParameters } from "../schema/index.js";
import type { Tool } from "../tools/index.js";
import { hashToolCallArguments } from "./hash-tool-call-arguments.js";
import type { ToolCallLifecycleRecord } from "./tool-call-lifecycle-record.js";
import type { ToolCallRequest } from "./tool-call-request.js";
import { defaultToolCallSessionId } from "./tool-call-store.js";

/** The session a call belongs to when nobody names one. */
export const defaultSessionId = defaultToolCallSessionId;

/**
 * The id a call is stored under in its session: the provider's call id. An id aintern
 * synthesized (from the call's position and content) is not unique across turns, so such a call
 * is keyed by its request id and gets no idempotency across re-parses.
 */
export function idempotencyKey(request: ToolCallRequest): string {
  return request.providerCallId !== undefined && !request.callIdSynthesized
    ? request.providerCallId
    : request.id;
}

/** One key for (session, call id): a call id seen in another session is another call. */
export function sessionCallKey(sessionId: string, callId: string): string {
  return `${sessionId}\u0000${callId}`;
}

/** Whether a stored record is the same call as `request` (same tool, same arguments). */
export function isSameCall(record: ToolCallLifecycleRecord, request: ToolCallRequest): boolean {
  const saved = record.request;
  return (
    saved.toolId.toLowerCase() === request.toolId.toLowerCase() &&
    (saved.argumentsHash ?? hashToolCallArguments(saved.parameters)) ===
      hashToolCallArguments(request.parameters)
  );
}

/**
 * The record as it may be stored: the values of parameters the tool's schema marks secret
 * (`x-secret: true`) redacted, with the real arguments' hash kept to recognise the call.
 */
export function storableRecord(
  record: ToolCallLifecycleRecord,
  tool: Tool | undefined,
): ToolCallLifecycleRecord {
  if (tool === undefined || !toolHasSecrets(tool)) return record;
  const schema = tool.inputSchema;
  const decision = record.approvalDecision;
  return {
    ...record,
    request: {
      ...record.request,
      parameters: redactSecretParameters(schema, record.request.parameters),
      rawJson: null,
      argumentsHash: hashToolCallArguments(record.request.parameters),
    },
    approvalDecision:
      decision === null || decision.modifiedParameters === null
        ? decision
        : {
            ...decision,
            modifiedParameters: redactSecretParameters(schema, decision.modifiedParameters),
          },
  };
}

/** Per tool: whether its schema marks any parameter secret (read once per tool). */
const secretsByTool = new WeakMap<Tool, boolean>();

export function toolHasSecrets(tool: Tool): boolean {
  let secret = secretsByTool.get(tool);
  if (secret === undefined) {
    try {
      secret = hasSecretParameters(tool.inputSchema);
    } catch {
      secret = false;
    }
    secretsByTool.set(tool, secret);
  }
  return secret;
}

/** The stored record resumed for `request`: its id and its (unredacted) arguments. */
export function resumedRecord(
  record: ToolCallLifecycleRecord,
  request: ToolCallRequest,
): ToolCallLifecycleRecord {
  return {
    ...record,
    request: { ...record.request, id: request.id, parameters: request.parameters },
  };
}

/** The record with its request under another id (its decision's binding is history). */
export function withRequestId(
  record: ToolCallLifecycleRecord,
  id: string,
): ToolCallLifecycleRecord {
  return { ...record, request: { ...record.request, id } };
}

/**
 * The (session, call id) keys each store's processors are working on in this process, so that
 * the same call submitted twice at once runs once (processors sharing a store share the set).
 * Processors without a store share one set of their own.
 */
const claimedCalls = new WeakMap<object, Set<string>>();

/** The in-process claims of processors sharing `owner` (a store, or a processor). */
export function inProcessClaims(owner: object): Set<string> {
  let claims = claimedCalls.get(owner);
  if (claims === undefined) {
    claims = new Set();
    claimedCalls.set(owner, claims);
  }
  return claims;
}
