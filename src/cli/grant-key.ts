import { randomBytes } from "node:crypto";
import { link, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";

/** Where the key that signs remembered approvals is kept: `$AINTERN_HOME/grant-key`. */
export function grantKeyPath(): string {
  return join(process.env.AINTERN_HOME ?? join(homedir(), ".aintern"), "grant-key");
}

/**
 * The user's key for signing remembered approvals (`RememberedPermissions`' `grantKey`): 32
 * random bytes, made at first use, readable by the user only. It stays out of every workspace,
 * so a store a repository brings along cannot hold a grant aintern honours. Processes that start
 * at once agree on one key: it is written beside and linked into place, which only one can do.
 */
export async function loadGrantKey(): Promise<Uint8Array> {
  const path = grantKeyPath();
  const existing = await readKey(path);
  if (existing !== undefined) return existing;
  await mkdir(join(path, ".."), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, `${randomBytes(32).toString("base64url")}\n`, { mode: 0o600 });
  try {
    await link(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    await rm(temporary, { force: true });
  }
  const key = await readKey(path);
  if (key === undefined) {
    throw new Error(`${path} does not hold a key aintern can read: remove it to get a new one`);
  }
  return key;
}

async function readKey(path: string): Promise<Uint8Array | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const key = Buffer.from(text.trim(), "base64url");
  return key.length >= 32 ? key : undefined;
}
