/** How many characters of a value a message shows. */
const MESSAGE_PREVIEW_CHARS = 80;
/** How many characters of a value an error keeps in `providedValue`. */
const PROVIDED_PREVIEW_CHARS = 200;
/** Containers nested deeper than this are shown as `{…}` / `[…]` in a preview. */
const PREVIEW_DEPTH = 8;

/**
 * The JSON type of a value as a message names it: `"string"`, `"number"`, `"boolean"`, `"null"`,
 * `"array"`, `"object"`; for values JSON cannot carry, their JavaScript type (`"undefined"`,
 * `"function"`, `"bigint"`, `"symbol"`).
 */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** A bounded JSON rendering of `value`: at most `maxChars` characters, ending in `…` when cut. */
export function previewJson(value: unknown, maxChars: number = MESSAGE_PREVIEW_CHARS): string {
  const { text, truncated } = boundedJson(value, maxChars);
  return truncated ? `${text}…` : text;
}

/**
 * How a message shows a provided value: its type and a short preview, e.g. `string "3"`,
 * `number 3.5`, `object {"a":1}`; just `null` / `undefined` for those.
 */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  const type = jsonTypeOf(value);
  if (type === "function" || type === "symbol") return type;
  return `${type} ${previewJson(value)}`;
}

/**
 * What an error keeps as `providedValue`: the value itself when small (objects and arrays as a
 * frozen copy), otherwise a truncated JSON preview string, so a 10 MB value never rides along.
 */
export function providedValueOf(value: unknown): unknown {
  if (value === null || typeof value === "boolean" || typeof value === "number") return value;
  if (typeof value === "string") {
    return value.length <= PROVIDED_PREVIEW_CHARS
      ? value
      : `${value.slice(0, PROVIDED_PREVIEW_CHARS)}… (${value.length} characters)`;
  }
  if (typeof value !== "object") return previewJson(value, PROVIDED_PREVIEW_CHARS);
  const { text, truncated } = boundedJson(value, PROVIDED_PREVIEW_CHARS);
  if (truncated) return `${text}…`;
  try {
    return deepFreeze(JSON.parse(text));
  } catch {
    return text; // the preview held a non-JSON part (a function, NaN, ...): keep the text
  }
}

/** The subject of a message about `path`: `Parameter 'a.b'`, or `The parameters` at the root. */
export function subjectOf(path: string): string {
  return path === "" ? "The parameters" : `Parameter '${path}'`;
}

/** The verb that goes with {@link subjectOf}: `is` for a parameter, `are` for the parameters. */
export function beFor(path: string): string {
  return path === "" ? "are" : "is";
}

/** `a` or `an` + a JSON type name, for messages: `an integer`, `a string`, `null`. */
export function withArticle(type: string): string {
  if (type === "null") return "null";
  return /^[aeiou]/i.test(type) ? `an ${type}` : `a ${type}`;
}

interface PreviewState {
  readonly parts: string[];
  length: number;
  readonly maxChars: number;
}

function boundedJson(value: unknown, maxChars: number): { text: string; truncated: boolean } {
  const state: PreviewState = { parts: [], length: 0, maxChars };
  let complete: boolean;
  try {
    complete = emitPreview(value, 0, state);
  } catch {
    return { text: "[unreadable value]", truncated: false };
  }
  const text = state.parts.join("");
  return complete ? { text, truncated: false } : { text: text.slice(0, maxChars), truncated: true };
}

/** Appends `part`; false once the preview is over its budget. */
function pushPart(part: string, state: PreviewState): boolean {
  state.parts.push(part);
  state.length += part.length;
  return state.length <= state.maxChars;
}

function emitPreview(item: unknown, depth: number, state: PreviewState): boolean {
  switch (typeof item) {
    case "string":
      return pushPart(
        JSON.stringify(item.length > state.maxChars ? item.slice(0, state.maxChars + 1) : item),
        state,
      );
    case "number":
      return pushPart(Number.isFinite(item) ? JSON.stringify(item) : String(item), state);
    case "boolean":
      return pushPart(String(item), state);
    case "bigint":
      return pushPart(`${item}n`, state);
    case "undefined":
      return pushPart("undefined", state);
    case "function":
      return pushPart("[function]", state);
    case "symbol":
      return pushPart(String(item), state);
    default:
      break;
  }
  if (item === null) return pushPart("null", state);
  const container = item as object;
  if (Array.isArray(container)) {
    if (depth >= PREVIEW_DEPTH) return pushPart("[…]", state);
    if (!pushPart("[", state)) return false;
    for (let i = 0; i < container.length; i++) {
      if (i > 0 && !pushPart(",", state)) return false;
      if (!emitPreview(container[i], depth + 1, state)) return false;
    }
    return pushPart("]", state);
  }
  if (depth >= PREVIEW_DEPTH) return pushPart("{…}", state);
  if (!pushPart("{", state)) return false;
  let first = true;
  for (const key in container) {
    if (!first && !pushPart(",", state)) return false;
    first = false;
    const shown = key.length > state.maxChars ? key.slice(0, state.maxChars + 1) : key;
    if (!pushPart(`${JSON.stringify(shown)}:`, state)) return false;
    if (!emitPreview((container as Record<string, unknown>)[key], depth + 1, state)) return false;
  }
  return pushPart("}", state);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
