/**
 * What is wrong with a JSON-RPC request's (or notification's) envelope that the MCP SDK checks
 * before any handler (`params` an object, `params._meta` an object, its `progressToken` a string
 * or a safe integer), as `path: problem`; undefined when nothing is. The SDK drops a request that
 * fails this check without an answer (stdio) or refuses it without saying why (HTTP): checked
 * first, the client hears which field is wrong.
 */
export function requestShapeProblem(request: object): string | undefined {
  if (!("params" in request) || request.params === undefined) return undefined;
  const { params } = request;
  if (!isPlainObject(params)) return `params: expected an object, received ${kindOf(params)}`;
  if (!("_meta" in params) || params._meta === undefined) return undefined;
  const meta = params._meta;
  if (!isPlainObject(meta)) return `params._meta: expected an object, received ${kindOf(meta)}`;
  if (!("progressToken" in meta) || meta.progressToken === undefined) return undefined;
  const token = meta.progressToken;
  if (typeof token === "string" || Number.isSafeInteger(token)) return undefined;
  const kind =
    typeof token === "number"
      ? Number.isInteger(token)
        ? "an integer too large to be exact"
        : "a number that is not an integer"
      : kindOf(token);
  return `params._meta.progressToken: expected a string or an integer, received ${kind}`;
}

/** An object with a string `method`: a request or a notification, however malformed otherwise. */
export function hasMethod(value: unknown): value is object {
  return isPlainObject(value) && typeof value.method === "string";
}

/**
 * The id to answer a malformed message with: its own when it is one JSON-RPC allows and JSON
 * carries back as it came (a string, or a number a double holds exactly), otherwise null.
 */
export function requestId(value: unknown): string | number | null {
  if (typeof value !== "object" || value === null || !("id" in value)) return null;
  const id = (value as { id: unknown }).id;
  if (typeof id === "string") return id;
  const exact = typeof id === "number" && Number.isFinite(id);
  return exact && (!Number.isInteger(id) || Number.isSafeInteger(id)) ? id : null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") return "a number";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
