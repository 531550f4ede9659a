import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { postgresUrl } from "./store-targets.js";

const here = dirname(fileURLToPath(import.meta.url));
const repository = join(here, "..", "..");

/**
 * Starts `fixtures/<fixture>` under tsx with `args` and resolves `ready` once it prints READY
 * (rejecting with its output if it exits first).
 */
export function startChild(fixture: string, args: readonly string[]) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(here, "fixtures", fixture), ...args],
    { cwd: repository, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("READY")) resolve();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("exit", (code) => reject(new Error(`child exited (${code}) early:\n${output}`)));
  });
  return { child, ready };
}

/** Kills `child` with SIGKILL and resolves once it has exited. */
export function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.on("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

/** PostgreSQL notices a dead client when its socket closes; wait for its sessions to end. */
export async function sessionsGone(applicationName: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    for (let attempt = 0; attempt < 100; attempt++) {
      const { rows } = await client.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1",
        [applicationName],
      );
      if (rows[0]?.n === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`sessions of ${applicationName} are still open`);
  } finally {
    await client.end();
  }
}
