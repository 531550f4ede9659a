/**
 * The measuring loop the benches share: a measured block gives CPU time and wall clock per call;
 * measures run side by side in one process, interleaved over rounds after a warm-up; figures are
 * medians of rounds, ratios medians of per-round ratios, and the spread is the rounds' range.
 */

/** Microseconds per call of one measured block: wall clock, and this process's CPU time. */
export interface Sample {
  readonly wallUs: number;
  readonly cpuUs: number;
}

/** Starts a measured block; the returned function ends it and divides by `calls`. */
export function block(): (calls: number) => Sample {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  return (calls) => {
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    return { wallUs: (wall * 1000) / calls, cpuUs: (cpu.user + cpu.system) / calls };
  };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/** A figure over rounds: the median and the range of the per-round values. */
export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

export function spread(values: readonly number[]): Spread {
  return {
    median: round2(median(values)),
    min: round2(Math.min(...values)),
    max: round2(Math.max(...values)),
  };
}

/** "1,234.5 (1,100.2–1,300.9)": a spread for a table, with `digits` decimals. */
export function formatSpread(value: Spread, digits = 0): string {
  const f = (n: number) =>
    n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return `${f(value.median)} (${f(value.min)}–${f(value.max)})`;
}

/** Per-round samples of each measure, CPU and wall clock apart. */
export interface RoundSamples<N extends string> {
  readonly cpu: Record<N, number[]>;
  readonly wall: Record<N, number[]>;
}

/**
 * Runs every measure once as a warm-up (results dropped), then `rounds` rounds of all of them,
 * in an order that rotates from round to round so none always runs first or after the same one.
 */
export async function interleavedRounds<N extends string>(
  measures: Readonly<Record<N, () => Promise<Sample>>>,
  rounds: number,
): Promise<RoundSamples<N>> {
  const names = Object.keys(measures) as N[];
  for (const name of names) await measures[name]();
  const cpu = {} as Record<N, number[]>;
  const wall = {} as Record<N, number[]>;
  for (const name of names) {
    cpu[name] = [];
    wall[name] = [];
  }
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + r) % names.length]!;
      const sample = await measures[name]();
      cpu[name].push(sample.cpuUs);
      wall[name].push(sample.wallUs);
    }
  }
  return { cpu, wall };
}
