import { MAX_ARGUMENT_DEPTH } from "../core/index.js";

/**
 * How deep a JSON-RPC message may nest: a tool call's arguments at their limit, inside the
 * message's own few levels. Deeper, the SDK's checks and copies overflow the stack (a 500, or
 * `-32603 Maximum call stack size exceeded`); the message is refused as invalid first.
 */
export const MAX_MESSAGE_DEPTH = MAX_ARGUMENT_DEPTH + 8;

/** The error a message nested past {@link MAX_MESSAGE_DEPTH} gets (`-32600`). */
export const tooDeepMessage = `Invalid Request: the message nests more than ${MAX_MESSAGE_DEPTH} levels deep (a tool call's arguments may nest ${MAX_ARGUMENT_DEPTH}); send it flatter`;
