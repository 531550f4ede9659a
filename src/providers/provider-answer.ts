/** What the model is told about one call, in no provider's format yet. */
export interface ProviderAnswer {
  /** The id the provider knows the call by. */
  readonly callId: string;
  /** The function name the model called. */
  readonly toolName: string;
  /** Whether the provider gave the call its id (not made up by aintern): Gemini gets it only then. */
  readonly hasProviderCallId: boolean;
  readonly content: string;
  readonly isError: boolean;
}
