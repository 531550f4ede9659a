/**
 * What the search for a terminal command's leftover processes costs, beside the command itself.
 * When a command's shell exits, aintern looks through `/proc` for what the command left running
 * (its process group, what moved to a session of its own, what still holds its output) and
 * kills it (`killCallProcesses`). Side by side in rounds:
 *   (a) a whole command, `true`, through `runShellCommand` (spawn, run, exit, the search, output
 *       closed): what a terminal call's command costs at the least
 *   (b) the search alone, as it runs at that exit, for a command that left nothing behind
 * and the share of (a) that (b) is. Also how many processes the machine had: the search reads
 * `/proc/<pid>/stat` of each, and more only of those started after the shell.
 *
 *   npx tsx bench/terminal.bench.ts
 *   TERMINAL_BENCH_ROUNDS=9 TERMINAL_BENCH_CALLS=100
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import { realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { runShellCommand } from "../src/builtin/run-shell-command.js";
import { killCallProcesses, statOf } from "../src/sandbox/kill-process-tree.js";
import { block, formatSpread, interleavedRounds, median, type Sample, spread } from "./measure.js";

const ROUNDS = Number(process.env.TERMINAL_BENCH_ROUNDS ?? 5);
const CALLS = Number(process.env.TERMINAL_BENCH_CALLS ?? 50);

export async function run(): Promise<boolean> {
  if (process.platform !== "linux") {
    process.stdout.write("terminal.bench: Linux only (the search reads /proc)\n");
    return true;
  }
  const cwd = await realpath(tmpdir());
  const signal = new AbortController().signal;
  // A command that has ended, as the search at its exit sees it: its pid gone, its start time
  // that of a process started just now.
  const shell = spawn("sleep", ["0"]);
  const startTime = statOf(shell.pid!)?.startTime;
  await new Promise((resolve) => shell.once("exit", resolve));
  if (startTime === undefined) throw new Error("no start time for a new process");
  const marks = {
    pid: 0x3fffff,
    environmentMarker: `AINTERN_CALL=${randomUUID()}`,
    pipes: ["pipe:[1]", "pipe:[2]"],
    startTime,
  };
  const measures = {
    command: async (): Promise<Sample> => {
      const done = block();
      for (let i = 0; i < CALLS; i++) {
        await runShellCommand({ command: "true", cwd, maxOutputBytes: 1024, signal });
      }
      return done(CALLS);
    },
    search: async (): Promise<Sample> => {
      const done = block();
      for (let i = 0; i < CALLS; i++) killCallProcesses(marks);
      return done(CALLS);
    },
  };
  const samples = await interleavedRounds(measures, ROUNDS);
  const shares = samples.wall.search.map((s, i) => s / samples.wall.command[i]!);
  const processes = readdirSync("/proc").filter((name) => /^[0-9]+$/.test(name)).length;
  const row = (what: string, figure: string): void => {
    process.stdout.write(`${what.padEnd(52)} ${figure}\n`);
  };
  process.stdout.write(
    `\n${ROUNDS} rounds of ${CALLS} each; median (min–max) over the rounds; ${processes} processes on the machine\n`,
  );
  row(
    "(a) a command (`true`) through runShellCommand, wall",
    `${formatSpread(spread(samples.wall.command))} µs`,
  );
  row("    this process's CPU", `${formatSpread(spread(samples.cpu.command))} µs`);
  row("(b) the search at its exit, alone, wall", `${formatSpread(spread(samples.wall.search))} µs`);
  row("    CPU", `${formatSpread(spread(samples.cpu.search))} µs`);
  row("(b) / (a)", `${(median(shares) * 100).toFixed(1)}%`);
  return true;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await run();
}
