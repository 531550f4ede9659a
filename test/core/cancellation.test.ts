import { afterEach, describe, expect, it, vi } from "vitest";
import { Cancellation } from "../../src/core/index.js";
import { takesSignal } from "../../src/tools/index.js";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("Cancellation", () => {
  it("starts not aborted, with no reason", () => {
    const cancellation = new Cancellation();
    expect(cancellation.aborted).toBe(false);
    expect(cancellation.reason).toBeUndefined();
  });

  it("makes no AbortSignal until the signal is read", () => {
    const made = vi.spyOn(AbortController.prototype, "signal", "get");
    const cancellation = new Cancellation();
    const listener = vi.fn();
    cancellation.onAbort(listener);
    cancellation.abort("stop");
    expect(listener).toHaveBeenCalledOnce();
    expect(made).not.toHaveBeenCalled();
    expect(cancellation.signal.aborted).toBe(true);
    expect(made).toHaveBeenCalled();
  });

  it("gives a signal made before the abort the same reason, and the same signal every time", () => {
    const cancellation = new Cancellation();
    const signal = cancellation.signal;
    const reasons: unknown[] = [];
    signal.addEventListener("abort", () => reasons.push(signal.reason));
    const reason = new DOMException("late", "TimeoutError");
    expect(cancellation.abort(reason)).toBe(true);
    expect(reasons).toEqual([reason]);
    expect(cancellation.signal).toBe(signal);
    expect(cancellation.reason).toBe(reason);
  });

  it("gives a signal made after the abort the abort's reason", () => {
    const cancellation = new Cancellation();
    cancellation.abort("because");
    expect(cancellation.signal.aborted).toBe(true);
    expect(cancellation.signal.reason).toBe("because");
  });

  it("defaults the reason to an AbortError DOMException, like AbortController.abort()", () => {
    const cancellation = new Cancellation();
    cancellation.abort();
    expect(cancellation.reason).toBeInstanceOf(DOMException);
    expect((cancellation.reason as DOMException).name).toBe("AbortError");
  });

  it("aborts once: a second abort changes nothing and returns false", () => {
    const cancellation = new Cancellation();
    const listener = vi.fn();
    cancellation.onAbort(listener);
    expect(cancellation.abort("first")).toBe(true);
    expect(cancellation.abort("second")).toBe(false);
    expect(cancellation.reason).toBe("first");
    expect(listener).toHaveBeenCalledOnce();
  });

  it("runs listeners in the order they were added, after the signal's own listeners", () => {
    const cancellation = new Cancellation();
    const order: string[] = [];
    cancellation.signal.addEventListener("abort", () => order.push("signal"));
    cancellation.onAbort(() => order.push("a"));
    cancellation.onAbort(() => order.push("b"));
    cancellation.abort();
    expect(order).toEqual(["signal", "a", "b"]);
  });

  it("does not run a removed listener, and removing twice is harmless", () => {
    const cancellation = new Cancellation();
    const kept = vi.fn();
    const removed = vi.fn();
    cancellation.onAbort(kept);
    const remove = cancellation.onAbort(removed);
    remove();
    remove();
    cancellation.abort();
    expect(removed).not.toHaveBeenCalled();
    expect(kept).toHaveBeenCalledOnce();
  });

  it("never runs a listener added after the abort", () => {
    const cancellation = new Cancellation();
    cancellation.abort();
    const late = vi.fn();
    cancellation.onAbort(late)();
    expect(late).not.toHaveBeenCalled();
  });

  it("runs every listener even when one throws, and reports the error outside the abort", async () => {
    const cancellation = new Cancellation();
    const after = vi.fn();
    const failure = new Error("listener failed");
    cancellation.onAbort(() => {
      throw failure;
    });
    cancellation.onAbort(after);
    // The error surfaces as an uncaught exception, as a throwing EventTarget listener's does;
    // vitest's own handlers are set aside while this test catches it.
    const saved = process.listeners("uncaughtException");
    process.removeAllListeners("uncaughtException");
    const reported = new Promise<unknown>((resolve) => {
      process.once("uncaughtException", resolve);
    }).finally(() => {
      for (const listener of saved) process.on("uncaughtException", listener);
    });
    expect(() => cancellation.abort()).not.toThrow();
    expect(after).toHaveBeenCalledOnce();
    expect(await reported).toBe(failure);
  });
});

describe("takesSignal", () => {
  it("is true only for an execute that declares its signal parameter", () => {
    expect(takesSignal({ execute: async (_context, _signal) => ({}) as never })).toBe(true);
    expect(takesSignal({ execute: async (_context) => ({}) as never })).toBe(false);
  });
});
