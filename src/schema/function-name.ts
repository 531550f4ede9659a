import type { JsonSchema } from "./json-schema.js";
import { InvalidFunctionNameError } from "./schema-error.js";

/** The members of a tool that provider function definitions are made from. */
export interface ToolDefinitionSource {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
}

const functionNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;
const geminiFirstCharacter = /^[a-zA-Z_]/;

/**
 * Whether `name` can be a function name for OpenAI, Anthropic and Gemini:
 * `^[a-zA-Z0-9_-]{1,64}$` (Gemini also needs a letter or `_` first; see `toGeminiFunctionDeclaration`).
 */
export function isValidFunctionName(name: string): boolean {
  return functionNamePattern.test(name);
}

/** The tool id as a provider function name; throws when the provider would reject it. */
export function functionNameOf(tool: ToolDefinitionSource, provider: string): string {
  const { id } = tool;
  if (typeof id !== "string" || !functionNamePattern.test(id)) {
    throw new InvalidFunctionNameError(
      String(id),
      `Tool id ${JSON.stringify(id)} is not a valid ${provider} function name: it must be 1 to 64 ` +
        "letters, digits, '_' or '-' (^[a-zA-Z0-9_-]{1,64}$). Rename the tool, e.g. to " +
        `'${suggestName(String(id))}'.`,
    );
  }
  if (provider === "Gemini" && !geminiFirstCharacter.test(id)) {
    throw new InvalidFunctionNameError(
      id,
      `Tool id '${id}' is not a valid Gemini function name: it must start with a letter or '_'.`,
    );
  }
  return id;
}

function suggestName(id: string): string {
  const cleaned = id
    .replace(/[^a-zA-Z0-9_-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64);
  return cleaned === "" ? "my-tool" : cleaned;
}
