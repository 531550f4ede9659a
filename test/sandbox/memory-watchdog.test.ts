import { afterEach, describe, expect, it, vi } from "vitest";

// openSync fails the way a host out of file descriptors makes it fail, as many times as asked.
const failures = vi.hoisted(() => ({ emfile: 0, opens: 0 }));
vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  return {
    ...fs,
    openSync: (...args: Parameters<typeof fs.openSync>) => {
      failures.opens++;
      if (failures.emfile > 0) {
        failures.emfile--;
        throw Object.assign(new Error("EMFILE: too many open files"), { code: "EMFILE" });
      }
      return fs.openSync(...args);
    },
  };
});

const { ResidentMemoryWatch } = await import("../../src/sandbox/memory-watchdog.js");

afterEach(() => {
  failures.emfile = 0;
  failures.opens = 0;
});

describe.runIf(process.platform === "linux")("ResidentMemoryWatch", () => {
  it("reports a process over its limit within a few intervals", async () => {
    const exceeded = new Promise<number>((resolve) => {
      const watch = new ResidentMemoryWatch(process.pid, 1, 10, (bytes) => {
        watch.close();
        resolve(bytes);
      });
      watch.start();
    });
    expect(await exceeded).toBeGreaterThan(1);
  });

  it("keeps watching after a passing failure to open the status file", async () => {
    failures.emfile = 2;
    const exceeded = new Promise<number>((resolve) => {
      const watch = new ResidentMemoryWatch(process.pid, 1, 10, (bytes) => {
        watch.close();
        resolve(bytes);
      });
      watch.start();
    });
    expect(await exceeded).toBeGreaterThan(1);
    expect(failures.opens).toBe(3);
  });

  it("stops for good once the process is gone", async () => {
    const calls = vi.fn();
    // A pid above the kernel's pid_max never exists: its status file is ENOENT.
    const watch = new ResidentMemoryWatch(2 ** 30, 1, 10, calls);
    watch.start();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(failures.opens).toBe(1);
    watch.start(); // closed: starting again does nothing
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(failures.opens).toBe(1);
    expect(calls).not.toHaveBeenCalled();
  });
});
