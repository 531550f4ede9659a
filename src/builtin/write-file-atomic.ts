import { randomBytes } from "node:crypto";
import { constants, existsSync, type Stats } from "node:fs";
import {
  type FileHandle,
  link,
  mkdir,
  open,
  readlink,
  realpath,
  rename,
  unlink,
} from "node:fs/promises";
import { basename, join, relative, sep } from "node:path";
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

/**
 * On Linux, `/proc/self/fd/<fd>/name` names `name` in the directory the descriptor holds, even
 * after that directory is renamed or a link is swapped in for it: every step of a write then
 * acts in the directory that was opened and checked once (the `renameat` Node.js lacks).
 */
const pinned = process.platform === "linux" && existsSync("/proc/self/fd");

/** The path of the directory a descriptor holds, or undefined when it cannot be told. */
async function heldPath(fd: number): Promise<string | undefined> {
  try {
    return await readlink(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/**
 * Creates the missing directories from the workspace root down to `parentReal`, one level at a
 * time through the descriptor of the level above (never following a link), so a link swapped in
 * meanwhile cannot make it create anything outside the workspace. Returns false when a level is
 * not a plain directory.
 *
 * @internal
 */
export async function makeDirectories(rootReal: string, parentReal: string): Promise<boolean> {
  if (!pinned) {
    await mkdir(parentReal, { recursive: true });
    return true;
  }
  const segments = relative(rootReal, parentReal)
    .split(sep)
    .filter((s) => s !== "");
  let directory = await open(rootReal, directoryFlags);
  try {
    for (const segment of segments) {
      const path = `/proc/self/fd/${directory.fd}/${segment}`;
      await mkdir(path).catch((error: unknown) => {
        if (systemErrorCode(error) !== "EEXIST") throw error;
      });
      let next: FileHandle;
      try {
        next = await open(path, directoryFlags);
      } catch (error) {
        const code = systemErrorCode(error);
        if (code === "ELOOP" || code === "ENOTDIR") return false;
        throw error;
      }
      await directory.close();
      directory = next;
    }
    return true;
  } finally {
    await directory.close();
  }
}

function refuse(code: BuiltinToolErrorCode, error: string): AtomicWriteOutcome {
  return { ok: false, code, error };
}

/**
 * Writes a file so that no reader ever sees it partly written and no symbolic link is ever
 * written through:
 *
 * 1. opens the parent directory (without following a link) and records its identity; on Linux,
 *    checks once where the open directory really is (inside the workspace) and from then on
 *    names every file through `/proc/self/fd/<fd>/`, so a rename race cannot redirect the write;
 * 2. refuses when the target is a symbolic link or not a regular file;
 * 3. writes a temporary file in the same directory (`O_CREAT | O_EXCL | O_NOFOLLOW`), syncs it;
 * 4. right before committing, checks again: the parent is still the same directory, its real
 *    path is unchanged and inside the workspace, the target is still not a link;
 * 5. commits: `rename` over the target (which replaces a directory entry and never follows a
 *    link), or, when `overwrite` is false, `link` (which fails if anything appeared at the
 *    target since), then syncs the directory.
 *
 * On Linux, after the commit it checks the directory is still inside the workspace (a directory
 * moved out meanwhile) and removes the file it wrote if not. The temporary file is removed on
 * every failure.
 *
 * @internal
 */
export async function writeFileAtomic(request: AtomicWriteRequest): Promise<AtomicWriteOutcome> {
  const { rootReal, parentReal, name, content, overwrite, hooks } = request;
  const shown = request.displayPath ?? name;
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
  const base = pinned ? `/proc/self/fd/${directory.fd}` : parentReal;
  const target = `${base}/${name}`;
  const movedOut = async (): Promise<boolean> => {
    if (!pinned) return false;
    const where = await heldPath(directory.fd);
    return where === undefined || !isPathInWorkspace(rootReal, where);
  };
  try {
    if (pinned && (await heldPath(directory.fd)) !== parentReal) {
      return refuse(
        BuiltinToolErrorCode.SymlinkRefused,
        `The directory of '${shown}' is not a plain directory (a symbolic link?); write refused.`,
      );
    }
    const directoryIdentity = await directory.stat();
    const before = await lstatIfExists(target);
    const checked = checkTarget(before, shown, overwrite);
    if (checked !== undefined) return checked;

    const tempName = `.aintern-${randomBytes(8).toString("hex")}.tmp`;
    tempPath = `${base}/${tempName}`;
    const file = await open(tempPath, tempFlags, 0o666);
    try {
      await file.writeFile(content);
      // An overwrite keeps the file's permissions.
      if (before !== undefined) await file.chmod(before.mode & 0o7777);
      await file.sync();
    } finally {
      await file.close();
    }

    await hooks?.beforeCommit?.(join(parentReal, tempName));

    // The last checks, as close to the commit as Node.js allows (it has no renameat).
    const parentNow = await lstatIfExists(parentReal);
    const sameDirectory =
      parentNow?.isDirectory() &&
      parentNow.dev === directoryIdentity.dev &&
      parentNow.ino === directoryIdentity.ino;
    const parentStillReal =
      sameDirectory && (await realpath(parentReal).catch(() => undefined)) === parentReal;
    if (!parentStillReal || !isPathInWorkspace(rootReal, parentReal) || (await movedOut())) {
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
    if (await movedOut()) {
      // The directory left the workspace between the checks and the commit: take the file back.
      await unlink(target).catch(() => {});
      return refuse(
        BuiltinToolErrorCode.SymlinkRefused,
        `The directory of '${shown}' was moved out of the workspace while writing; write undone.`,
      );
    }
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
