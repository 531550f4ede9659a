import { availableParallelism } from "node:os";

/**
 * License tiers of the Lexichord spec, ordered: `tier >= LicenseTier.Teams` compares them, plus
 * `Ungated`, what an executor runs on when the application configures no `LicenseContext`:
 * nothing is gated (the tiers are for applications that sell them and pass their own).
 *
 * | tier | batch size | parallel batches | progress events |
 * | --- | --- | --- | --- |
 * | Core | 5 | no (sequential) | Basic |
 * | WriterPro | 20 | no (sequential) | Basic |
 * | Teams | 50 | yes, 10 concurrent | Full |
 * | Enterprise | unlimited | yes, 2 x CPU cores concurrent | Full |
 * | Ungated (no license configured) | unlimited | yes, as many as asked | Full |
 *
 * Every tier is also bounded by the executor's bulkhead, `maxConcurrentExecutions`, which wins
 * (its default follows the tier: {@link defaultMaxConcurrentExecutions}).
 *
 * Basic progress events: an execution's lifecycle only (Started, one InProgress when the tool
 * starts, ConfirmationRequested / Received, and the final Completed / Failed / Timeout /
 * Cancelled). Full: also one InProgress event (with `progressPercent`) per progress report of the
 * tool, and the `executionProgress` notification.
 */
export const LicenseTier = {
  Core: 0,
  WriterPro: 1,
  Teams: 2,
  Enterprise: 3,
  /** No license configured: no limit on batch size or parallelism, Full progress events. */
  Ungated: 4,
} as const;

/** One of the {@link LicenseTier} values. */
export type LicenseTier = (typeof LicenseTier)[keyof typeof LicenseTier];

const tierNames = ["Core", "WriterPro", "Teams", "Enterprise", "Ungated"] as const;

/** The spec's name of a tier: `licenseTierName(LicenseTier.Teams) === "Teams"`. */
export function licenseTierName(tier: LicenseTier): (typeof tierNames)[number] {
  return tierNames[tier] ?? "Core";
}

/** Where the executor reads the current tier from; the application implements it. */
export interface LicenseContext {
  readonly currentTier: LicenseTier;
}

/** A license context with a fixed tier. */
export function staticLicense(tier: LicenseTier): LicenseContext {
  return Object.freeze({ currentTier: tier });
}

/** The license of an executor configured without one: {@link LicenseTier.Ungated}. */
export const ungatedLicense: LicenseContext = staticLicense(LicenseTier.Ungated);

/** How many items a batch may hold on `tier`. */
export function maxBatchSizeForTier(tier: LicenseTier): number {
  switch (tier) {
    case LicenseTier.Core:
      return 5;
    case LicenseTier.WriterPro:
      return 20;
    case LicenseTier.Teams:
      return 50;
    case LicenseTier.Enterprise:
    case LicenseTier.Ungated:
      return Number.POSITIVE_INFINITY;
    default:
      return 5;
  }
}

/** Whether batches may run in parallel on `tier` (Teams and up, and Ungated). */
export function canExecuteParallel(tier: LicenseTier): boolean {
  return tier >= LicenseTier.Teams;
}

/** How many batch items may run at once on `tier`. */
export function maxParallelismForTier(tier: LicenseTier): number {
  switch (tier) {
    case LicenseTier.Teams:
      return 10;
    case LicenseTier.Enterprise:
      return availableParallelism() * 2;
    case LicenseTier.Ungated:
      return Number.POSITIVE_INFINITY;
    default:
      return 1;
  }
}

/**
 * The executor's bulkhead (`maxConcurrentExecutions`) when the application sets none: the widest
 * parallelism `tier` allows, never below 3 (the AIntern spec's default), so a batch gets the
 * parallelism its tier promises. Core and WriterPro 3, Teams 10, Enterprise and Ungated
 * max(10, 2 x CPU cores).
 */
export function defaultMaxConcurrentExecutions(tier: LicenseTier): number {
  switch (tier) {
    case LicenseTier.Teams:
      return 10;
    case LicenseTier.Enterprise:
    case LicenseTier.Ungated:
      return Math.max(10, availableParallelism() * 2);
    default:
      return 3;
  }
}

/** Whether `tier` gets Full progress events (Teams and up, and Ungated) rather than Basic. */
export function hasFullProgressEvents(tier: LicenseTier): boolean {
  return tier >= LicenseTier.Teams;
}
