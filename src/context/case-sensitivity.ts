import { lstatSync } from "node:fs";
import { basename, dirname, isAbsolute, relative, sep } from "node:path";

const cache = new Map<string, boolean>();

function toggleCase(text: string): string {
  let out = "";
  for (const ch of text) {
    const upper = ch.toUpperCase();
    out += upper === ch ? ch.toLowerCase() : upper;
  }
  return out;
}

function sameFile(a: string, b: string): boolean | undefined {
  try {
    const sa = lstatSync(a, { bigint: true });
    const sb = lstatSync(b, { bigint: true });
    return sa.dev === sb.dev && sa.ino === sb.ino;
  } catch {
    return undefined;
  }
}

/**
 * Whether the file system holding `realDir` (an existing, symlink-free directory) tells names
 * apart by case. Found once per directory by looking up a case-toggled spelling of the nearest
 * name with letters in it: the same inode means case-insensitive. Without such a name, falls back
 * to the platform's usual default (insensitive on Windows and macOS).
 *
 * Exported for the approval matchers, which fold case the same way.
 */
export function isCaseSensitiveFileSystem(realDir: string): boolean {
  const cached = cache.get(realDir);
  if (cached !== undefined) return cached;
  let result: boolean | undefined;
  let current = realDir;
  for (;;) {
    const name = basename(current);
    const toggled = toggleCase(name);
    if (name !== "" && toggled !== name) {
      const variant = `${dirname(current)}${dirname(current).endsWith(sep) ? "" : sep}${toggled}`;
      // A missing variant, or a different file under that spelling (a symlink included:
      // lstat, so a planted link cannot fake insensitivity), means case matters.
      result = sameFile(current, variant) !== true;
      break;
    }
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  const sensitive = result ?? !(process.platform === "win32" || process.platform === "darwin");
  cache.set(realDir, sensitive);
  return sensitive;
}

/**
 * True when `candidate` is `root` or lies beneath it, comparing whole path segments
 * (`/srv/proj-evil` is not inside `/srv/proj`). Both must be absolute and normalized.
 *
 * @internal
 */
export function isWithin(root: string, candidate: string, caseSensitive: boolean): boolean {
  // The common answer without `relative`, which normalizes both paths again (this runs for
  // every path a call names): the root itself, or the root and a separator. Anything else,
  // and every case-insensitive comparison, is left to `relative`.
  if (caseSensitive && isPrefixPath(root, candidate)) return true;
  const rel = caseSensitive
    ? relative(root, candidate)
    : relative(root.toLowerCase(), candidate.toLowerCase());
  if (rel === "") return true;
  return rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/**
 * Whether `candidate` is `root`, or `root` followed by a separator and more (as written), with no
 * `..` segment that could lead back out (`/ws/../etc` is not inside `/ws`).
 */
export function isPrefixPath(root: string, candidate: string): boolean {
  if (!candidate.startsWith(root)) return false;
  if (candidate.includes(`${sep}..${sep}`) || candidate.endsWith(`${sep}..`)) return false;
  return candidate.length === root.length || root.endsWith(sep) || candidate[root.length] === sep;
}
