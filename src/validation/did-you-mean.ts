import { editDistance } from "../core/index.js";

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
