import { describe, expect, it } from "vitest";
import { RequestAdmission } from "../../src/mcp/request-admission.js";

type Message = Record<string, unknown>;
const call = (id: number | string): Message => ({ jsonrpc: "2.0", id, method: "tools/call" });
const answer = (id: number | string): Message => ({ jsonrpc: "2.0", id, result: {} });
const cancel = (id: number | string): Message => ({
  jsonrpc: "2.0",
  method: "notifications/cancelled",
  params: { requestId: id },
});

function admission(maxInFlight: number, maxWaiting = 100) {
  const delivered: Message[] = [];
  const duplicates: (string | number)[] = [];
  let roomAgain = 0;
  const gate = new RequestAdmission(maxInFlight, maxWaiting, {
    deliver: (m) => delivered.push(m as Message),
    duplicate: (id) => duplicates.push(id),
    roomAgain: () => roomAgain++,
  });
  return { gate, delivered, duplicates, roomAgain: () => roomAgain };
}

describe("RequestAdmission", () => {
  it("hands on at most maxInFlight requests, the next as each is answered, in order", () => {
    const { gate, delivered } = admission(2);
    for (const id of [1, 2, 3, 4]) gate.accept(call(id) as never);
    expect(delivered.map((m) => m.id)).toEqual([1, 2]);
    gate.sent(answer(2) as never);
    expect(delivered.map((m) => m.id)).toEqual([1, 2, 3]);
    gate.sent(answer(1) as never);
    expect(delivered.map((m) => m.id)).toEqual([1, 2, 3, 4]);
  });

  it("hands on nothing while the output is blocked, and catches up when it drains", () => {
    const { gate, delivered } = admission(8);
    gate.blocked = true;
    gate.accept(call(1) as never);
    gate.accept(call(2) as never);
    expect(delivered).toEqual([]);
    gate.blocked = false;
    expect(delivered.map((m) => m.id)).toEqual([1, 2]);
  });

  it("passes notifications at once; a cancellation takes out a waiting request, never run", () => {
    const { gate, delivered } = admission(1);
    gate.accept(call("a") as never);
    gate.accept(call("b") as never);
    gate.accept(cancel("b") as never);
    gate.accept({ jsonrpc: "2.0", method: "notifications/initialized" } as never);
    expect(delivered.map((m) => m.method ?? m.id)).toEqual([
      "tools/call",
      "notifications/initialized",
    ]);
    // One for the request with the server is passed on and frees its place (no answer comes).
    gate.accept(call("c") as never);
    gate.accept(cancel("a") as never);
    expect(delivered.map((m) => (m.method === "tools/call" ? m.id : m.method))).toEqual([
      "a",
      "notifications/initialized",
      "notifications/cancelled",
      "c",
    ]);
  });

  it("refuses a request whose id is still in flight, waiting or with the server", () => {
    const { gate, delivered, duplicates } = admission(1);
    gate.accept(call(7) as never);
    gate.accept(call(8) as never);
    gate.accept(call(7) as never);
    gate.accept(call(8) as never);
    expect(duplicates).toEqual([7, 8]);
    gate.sent(answer(7) as never);
    gate.accept(call(7) as never);
    expect(delivered.map((m) => m.id)).toEqual([7, 8]);
    expect(gate.waiting).toBe(1);
  });

  it("says it is full past maxWaiting, and when there is room again", () => {
    const { gate, roomAgain } = admission(1, 2);
    gate.accept(call(1) as never);
    gate.accept(call(2) as never);
    gate.accept(call(3) as never);
    expect(gate.full).toBe(true);
    gate.sent(answer(1) as never);
    expect(gate.full).toBe(false);
    expect(roomAgain()).toBe(1);
  });
});
