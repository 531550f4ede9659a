import { afterEach, describe, expect, it, vi } from "vitest";
import { ServiceContainer, ToolExecutionContext } from "../../src/context/index.js";
import { Cancellation } from "../../src/core/index.js";

const services = new ServiceContainer();

afterEach(() => {
  vi.restoreAllMocks();
});

describe("ToolExecutionContext cancellation", () => {
  it("without a signal: never cancelled, and the same signal on every read", () => {
    const context = new ToolExecutionContext({ services });
    expect(context.isCancellationRequested).toBe(false);
    expect(context.signal.aborted).toBe(false);
    expect(context.signal).toBe(context.signal);
  });

  it("copies made by with() share the signal, even one made after the copy", () => {
    const context = new ToolExecutionContext({ services });
    const copy = context.with({ toolId: "other" });
    expect(copy.signal).toBe(context.signal);
  });

  it("follows a given signal", () => {
    const controller = new AbortController();
    const context = new ToolExecutionContext({ services, signal: controller.signal });
    const listener = vi.fn();
    context.onCancellationRequested(listener);
    expect(context.signal).toBe(controller.signal);
    controller.abort("stop");
    expect(context.isCancellationRequested).toBe(true);
    expect(listener).toHaveBeenCalledOnce();
  });

  it("follows a given cancellation without making its signal until read", () => {
    const made = vi.spyOn(AbortController.prototype, "signal", "get");
    const cancellation = new Cancellation();
    const context = new ToolExecutionContext({ services, cancellation });
    const listener = vi.fn();
    context.onCancellationRequested(listener);
    cancellation.abort("timed out");
    expect(context.isCancellationRequested).toBe(true);
    expect(listener).toHaveBeenCalledOnce();
    expect(made).not.toHaveBeenCalled();
    expect(context.signal.reason).toBe("timed out");
  });

  it("prefers the signal when both a signal and a cancellation are given", () => {
    const controller = new AbortController();
    const cancellation = new Cancellation();
    const context = new ToolExecutionContext({
      services,
      signal: controller.signal,
      cancellation,
    });
    cancellation.abort();
    expect(context.isCancellationRequested).toBe(false);
    expect(context.signal).toBe(controller.signal);
  });

  it("with() replaces whichever of signal and cancellation it is given", () => {
    const controller = new AbortController();
    const withSignal = new ToolExecutionContext({ services, signal: controller.signal });
    const cancellation = new Cancellation();
    const switched = withSignal.with({ cancellation });
    cancellation.abort("by the executor");
    expect(switched.isCancellationRequested).toBe(true);
    expect(switched.signal.reason).toBe("by the executor");

    const back = switched.with({ signal: controller.signal });
    expect(back.signal).toBe(controller.signal);
    expect(back.isCancellationRequested).toBe(false);
  });

  it("does not call a listener added after the cancellation, and its remover stops it", () => {
    const controller = new AbortController();
    controller.abort();
    const context = new ToolExecutionContext({ services, signal: controller.signal });
    const late = vi.fn();
    context.onCancellationRequested(late)();
    expect(late).not.toHaveBeenCalled();

    const live = new AbortController();
    const other = new ToolExecutionContext({ services, signal: live.signal });
    const removed = vi.fn();
    other.onCancellationRequested(removed)();
    live.abort();
    expect(removed).not.toHaveBeenCalled();
  });
});
