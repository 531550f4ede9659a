/**
 * Validation overhead benchmark: raw Ajv `validate(data)` on a compiled, realistic tool schema
 * versus `ToolValidator.validateAgainstSchema(data, schema)` on the same schema and data.
 *
 *     npx tsx bench/validation.bench.ts
 *
 * Exits non-zero when a valid call costs more than 1.5x raw Ajv. `run()` returns the figures for
 * a bench runner.
 */
import { availableParallelism } from "node:os";
import { pathToFileURL } from "node:url";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import type { JsonSchema } from "../src/schema/index.js";
import { ToolValidator } from "../src/validation/index.js";

/** The most a valid call may cost relative to raw Ajv. */
export const maxValidRatio = 1.5;

/** One benchmark's figures. */
export interface ValidationBenchResult {
  readonly name: string;
  /** Raw Ajv, nanoseconds of CPU time per call (median of the rounds). */
  readonly ajvNsPerOp: number;
  /** `ToolValidator.validateAgainstSchema`, nanoseconds of CPU time per call (median). */
  readonly validatorNsPerOp: number;
  /** `validatorNsPerOp / ajvNsPerOp`. */
  readonly ratio: number;
}

/** What {@link run} measured. */
export interface ValidationBenchReport {
  readonly node: string;
  readonly cpus: number;
  readonly date: string;
  readonly rounds: number;
  readonly iterationsPerRound: number;
  readonly results: readonly ValidationBenchResult[];
  /** Whether the valid call (the first result) stayed within {@link maxValidRatio}. */
  readonly passed: boolean;
}

/** A realistic tool schema: a file search tool with nested options, enums, patterns, formats. */
const schema: JsonSchema = {
  type: "object",
  description: "Search files in the workspace",
  properties: {
    path: { type: "string", description: "Directory to search", minLength: 1, maxLength: 4096 },
    query: { type: "string", description: "Text or pattern to find", minLength: 1 },
    mode: { type: "string", enum: ["literal", "regex", "glob"], default: "literal" },
    maxResults: { type: "integer", minimum: 1, maximum: 1000, default: 100 },
    include: { type: "array", items: { type: "string", maxLength: 256 }, maxItems: 32 },
    options: {
      type: "object",
      properties: {
        caseSensitive: { type: "boolean" },
        depth: { type: "integer", minimum: 0, maximum: 64 },
        since: { type: "string", maxLength: 40 },
        encoding: { type: "string", pattern: "^[a-z0-9-]+$" },
      },
      additionalProperties: false,
    },
  },
  required: ["path", "query"],
  additionalProperties: false,
};

const validCall = {
  path: "src/components",
  query: "useEffect",
  mode: "literal",
  maxResults: 50,
  include: ["**/*.ts", "**/*.tsx"],
  options: { caseSensitive: true, depth: 8, since: "2024-01-01T00:00:00Z", encoding: "utf-8" },
};

const invalidCall = {
  path: "",
  query: "useEffect",
  mode: "fuzzy",
  maxResults: "50",
  include: ["**/*.ts", 3],
  options: { caseSensitive: "yes", depth: 100 },
  extra: true,
};

/**
 * Nanoseconds of this process's CPU time per call. CPU time rather than wall time, so that other
 * work on a busy machine (time the process spends descheduled) does not count.
 */
/** A copy of `schema` with every `additionalProperties: false` removed. */
function openUp(schema: JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema), (key, value) =>
    key === "additionalProperties" && value === false ? undefined : value,
  ) as JsonSchema;
}

function measure(fn: () => unknown, iterations: number): number {
  const start = process.cpuUsage();
  for (let i = 0; i < iterations; i++) fn();
  const used = process.cpuUsage(start);
  return ((used.user + used.system) * 1000) / iterations;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function compare(
  name: string,
  raw: () => unknown,
  wrapped: () => unknown,
  rounds: number,
  iterations: number,
): ValidationBenchResult {
  for (let i = 0; i < 3; i++) {
    measure(raw, iterations);
    measure(wrapped, iterations);
  }
  const rawTimes: number[] = [];
  const wrappedTimes: number[] = [];
  // Alternate the two so drift in the machine's speed hits both alike.
  for (let round = 0; round < rounds; round++) {
    rawTimes.push(measure(raw, iterations));
    wrappedTimes.push(measure(wrapped, iterations));
  }
  const ajvNsPerOp = median(rawTimes);
  const validatorNsPerOp = median(wrappedTimes);
  return { name, ajvNsPerOp, validatorNsPerOp, ratio: validatorNsPerOp / ajvNsPerOp };
}

/** Runs the benchmark and returns its figures; prints nothing. */
export function run(options: { rounds?: number; iterations?: number } = {}): ValidationBenchReport {
  const rounds = options.rounds ?? 15;
  const iterations = options.iterations ?? 50_000;
  // The same Ajv settings the validator uses, so the ratio is the validator's own overhead.
  const ajv = new Ajv({ allErrors: true, strict: false, strictNumbers: true, verbose: true });
  addFormatsModule.default(ajv);
  const validate = ajv.compile(schema);
  const validator = new ToolValidator();
  if (!validate(validCall) || !validator.validateAgainstSchema(validCall, schema).isValid) {
    throw new Error("the valid call does not validate");
  }
  if (validate(invalidCall) || validator.validateAgainstSchema(invalidCall, schema).isValid) {
    throw new Error("the invalid call validates");
  }
  const valid = compare(
    "valid call",
    () => validate(validCall),
    () => validator.validateAgainstSchema(validCall, schema),
    rounds,
    iterations,
  );
  const invalid = compare(
    "invalid call (errors mapped to messages)",
    () => validate(invalidCall),
    () => validator.validateAgainstSchema(invalidCall, schema),
    rounds,
    Math.max(1, Math.floor(iterations / 10)),
  );
  // The same tool with open objects (no `additionalProperties: false`): Ajv's success bounds less,
  // so the validator walks the extra properties for the limits after Ajv. Reported, not gated.
  const openSchema = openUp(schema);
  const validateOpen = ajv.compile(openSchema);
  const open = compare(
    "valid call, open objects",
    () => validateOpen(validCall),
    () => validator.validateAgainstSchema(validCall, openSchema),
    rounds,
    iterations,
  );
  return {
    node: process.version,
    cpus: availableParallelism(),
    date: new Date().toISOString(),
    rounds,
    iterationsPerRound: iterations,
    results: [valid, invalid, open],
    passed: valid.ratio <= maxValidRatio,
  };
}

function main(): void {
  const report = run();
  console.log(
    `validation bench: node ${report.node}, ${report.cpus} CPUs, ${report.date}, ` +
      `${report.rounds} rounds x ${report.iterationsPerRound} calls (median)`,
  );
  for (const result of report.results) {
    console.log(
      `  ${result.name.padEnd(42)} ajv ${result.ajvNsPerOp.toFixed(0).padStart(6)} ns/op   ` +
        `validator ${result.validatorNsPerOp.toFixed(0).padStart(6)} ns/op   ` +
        `ratio ${result.ratio.toFixed(2)}`,
    );
  }
  const valid = report.results[0]!;
  if (!report.passed) {
    console.error(`FAIL: valid-call ratio ${valid.ratio.toFixed(2)} exceeds ${maxValidRatio}`);
    process.exitCode = 1;
  } else {
    console.log(`ok: valid-call ratio ${valid.ratio.toFixed(2)} <= ${maxValidRatio}`);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main();
}
