import { setFlagsFromString } from "node:v8";

/**
 * Turns off V8's allocation-site pretenuring for this process when it is about to serve MCP
 * (`aintern mcp`). The `aintern` executable calls it first and loads the rest of the CLI only
 * afterwards, so it runs before anything else has allocated.
 *
 * Why: in a server on the MCP SDK v2, pretenuring feeds on itself. Objects allocated straight into
 * the old generation reference each call's young objects (its request, its file text, its
 * result), and a scavenge keeps whatever an old object references, dead or not. On Node 22 an
 * SDK server promoted 1,696 KB a scavenge, 783 KB without pretenuring, and a file read through
 * `aintern mcp` spends a fifth less time collecting garbage without it (bench/README.md,
 * session 15). The flag only changes where new objects are placed, so
 * changing it after start is safe; node accepts it at run time.
 */
export function tuneGarbageCollectorForServing(argv: readonly string[]): void {
  if (argv[0] === "mcp") setFlagsFromString("--no-allocation-site-pretenuring");
}
