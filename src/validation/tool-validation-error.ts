import { ValidationErrorCode } from "./validation-error-code.js";
import {
  beFor,
  describeValue,
  previewJson,
  providedValueOf,
  subjectOf,
  withArticle,
} from "./value-preview.js";

/** What a {@link ToolValidationError} is made of; `providedValue` is kept as a bounded preview. */
export interface ToolValidationErrorInit {
  /** Where the problem is: `path`, `options.depth`, `items[2]`, `["weird key"]`; `""` for the root. */
  readonly parameterName: string;
  /** A message the model can act on without seeing the schema. */
  readonly message: string;
  /** One of {@link ValidationErrorCode}, or a tool's own code. */
  readonly errorCode: ValidationErrorCode | (string & {});
  /** The value that was provided. */
  readonly providedValue?: unknown;
  /** What was expected: a type, a range, a pattern, the allowed values. */
  readonly expectedDescription?: string;
}

/** Details of a missing parameter, taken from its schema where the validator has it. */
export interface RequiredParameterDetails {
  /** The parameter's JSON type, e.g. `"string"`. */
  readonly type?: string;
  /** The parameter's schema description. */
  readonly description?: string;
}

/** Bounds of an {@link ToolValidationError.outOfRange} error. */
export interface RangeBoundsOptions {
  /** The minimum itself is not allowed (`exclusiveMinimum`). */
  readonly exclusiveMinimum?: boolean;
  /** The maximum itself is not allowed (`exclusiveMaximum`). */
  readonly exclusiveMaximum?: boolean;
}

/**
 * A validation error for one tool parameter (spec 001 `ToolValidationError`). Immutable.
 *
 * @example
 * ToolValidationError.typeMismatch("options.depth", "integer", "string", "3").message
 * // => `Parameter 'options.depth' must be an integer, got string "3"`
 */
export class ToolValidationError {
  /** Where the problem is: `path`, `options.depth`, `items[2]`, `["weird key"]`; `""` for the root. */
  readonly parameterName: string;
  /** A message the model can act on without seeing the schema. */
  readonly message: string;
  /** One of {@link ValidationErrorCode}, or a tool's own code. */
  readonly errorCode: ValidationErrorCode | (string & {});
  /** The value that was provided; a truncated preview string when it was large. */
  readonly providedValue?: unknown;
  /** What was expected: a type, a range, a pattern, the allowed values. */
  readonly expectedDescription?: string;

  constructor(init: ToolValidationErrorInit) {
    this.parameterName = init.parameterName;
    this.message = init.message;
    this.errorCode = init.errorCode;
    if (init.providedValue !== undefined) this.providedValue = providedValueOf(init.providedValue);
    if (init.expectedDescription !== undefined) this.expectedDescription = init.expectedDescription;
    Object.freeze(this);
  }

  /**
   * A required parameter is missing: `Missing required parameter 'path' (string: File path)`.
   */
  static required(parameterName: string, details?: RequiredParameterDetails): ToolValidationError {
    const about = [details?.type, details?.description]
      .filter((part) => part !== undefined && part !== "")
      .join(": ");
    const init: ToolValidationErrorInit = {
      parameterName,
      message: `Missing required parameter '${parameterName}'${about === "" ? "" : ` (${about})`}`,
      errorCode: ValidationErrorCode.Required,
    };
    return new ToolValidationError(
      details?.type === undefined ? init : { ...init, expectedDescription: details.type },
    );
  }

  /** Any other invalid value, with the caller's message. */
  static invalidValue(
    parameterName: string,
    message: string,
    providedValue?: unknown,
  ): ToolValidationError {
    return new ToolValidationError({
      parameterName,
      message,
      errorCode: ValidationErrorCode.InvalidValue,
      providedValue,
    });
  }

  /**
   * A value of the wrong JSON type: `Parameter 'n' must be an integer, got string "3"`.
   * Pass `providedValue` to show it in the message.
   */
  static typeMismatch(
    parameterName: string,
    expectedType: string,
    actualType: string,
    providedValue?: unknown,
  ): ToolValidationError {
    const got = providedValue === undefined ? actualType : describeValue(providedValue);
    return new ToolValidationError({
      parameterName,
      message: `${subjectOf(parameterName)} must be ${expectedPhrase(expectedType)}, got ${got}`,
      errorCode: ValidationErrorCode.TypeMismatch,
      providedValue,
      expectedDescription: expectedType,
    });
  }

  /**
   * A number outside its bounds: `Parameter 'depth' must be >= 1 and <= 10, got 0`.
   * `min` / `max` left `undefined` (or `null`) are unbounded.
   */
  static outOfRange(
    parameterName: string,
    value: unknown,
    min: number | null | undefined,
    max: number | null | undefined,
    options?: RangeBoundsOptions,
  ): ToolValidationError {
    const bounds: string[] = [];
    if (min !== undefined && min !== null) {
      bounds.push(`${options?.exclusiveMinimum === true ? ">" : ">="} ${min}`);
    }
    if (max !== undefined && max !== null) {
      bounds.push(`${options?.exclusiveMaximum === true ? "<" : "<="} ${max}`);
    }
    const expected = bounds.length === 0 ? "within range" : bounds.join(" and ");
    return new ToolValidationError({
      parameterName,
      message: `${subjectOf(parameterName)} must be ${expected}, got ${previewJson(value)}`,
      errorCode: ValidationErrorCode.OutOfRange,
      providedValue: value,
      expectedDescription: expected,
    });
  }

  /** A string that does not match: `Parameter 'id' must match the pattern ^[a-z]+$, got "A"`. */
  static patternMismatch(
    parameterName: string,
    value: string,
    pattern: string,
  ): ToolValidationError {
    return new ToolValidationError({
      parameterName,
      message: `${subjectOf(parameterName)} must match the pattern ${pattern}, got ${previewJson(value)}`,
      errorCode: ValidationErrorCode.PatternMismatch,
      providedValue: value,
      expectedDescription: pattern,
    });
  }

  /**
   * A value not among the allowed ones: `Parameter 'mode' must be one of "read", "write"; got
   * "delete"`. Strings are shown quoted, as the model must send them.
   */
  static invalidEnum(
    parameterName: string,
    value: unknown,
    allowedValues: Iterable<unknown>,
  ): ToolValidationError {
    const allowed = Array.from(allowedValues, (item) => previewJson(item));
    const expected = allowed.join(", ");
    const rule = allowed.length === 1 ? `be ${expected}` : `be one of ${expected}`;
    return new ToolValidationError({
      parameterName,
      message: `${subjectOf(parameterName)} must ${rule}; got ${previewJson(value)}`,
      errorCode: ValidationErrorCode.InvalidEnum,
      providedValue: value,
      expectedDescription: expected,
    });
  }

  /** A path parameter names something that does not exist. */
  static pathNotFound(parameterName: string, path: string): ToolValidationError {
    return new ToolValidationError({
      parameterName,
      message: `Path does not exist: ${path}`,
      errorCode: ValidationErrorCode.PathNotFound,
      providedValue: path,
    });
  }

  /** A path parameter resolves outside the workspace. */
  static pathOutsideWorkspace(parameterName: string, path: string): ToolValidationError {
    return new ToolValidationError({
      parameterName,
      message: `Path is outside the workspace: ${path}`,
      errorCode: ValidationErrorCode.PathOutsideWorkspace,
      providedValue: path,
    });
  }

  /** A value nested deeper than `maxDepth` levels of objects and arrays. */
  static tooDeep(parameterName: string, maxDepth: number): ToolValidationError {
    return new ToolValidationError({
      parameterName,
      message: `${subjectOf(parameterName)} ${beFor(parameterName)} nested more than ${maxDepth} levels deep; flatten it`,
      errorCode: ValidationErrorCode.TooDeep,
      expectedDescription: `at most ${maxDepth} levels of nesting`,
    });
  }

  /**
   * A value over a size limit: `Parameter 'text' is too large: a string of 10485760 characters;
   * the limit is 1000000 characters`.
   */
  static tooLarge(parameterName: string, details: string, limit: string): ToolValidationError {
    return new ToolValidationError({
      parameterName,
      message: `${subjectOf(parameterName)} ${beFor(parameterName)} too large: ${details}; the limit is ${limit}`,
      errorCode: ValidationErrorCode.TooLarge,
      expectedDescription: limit,
    });
  }

  /** The schema itself is unusable; this is the schema author's problem, not the model's. */
  static invalidSchema(problem: string): ToolValidationError {
    return new ToolValidationError({
      parameterName: "",
      message: `The tool's parameter schema is unusable: ${problem}`,
      errorCode: ValidationErrorCode.InvalidSchema,
    });
  }
}

const jsonTypeNames: ReadonlySet<string> = new Set([
  "string",
  "number",
  "integer",
  "boolean",
  "object",
  "array",
  "null",
]);

/** `integer` -> `an integer`; `string,null` -> `a string or null`; other text -> `of type X`. */
function expectedPhrase(expectedType: string): string {
  const types = expectedType.split(/\s*(?:,|\bor\b|\|)\s*/).filter((type) => type !== "");
  if (types.length > 0 && types.every((type) => jsonTypeNames.has(type))) {
    return types.map(withArticle).join(" or ");
  }
  return `of type ${expectedType}`;
}
