/** Where lifecycles and batches read the time; inject a fake one in tests. */
export type Clock = () => Date;

/** The real clock. */
export const systemClock: Clock = () => new Date();
