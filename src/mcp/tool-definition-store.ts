/**
 * Where the last-seen definition of each upstream tool is kept, so that a tool whose definition
 * changed between two gateway processes (an MCP "rug pull": its description or schema changed
 * after a person approved it) is noticed by the next process: `store.toolDefinitions` of
 * `openStore`. `UpstreamToolSet` compares and records through it.
 *
 * A definition is kept as an opaque fingerprint (the set stores a SHA-256 hex digest of what a
 * person approving a call was shown of the tool). Tool ids match case-insensitively, as grants'
 * do.
 */
export interface ToolDefinitionStore {
  /** The fingerprint last recorded for `toolId`, or undefined when none was. */
  get(toolId: string): Promise<string | undefined>;
  /** Records `fingerprint` as the definition of `toolId`, replacing the one recorded before. */
  set(toolId: string, fingerprint: string): Promise<void>;
}
