import { close, constants, fstatSync, openSync, read, type Stats } from "node:fs";
import { systemErrorCode } from "./workspace-paths.js";

/**
 * Opens files the built-in tools read, so that no file can make them block or follow a link:
 * `O_NONBLOCK` (a FIFO without a writer, or a device, opens at once instead of waiting),
 * `O_NOFOLLOW` (a link swapped in after the path guard is refused), then `fstat` on the open
 * descriptor: only a regular file is read. The open and the `fstat` are made synchronously:
 * they cannot block with these flags, and so never hold a thread-pool thread (a FIFO open
 * without `O_NONBLOCK` would hold one forever, and four of them stop every file operation of
 * the process).
 *
 * @internal
 */

const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** What {@link openRegularFile} found. */
export type OpenedFile =
  | { readonly ok: true; readonly fd: number; readonly stats: Stats }
  | {
      readonly ok: false;
      /** `missing`: nothing there; `symlink`: a link; `directory`; `special`: FIFO, socket, device. */
      readonly problem: "missing" | "symlink" | "directory" | "special";
    };

/** Opens `path` for reading if, and only if, it is a regular file. Never blocks. */
export function openRegularFile(path: string): OpenedFile {
  let fd: number;
  try {
    fd = openSync(path, flags);
  } catch (error) {
    const code = systemErrorCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return { ok: false, problem: "missing" };
    if (code === "ELOOP") return { ok: false, problem: "symlink" };
    // ENXIO: a socket, or a device without a driver; EWOULDBLOCK: a locked special file.
    if (code === "ENXIO" || code === "EAGAIN" || code === "EWOULDBLOCK" || code === "ENODEV") {
      return { ok: false, problem: "special" };
    }
    throw error;
  }
  let stats: Stats;
  try {
    stats = fstatSync(fd);
  } catch (error) {
    closeQuietly(fd);
    throw error;
  }
  if (stats.isFile()) return { ok: true, fd, stats };
  closeQuietly(fd);
  return { ok: false, problem: stats.isDirectory() ? "directory" : "special" };
}

/** Reads up to `length` bytes at the current position into `buffer`; resolves the count. */
export function readInto(fd: number, buffer: Buffer, length: number): Promise<number> {
  return new Promise((resolve, reject) => {
    read(fd, buffer, 0, length, null, (error, bytesRead) =>
      error ? reject(error) : resolve(bytesRead),
    );
  });
}

/** Reads a whole regular file opened by {@link openRegularFile}, at most `maxBytes` of it. */
export async function readAll(fd: number, maxBytes: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let total = 0;
  for (;;) {
    const buffer = Buffer.allocUnsafe(Math.min(64 * 1024, maxBytes - total));
    if (buffer.length === 0) break;
    const bytesRead = await readInto(fd, buffer, buffer.length);
    if (bytesRead === 0) break;
    parts.push(buffer.subarray(0, bytesRead));
    total += bytesRead;
  }
  return Buffer.concat(parts, total);
}

export function closeFile(fd: number): Promise<void> {
  return new Promise((resolve) => close(fd, () => resolve()));
}

function closeQuietly(fd: number): void {
  close(fd, () => {});
}
