import { AinternError, ToolErrorCode } from "../core/index.js";
import { safeJsonStringify } from "./safe-json.js";
import { defaultMaxDataLength, truncateText } from "./truncate-text.js";

/** What a result records about a thrown value. */
export interface ThrownDescription {
  /** The thrown value as an `Error` (a non-`Error` value is wrapped, kept as `cause`). */
  readonly exception: Error;
  readonly message: string;
  /**
   * The spec's "exception type name": an `AinternError`'s `code`; otherwise the error's `name`,
   * or its class name when `name` was left at the generic `"Error"`; `ExecutionError` for a
   * thrown non-`Error` value.
   */
  readonly errorCode: string;
}

// A thrown non-Error value may be large; its text only has to identify it.
const maxThrownValueLength = 500;

/** Reads a message and an error code from anything a tool threw. Internal to the folder. */
export function describeThrown(thrown: unknown): ThrownDescription {
  if (AinternError.isInstance(thrown)) {
    return { exception: thrown, message: messageOf(thrown), errorCode: thrown.code };
  }
  if (isErrorLike(thrown)) {
    return { exception: thrown, message: messageOf(thrown), errorCode: typeNameOf(thrown) };
  }
  const message =
    typeof thrown === "string"
      ? truncateText(thrown, defaultMaxDataLength)
      : truncateText(safeJsonStringify(thrown), maxThrownValueLength);
  return {
    exception: new Error(message, { cause: thrown }),
    message,
    errorCode: ToolErrorCode.ExecutionError,
  };
}

// Duck-typed rather than instanceof, so errors from another realm (vm, worker) count too.
function isErrorLike(value: unknown): value is Error {
  return (
    value instanceof Error ||
    (typeof value === "object" &&
      value !== null &&
      typeof (value as Error).name === "string" &&
      typeof (value as Error).message === "string")
  );
}

// A thrown message is model-facing text: kept no longer than result data may be, so a 50 MB
// message is not copied into results, events, logs and lifecycle records whole.
function messageOf(error: Error): string {
  return error.message !== ""
    ? truncateText(error.message, defaultMaxDataLength)
    : typeNameOf(error);
}

function typeNameOf(error: Error): string {
  if (error.name !== "Error" && error.name !== "") return error.name;
  // `class FileLockedError extends Error {}` keeps name "Error"; its class name is the better code.
  const className = (error as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof className === "string" && className !== "" && className !== "Object"
    ? className
    : "Error";
}
