import { existsSync, statSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import type { McpUpstreamConfig } from "../mcp/index.js";

/*
 * Code in the workspace that the server runs: a model that could change it unasked would have
 * its own code run by the server, with the server's environment. Each function gives
 * workspace-relative protected-path patterns.
 */

/**
 * The code of the gateway's upstream servers that lies in the workspace: the folder of each script or program an upstream is started with
 * (`node ./server/main.js`: `server/**`; a script at the root: just that file), and an
 * upstream's working folder inside the workspace. aintern restarts an upstream that dies, so a
 * model that could edit that code unasked would have its code run by the server.
 *
 * Only paths that exist are taken; each is resolved as the upstream resolves it (against its
 * `cwd`, else the server's working folder).
 */
export function upstreamCodePaths(
  upstreams: readonly McpUpstreamConfig[],
  workspacePath: string,
): string[] {
  const patterns = new Set<string>();
  const inside = (path: string): string | undefined => {
    const rel = relative(workspacePath, path);
    return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? undefined : rel;
  };
  const add = (path: string, asFolder: boolean): void => {
    const rel = inside(path);
    if (rel === undefined) return;
    patterns.add(`${rel.split(sep).join("/")}${asFolder ? "/**" : ""}`);
  };
  for (const upstream of upstreams) {
    if (!("command" in upstream)) continue;
    const base = resolve(upstream.cwd ?? process.cwd());
    if (upstream.cwd !== undefined && base !== workspacePath) add(base, true);
    for (const word of [upstream.command, ...(upstream.args ?? [])]) {
      if (
        word.startsWith("-") ||
        !(word.includes("/") || word.includes("\\") || word.includes("."))
      ) {
        continue;
      }
      const path = resolve(base, word);
      if (!existsSync(path)) continue;
      if (statSync(path).isDirectory()) add(path, true);
      else if (dirname(path) === workspacePath) add(path, false);
      else add(dirname(path), true);
    }
  }
  return [...patterns];
}

/**
 * Where a tool module named by package (`--tools some-pkg`) is or could be found in the
 * workspace: `node_modules/<name>/**` in the server's working folder and each folder above it up
 * to the workspace root, as Node looks (a package created there would shadow one found higher).
 */
export function toolPackagePaths(specs: readonly string[], workspacePath: string): string[] {
  const packages = specs.filter(
    (spec) =>
      !isAbsolute(spec) && !spec.startsWith(".") && spec !== "builtin" && spec !== "readonly",
  );
  if (packages.length === 0) return [];
  const patterns: string[] = [];
  let folder = resolve(process.cwd());
  for (;;) {
    const rel = relative(workspacePath, folder);
    if (rel.startsWith("..") || isAbsolute(rel)) break;
    const prefix = rel === "" ? "" : `${rel.split(sep).join("/")}/`;
    for (const name of packages) patterns.push(`${prefix}node_modules/${name}/**`);
    if (rel === "") break;
    folder = dirname(folder);
  }
  return patterns;
}
