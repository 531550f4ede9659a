import { jsonrepair } from "jsonrepair";
import { isJsonObject, type JsonObject, type JsonValue } from "../core/index.js";
import type { RawArguments } from "./raw-tool-call.js";
import { ToolCallParseErrorCode } from "./tool-call-parse-error-code.js";

/** A problem with a call's arguments, for the model: an error code and a message. */
export interface ArgumentsProblem {
  readonly errorCode: string;
  readonly message: string;
}

/** Parsed arguments, or why there are none. */
export type ParsedArguments =
  | {
      ok: true;
      parameters: JsonObject;
      rawJson: string | undefined;
      warnings: string[];
      problem?: never;
    }
  | {
      ok: false;
      problem: ArgumentsProblem;
      rawJson: string | undefined;
      warnings: string[];
      parameters?: never;
    };

/** How much of an oversized argument text is kept in `rawJson`. */
const oversizedPreviewChars = 1024;

/**
 * Parses a call's arguments into a JSON object, the tolerant way a model's output needs:
 *
 * - empty text or no arguments -> `{}`;
 * - invalid JSON -> repaired with `jsonrepair` when the repair cannot change what the model
 *   meant (trailing commas, missing closing brackets, single quotes, unquoted keys, comments),
 *   with a warning; text that ends inside a string, a number or after a `:` looks cut off and is
 *   not repaired, since closing it would invent a value;
 * - a JSON string holding a JSON object (double encoding) -> decoded, with a warning;
 * - anything else, and anything over `maxBytes` of JSON text -> a problem for the model.
 *
 * `label` names the tool in messages.
 */
export function parseArguments(
  args: RawArguments,
  label: string,
  maxBytes: number,
): ParsedArguments {
  switch (args.kind) {
    case "missing":
      return { ok: true, parameters: {}, rawJson: undefined, warnings: [] };
    case "invalid":
      return fail(ToolCallParseErrorCode.InvalidCall, args.problem, undefined);
    case "value":
      return parseValue(args.value, label, maxBytes);
    case "text":
      return parseText(args.text, label, maxBytes);
    default:
      return args satisfies never;
  }
}

function parseValue(value: unknown, label: string, maxBytes: number): ParsedArguments {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    return fail(
      ToolCallParseErrorCode.InvalidJson,
      `Arguments for '${label}' could not be read as JSON: ${
        error instanceof RangeError ? "they nest too deeply" : reasonOf(error)
      }. Send a JSON object.`,
      undefined,
    );
  }
  if (text === undefined) {
    return fail(
      ToolCallParseErrorCode.InvalidJson,
      `Arguments for '${label}' could not be read as JSON. Send a JSON object.`,
      undefined,
    );
  }
  const tooLarge = sizeProblem(text, label, maxBytes);
  if (tooLarge !== undefined) return tooLarge;
  // A JSON round trip gives a private, JSON-only copy of what the provider decoded.
  const copy = JSON.parse(text) as JsonValue;
  if (!isJsonObject(copy)) {
    return fail(ToolCallParseErrorCode.NotAnObject, notAnObject(label, copy), text);
  }
  return { ok: true, parameters: copy, rawJson: text, warnings: [] };
}

function parseText(text: string, label: string, maxBytes: number): ParsedArguments {
  const tooLarge = sizeProblem(text, label, maxBytes);
  if (tooLarge !== undefined) return tooLarge;
  if (text.trim() === "") return { ok: true, parameters: {}, rawJson: text, warnings: [] };

  let value: JsonValue;
  const warnings: string[] = [];
  try {
    value = JSON.parse(text) as JsonValue;
  } catch (error) {
    const reason = reasonOf(error);
    const repaired = repairJson(text);
    if (!repaired.ok || !isJsonObject(repaired.value)) {
      const why = repaired.ok ? reason : `${reason} (${repaired.problem})`;
      return fail(
        ToolCallParseErrorCode.InvalidJson,
        `Arguments for '${label}' are not valid JSON: ${why}. Send a JSON object.`,
        text,
      );
    }
    value = repaired.value;
    warnings.push(
      `The arguments were not valid JSON (${reason}) and were repaired; check them before ` +
        "approving. The original text is kept in rawJson.",
    );
  }

  if (typeof value === "string") {
    const inner = decodeNestedObject(value);
    if (inner !== undefined) {
      warnings.push("The arguments were a JSON string holding a JSON object; it was decoded.");
      value = inner;
    }
  }
  if (!isJsonObject(value)) {
    return fail(ToolCallParseErrorCode.NotAnObject, notAnObject(label, value), text);
  }
  return { ok: true, parameters: value, rawJson: text, warnings };
}

type RepairResult = { ok: true; value: JsonValue } | { ok: false; problem: string };

/** Repairs broken JSON unless the text looks cut off in the middle of a value. */
export function repairJson(text: string): RepairResult {
  const cutOff = cutOffProblem(text);
  if (cutOff !== undefined) return { ok: false, problem: cutOff };
  try {
    return { ok: true, value: JSON.parse(jsonrepair(text)) as JsonValue };
  } catch (error) {
    return { ok: false, problem: `it could not be repaired: ${reasonOf(error)}` };
  }
}

/**
 * Why repairing `text` would be guessing, or undefined. Only text with unclosed brackets is
 * suspect; it is unsafe when it stops inside a string, inside a number (which may have lost
 * digits), in an unfinished literal, or right after a `:` (a value is missing).
 */
function cutOffProblem(text: string): string | undefined {
  let inString = false;
  let escaped = false;
  let depth = 0;
  for (const char of text) {
    if (inString) {
      if (escaped) escaped = false;
      else if (char === "\\") escaped = true;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{" || char === "[") depth++;
    else if (char === "}" || char === "]") depth--;
  }
  if (inString) return "the text ends inside a string, so the output looks cut off";
  if (depth <= 0) return undefined;
  const tail = text.trimEnd();
  if (tail.endsWith(":")) return "the text ends before a value, so the output looks cut off";
  const word = /[A-Za-z0-9.+-]+$/.exec(tail)?.[0];
  if (word !== undefined && word !== "true" && word !== "false" && word !== "null") {
    return "the text ends inside a value, so the output looks cut off";
  }
  return undefined;
}

function decodeNestedObject(value: string): JsonObject | undefined {
  if (!value.trimStart().startsWith("{")) return undefined;
  try {
    const inner: unknown = JSON.parse(value);
    return isJsonObject(inner) ? inner : undefined;
  } catch {
    return undefined;
  }
}

function sizeProblem(text: string, label: string, maxBytes: number): ParsedArguments | undefined {
  // UTF-8 never takes fewer bytes than UTF-16 code units, so short text skips the byte count.
  if (text.length * 3 <= maxBytes) return undefined;
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes <= maxBytes) return undefined;
  const preview = `${text.slice(0, oversizedPreviewChars)}... [truncated by aintern, ${bytes} bytes]`;
  return fail(
    ToolCallParseErrorCode.ArgumentsTooLarge,
    `Arguments for '${label}' are ${bytes} bytes of JSON, over the limit of ${maxBytes} bytes. ` +
      "Send smaller arguments, or split the work over several calls.",
    preview,
  );
}

function notAnObject(label: string, value: JsonValue): string {
  const kind =
    value === null
      ? "null"
      : Array.isArray(value)
        ? "an array"
        : typeof value === "string"
          ? "a string"
          : typeof value === "number"
            ? "a number"
            : "a boolean";
  return `Arguments for '${label}' must be a JSON object, not ${kind}. Send a JSON object.`;
}

function fail(errorCode: string, message: string, rawJson: string | undefined): ParsedArguments {
  return { ok: false, problem: { errorCode, message }, rawJson, warnings: [] };
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\.$/, "");
}
