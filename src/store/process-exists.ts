/**
 * Whether a process with this id is running on this machine. A pid the system has since given to
 * another process also counts as running: a pid alone cannot tell them apart.
 */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The set registered under `Symbol.for(key)` on `globalThis`, created on first use, so that every
 * bundled copy of the library in this process shares it.
 */
export function processRegistry(key: string): Set<string> {
  const holder = globalThis as Record<symbol, unknown>;
  const symbol = Symbol.for(key);
  const existing = holder[symbol];
  if (existing instanceof Set) return existing as Set<string>;
  const created = new Set<string>();
  holder[symbol] = created;
  return created;
}
