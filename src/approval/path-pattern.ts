import {
  getWorkspaceRelativePath,
  InvalidPathError,
  isCaseSensitiveFileSystem,
  PathOutsideWorkspaceError,
  resolveWorkspacePath,
} from "../context/index.js";
import { globMatcher } from "./glob-matcher.js";

/** Whether the text holds a C0 control (NUL included), DEL or a C1 control. */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}
/** A `..` segment, also as a brace alternative (`{..,src}`). */
const parentSegment = /(?:^|[/{,])\.\.(?:$|[/},])/;
/** A segment or brace alternative that starts at the file system root (`{/etc,src}`). */
const rootedAlternative = /[{,]\//;

/** Per-call settings of {@link matchPathPattern}. */
export interface PathPatternOptions {
  /**
   * Whether `*` and `**` also match names starting with `.`. Default `false`, right for allow
   * rules (`src/**` does not cover `src/.git/config`); pass `true` for deny rules, where matching
   * more is the safe direction.
   */
  readonly dot?: boolean;
  /**
   * Whether to ignore case. Default: ignored only where the workspace's file system folds case.
   * Pass `true` for deny rules, where matching more is the safe direction.
   */
  readonly nocase?: boolean;
}

/**
 * Checks a path pattern before it is stored: returns why it can never match anything, or
 * `undefined` when it is usable. A pattern must be a non-empty glob relative to the workspace
 * root, written with `/`: not absolute (`/x`, `C:x`, `~/x`, `{/etc,src}`), without `..`
 * segments, without backslashes, without a leading `!` (negation is not supported), and without
 * control characters.
 *
 * @example
 * ```ts
 * validatePathPattern("src/**\/*.cs"); // undefined
 * validatePathPattern("../secrets/**"); // "Path pattern '../secrets/**' must not contain '..' segments ..."
 * ```
 */
export function validatePathPattern(pattern: string): string | undefined {
  if (typeof pattern !== "string") return "Path pattern must be a string.";
  if (pattern.trim() === "") return "Path pattern is empty; give a glob such as 'src/**/*.ts'.";
  const shown = pattern.replaceAll("\0", "\\0");
  if (hasControlCharacter(pattern)) {
    return `Path pattern '${shown}' contains a NUL byte or a control character.`;
  }
  if (/^(?:[/~]|[A-Za-z]:)/.test(pattern) || rootedAlternative.test(pattern)) {
    return `Path pattern '${shown}' is absolute; write it relative to the workspace root, such as 'src/**'.`;
  }
  if (pattern.includes("\\")) {
    return `Path pattern '${shown}' contains a backslash; separate segments with '/'.`;
  }
  if (parentSegment.test(pattern)) {
    return `Path pattern '${shown}' must not contain '..' segments; it matches paths inside the workspace only.`;
  }
  if (pattern.startsWith("!")) {
    return `Path pattern '${shown}' is negated; negated patterns are not supported, list what to allow instead.`;
  }
  return undefined;
}

/**
 * Whether a remembered path pattern such as `src/**\/*.cs` covers `path` in a workspace.
 *
 * The path is resolved first, exactly as the tools will resolve it (`getWorkspaceRelativePath`
 * of the context module: relative to the workspace root, symlinks followed, confined to the
 * root), and the pattern is matched against where the path really leads, relative to the real
 * workspace root with `/` separators. So `src/**\/*.cs` does not match `src/../../x.cs`, an
 * absolute path outside the workspace, or a symlink in `src` pointing outside (nor one pointing
 * elsewhere inside the workspace: the link's target is what is matched).
 *
 * Matching uses picomatch with:
 * - `dot: false` (unless `options.dot`): `*` and `**` do not match names starting with `.`, so
 *   `src/**` does not cover `src/.git/config` or `.env`; name them in the pattern to allow them
 *   (`.github/**`);
 * - case folded only where the workspace's file system folds case (macOS, Windows by default),
 *   unless `options.nocase` says otherwise;
 * - brace expansion (`*.{ts,tsx}`), but no extglobs and no negation.
 *
 * The workspace root itself is never matched. A path with a NUL byte, one that cannot be
 * resolved, and an invalid pattern ({@link validatePathPattern}) match nothing. The answer holds
 * at call time only: check right before use.
 *
 * @example
 * ```ts
 * matchPathPattern("src/**\/*.cs", "src/a/b.cs", "/srv/proj"); // true
 * matchPathPattern("src/**\/*.cs", "src/../../x.cs", "/srv/proj"); // false
 * ```
 */
export function matchPathPattern(
  pattern: string,
  path: string,
  workspace: string,
  options: PathPatternOptions = {},
): boolean {
  if (validatePathPattern(pattern) !== undefined) return false;
  if (typeof path !== "string" || typeof workspace !== "string") return false;
  if (path.includes("\0") || workspace.includes("\0")) return false;
  let relative: string;
  let realRoot: string;
  try {
    relative = getWorkspaceRelativePath(workspace, path);
    realRoot = resolveWorkspacePath(workspace, ".");
  } catch (error) {
    if (error instanceof PathOutsideWorkspaceError || error instanceof InvalidPathError) {
      return false;
    }
    throw error;
  }
  if (relative === ".") return false;
  const posix = process.platform === "win32" ? relative.replaceAll("\\", "/") : relative;
  if (posix.startsWith("/") || posix === ".." || posix.startsWith("../")) return false;
  const matcher = globMatcher(pattern, {
    dot: options.dot ?? false,
    nocase: options.nocase ?? !isCaseSensitiveFileSystem(realRoot),
  });
  return matcher(posix);
}
