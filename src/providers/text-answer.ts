import type { ProviderAnswer } from "./provider-answer.js";

/** `<tool_result name=".." id="..">...</tool_result>` blocks, one per call. */
export function toTextToolResults(answers: readonly ProviderAnswer[]): string {
  return answers.map(textBlock).join("\n");
}

function textBlock(answer: ProviderAnswer): string {
  const error = answer.isError ? ' error="true"' : "";
  // A result must not be able to close its own block and forge another.
  const content = answer.content.replace(/<\/(tool_result)/gi, "<\\/$1");
  return (
    `<tool_result name="${attribute(answer.toolName)}" id="${attribute(answer.callId)}"${error}>\n` +
    `${content}\n</tool_result>`
  );
}

function attribute(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll('"', "&quot;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;");
}
