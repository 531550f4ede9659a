import { availableParallelism } from "node:os";

/**
 * License tiers of the Lexichord spec, ordered: `tier >= LicenseTier.Teams` compares them.
 *
 * | tier | batch size | parallel batches | progress events |
 * | --- | --- | --- | --- |
 * | Core | 5 | no (sequential) | Basic |
 * | WriterPro | 20 | no (sequential) | Basic |
 * | Teams | 50 | yes, 10 concurrent | Full |
 * | Enterprise | unlimited | yes, 2 x CPU cores concurrent | Full |
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
} as const;

/** One of the {@link LicenseTier} values. */
export type LicenseTier = (typeof LicenseTier)[keyof typeof LicenseTier];

const tierNames = ["Core", "WriterPro", "Teams", "Enterprise"] as const;

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
      return Number.POSITIVE_INFINITY;
    default:
      return 5;
  }
}

/** Whether batches may run in parallel on `tier` (Teams and up). */
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
    default:
      return 1;
  }
}

/** Whether `tier` gets Full progress events (Teams and up) rather than Basic. */
export function hasFullProgressEvents(tier: LicenseTier): boolean {
  return tier >= LicenseTier.Teams;
}
