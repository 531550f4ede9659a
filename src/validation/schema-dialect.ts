import { Ajv, type ErrorObject, type Options } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { linearTimeRegExp } from "./linear-time-reg-exp.js";

/** The JSON Schema dialects the validator compiles with. */
export type SchemaDialect = "draft-07" | "2019-09" | "2020-12";

/** An Ajv instance for one {@link SchemaDialect}. */
export type AjvInstance = Ajv | Ajv2019 | Ajv2020;

/** Which dialect a schema asks for, and the `$schema` Ajv knows it by when it was spelled otherwise. */
export type DialectChoice =
  | { readonly dialect: SchemaDialect; readonly canonical: string | undefined }
  | { readonly unsupported: string };

// Under Node's CommonJS interop the default import is the plugin itself; `.default` is the plugin
// under both that interop and a bundler's.
const addFormats = addFormatsModule.default;

/** Where Ajv's notes about a schema go (an unknown `format`, say): never the console. */
export interface SchemaWarningSink {
  warn(message: string): void;
}

// strictNumbers: NaN and Infinity are not JSON numbers (`strict: false` would otherwise let them pass).
// ownProperties: a required `constructor` or `__proto__` must be the value's own property, not
// one every object inherits.
const options: Options = {
  allErrors: true,
  strict: false,
  strictNumbers: true,
  verbose: true,
  ownProperties: true,
  // Linear-time matching: a model's argument cannot stall the process on a backtracking pattern.
  code: { regExp: linearTimeRegExp },
};

const canonicalUris: Readonly<Record<SchemaDialect, string>> = {
  "draft-07": "http://json-schema.org/draft-07/schema#",
  "2019-09": "https://json-schema.org/draft/2019-09/schema",
  "2020-12": "https://json-schema.org/draft/2020-12/schema",
};

/**
 * The dialect of `schema`: 2020-12 or 2019-09 where its `$schema` declares them, draft-07
 * otherwise (draft-06 schemas validate as draft-07, of which draft-06 is a subset). `canonical`
 * is set when the `$schema` must be respelled for Ajv (`https:` for draft-07, no trailing `#`...).
 */
export function dialectOf(schema: unknown): DialectChoice {
  const declared =
    typeof schema === "object" && schema !== null && !Array.isArray(schema)
      ? (schema as { $schema?: unknown }).$schema
      : undefined;
  if (typeof declared !== "string") return { dialect: "draft-07", canonical: undefined };
  const uri = declared
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, "")
    .replace(/#$/, "");
  const dialect: SchemaDialect | undefined =
    uri === "json-schema.org/draft-07/schema" || uri === "json-schema.org/draft-06/schema"
      ? "draft-07"
      : uri === "json-schema.org/draft/2019-09/schema"
        ? "2019-09"
        : uri === "json-schema.org/draft/2020-12/schema"
          ? "2020-12"
          : undefined;
  if (dialect === undefined) return { unsupported: declared };
  const canonical = canonicalUris[dialect];
  return { dialect, canonical: declared === canonical ? undefined : canonical };
}

/**
 * A new Ajv for `dialect`: all errors, verbose, not strict, strict numbers, own properties only,
 * ajv-formats' formats. Its warnings (an unknown `format` is ignored, as JSON Schema says) go to
 * `sink`, once per compiled schema; its other logs nowhere.
 */
export function createAjv(dialect: SchemaDialect, sink?: SchemaWarningSink): AjvInstance {
  const logger = {
    log: () => undefined,
    warn: (...args: unknown[]) => sink?.warn(args.map(String).join(" ")),
    error: (...args: unknown[]) => sink?.warn(args.map(String).join(" ")),
  };
  const withLogger: Options = { ...options, logger };
  const ajv =
    dialect === "2020-12"
      ? new Ajv2020(withLogger)
      : dialect === "2019-09"
        ? new Ajv2019(withLogger)
        : new Ajv(withLogger);
  addFormats(ajv);
  return ajv;
}

/**
 * Ajv's meta-schema errors as one line: `at '/properties/a/type': must be equal to one of the
 * allowed values (array, boolean, ...)`, at most three places.
 */
export function describeSchemaErrors(errors: readonly ErrorObject[] | null | undefined): string {
  const byPlace = new Map<string, string>();
  for (const error of errors ?? []) {
    if (byPlace.has(error.instancePath)) continue;
    const allowed = (error.params as { allowedValues?: unknown }).allowedValues;
    const detail = Array.isArray(allowed) ? ` (${allowed.map(String).join(", ")})` : "";
    byPlace.set(error.instancePath, `${error.message ?? "is invalid"}${detail}`);
  }
  const places = [...byPlace].slice(0, 3).map(([place, problem]) => {
    return place === "" ? problem : `at '${place}': ${problem}`;
  });
  return places.length === 0 ? "it does not match its meta-schema" : places.join("; ");
}
