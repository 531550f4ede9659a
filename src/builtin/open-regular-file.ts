import { closeSync, constants, fstatSync, openSync, read, readSync, type Stats } from "node:fs";
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
 * The first {@link syncReadBytes} of a file are read synchronously too, and the descriptor is
 * closed synchronously: once `fstat` said "regular file" a read can only wait for the disk,
 * which the open already did, and a thread-pool round trip costs more than reading a small
 * file (most files a model reads). Past that, reads go through the thread pool, so a large file
 * does not hold the event loop.
 *
 * @internal
 */

const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** Bytes of a file read synchronously before reads go to the thread pool. */
export const syncReadBytes = 64 * 1024;

/** A regular file opened by {@link openRegularFile}. */
export interface RegularFile {
  readonly fd: number;
  /** `fstat` of the open descriptor. */
  readonly stats: Stats;
}

/** Why {@link openRegularFile} opened nothing. */
export type OpenProblem =
  /** `missing`: nothing there; `symlink`: a link; `directory`; `special`: FIFO, socket, device. */
  "missing" | "symlink" | "directory" | "special";

/** What {@link openRegularFile} found. */
export type OpenedFile =
  | ({ readonly ok: true } & RegularFile)
  | { readonly ok: false; readonly problem: OpenProblem };

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

/**
 * Opens `path` with {@link openRegularFile}, gives the open file to `use`, and closes it
 * whatever `use` does. Resolves `use`'s answer, or the problem when no regular file was opened.
 */
export async function withRegularFile<T>(
  path: string,
  use: (file: RegularFile) => Promise<T>,
): Promise<
  { readonly ok: true; readonly value: T } | { readonly ok: false; problem: OpenProblem }
> {
  const opened = openRegularFile(path);
  if (!opened.ok) return opened;
  try {
    return { ok: true, value: await use(opened) };
  } finally {
    closeQuietly(opened.fd);
  }
}

/**
 * Reads the next bytes at the file's position into `buffer`: synchronously while `offset` (the
 * bytes read so far) is below `syncBytes`, else through the thread pool. Resolves the count, 0 at
 * the end of the file.
 */
export function readNext(
  fd: number,
  buffer: Buffer,
  offset: number,
  syncBytes = syncReadBytes,
): number | Promise<number> {
  if (offset < syncBytes) return readSync(fd, buffer, 0, buffer.length, null);
  return new Promise((resolve, reject) => {
    read(fd, buffer, 0, buffer.length, null, (error, bytesRead) =>
      error ? reject(error) : resolve(bytesRead),
    );
  });
}

/**
 * The size of the next buffer to read into: the rest of the file as `fstat` saw it plus one byte
 * (so the end is seen without another read when the file did not grow), at most `chunkSize`;
 * `chunkSize` again once a file that grew is read past its `fstat` size.
 */
export function nextChunkSize(stats: Stats, offset: number, chunkSize: number): number {
  const rest = stats.size - offset;
  return rest >= 0 && rest < chunkSize ? rest + 1 : chunkSize;
}

/**
 * Whether a read of `bytesRead` into a buffer of `bufferLength` reached the end of the file: a
 * short read that brought the bytes read so far (`offset`, this read included) to the size
 * `fstat` saw. The read that would return 0 is saved; a short read before that size (a file that
 * shrank, a file system that returns less) reads on until a read returns 0.
 */
export function isEndOfFile(
  stats: Stats,
  offset: number,
  bytesRead: number,
  bufferLength: number,
): boolean {
  return bytesRead < bufferLength && offset >= stats.size;
}

/**
 * Reads a whole regular file opened by {@link openRegularFile}, at most `maxBytes` of it; its
 * first `syncBytes` synchronously (see {@link readNext}).
 */
export async function readAll(
  file: RegularFile,
  maxBytes: number,
  syncBytes = syncReadBytes,
): Promise<Buffer> {
  const parts: Buffer[] = [];
  let total = 0;
  while (total < maxBytes) {
    const size = Math.min(nextChunkSize(file.stats, total, 64 * 1024), maxBytes - total);
    const buffer = Buffer.allocUnsafe(size);
    const bytesRead = await readNext(file.fd, buffer, total, syncBytes);
    if (bytesRead === 0) break;
    parts.push(buffer.subarray(0, bytesRead));
    total += bytesRead;
    if (isEndOfFile(file.stats, total, bytesRead, size)) break;
  }
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts, total);
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Closing a descriptor opened for reading only fails if it was closed already.
  }
}
