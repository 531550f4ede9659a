import type { ErrorObject } from "ajv";
import { didYouMean } from "./did-you-mean.js";
import { appendIndex, appendKey, pathFromPointer } from "./parameter-path.js";
import { summarizeSchema } from "./summarize-schema.js";
import { ToolValidationError } from "./tool-validation-error.js";
import { ValidationErrorCode } from "./validation-error-code.js";
import { describeValue, jsonTypeOf, previewJson, subjectOf } from "./value-preview.js";

/** An Ajv error with the errors it stands for (an `anyOf` / `oneOf` and its branches' errors). */
interface ErrorNode {
  readonly error: ErrorObject;
  readonly children: readonly ErrorNode[];
}

/** Keywords whose failures all mean "a bound was crossed". */
const rangeKeywords = new Set([
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
]);

/**
 * Turns Ajv's errors (compiled with `allErrors` and `verbose`) into {@link ToolValidationError}s a
 * model can act on: paths such as `options.depth` / `items[2]` under `basePath`, one error per
 * `anyOf` / `oneOf` branch point, duplicates dropped, at most `maxErrors` (plus one line saying
 * how many more there were).
 */
export function mapAjvErrors(
  errors: readonly ErrorObject[],
  root: unknown,
  basePath: string,
  maxErrors: number,
): ToolValidationError[] {
  const nodes = collapse(errors);
  const seen = new Set<string>();
  const mapped: ToolValidationError[] = [];
  let omitted = 0;
  for (const node of nodes) {
    const error = render(node, root, basePath);
    const key = `${error.parameterName}\u0000${error.errorCode}\u0000${error.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (mapped.length < maxErrors) mapped.push(error);
    else omitted++;
  }
  if (omitted > 0) {
    mapped.push(
      ToolValidationError.invalidValue(
        basePath,
        `…and ${omitted} more problem${omitted === 1 ? "" : "s"} not listed; fix the ones above first`,
      ),
    );
  }
  return mapped;
}

/**
 * Groups Ajv's flat list: an `anyOf` / `oneOf` / `contains` error takes the errors of its
 * subschemas Ajv reported just before it, and `propertyNames` the errors about the name it rejected. `if` errors only repeat
 * their `then` / `else` errors, so they go.
 */
function collapse(errors: readonly ErrorObject[]): ErrorNode[] {
  const pending: ErrorNode[] = [];
  for (const error of errors) {
    if (error.keyword === "if") continue;
    if (error.keyword === "anyOf" || error.keyword === "oneOf" || error.keyword === "contains") {
      pending.push({ error, children: pending.splice(branchRunStart(pending, error)) });
    } else if (error.keyword === "propertyNames") {
      let start = pending.length;
      while (start > 0) {
        const previous = pending[start - 1]!.error;
        if (
          previous.propertyName !== error.params.propertyName ||
          previous.instancePath !== error.instancePath
        ) {
          break;
        }
        start--;
      }
      pending.push({ error, children: pending.splice(start) });
    } else {
      pending.push({ error, children: [] });
    }
  }
  return pending;
}

/**
 * Where the branch errors of `branchPoint` start in `pending`. Ajv reports them contiguously just
 * before it; the run ends at an error about other data, or one from a sibling keyword of the same
 * schema (errors reached through a `$ref` carry the target's path, so they count as branch errors).
 */
function branchRunStart(pending: readonly ErrorNode[], branchPoint: ErrorObject): number {
  const own = `${branchPoint.schemaPath}/`;
  const parentPath = branchPoint.schemaPath.slice(0, -(branchPoint.keyword.length + 1));
  const parent = branchPoint.parentSchema;
  const siblings =
    typeof parent === "object" && parent !== null
      ? Object.keys(parent).filter(
          (key) => key !== branchPoint.keyword && key !== "definitions" && key !== "$defs",
        )
      : [];
  let start = pending.length;
  while (start > 0) {
    const error = pending[start - 1]!.error;
    if (!isAtOrBelow(error.instancePath, branchPoint.instancePath)) break;
    if (
      !error.schemaPath.startsWith(own) &&
      siblings.some(
        (key) =>
          error.schemaPath === `${parentPath}/${key}` ||
          error.schemaPath.startsWith(`${parentPath}/${key}/`),
      )
    ) {
      break;
    }
    start--;
  }
  return start;
}

function isAtOrBelow(pointer: string, base: string): boolean {
  return pointer === base || pointer.startsWith(`${base}/`);
}

function render(node: ErrorNode, root: unknown, basePath: string): ToolValidationError {
  const { error } = node;
  const path = pathFromPointer(error.instancePath, root, basePath);
  const data: unknown = error.data;
  const schema = asRecord(error.parentSchema);
  const params = error.params as Record<string, unknown>;
  const subject = subjectOf(path);
  switch (error.keyword) {
    case "required":
    case "dependencies":
    case "dependentRequired": {
      const missing = String(params.missingProperty);
      const missingPath = appendKey(path, missing);
      if (error.keyword !== "required") {
        const trigger = appendKey(path, String(params.property));
        return new ToolValidationError({
          parameterName: missingPath,
          message: `Missing parameter '${missingPath}', required when '${trigger}' is given`,
          errorCode: ValidationErrorCode.Required,
        });
      }
      const property = asRecord(ownValue(schema?.properties, missing));
      const type = property?.type;
      return ToolValidationError.required(missingPath, {
        ...(typeof type === "string" || Array.isArray(type)
          ? { type: [type].flat().join(" or ") }
          : {}),
        ...(typeof property?.description === "string" ? { description: property.description } : {}),
      });
    }
    case "type":
      return ToolValidationError.typeMismatch(
        path,
        [params.type].flat().join(" or "),
        jsonTypeOf(data),
        data,
      );
    case "pattern":
      return withHint(
        ToolValidationError.patternMismatch(path, String(data), String(params.pattern)),
        schema,
      );
    case "enum":
    case "const": {
      const allowed =
        error.keyword === "enum" ? [params.allowedValues].flat() : [params.allowedValue];
      const base = ToolValidationError.invalidEnum(path, data, allowed);
      const suggestion =
        typeof data === "string"
          ? didYouMean(
              data,
              allowed.filter((item): item is string => typeof item === "string"),
            )
          : undefined;
      return suggestion === undefined || suggestion === data
        ? base
        : rewrite(base, `${base.message}. Did you mean ${JSON.stringify(suggestion)}?`);
    }
    case "format":
      return withHint(
        new ToolValidationError({
          parameterName: path,
          message: `${subject} must be a valid ${String(params.format)}, got ${previewJson(data)}`,
          errorCode: ValidationErrorCode.InvalidValue,
          providedValue: data,
          expectedDescription: `format ${String(params.format)}`,
        }),
        schema,
      );
    case "additionalProperties":
    case "unevaluatedProperties":
      return unexpectedProperty(
        path,
        String(params.additionalProperty ?? params.unevaluatedProperty),
        data,
        schema,
      );
    case "propertyNames": {
      const name = String(params.propertyName);
      const reason = node.children[0]?.error.message;
      return new ToolValidationError({
        parameterName: appendKey(path, name),
        message: `Parameter name ${JSON.stringify(name)}${path === "" ? "" : ` in '${path}'`} is not allowed${reason === undefined ? "" : `: it ${reason}`}`,
        errorCode: ValidationErrorCode.InvalidValue,
        providedValue: name,
      });
    }
    case "anyOf":
    case "oneOf":
      return branchPointError(node, root, basePath, path);
    case "contains": {
      const min = Number(params.minContains ?? 1);
      const max = params.maxContains;
      const count = max === undefined ? `at least ${min}` : `between ${min} and ${String(max)}`;
      return new ToolValidationError({
        parameterName: path,
        message: `${subject} must contain ${count} item${min === 1 && max === undefined ? "" : "s"} matching: ${summarizeSchema(schema?.contains)}`,
        errorCode: ValidationErrorCode.InvalidValue,
        providedValue: data,
      });
    }
    case "multipleOf":
      return new ToolValidationError({
        parameterName: path,
        message: `${subject} must be a multiple of ${String(params.multipleOf)}, got ${previewJson(data)}`,
        errorCode: ValidationErrorCode.InvalidValue,
        providedValue: data,
        expectedDescription: `a multiple of ${String(params.multipleOf)}`,
      });
    case "uniqueItems": {
      const [first, second] = [Number(params.j), Number(params.i)];
      return new ToolValidationError({
        parameterName: path,
        message: `${subject} must not contain duplicates; '${appendIndex(path, first)}' and '${appendIndex(path, second)}' are identical`,
        errorCode: ValidationErrorCode.InvalidValue,
        providedValue: data,
        expectedDescription: "unique items",
      });
    }
    case "not":
      return new ToolValidationError({
        parameterName: path,
        message: `${subject} must not be ${summarizeSchema(error.schema)}, got ${describeValue(data)}`,
        errorCode: ValidationErrorCode.InvalidValue,
        providedValue: data,
      });
    case "false schema":
      return new ToolValidationError({
        parameterName: path,
        message:
          path === "" ? "No parameters are accepted" : `${subject} is not allowed; leave it out`,
        errorCode: ValidationErrorCode.InvalidValue,
        providedValue: data,
      });
    default:
      if (rangeKeywords.has(error.keyword)) return rangeError(error.keyword, path, data, schema);
      return new ToolValidationError({
        parameterName: path,
        message: `${subject} ${error.message ?? "is invalid"}${path === "" ? "" : `, got ${describeValue(data)}`}`,
        errorCode: ValidationErrorCode.InvalidValue,
        providedValue: data,
      });
  }
}

function unexpectedProperty(
  path: string,
  name: string,
  data: unknown,
  schema: Record<string, unknown> | undefined,
): ToolValidationError {
  const propertyPath = appendKey(path, name);
  const allowed = Object.keys(asRecord(schema?.properties) ?? {});
  const patterns = Object.keys(asRecord(schema?.patternProperties) ?? {});
  const suggestion = didYouMean(name, allowed);
  const where = path === "" ? "" : ` in '${path}'`;
  const accepted = [
    ...(allowed.length > 0 ? [allowed.join(", ")] : []),
    ...(patterns.length > 0 ? [`names matching ${patterns.join(" or ")}`] : []),
  ].join("; ");
  return new ToolValidationError({
    parameterName: propertyPath,
    message:
      `Unexpected parameter '${propertyPath}'.` +
      (suggestion === undefined ? "" : ` Did you mean '${appendKey(path, suggestion)}'?`) +
      (accepted === "" ? ` No parameters are accepted${where}.` : ` Allowed${where}: ${accepted}.`),
    errorCode: ValidationErrorCode.InvalidValue,
    providedValue: ownValue(data, name),
    ...(accepted === "" ? {} : { expectedDescription: accepted }),
  });
}

function rangeError(
  keyword: string,
  path: string,
  data: unknown,
  schema: Record<string, unknown> | undefined,
): ToolValidationError {
  const number = (key: string): number | undefined => {
    const value = schema?.[key];
    return typeof value === "number" ? value : undefined;
  };
  if (keyword.endsWith("imum")) {
    const [min, exclusiveMinimum] = stricter(number("minimum"), number("exclusiveMinimum"));
    const [max, exclusiveMaximum] = stricter(number("maximum"), number("exclusiveMaximum"), -1);
    return ToolValidationError.outOfRange(path, data, min, max, {
      exclusiveMinimum,
      exclusiveMaximum,
    });
  }
  const [unit, limits, count, suffix] = keyword.endsWith("Length")
    ? ["character", ["minLength", "maxLength"], codePoints(String(data)), " long"]
    : keyword.endsWith("Items")
      ? ["item", ["minItems", "maxItems"], Array.isArray(data) ? data.length : 0, ""]
      : ["property", ["minProperties", "maxProperties"], propertyCount(data), ""];
  const min = number(limits[0]!);
  const max = number(limits[1]!);
  const expected =
    min !== undefined && max !== undefined
      ? min === max
        ? `exactly ${plural(min, unit)}`
        : `between ${min} and ${plural(max, unit)}`
      : min !== undefined
        ? `at least ${plural(min, unit)}`
        : `at most ${plural(max ?? 0, unit)}`;
  return new ToolValidationError({
    parameterName: path,
    message: `${subjectOf(path)} must ${unit === "character" ? `be ${expected}${suffix}` : `have ${expected}`}, got ${count}`,
    errorCode: ValidationErrorCode.OutOfRange,
    providedValue: data,
    expectedDescription: expected,
  });
}

function branchPointError(
  node: ErrorNode,
  root: unknown,
  basePath: string,
  path: string,
): ToolValidationError {
  const { error } = node;
  const branches: readonly unknown[] = Array.isArray(error.schema) ? error.schema : [];
  const forms = branches.map((branch, i) => `(${i + 1}) ${summarizeSchema(branch)}`);
  const passing = (error.params as { passingSchemas?: unknown }).passingSchemas;
  const subject = subjectOf(path);
  let message: string;
  if (Array.isArray(passing) && passing.length > 1) {
    const which = passing.map((i) => `(${Number(i) + 1})`).join(" and ");
    message = `${subject} ${path === "" ? "match" : "matches"} forms ${which} but must match exactly one of: ${forms.join("; ")}; got ${describeValue(error.data)}`;
  } else {
    const quantity = error.keyword === "oneOf" ? "exactly one" : "one";
    message = `${subject} must match ${quantity} of these forms: ${forms.join("; ")}; got ${describeValue(error.data)}`;
    const closest = closestBranch(node, branches);
    if (closest !== undefined) {
      const detail = render(closest.first, root, basePath);
      message += `. Closest is form (${closest.index + 1}): ${detail.message}`;
    }
  }
  return new ToolValidationError({
    parameterName: path,
    message,
    errorCode: ValidationErrorCode.InvalidValue,
    providedValue: error.data,
    expectedDescription: branches.map((branch) => summarizeSchema(branch)).join(" | "),
  });
}

/**
 * The branch the value nearly matched: not one whose type was wrong outright, and with clearly
 * fewer problems than the others (a unique minimum; a mismatched `const` / `enum`, typically a
 * discriminator, counts heavily). Undefined when no branch stands out.
 */
function closestBranch(
  node: ErrorNode,
  branches: readonly unknown[],
): { index: number; first: ErrorNode } | undefined {
  const { error } = node;
  const own = `${error.schemaPath}/`;
  const byBranch = new Map<number, ErrorNode[]>();
  for (const child of node.children) {
    const index = branchIndexOf(child.error.schemaPath, own, branches);
    if (index === undefined) continue;
    const list = byBranch.get(index) ?? [];
    list.push(child);
    byBranch.set(index, list);
  }
  let best: { index: number; first: ErrorNode; score: number } | undefined;
  let tied = false;
  for (const [index, list] of byBranch) {
    if (
      list.some(
        (child) =>
          child.error.keyword === "type" && child.error.instancePath === error.instancePath,
      )
    ) {
      continue;
    }
    const score = list.reduce(
      (sum, child) =>
        sum + (child.error.keyword === "const" || child.error.keyword === "enum" ? 10 : 1),
      0,
    );
    if (best === undefined || score < best.score) {
      best = { index, first: list[0]!, score };
      tied = false;
    } else if (score === best.score) {
      tied = true;
    }
  }
  return best === undefined || tied ? undefined : best;
}

function branchIndexOf(
  schemaPath: string,
  own: string,
  branches: readonly unknown[],
): number | undefined {
  if (schemaPath.startsWith(own)) {
    const index = Number.parseInt(schemaPath.slice(own.length), 10);
    return Number.isInteger(index) ? index : undefined;
  }
  const index = branches.findIndex((branch) => {
    const ref = asRecord(branch)?.$ref;
    return typeof ref === "string" && (schemaPath === ref || schemaPath.startsWith(`${ref}/`));
  });
  return index === -1 ? undefined : index;
}

/** Of a non-exclusive and an exclusive bound, the stricter one; `sign` -1 for upper bounds. */
function stricter(
  inclusive: number | undefined,
  exclusive: number | undefined,
  sign = 1,
): [number | undefined, boolean] {
  if (exclusive === undefined) return [inclusive, false];
  if (inclusive === undefined) return [exclusive, true];
  return sign * exclusive >= sign * inclusive ? [exclusive, true] : [inclusive, false];
}

/** Appends the schema's description, where it says what the rule alone does not. */
function withHint(
  error: ToolValidationError,
  schema: Record<string, unknown> | undefined,
): ToolValidationError {
  const description = schema?.description;
  return typeof description === "string" && description !== ""
    ? rewrite(error, `${error.message} (${description})`)
    : error;
}

function rewrite(error: ToolValidationError, message: string): ToolValidationError {
  return new ToolValidationError({ ...error, message });
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function ownValue(container: unknown, key: string): unknown {
  return typeof container === "object" && container !== null && Object.hasOwn(container, key)
    ? (container as Record<string, unknown>)[key]
    : undefined;
}

function plural(count: number, unit: string): string {
  if (count === 1) return `1 ${unit}`;
  return `${count} ${unit === "property" ? "properties" : `${unit}s`}`;
}

function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) i++;
    count++;
  }
  return count;
}

function propertyCount(data: unknown): number {
  return typeof data === "object" && data !== null ? Object.keys(data).length : 0;
}
