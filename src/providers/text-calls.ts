import type { JsonValue } from "../core/index.js";
import { asRecord, own, ownString, rawArguments } from "./object-access.js";
import { repairJson } from "./parse-arguments.js";
import type { RawToolCall } from "./raw-tool-call.js";
import { synthesizeCallId } from "./synthesize-call-id.js";
import { TooManyToolCallsError } from "./too-many-tool-calls-error.js";

const openTag = "<tool_call>";
const closeTag = "</tool_call>";
// A fenced block tagged tool_call or json; an unclosed fence runs to the end of the text.
const fencePattern = /```[ \t]*(tool_call|json)[^\n]*\n([\s\S]*?)(?:```|$)/gi;

interface Block {
  readonly start: number;
  readonly end: number;
  readonly body: string;
  /** `<tool_call>` and ```tool_call blocks are calls whatever they hold; ```json ones only when
   * they look like one. */
  readonly explicit: boolean;
}

/**
 * The calls in plain model text: `<tool_call>{"name": ..., "arguments": ...}</tool_call>` blocks
 * (an unclosed one at the end counts: the output was cut off) and fenced ```tool_call / ```json
 * blocks holding `{name, arguments | parameters}` (or an array of them). A ```json block that is
 * not shaped like a call is ordinary content and is ignored; a `<tool_call>` block that cannot be
 * read is still a call, reported to the model as invalid.
 */
export function extractTextToolCalls(
  text: string,
  maxCalls = Number.POSITIVE_INFINITY,
): RawToolCall[] {
  const blocks = findBlocks(text);
  // Every tag or tool_call fence block yields at least one call: refuse before parsing them.
  const explicitBlocks = blocks.filter((block) => block.explicit).length;
  if (explicitBlocks > maxCalls) throw new TooManyToolCallsError(explicitBlocks, maxCalls);
  const calls: RawToolCall[] = [];
  for (const block of blocks) {
    for (const call of callsInBlock(block)) {
      calls.push({
        ...call,
        providerCallId:
          call.providerCallId ?? synthesizeCallId("text_call", calls.length, block.body),
        callIdSynthesized: call.providerCallId === undefined,
      });
    }
  }
  return calls;
}

function findBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let from = 0;
  // Cached between blocks, so text full of unclosed tags is still scanned in linear time.
  let close: number | undefined;
  for (;;) {
    const start = text.indexOf(openTag, from);
    if (start < 0) break;
    const bodyStart = start + openTag.length;
    if (close === undefined || (close >= 0 && close < bodyStart)) {
      close = text.indexOf(closeTag, bodyStart);
    }
    const nextOpen = text.indexOf(openTag, bodyStart);
    let bodyEnd = text.length;
    let end = text.length;
    if (close >= 0 && (nextOpen < 0 || close < nextOpen)) {
      bodyEnd = close;
      end = close + closeTag.length;
    } else if (nextOpen >= 0) {
      bodyEnd = nextOpen;
      end = nextOpen;
    }
    blocks.push({ start, end, body: stripFence(text.slice(bodyStart, bodyEnd)), explicit: true });
    from = end;
  }
  const tagged = blocks.length;
  let inside = 0;
  for (const match of text.matchAll(fencePattern)) {
    const start = match.index;
    // Fences come in order, so one pointer walks the tag blocks to skip fences inside them.
    while (inside < tagged && blocks[inside]!.end <= start) inside++;
    if (inside < tagged && blocks[inside]!.start <= start) continue;
    blocks.push({
      start,
      end: start + match[0].length,
      body: match[2] ?? "",
      explicit: match[1]?.toLowerCase() === "tool_call",
    });
  }
  return blocks.sort((a, b) => a.start - b.start);
}

function stripFence(body: string): string {
  const fenced = /^\s*```[^\n]*\n([\s\S]*?)(?:```\s*)?$/.exec(body);
  return fenced?.[1] ?? body;
}

type FoundCall = Omit<RawToolCall, "providerCallId" | "callIdSynthesized"> & {
  providerCallId: string | undefined;
};

function callsInBlock(block: Block): FoundCall[] {
  const body = block.body.trim();
  const notes: string[] = [];
  let values: JsonValue[];
  try {
    values = [JSON.parse(body) as JsonValue];
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/\.$/, "") : String(error);
    const sequence = leadingJsonValues(body);
    if (sequence.values.length > 0) {
      values = sequence.values;
      if (sequence.rest.trim() !== "")
        notes.push("Text after the JSON in the tool call block was ignored.");
    } else {
      const repaired = repairJson(body);
      // A repair that turns one broken object into an array would invent calls.
      if (!repaired.ok || (Array.isArray(repaired.value) && !body.startsWith("["))) {
        const why = repaired.ok ? reason : `${reason} (${repaired.problem})`;
        return block.explicit || looksLikeCall(body) ? [unreadable(body, why)] : [];
      }
      values = [repaired.value];
      notes.push(`The tool call block was not valid JSON (${reason}) and was repaired.`);
    }
  }
  const calls: FoundCall[] = [];
  values.forEach((value, index) => {
    // Only the block's first value is a call whatever it holds; later ones must look like one.
    const explicit = block.explicit && index === 0;
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) {
      const call = callFromObject(item, notes, explicit);
      if (call !== undefined) calls.push(call);
      else if (explicit) calls.push(notACall());
    }
    if (explicit && items.length === 0) calls.push(notACall());
  });
  return calls;
}

/**
 * The complete JSON objects and arrays at the start of `text`, one after another (a model may put
 * several calls in one block, or prose after the JSON), and the text after them.
 */
function leadingJsonValues(text: string): { values: JsonValue[]; rest: string } {
  const values: JsonValue[] = [];
  let rest = text;
  for (;;) {
    const trimmed = rest.trimStart();
    const end = closingIndex(trimmed);
    if (end < 0) break;
    try {
      values.push(JSON.parse(trimmed.slice(0, end + 1)) as JsonValue);
    } catch {
      break;
    }
    rest = trimmed.slice(end + 1);
  }
  return { values, rest };
}

/** The index of the bracket closing the object or array `text` starts with, or -1. */
function closingIndex(text: string): number {
  if (!text.startsWith("{") && !text.startsWith("[")) return -1;
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (char === "\\") escaped = true;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{" || char === "[") depth++;
    else if (char === "}" || char === "]") {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

function callFromObject(
  item: JsonValue,
  notes: readonly string[],
  explicit: boolean,
): FoundCall | undefined {
  const record = asRecord(item);
  if (record === undefined) return undefined;
  const source = asRecord(own(record, "function")) ?? record;
  const name = own(source, "name");
  const hasArguments = Object.hasOwn(source, "arguments") || Object.hasOwn(source, "parameters");
  // In a tool_call block either key marks a call; a json block must have both to be one.
  const isCall = explicit
    ? typeof name === "string" || hasArguments
    : typeof name === "string" && hasArguments;
  if (!isCall) return undefined;
  const args = Object.hasOwn(source, "arguments")
    ? own(source, "arguments")
    : own(source, "parameters");
  return {
    providerCallId: ownString(record, "id"),
    name,
    args: rawArguments(args),
    notes,
  };
}

function looksLikeCall(body: string): boolean {
  return /"name"\s*:/.test(body) && /"(arguments|parameters)"\s*:/.test(body);
}

function unreadable(body: string, reason: string): FoundCall {
  const name = /"name"\s*:\s*"([^"\\]{1,200})"/.exec(body)?.[1];
  const shown = name ?? "<tool>";
  return {
    providerCallId: undefined,
    name,
    args: {
      kind: "invalid",
      problem:
        `The tool call block${name === undefined ? "" : ` for '${name}'`} is not valid JSON: ` +
        `${reason}. Send <tool_call>{"name": "${shown}", "arguments": {...}}</tool_call>.`,
    },
  };
}

function notACall(): FoundCall {
  return {
    providerCallId: undefined,
    name: undefined,
    args: {
      kind: "invalid",
      problem:
        'The tool call block must hold a JSON object {"name": "<tool>", "arguments": {...}}.',
    },
  };
}
