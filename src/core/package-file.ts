import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

// Under vitest or tsx this module is src/core/package-file.ts; in the published package it sits
// in a bundle under dist/, at a depth the bundler chooses.
const runningFromSource = import.meta.url.endsWith(".ts");
let distRoot: string | undefined;

/** True when aintern runs from its TypeScript sources (tests, tsx), not from `dist/`. */
export function isRunningFromSource(): boolean {
  return runningFromSource;
}

/**
 * The `file:` URL of one of aintern's own modules, by its source path under `src/`
 * (`"sandbox/process-worker-main.ts"`): that file itself when running from source, else the
 * built file under `dist/` (`.js`), which the build keeps at the same relative path. For code
 * that hands a module to another process (the sandbox worker, a tool's `source`).
 */
export function packageFileUrl(sourcePath: string): string {
  if (runningFromSource) return new URL(`../${sourcePath}`, import.meta.url).href;
  distRoot ??= findDistRoot();
  return pathToFileURL(join(distRoot, sourcePath.replace(/\.ts$/, ".js"))).href;
}

/** The `dist/` folder: the one beside the nearest package.json above this module. */
function findDistRoot(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(folder, "package.json"))) return join(folder, "dist");
    const parent = dirname(folder);
    if (parent === folder) throw new Error("aintern: cannot find its own package.json above dist/");
    folder = parent;
  }
}
