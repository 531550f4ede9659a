import { isJsonObject, type JsonObject } from "../core/index.js";

/** Parameter names read as file system paths when a tool does not say otherwise. */
export const defaultPathParameterNames: readonly string[] = Object.freeze([
  "path",
  "paths",
  "file",
  "files",
  "filePath",
  "file_path",
  "filename",
  "directory",
  "dir",
  "cwd",
  "workingDirectory",
  "working_directory",
  "target",
  "source",
  "destination",
]);

/** Parameter names read as shell commands when a tool does not say otherwise. */
export const defaultCommandParameterNames: readonly string[] = Object.freeze([
  "command",
  "cmd",
  "script",
  "shellCommand",
  "shell_command",
]);

/** The path-like and command-like values of a call's parameters (top level only). */
export interface CallSubjects {
  readonly paths: readonly string[];
  readonly commands: readonly string[];
}

/** Which parameter names hold paths and commands, per tool id; unset tools use the defaults. */
export interface ParameterKindConfig {
  readonly pathParameters?: Readonly<Record<string, readonly string[]>>;
  readonly commandParameters?: Readonly<Record<string, readonly string[]>>;
}

/**
 * Collects the path and command values of a call, for pattern matching. A string array under a
 * path name gives one path per element. Own properties only.
 */
export function callSubjects(
  toolId: string,
  parameters: JsonObject,
  config: ParameterKindConfig = {},
): CallSubjects {
  const key = toolId.toLowerCase();
  const pathNames = lookup(config.pathParameters, key) ?? defaultPathParameterNames;
  const commandNames = lookup(config.commandParameters, key) ?? defaultCommandParameterNames;
  return { paths: stringsOf(parameters, pathNames), commands: stringsOf(parameters, commandNames) };
}

function lookup(map: Readonly<Record<string, readonly string[]>> | undefined, toolId: string) {
  if (map === undefined) return undefined;
  for (const [id, names] of Object.entries(map)) if (id.toLowerCase() === toolId) return names;
  return undefined;
}

function stringsOf(parameters: JsonObject, names: readonly string[]): string[] {
  const out: string[] = [];
  if (!isJsonObject(parameters)) return out;
  for (const name of names) {
    if (!Object.hasOwn(parameters, name)) continue;
    const value = parameters[name];
    if (typeof value === "string") out.push(value);
    else if (Array.isArray(value)) for (const v of value) if (typeof v === "string") out.push(v);
  }
  return out;
}
