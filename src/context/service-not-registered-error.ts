import { AinternError } from "../core/index.js";
import { ContextErrorCode } from "./context-error-code.js";

/** Thrown by `getRequiredService(token)` when nothing is registered for the token. */
export class ServiceNotRegisteredError extends AinternError {
  /** The name of the token that was asked for. */
  readonly tokenName: string;
  /** The names of the tokens that are registered. */
  readonly registered: readonly string[];

  constructor(tokenName: string, registered: readonly string[]) {
    const available = registered.length === 0 ? "none" : registered.join(", ");
    super(
      ContextErrorCode.ServiceNotRegistered,
      `Service '${tokenName}' is not registered. Register it with ` +
        `container.register(token, value). Registered: ${available}.`,
    );
    this.name = "ServiceNotRegisteredError";
    this.tokenName = tokenName;
    this.registered = Object.freeze([...registered]);
  }
}
