export { MockTool, type MockToolConfig } from "./mock-tool.js";
