import { accessSync, constants, statSync } from "node:fs";
import { delimiter, resolve } from "node:path";

/**
 * Throws, as `spawn` would report it (`spawn <program> ENOENT` or `EACCES`, with that `code`),
 * unless `program` names an executable file: a path (relative to `cwd`) as it is, a bare name
 * in one of `path`'s folders (with no `path`, a bare name passes). For a program another one
 * will start (`exec`), whose failure would otherwise reach the caller only as that one's exit
 * code and output.
 *
 * @internal
 */
export function assertRunnableProgram(
  program: string,
  cwd: string,
  path: string | undefined,
): void {
  const isPath = program.includes("/");
  // Without a PATH each shell searches its own default folders: left to the one that runs it.
  if (!isPath && path === undefined) return;
  const candidates = isPath
    ? [resolve(cwd, program)]
    : (path ?? "")
        .split(delimiter)
        .filter((folder) => folder !== "")
        .map((folder) => resolve(cwd, folder, program));
  let refused = false;
  for (const candidate of candidates) {
    try {
      if (!statSync(candidate).isFile()) {
        refused = true;
        continue;
      }
      accessSync(candidate, constants.X_OK);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EACCES") refused = true;
    }
  }
  const code = refused ? "EACCES" : "ENOENT";
  throw Object.assign(new Error(`spawn ${program} ${code}`), { code, path: program });
}
