import { describe, expect, it } from "vitest";
import {
  BuiltinToolId,
  builtinTools,
  fileDeleteTool,
  fileReadTool,
  fileWriteTool,
  listDirectoryTool,
  searchTool,
  terminalExecuteTool,
} from "../../src/builtin/index.js";
import { RiskLevel, ToolCategory } from "../../src/core/index.js";
import { toOpenAiTool } from "../../src/providers/index.js";
import { ToolRegistry } from "../../src/registry/index.js";

describe("builtinTools", () => {
  it("returns the six shared instances, in order", () => {
    expect(builtinTools()).toEqual([
      fileReadTool,
      listDirectoryTool,
      searchTool,
      fileWriteTool,
      fileDeleteTool,
      terminalExecuteTool,
    ]);
    expect(builtinTools().map((tool) => tool.id)).toEqual(Object.values(BuiltinToolId));
    expect(builtinTools()[0]).toBe(fileReadTool);
  });

  it("filters by include, exclude and readOnly", () => {
    expect(builtinTools({ include: ["search", "file-read"] }).map((t) => t.id)).toEqual([
      "file-read",
      "search",
    ]);
    expect(builtinTools({ exclude: ["terminal-execute"] })).toHaveLength(5);
    const readOnly = builtinTools({ readOnly: true });
    expect(readOnly.map((t) => t.id)).toEqual(["file-read", "list-directory", "search"]);
    expect(readOnly.every((t) => t.defaultRiskLevel === RiskLevel.Safe)).toBe(true);
  });

  it("registers in a registry and exports valid function definitions", () => {
    const registry = new ToolRegistry();
    registry.registerTools(builtinTools());
    expect(registry.count).toBe(6);
    expect(registry.getToolsByCategory(ToolCategory.FileSystem)).toHaveLength(4);
    for (const tool of builtinTools()) {
      const definition = toOpenAiTool(tool);
      expect(definition.function.name).toBe(tool.id);
      expect(tool.description.length).toBeGreaterThan(20);
    }
  });

  it("has the risk levels the issue names", () => {
    expect(builtinTools().map((t) => [t.id, t.defaultRiskLevel])).toEqual([
      ["file-read", RiskLevel.Safe],
      ["list-directory", RiskLevel.Safe],
      ["search", RiskLevel.Safe],
      ["file-write", RiskLevel.Low],
      ["file-delete", RiskLevel.High],
      ["terminal-execute", RiskLevel.Medium],
    ]);
  });
});
