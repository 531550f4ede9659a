import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ToolProgress } from "../../src/context/index.js";
import { ToolExecutionContextBuilder } from "../../src/context/index.js";
import type { JsonObject } from "../../src/core/index.js";
import type { ToolResult } from "../../src/result/index.js";

/** A real temporary workspace, with a sibling directory outside it. */
export interface Workspace {
  /** The workspace root (real path). */
  readonly root: string;
  /** A directory next to the workspace, outside it, holding `secret.txt`. */
  readonly outside: string;
  /** Writes files relative to the root, creating directories. */
  write(files: Record<string, string | Uint8Array>): Promise<void>;
  /** Creates a symbolic link at `path` (relative to the root) pointing to `target`. */
  link(path: string, target: string): Promise<void>;
  path(relative: string): string;
  remove(): Promise<void>;
}

export async function createWorkspace(): Promise<Workspace> {
  const base = await realpath(await mkdtemp(join(tmpdir(), "aintern-builtin-")));
  const root = join(base, "ws");
  const outside = join(base, "outside");
  await mkdir(root);
  await mkdir(outside);
  await writeFile(join(outside, "secret.txt"), "top secret\n");
  return {
    root,
    outside,
    async write(files) {
      for (const [path, content] of Object.entries(files)) {
        await mkdir(dirname(join(root, path)), { recursive: true });
        await writeFile(join(root, path), content);
      }
    },
    async link(path, target) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await symlink(target, join(root, path));
    },
    path: (relative) => join(root, relative),
    remove: () => rm(base, { recursive: true, force: true }),
  };
}

/** What a tool under test needs: `execute(context, signal?)`. */
interface Executable {
  execute(
    context: ReturnType<ToolExecutionContextBuilder["buildForTesting"]>,
    signal?: AbortSignal,
  ): Promise<ToolResult>;
}

/** Runs `tool` with `parameters` in `root`, collecting its progress reports. */
export async function run(
  tool: Executable,
  root: string,
  parameters: JsonObject,
  options: { signal?: AbortSignal; progress?: ToolProgress[] } = {},
): Promise<ToolResult> {
  const builder = ToolExecutionContextBuilder.create()
    .withWorkspace(root)
    .withParameters(parameters);
  if (options.signal !== undefined) builder.withCancellation(options.signal);
  const progress = options.progress;
  if (progress !== undefined) builder.withProgress((p) => progress.push(p));
  return tool.execute(builder.buildForTesting());
}
