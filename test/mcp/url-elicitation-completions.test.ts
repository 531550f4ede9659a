// The bookkeeping behind `notifications/elicitation/complete`: once per page, never after the
// connection closed or after the client's round ran out. The end-to-end behaviour (a real SDK
// client, the console, the store) is in mcp-console.test.ts.

import { afterEach, describe, expect, it, vi } from "vitest";
import {
  UrlElicitationCompletions,
  type UrlElicitationWatch,
} from "../../src/mcp/url-elicitation-completions.js";

/** A page whose settling the test controls, recording what the tracker did with it. */
function page(answerWithinMs = 60_000) {
  const closed = new AbortController();
  const log: string[] = [];
  let settle: () => void = () => undefined;
  let watchSignal: AbortSignal | undefined;
  const watch: UrlElicitationWatch = {
    settled: (signal) => {
      watchSignal = signal;
      return new Promise<void>((resolve) => {
        settle = resolve;
      });
    },
    notify: async () => {
      log.push("notify");
    },
    withdraw: async () => {
      log.push("withdraw");
    },
    closed: closed.signal,
    answerWithinMs,
  };
  return {
    watch,
    log,
    closed,
    settle: () => settle(),
    stopped: () => watchSignal?.aborted === true,
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("UrlElicitationCompletions", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("notifies once when the page settles, even when the call's end asks again", async () => {
    const pages = new UrlElicitationCompletions();
    const p = page();
    pages.watch("call-1", p.watch);
    p.settle();
    await tick();
    await pages.done("call-1");
    expect(p.log).toEqual(["withdraw", "notify"]);
    expect(pages.size).toBe(0);
  });

  it("withdraws and notifies at the call's end when the page never settled, and stops watching", async () => {
    const pages = new UrlElicitationCompletions();
    const p = page();
    pages.watch("call-1", p.watch);
    await Promise.all([pages.done("call-1"), pages.done("call-1")]);
    expect(p.log).toEqual(["withdraw", "notify"]);
    expect(p.stopped()).toBe(true);
    p.settle();
    await tick();
    expect(p.log).toEqual(["withdraw", "notify"]);
  });

  it("says nothing about a call it does not watch (another connection's, or the 2026 era's)", async () => {
    const pages = new UrlElicitationCompletions();
    const p = page();
    pages.watch("call-1", p.watch);
    await pages.done("call-2");
    expect(p.log).toEqual([]);
    expect(pages.size).toBe(1);
  });

  it("drops the page without a word when its connection closes", async () => {
    const pages = new UrlElicitationCompletions();
    const p = page();
    pages.watch("call-1", p.watch);
    p.closed.abort();
    expect(p.stopped()).toBe(true);
    p.settle();
    await tick();
    await pages.done("call-1");
    expect(p.log).toEqual([]);
    expect(pages.size).toBe(0);
  });

  it("drops the page when the client never answers within its round, unless it did", async () => {
    vi.useFakeTimers();
    const pages = new UrlElicitationCompletions();
    const late = page(1_000);
    const answered = page(1_000);
    pages.watch("late", late.watch);
    pages.watch("answered", answered.watch);
    pages.answered("answered");
    await vi.advanceTimersByTimeAsync(1_001);
    expect(late.stopped()).toBe(true);
    expect(answered.stopped()).toBe(false);
    late.settle();
    answered.settle();
    await vi.advanceTimersByTimeAsync(0);
    expect(late.log).toEqual([]);
    expect(answered.log).toEqual(["withdraw", "notify"]);
  });

  it("reports a notification that could not be sent to onError", async () => {
    const errors: Error[] = [];
    const pages = new UrlElicitationCompletions((error) => errors.push(error));
    const p = page();
    pages.watch("call-1", {
      ...p.watch,
      notify: () => Promise.reject(new Error("transport gone")),
    });
    await pages.done("call-1");
    expect(errors.map((e) => e.message)).toEqual(["transport gone"]);
  });
});
