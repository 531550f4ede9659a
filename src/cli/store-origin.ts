import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { mkdir, open, readdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import { AinternError, displayText } from "../core/index.js";

/**
 * The files that carry a store's rows besides the database itself: SQLite replays a write-ahead
 * log or a rollback journal it finds into the database when it opens it, and the store inserts
 * the audit rows of its in-flight journals (`<db>-inflight.*`).
 */
const ROW_CARRYING_SIBLINGS = ["-wal", "-journal"] as const;
const INFLIGHT_JOURNAL = "-inflight.";

const defaultAdvice =
  "If it is yours (made by an earlier aintern, or your own workspace copied or restored), adopt it with `aintern trust --store` in the workspace; otherwise delete the workspace's .aintern folder, or name another store with --db";

/** What is recorded of a store aintern made (or the user adopted): which file it is. */
interface StoreRecord {
  readonly path: string;
  readonly dev: number;
  readonly ino: number;
}

/**
 * The workspace's default store (`.aintern/audit.db`) was there before aintern made it for this
 * user: it may have come with the repository, with remembered approvals nobody here gave.
 */
export class UnknownStoreError extends AinternError {
  readonly file: string;

  /**
   * @param what to do instead, for a store `aintern trust --store` does not adopt (default: that
   *   command, else deleting the workspace's `.aintern` folder or naming another store)
   */
  constructor(file: string, why: string, what = defaultAdvice) {
    super(
      "UNKNOWN_STORE",
      `${displayText(file)} was not made by aintern for you: ${why}. A repository you cloned could have put it there, with calls recorded as approved that nobody here approved. ${what}.`,
    );
    this.name = "UnknownStoreError";
    this.file = file;
  }
}

/** The folder of the records of stores aintern made: `$AINTERN_HOME/stores` (default `~/.aintern`). */
export function knownStoresFolder(): string {
  return join(process.env.AINTERN_HOME ?? join(homedir(), ".aintern"), "stores");
}

/** One file a store: no read-modify-write of a shared file, so processes never lose each other's. */
function recordPathOf(file: string): string {
  return join(knownStoresFolder(), `${createHash("sha256").update(file).digest("hex")}.json`);
}

async function record(file: string, dev: number, ino: number): Promise<void> {
  const folder = knownStoresFolder();
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const path = recordPathOf(file);
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  const value: StoreRecord = { path: file, dev, ino };
  await writeFile(temporary, `${JSON.stringify(value)}\n`, { mode: 0o600 });
  await rename(temporary, path);
}

async function isRecorded(file: string, dev: number, ino: number): Promise<boolean> {
  try {
    const value = JSON.parse(await readFile(recordPathOf(file), "utf8")) as Partial<StoreRecord>;
    return value.path === file && value.dev === dev && value.ino === ino;
  } catch {
    return false;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes sure the default store `file` (a real path inside the workspace) is one aintern made for
 * this user, before anything reads its remembered approvals: creates it when it is not there
 * (and records it, in `$AINTERN_HOME/stores`), accepts it when it was recorded (the same file:
 * device and inode) or when it is still empty (it holds nothing), and otherwise throws
 * {@link UnknownStoreError}. Trust does not travel with a copy: a store copied, cloned or
 * restored is a new file, to adopt with {@link adoptStore}.
 */
export async function claimDefaultStore(file: string, advice?: string): Promise<void> {
  let created: Awaited<ReturnType<typeof open>> | undefined;
  try {
    created = await open(file, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  if (created !== undefined) {
    try {
      const { dev, ino } = await created.stat();
      const leftover = await leftoverSibling(file);
      if (leftover !== undefined) {
        throw new UnknownStoreError(file, `${displayText(leftover)} was there before it`, advice);
      }
      await record(file, dev, ino);
    } finally {
      await created.close();
    }
    return;
  }
  const { dev, ino, size } = await stat(file);
  if (await isRecorded(file, dev, ino)) return;
  // Empty, with nothing SQLite would replay into it: it holds no approval (another process may
  // just have made it, and records it next).
  if (size === 0 && (await leftoverSibling(file)) === undefined) {
    await record(file, dev, ino);
    return;
  }
  throw new UnknownStoreError(
    file,
    "it was already there, and aintern has no record of making it",
    advice,
  );
}

/** A file beside `file` whose rows the store would take in (see `ROW_CARRYING_SIBLINGS`). */
async function leftoverSibling(file: string): Promise<string | undefined> {
  for (const suffix of ROW_CARRYING_SIBLINGS) {
    if (await exists(`${file}${suffix}`)) return `${file}${suffix}`;
  }
  const prefix = `${basename(file)}${INFLIGHT_JOURNAL}`;
  const journal = (await readdir(dirname(file))).find((name) => name.startsWith(prefix));
  return journal === undefined ? undefined : join(dirname(file), journal);
}

/**
 * Records the store `file` (a real path) as the user's own, as it is now (`aintern trust
 * --store`): its remembered approvals are honoured from then on.
 */
export async function adoptStore(file: string): Promise<void> {
  const { dev, ino } = await stat(file);
  await record(file, dev, ino);
}
