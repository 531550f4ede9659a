import { generateText, simulateReadableStream, stepCountIs, streamText } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { aiSdkAdapterSuite, type StreamedToolResult } from "./ai-sdk-suite.js";

aiSdkAdapterSuite({
  name: "AI SDK 6",
  generate(answers) {
    const model = new MockLanguageModelV3({ doGenerate: [...answers] });
    return async (tools, input) => {
      const result = await generateText({ model, tools, ...input, stopWhen: stepCountIs(5) });
      return {
        text: result.text,
        approvalRequests: result.content.filter((part) => part.type === "tool-approval-request"),
        responseMessages: result.response.messages,
      };
    };
  },
  async stream(calls, tools) {
    const model = new MockLanguageModelV3({
      doStream: calls.map((chunks) => ({ stream: simulateReadableStream({ chunks }) })),
    });
    const result = streamText({ model, tools, prompt: "x", stopWhen: stepCountIs(3) });
    const toolResults: StreamedToolResult[] = [];
    for await (const part of result.fullStream) {
      if (part.type === "tool-result") {
        toolResults.push({ preliminary: part.preliminary === true, output: part.output });
      }
    }
    return { toolResults, text: await result.text };
  },
});
