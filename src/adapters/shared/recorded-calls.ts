import type { AinternGate } from "./gate-port.js";

/**
 * The calls whose framework decision an adapter has recorded through `recordDecision`, per
 * processor: their `processCall` then passes no decision of its own (the processor uses the
 * recorded one), so a decision is recorded, and audited, once.
 */
const recorded = new WeakMap<AinternGate, Set<string>>();

function key(sessionId: string, callId: string): string {
  return `${sessionId}\u0000${callId}`;
}

export function markDecisionRecorded(gate: AinternGate, sessionId: string, callId: string): void {
  let calls = recorded.get(gate);
  if (calls === undefined) {
    calls = new Set();
    recorded.set(gate, calls);
  }
  calls.add(key(sessionId, callId));
}

/** Whether a decision was recorded for the call; forgets it (a call runs once). */
export function takeDecisionRecorded(
  gate: AinternGate,
  sessionId: string,
  callId: string,
): boolean {
  return recorded.get(gate)?.delete(key(sessionId, callId)) === true;
}

/** Whether a decision was recorded for the call (without forgetting it). */
export function isDecisionRecorded(gate: AinternGate, sessionId: string, callId: string): boolean {
  return recorded.get(gate)?.has(key(sessionId, callId)) === true;
}
