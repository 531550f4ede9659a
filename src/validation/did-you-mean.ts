/** The candidate closest to `input` by edit distance, when it is close enough to be a likely typo. */
export function didYouMean(input: string, candidates: Iterable<string>): string | undefined {
  if (input.length > 100) return undefined;
  const limit = Math.max(1, Math.floor(input.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  const lowered = input.toLowerCase();
  for (const candidate of candidates) {
    if (candidate.length > 100 || Math.abs(candidate.length - input.length) >= bestDistance) {
      continue;
    }
    const distance = editDistance(lowered, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Edit distance where swapping two neighbouring characters counts as one edit (OSA). */
function editDistance(a: string, b: string): number {
  const width = b.length + 1;
  const rows = [new Uint16Array(width), new Uint16Array(width), new Uint16Array(width)];
  for (let j = 0; j < width; j++) rows[1]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    const [beforePrevious, previous, current] = [rows[0]!, rows[1]!, rows[2]!];
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (
        i > 1 &&
        j > 1 &&
        a.charCodeAt(i - 1) === b.charCodeAt(j - 2) &&
        a.charCodeAt(i - 2) === b.charCodeAt(j - 1)
      ) {
        best = Math.min(best, beforePrevious[j - 2]! + 1);
      }
      current[j] = best;
    }
    rows[0] = previous;
    rows[1] = current;
    rows[2] = beforePrevious;
  }
  return rows[1]![b.length]!;
}
