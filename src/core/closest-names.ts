/**
 * The candidates closest to `name` by edit distance (case-insensitive), best first: for
 * "Did you mean ...?" hints when a model asks for a tool that does not exist.
 * Only candidates within a distance of max(2, a third of the name's length) are returned.
 */
export function closestNames(
  name: string,
  candidates: Iterable<string>,
  options: { max?: number } = {},
): string[] {
  const max = options.max ?? 3;
  const needle = name.toLowerCase();
  const limit = Math.max(2, Math.floor(needle.length / 3));
  const scored: { candidate: string; distance: number }[] = [];
  for (const candidate of candidates) {
    const lower = candidate.toLowerCase();
    const distance = lower.includes(needle) && needle.length >= 3 ? 1 : editDistance(needle, lower);
    if (distance <= limit) scored.push({ candidate, distance });
  }
  scored.sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate));
  return scored.slice(0, max).map((s) => s.candidate);
}

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let prevPrev: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(prev[j]! + 1, current[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, prevPrev[j - 2]! + 1);
      }
      current.push(value);
    }
    prevPrev = prev;
    prev = current;
  }
  return prev[b.length]!;
}
