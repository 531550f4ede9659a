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
