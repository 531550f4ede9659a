import { mkdirSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";

/**
 * Creates `path` and any missing parents (like `mkdir -p`), one level at a time.
 *
 * Why not `mkdirSync(path, { recursive: true })`: on Node.js 20 it never returns when a level
 * cannot be made under a parent that exists (`/proc/.aintern`: `mkdir` says ENOENT, so Node makes
 * the parent, which exists, and tries again, forever). Here every level is made once and the first
 * error is thrown as the file system gave it.
 *
 * @internal
 */
export function ensureDirectory(path: string, mode?: number): void {
  const target = resolve(path);
  const missing: string[] = [];
  for (let current = target; ; ) {
    try {
      if (statSync(current).isDirectory()) break;
      throw Object.assign(
        new Error(`ENOTDIR: not a directory, mkdir '${target}' ('${current}' is not a folder)`),
        { code: "ENOTDIR", path: current },
      );
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      const parent = dirname(current);
      if (parent === current) throw error;
      missing.push(current);
      current = parent;
    }
  }
  for (const level of missing.reverse()) {
    try {
      mkdirSync(level, mode === undefined ? undefined : { mode });
    } catch (error) {
      // Made meanwhile by another process: fine if it is a folder.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || !statSync(level).isDirectory()) {
        throw error;
      }
    }
  }
}
