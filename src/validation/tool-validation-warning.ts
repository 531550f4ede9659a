import { ValidationWarningCode } from "./validation-warning-code.js";

/** What a {@link ToolValidationWarning} is made of. */
export interface ToolValidationWarningInit {
  /** The parameter the warning is about; `""` for the call as a whole. */
  readonly parameterName: string;
  /** A human-readable message. */
  readonly message: string;
  /** One of {@link ValidationWarningCode}, or a tool's own code. */
  readonly warningCode: ValidationWarningCode | (string & {});
}

/**
 * A validation warning for a tool parameter (spec 001 `ToolValidationWarning`): a non-blocking
 * issue that is surfaced but does not stop execution. Immutable.
 */
export class ToolValidationWarning {
  /** The parameter the warning is about; `""` for the call as a whole. */
  readonly parameterName: string;
  /** A human-readable message. */
  readonly message: string;
  /** One of {@link ValidationWarningCode}, or a tool's own code. */
  readonly warningCode: ValidationWarningCode | (string & {});

  constructor(init: ToolValidationWarningInit) {
    this.parameterName = init.parameterName;
    this.message = init.message;
    this.warningCode = init.warningCode;
    Object.freeze(this);
  }

  /** The call uses a deprecated parameter; names the `alternative` when there is one. */
  static deprecated(parameterName: string, alternative?: string): ToolValidationWarning {
    return new ToolValidationWarning({
      parameterName,
      message:
        alternative === undefined
          ? `Parameter '${parameterName}' is deprecated.`
          : `Parameter '${parameterName}' is deprecated. Use '${alternative}' instead.`,
      warningCode: ValidationWarningCode.Deprecated,
    });
  }

  /** A large value; `details` is the message, e.g. `Reading 2 GB may exhaust memory`. */
  static largeValue(parameterName: string, details: string): ToolValidationWarning {
    return new ToolValidationWarning({
      parameterName,
      message: details,
      warningCode: ValidationWarningCode.LargeValue,
    });
  }

  /** A potentially slow operation: `This may be slow: <reason>`. */
  static slowOperation(parameterName: string, reason: string): ToolValidationWarning {
    return new ToolValidationWarning({
      parameterName,
      message: `This may be slow: ${reason}`,
      warningCode: ValidationWarningCode.SlowOperation,
    });
  }
}
