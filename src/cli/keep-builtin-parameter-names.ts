import {
  defaultCommandParameterNames,
  defaultPathParameterNames,
  type ParameterKindConfig,
} from "../approval/parameter-kinds.js";
import { BuiltinToolId } from "../builtin/index.js";

/**
 * `config` with the built-in tools' own parameter names kept: an entry for a built-in tool adds
 * names to the defaults instead of replacing them. Otherwise `{"file-write": ["pathx"]}` would
 * hide file-write's `path` from every rule, the ones guarding what the model can never change
 * included. Entries for other tools are left as they are (they name those tools' parameters).
 */
export function keepBuiltinParameterNames<T extends ParameterKindConfig>(config: T): T {
  const builtinIds = new Set<string>(Object.values(BuiltinToolId).map((id) => id.toLowerCase()));
  const widen = (
    map: Readonly<Record<string, readonly string[]>> | undefined,
    defaults: readonly string[],
  ): Readonly<Record<string, readonly string[]>> | undefined => {
    if (map === undefined) return undefined;
    const widened: Record<string, readonly string[]> = Object.create(null);
    for (const [id, names] of Object.entries(map)) {
      widened[id] = builtinIds.has(id.toLowerCase())
        ? [...new Set([...defaults, ...names])]
        : names;
    }
    return widened;
  };
  const pathParameters = widen(config.pathParameters, defaultPathParameterNames);
  const commandParameters = widen(config.commandParameters, defaultCommandParameterNames);
  return {
    ...config,
    ...(pathParameters === undefined ? {} : { pathParameters }),
    ...(commandParameters === undefined ? {} : { commandParameters }),
  };
}
