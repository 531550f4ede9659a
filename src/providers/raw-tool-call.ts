/** The arguments of a call as found in a response, before parsing. */
export type RawArguments =
  /** JSON text (OpenAI, text blocks). */
  | { readonly kind: "text"; readonly text: string }
  /** An already decoded value (Anthropic `input`, Gemini `args`). */
  | { readonly kind: "value"; readonly value: unknown }
  /** No arguments at all: read as `{}` (Gemini leaves `args` out for parameterless calls). */
  | { readonly kind: "missing" }
  /** The call itself could not be read; `problem` is a message for the model. */
  | { readonly kind: "invalid"; readonly problem: string };

/** One call found in a response by a format's extractor: nothing is parsed or checked yet. */
export interface RawToolCall {
  readonly providerCallId: string;
  readonly callIdSynthesized: boolean;
  /** The tool name the model used; anything but a non-empty string is reported to the model. */
  readonly name: unknown;
  readonly args: RawArguments;
  /** Notes for the request's warnings (e.g. a repaired text block). */
  readonly notes?: readonly string[];
}
