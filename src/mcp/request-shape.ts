/**
 * What is wrong with a JSON-RPC request's envelope that the MCP SDK checks before any handler
 * (`params` an object, `params._meta` an object, its `progressToken` a string or an integer),
 * as `path: problem`; undefined when nothing is. The SDK drops a request that fails this check
 * without an answer (stdio) or refuses it without saying why (HTTP): checked first, the client
 * hears which field is wrong.
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
  if (typeof token === "string" || Number.isInteger(token)) return undefined;
  return `params._meta.progressToken: expected a string or an integer, received ${kindOf(token)}`;
}

/** An object with a string `method` and an `id`: a request, however malformed otherwise. */
export function isRequestLike(value: unknown): value is object {
  return isPlainObject(value) && typeof value.method === "string" && "id" in value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") return "a number that is not an integer";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
