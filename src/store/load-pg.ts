import type pg from "pg";
import { AinternError } from "../core/index.js";

/** Thrown when the PostgreSQL store is used and the optional `pg` package is not installed. */
export class MissingDriverError extends AinternError {
  readonly packageName: string;

  constructor(packageName: string, feature: string, cause: unknown) {
    super(
      "MISSING_DRIVER",
      `${feature} needs the '${packageName}' package, which is not installed. Install it next to aintern: npm install ${packageName}`,
      { cause },
    );
    this.name = "MissingDriverError";
    this.packageName = packageName;
  }
}

/** Loads the `pg` driver, which is an optional peer dependency of `aintern/store/postgres`. */
export async function loadPg(): Promise<typeof pg> {
  try {
    return (await import("pg")).default;
  } catch (error) {
    throw new MissingDriverError("pg", "The PostgreSQL store (aintern/store/postgres)", error);
  }
}
