// The orphan reaper (src/sandbox/orphan-reaper-main.ts), driven as its owner drives it: it kills
// the processes still listed when its input ends, and leaves alone those the owner said it
// stopped, and anything its input named badly.
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { type CallProcessMarks, stateOf } from "../../src/sandbox/kill-process-tree.js";
import {
  orphanReaperForTests,
  reapIfOwnerDies,
  stopReaping,
} from "../../src/sandbox/orphan-reaper.js";
import { eventually } from "../mcp/mcp-support.js";

const reaperMain = fileURLToPath(
  new URL("../../src/sandbox/orphan-reaper-main.ts", import.meta.url),
);
const started: ChildProcess[] = [];

afterAll(() => {
  for (const child of started) if (child.exitCode === null) child.kill("SIGKILL");
});

function startTimeOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
}

/** A process standing in for an upstream server: it sleeps, marked as the gateway marks one. */
function fakeUpstream(): {
  child: ChildProcess;
  line: string;
  marker: string;
  marks: CallProcessMarks;
} {
  const marker = `AINTERN_CALL=${randomUUID()}`;
  const child = spawn("sleep", ["60"], {
    env: { ...process.env, AINTERN_CALL: marker.slice("AINTERN_CALL=".length) },
    stdio: "ignore",
  });
  started.push(child);
  const marks = {
    pid: child.pid,
    environmentMarker: marker,
    pipes: [],
    startTime: startTimeOf(child.pid!),
    ownGroup: false,
  };
  return { child, line: `+${JSON.stringify(marks)}\n`, marker, marks: marks as CallProcessMarks };
}

function startReaper(args: string[] = []): {
  reaper: ChildProcess;
  exited: Promise<number | null>;
} {
  const reaper = spawn(process.execPath, ["--import", "tsx", reaperMain, ...args], {
    stdio: ["pipe", "ignore", "inherit"],
  });
  started.push(reaper);
  return { reaper, exited: new Promise((resolve) => reaper.once("exit", resolve)) };
}

const alive = (child: ChildProcess): boolean =>
  child.exitCode === null && child.signalCode === null;

describe.runIf(process.platform === "linux")("the orphan reaper", () => {
  it("kills the servers it was started with when its input ends before any line", async () => {
    // A gateway killed right after starting a reaper has written nothing to it: the servers
    // running then are in its argument.
    const listed = fakeUpstream();
    const other = fakeUpstream();
    const marks = JSON.parse(listed.line.slice(1)) as unknown;
    const { reaper, exited } = startReaper([JSON.stringify([marks, { pid: 1 }, "x"])]);
    reaper.stdin?.end();
    expect(await exited).toBe(0);
    await eventually(() => expect(alive(listed.child)).toBe(false), 5_000);
    expect(listed.child.signalCode).toBe("SIGKILL");
    expect(alive(other.child)).toBe(true);
  }, 20_000);

  it("kills what any of its arguments lists, also a process listed by its marker alone", async () => {
    // An owner with more listed than one argument holds splits the list; a process listed
    // before it was spawned has no pid yet (0) and is found by the marker it inherited.
    const first = fakeUpstream();
    const second = fakeUpstream();
    const other = fakeUpstream();
    const byMarker = { ...second.marks, pid: 0, startTime: 0 };
    const { reaper, exited } = startReaper([
      JSON.stringify([first.marks]),
      JSON.stringify([byMarker]),
    ]);
    reaper.stdin?.end();
    expect(await exited).toBe(0);
    await eventually(() => expect(alive(first.child) || alive(second.child)).toBe(false), 5_000);
    expect(second.child.signalCode).toBe("SIGKILL");
    expect(alive(other.child)).toBe(true);
  }, 20_000);

  it("kills the servers still listed when its input ends, and no other, then exits", async () => {
    const listed = fakeUpstream();
    const stopped = fakeUpstream();
    const { reaper, exited } = startReaper();
    reaper.stdin?.write(listed.line);
    reaper.stdin?.write(stopped.line);
    reaper.stdin?.write(`-${stopped.marker}\n`);
    // Garbage and a line cut short, as a gateway dying mid-write leaves: ignored.
    reaper.stdin?.write(
      '+not json\n?what\n+{"pid":1,"startTime":0,"environmentMarker":"x","pipes":[]}\n+{"pid":',
    );
    reaper.stdin?.end();
    expect(await exited).toBe(0);
    await eventually(() => expect(alive(listed.child)).toBe(false), 5_000);
    expect(listed.child.signalCode).toBe("SIGKILL");
    expect(alive(stopped.child)).toBe(true);
  }, 20_000);

  it("kills nothing while its input stays open, and the server it was told of once it ends", async () => {
    const listed = fakeUpstream();
    const { reaper, exited } = startReaper();
    reaper.stdin?.write(listed.line);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(alive(listed.child)).toBe(true);
    expect(alive(reaper)).toBe(true);
    // It had the line all along: the end of its input is what it waited for.
    reaper.stdin?.end();
    expect(await exited).toBe(0);
    await eventually(() => expect(alive(listed.child)).toBe(false), 5_000);
  }, 20_000);
});

/** Kills the owner's reaper `pid` and waits for the owner to start another: its pid. */
async function replacementOf(pid: number): Promise<number> {
  process.kill(pid, "SIGKILL");
  return eventually(() => {
    const next = orphanReaperForTests.pid;
    expect(next).toBeGreaterThan(1);
    expect(next).not.toBe(pid);
    return next!;
  }, 10_000);
}

describe.runIf(process.platform === "linux")("the orphan reaper's owner side", () => {
  it("starts one reaper for what it lists, ends it once nothing was listed for a while, and starts another when needed", async () => {
    orphanReaperForTests.idleEndMs = 300;
    const first = fakeUpstream();
    const second = fakeUpstream();
    reapIfOwnerDies(first.marks);
    reapIfOwnerDies(second.marks);
    const reaper = orphanReaperForTests.pid;
    expect(reaper).toBeGreaterThan(1);
    stopReaping(first.marks);
    // One still listed: kept past the idle time.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(orphanReaperForTests.pid).toBe(reaper);
    stopReaping(second.marks);
    await eventually(() => expect(orphanReaperForTests.pid).toBeUndefined(), 5_000);
    // Ended with its input, it reaped nothing: both were taken off its list.
    await eventually(() => expect(() => process.kill(reaper!, 0)).toThrow(), 10_000);
    expect(alive(first.child) && alive(second.child)).toBe(true);
    // The next one listed gets a new reaper.
    const third = fakeUpstream();
    reapIfOwnerDies(third.marks);
    expect(orphanReaperForTests.pid).toBeGreaterThan(1);
    expect(orphanReaperForTests.pid).not.toBe(reaper);
    stopReaping(third.marks);
  }, 30_000);

  it("starts a reaper again with thousands listed, more than one argument of a process holds", async () => {
    const many = Array.from({ length: 3_000 }, () => ({
      pid: 0,
      environmentMarker: `AINTERN_CALL=${randomUUID()}`,
      pipes: [],
      startTime: 0,
      ownGroup: false,
    }));
    for (const marks of many) reapIfOwnerDies(marks);
    const first = orphanReaperForTests.pid!;
    expect(first).toBeGreaterThan(1);
    // Its replacement is started with everything listed in its arguments (about 300 KB).
    const second = await replacementOf(first);
    const args = readFileSync(`/proc/${second}/cmdline`, "utf8").split("\0");
    const listedInArgs = args
      .filter((arg) => arg.startsWith("["))
      .flatMap((arg) => JSON.parse(arg) as CallProcessMarks[]);
    expect(listedInArgs.map((marks) => marks.environmentMarker).sort()).toEqual(
      many.map((marks) => marks.environmentMarker).sort(),
    );
    expect(args.every((arg) => Buffer.byteLength(arg) < 128 * 1024)).toBe(true);
    for (const marks of many) stopReaping(marks);
  }, 30_000);

  it("replaces a reaper that died before its exit was handled here, before listing more with it", () => {
    const listed = fakeUpstream();
    reapIfOwnerDies(listed.marks);
    const dead = orphanReaperForTests.pid!;
    expect(dead).toBeGreaterThan(1);
    process.kill(dead, "SIGKILL");
    // Synchronously, so the event loop never runs: its exit is not handled here yet, as when
    // a command kills it and this process is killed right after the next command is listed.
    const deadline = Date.now() + 5_000;
    while (stateOf(dead) !== "Z" && Date.now() < deadline) {
      // The kernel makes it a zombie within moments.
    }
    expect(stateOf(dead)).toBe("Z");
    const next = fakeUpstream();
    reapIfOwnerDies(next.marks);
    expect(orphanReaperForTests.pid).toBeGreaterThan(1);
    expect(orphanReaperForTests.pid).not.toBe(dead);
    stopReaping(listed.marks);
    stopReaping(next.marks);
  });

  it("replaces a reaper killed as it starts, and one stopped (SIGSTOP), so a command cannot switch reaping off", async () => {
    const listed = fakeUpstream();
    reapIfOwnerDies(listed.marks);
    const first = orphanReaperForTests.pid!;
    expect(first).toBeGreaterThan(1);
    // Killed within its first second (a command's `pkill -f orphan-reaper` as it starts).
    const second = await replacementOf(first);
    // Stopped: it would read and reap nothing, and stay stopped for good. The next command
    // listed finds it stopped, kills it and starts another.
    process.kill(second, "SIGSTOP");
    await eventually(() => {
      const stat = readFileSync(`/proc/${second}/stat`, "utf8");
      expect(stat.charAt(stat.lastIndexOf(")") + 2)).toBe("T");
    }, 5_000);
    const next = fakeUpstream();
    reapIfOwnerDies(next.marks);
    const third = orphanReaperForTests.pid!;
    expect(third).toBeGreaterThan(1);
    expect([first, second]).not.toContain(third);
    await eventually(() => expect(() => process.kill(second, 0)).toThrow(), 10_000);
    stopReaping(listed.marks);
    stopReaping(next.marks);
  }, 30_000);
});
