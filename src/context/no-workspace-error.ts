import { AinternError } from "../core/index.js";
import { ContextErrorCode } from "./context-error-code.js";

/** Thrown by `context.resolvePath(...)` when the context has no workspace to resolve against. */
export class NoWorkspaceError extends AinternError {
  /** The path that was to be resolved. */
  readonly path: string;

  constructor(path: string) {
    super(
      ContextErrorCode.NoWorkspace,
      `Cannot resolve path '${path.replaceAll("\0", "\\0")}': no workspace is open. Open a ` +
        "workspace (builder.withWorkspace(root)) or check context.hasWorkspace first.",
    );
    this.name = "NoWorkspaceError";
    this.path = path;
  }
}
