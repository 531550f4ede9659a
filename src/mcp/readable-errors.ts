import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/server";

/** An issue of a schema error, as zod writes it in its message. */
interface SchemaIssue {
  readonly path: readonly (string | number)[];
  readonly message: string;
  readonly code?: unknown;
  readonly expected?: unknown;
  /** A union's: the issues of each of its alternatives. */
  readonly errors?: unknown;
}

const INTERNAL_ERROR = -32603;
const INVALID_PARAMS = -32602;

/**
 * Has `transport` send the MCP SDK's own request-check errors as sentences: the SDK puts zod's
 * multi-line JSON dump of the issues in an error's message (`Invalid tools/call request: [ {
 * "expected": "string", ... } ]`), and answers a request whose params fail a list method's schema
 * as an internal error. A client, and the model behind it, gets `Invalid tools/call request:
 * params.name: expected string, received number` instead, and `-32602` for params it sent wrong.
 * Returns `transport`, whose `send` is wrapped.
 */
export function sendReadableErrors<T extends Transport>(transport: T): T {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => send(readableError(message), options);
  return transport;
}

/**
 * `error` with a schema dump in its message written as sentences (what the SDK reports through
 * `onerror` for a notification that fails its schema, say), otherwise `error` itself.
 */
export function readableErrorOf(error: Error): Error {
  const found = schemaIssuesIn(error.message);
  if (found === undefined) return error;
  const prefix = found.prefix.replace(/\b(?:Zod)?Error: $/, "");
  return new Error(`${prefix}${found.issues.map(issueText).join("; ")}`, { cause: error });
}

/** `message` with a schema dump in its error's text written as sentences; otherwise as it is. */
export function readableError(message: JSONRPCMessage): JSONRPCMessage {
  const error = (message as { error?: { code?: unknown; message?: unknown } }).error;
  if (typeof error?.message !== "string") return message;
  const found = schemaIssuesIn(error.message);
  if (found === undefined) return message;
  const text = found.issues.map(issueText).join("; ");
  // A raw schema error thrown by the SDK's handler of a list method: the client's params.
  const aboutParams =
    error.code === INTERNAL_ERROR &&
    found.prefix === "" &&
    found.issues.every((issue) => issue.path[0] === "params");
  return {
    ...message,
    error: {
      ...error,
      code: aboutParams ? INVALID_PARAMS : error.code,
      message: aboutParams ? `Invalid params: ${text}` : `${found.prefix}${text}`,
    },
  } as JSONRPCMessage;
}

/** The issues of a zod error message at the end of `text`, and what precedes them. */
function schemaIssuesIn(text: string): { prefix: string; issues: SchemaIssue[] } | undefined {
  const start = text.search(/\[\s*\{/);
  if (start === -1 || !text.trimEnd().endsWith("]")) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.slice(start));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every(isIssue)) return undefined;
  return { prefix: text.slice(0, start), issues: parsed };
}

function isIssue(value: unknown): value is SchemaIssue {
  if (typeof value !== "object" || value === null) return false;
  const { path, message } = value as { path?: unknown; message?: unknown };
  return (
    typeof message === "string" &&
    Array.isArray(path) &&
    path.every((part) => typeof part === "string" || typeof part === "number")
  );
}

/** `params.name: expected string, received number` (zod's "Invalid input: " dropped). */
function issueText(issue: SchemaIssue): string {
  const what = unionText(issue) ?? issue.message.replace(/^Invalid input: /, "");
  return issue.path.length === 0 ? what : `${issue.path.join(".")}: ${what}`;
}

/**
 * A union of types whose every alternative failed, as one sentence (`expected string or number,
 * received object`) instead of zod's bare "Invalid input"; undefined for any other issue.
 */
function unionText(issue: SchemaIssue): string | undefined {
  if (issue.code !== "invalid_union" || !Array.isArray(issue.errors)) return undefined;
  const alternatives = issue.errors as unknown[];
  const expected: string[] = [];
  let received: string | undefined;
  for (const alternative of alternatives) {
    if (!Array.isArray(alternative) || alternative.length !== 1) return undefined;
    const only = alternative[0] as SchemaIssue;
    if (!isIssue(only) || only.path.length !== 0 || typeof only.expected !== "string") {
      return undefined;
    }
    expected.push(only.expected);
    received ??= /received (\S+)$/.exec(only.message)?.[1];
  }
  if (expected.length === 0) return undefined;
  const types = expected.join(" or ");
  return received === undefined ? `expected ${types}` : `expected ${types}, received ${received}`;
}
