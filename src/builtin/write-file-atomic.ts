import { randomBytes } from "node:crypto";
import { constants, type Stats } from "node:fs";
import { type FileHandle, link, open, realpath, rename, unlink } from "node:fs/promises";
import { basename, join } from "node:path";
import { isPathInWorkspace } from "../context/index.js";
import { BuiltinToolErrorCode } from "./builtin-tool-error-code.js";
import { lstatIfExists, systemErrorCode } from "./workspace-paths.js";

/** Points in {@link writeFileAtomic} where a test can change the file system under it. */
export interface AtomicWriteHooks {
  /** Called after the temporary file is complete and synced, right before the final checks. */
  readonly beforeCommit?: (tempPath: string) => void | Promise<void>;
}

/** What {@link writeFileAtomic} writes, and where. */
export interface AtomicWriteRequest {
  /** The workspace root, absolute and symlink-resolved. */
  readonly rootReal: string;
  /** The target's directory: absolute, symlink-resolved, inside the root, existing. */
  readonly parentReal: string;
  /** The target's name in `parentReal`. */
  readonly name: string;
  /** How messages name the target (default `name`), e.g. its workspace-relative path. */
  readonly displayPath?: string;
  readonly content: string | Uint8Array;
  /** False: fail with `FileExists` rather than replace a file (checked atomically). */
  readonly overwrite: boolean;
  readonly hooks?: AtomicWriteHooks;
}

/** What {@link writeFileAtomic} did, or why it refused. */
export type AtomicWriteOutcome =
  | { readonly ok: true; readonly created: boolean; readonly size: number; readonly error?: never }
  | { readonly ok: false; readonly code: BuiltinToolErrorCode; readonly error: string };

const directoryFlags =
  constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0);
const tempFlags =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

function refuse(code: BuiltinToolErrorCode, error: string): AtomicWriteOutcome {
  return { ok: false, code, error };
}

/**
 * Writes a file so that no reader ever sees it partly written and no symbolic link is ever
 * written through:
 *
 * 1. opens the parent directory (without following a link) and records its identity;
 * 2. refuses when the target is a symbolic link or not a regular file;
 * 3. writes a temporary file in the same directory (`O_CREAT | O_EXCL | O_NOFOLLOW`), syncs it;
 * 4. right before committing, checks again: the parent is still the same directory, its real
 *    path is unchanged and inside the workspace, the target is still not a link;
 * 5. commits: `rename` over the target (which replaces a directory entry and never follows a
 *    link), or, when `overwrite` is false, `link` (which fails if anything appeared at the
 *    target since), then syncs the directory.
 *
 * The temporary file is removed on every failure.
 *
 * @internal
 */
export async function writeFileAtomic(request: AtomicWriteRequest): Promise<AtomicWriteOutcome> {
  const { rootReal, parentReal, name, content, overwrite, hooks } = request;
  const shown = request.displayPath ?? name;
  const target = join(parentReal, name);
  let directory: FileHandle;
  try {
    directory = await open(parentReal, directoryFlags);
  } catch (error) {
    const code = systemErrorCode(error);
    if (code === "ELOOP" || code === "ENOTDIR") {
      return refuse(
        BuiltinToolErrorCode.SymlinkRefused,
        `The directory of '${shown}' is not a plain directory (a symbolic link?); write refused.`,
      );
    }
    throw error;
  }
  let tempPath: string | undefined;
  try {
    const directoryIdentity = await directory.stat();
    const before = await lstatIfExists(target);
    const checked = checkTarget(before, shown, overwrite);
    if (checked !== undefined) return checked;

    tempPath = join(parentReal, `.aintern-${randomBytes(8).toString("hex")}.tmp`);
    const file = await open(tempPath, tempFlags, 0o666);
    try {
      await file.writeFile(content);
      // An overwrite keeps the file's permissions.
      if (before !== undefined) await file.chmod(before.mode & 0o7777);
      await file.sync();
    } finally {
      await file.close();
    }

    await hooks?.beforeCommit?.(tempPath);

    // The last checks, as close to the commit as Node.js allows (it has no renameat).
    const parentNow = await lstatIfExists(parentReal);
    const sameDirectory =
      parentNow?.isDirectory() &&
      parentNow.dev === directoryIdentity.dev &&
      parentNow.ino === directoryIdentity.ino;
    const parentStillReal = sameDirectory && (await realpath(parentReal)) === parentReal;
    if (!parentStillReal || !isPathInWorkspace(rootReal, parentReal)) {
      return refuse(
        BuiltinToolErrorCode.SymlinkRefused,
        `The directory of '${shown}' was replaced while writing; write refused.`,
      );
    }
    const after = await lstatIfExists(target);
    const recheck = checkTarget(after, shown, overwrite);
    if (recheck !== undefined) return recheck;

    if (overwrite) {
      await rename(tempPath, target);
    } else {
      try {
        await link(tempPath, target);
      } catch (error) {
        if (systemErrorCode(error) === "EEXIST") {
          return refuse(BuiltinToolErrorCode.FileExists, existsMessage(shown));
        }
        const code = systemErrorCode(error);
        // File systems without hard links: the check above is then the last word.
        if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP") throw error;
        await rename(tempPath, target);
        tempPath = undefined;
      }
      if (tempPath !== undefined) await unlink(tempPath);
    }
    tempPath = undefined;
    await directory.sync().catch(() => {
      // Some file systems cannot sync a directory; the rename is still atomic.
    });
    return {
      ok: true,
      created: before === undefined,
      size: typeof content === "string" ? Buffer.byteLength(content) : content.byteLength,
    };
  } finally {
    if (tempPath !== undefined) await removeTemp(tempPath, directory);
    await directory.close();
  }
}

/**
 * Removes the temporary file. When its directory was moved away (and the path now leads
 * elsewhere), removes it through the open directory handle where Linux allows that.
 */
async function removeTemp(tempPath: string, directory: FileHandle): Promise<void> {
  try {
    await unlink(tempPath);
  } catch (error) {
    if (systemErrorCode(error) !== "ENOENT" || process.platform !== "linux") return;
    await unlink(join(`/proc/self/fd/${directory.fd}`, basename(tempPath))).catch(() => {});
  }
}

function existsMessage(name: string): string {
  return `'${name}' already exists; pass overwrite: true to replace it.`;
}

function checkTarget(
  stats: Stats | undefined,
  name: string,
  overwrite: boolean,
): AtomicWriteOutcome | undefined {
  if (stats === undefined) return undefined;
  if (stats.isSymbolicLink()) {
    return refuse(
      BuiltinToolErrorCode.SymlinkRefused,
      `'${name}' is a symbolic link; file-write never writes through a link. Write to the file it points to instead.`,
    );
  }
  if (!stats.isFile()) {
    return refuse(
      BuiltinToolErrorCode.WrongEntryType,
      `'${name}' exists and is ${stats.isDirectory() ? "a directory" : "not a regular file"}; write refused.`,
    );
  }
  if (!overwrite) return refuse(BuiltinToolErrorCode.FileExists, existsMessage(name));
  return undefined;
}
