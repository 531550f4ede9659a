import { beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ToolExecutionContextBuilder } from "../../src/context/index.js";
import { AinternError, allToolCategories, RiskLevel, ToolCategory } from "../../src/core/index.js";
import {
  DuplicateToolError,
  InvalidToolError,
  ToolAvailabilityContext,
  ToolNotFoundError,
  ToolRegistry,
  type ToolRegistryChangedEvent,
  ToolRegistryChangeType,
} from "../../src/registry/index.js";
import { ToolResult } from "../../src/result/index.js";
import { FunctionDefinition, type JsonSchema, JsonSchemaBuilder } from "../../src/schema/index.js";
import type { Logger } from "../../src/telemetry/index.js";
import { MockTool } from "../../src/testing/index.js";
import { defineTool, type Tool } from "../../src/tools/index.js";

function ids(tools: readonly Tool[]): string[] {
  return tools.map((t) => t.id);
}

/** A tool object that is not a ToolBase, with one member overridden. */
function rawTool(overrides: Record<string, unknown>): Tool {
  const base = new MockTool({ id: "raw-tool" });
  const tool = {
    id: base.id,
    name: base.name,
    description: base.description,
    category: base.category,
    defaultRiskLevel: base.defaultRiskLevel,
    inputSchema: base.inputSchema,
    isAvailable: true,
    tags: [],
    requiredPermissions: [],
    requiresConfirmation: false,
    execute: base.execute.bind(base),
    validate: base.validate.bind(base),
    getExecutionSummary: base.getExecutionSummary.bind(base),
    getEffectiveRiskLevel: base.getEffectiveRiskLevel.bind(base),
    ...overrides,
  };
  return tool as unknown as Tool;
}

function registrationError(registry: ToolRegistry, tool: Tool): InvalidToolError {
  try {
    registry.registerTool(tool);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidToolError);
    return error as InvalidToolError;
  }
  throw new Error(`registering '${String(tool.id)}' did not throw`);
}

describe("ToolRegistry (spec 001 j ToolRegistryTests)", () => {
  let registry: ToolRegistry;

  beforeEach(() => {
    registry = new ToolRegistry();
  });

  it("RegisterTool_AddsTool", () => {
    registry.registerTool(new MockTool({ id: "test-tool" }));
    expect(registry.count).toBe(1);
    expect(registry.hasTool("test-tool")).toBe(true);
  });

  it("RegisterTool_Duplicate_ThrowsException", () => {
    registry.registerTool(new MockTool({ id: "test-tool" }));
    const second = new MockTool({ id: "test-tool" });
    expect(() => registry.registerTool(second)).toThrow(DuplicateToolError);
    try {
      registry.registerTool(second);
    } catch (error) {
      expect(AinternError.isInstance(error)).toBe(true);
      expect((error as DuplicateToolError).code).toBe("DUPLICATE_TOOL");
      expect((error as DuplicateToolError).toolId).toBe("test-tool");
      expect((error as Error).message).toMatch(/already registered.*updateTool/);
    }
    expect(registry.count).toBe(1);
  });

  it("GetTool_ReturnsCorrectTool", () => {
    registry.registerTool(new MockTool({ id: "test-tool", name: "Test Tool" }));
    const retrieved = registry.getTool("test-tool");
    expect(retrieved).toBeDefined();
    expect(retrieved?.name).toBe("Test Tool");
  });

  it("GetTool_NotFound_ReturnsNull", () => {
    expect(registry.getTool("nonexistent")).toBeUndefined();
  });

  it("UnregisterTool_RemovesTool", () => {
    registry.registerTool(new MockTool({ id: "test-tool" }));
    expect(registry.unregisterTool("test-tool")).toBe(true);
    expect(registry.count).toBe(0);
    expect(registry.hasTool("test-tool")).toBe(false);
    expect(registry.unregisterTool("test-tool")).toBe(false);
  });

  it("GetToolsByCategory_FiltersCorrectly", () => {
    registry.registerTool(new MockTool({ id: "file-1", category: ToolCategory.FileSystem }));
    registry.registerTool(new MockTool({ id: "file-2", category: ToolCategory.FileSystem }));
    registry.registerTool(new MockTool({ id: "term-1", category: ToolCategory.Terminal }));
    const fileTools = registry.getToolsByCategory(ToolCategory.FileSystem);
    expect(fileTools).toHaveLength(2);
    expect(ids(fileTools)).toEqual(["file-1", "file-2"]);
  });

  it("GetAvailableTools_WithContext_FiltersCorrectly", () => {
    registry.registerTool(new MockTool({ id: "file-tool", category: ToolCategory.FileSystem }));
    registry.registerTool(new MockTool({ id: "term-tool", category: ToolCategory.Terminal }));
    const tools = registry.getAvailableTools({ hasTerminal: false });
    expect(tools).toHaveLength(1);
    expect(tools[0]?.id).toBe("file-tool");
  });

  it("ToolsChanged_EventFires_OnRegister", () => {
    let event: ToolRegistryChangedEvent | undefined;
    registry.onToolsChanged((e) => {
      event = e;
    });
    const tool = new MockTool({ id: "test-tool" });
    registry.registerTool(tool);
    expect(event).toBeDefined();
    expect(event?.changeType).toBe(ToolRegistryChangeType.Added);
    expect(event?.tool).toBe(tool);
    expect(event?.timestamp).toBeInstanceOf(Date);
  });
});

describe("ToolRegistry lookup", () => {
  let registry: ToolRegistry;

  beforeEach(() => {
    registry = new ToolRegistry();
  });

  it("looks tools up case-insensitively and keeps the id as registered", () => {
    registry.registerTool(new MockTool({ id: "File-Read" }));
    expect(registry.getTool("file-read")?.id).toBe("File-Read");
    expect(registry.getTool("FILE-READ")?.id).toBe("File-Read");
    expect(registry.hasTool("fIlE-rEaD")).toBe(true);
    expect(() => registry.registerTool(new MockTool({ id: "file-READ" }))).toThrow(
      DuplicateToolError,
    );
    expect(registry.unregisterTool("FILE-read")).toBe(true);
    expect(registry.count).toBe(0);
  });

  it("finds nothing for 'constructor', '__proto__' or 'toString' in an empty registry", () => {
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"]) {
      expect(registry.getTool(name)).toBeUndefined();
      expect(registry.hasTool(name)).toBe(false);
      expect(registry.getFunctionDefinition(name)).toBeUndefined();
      expect(registry.unregisterTool(name)).toBe(false);
      expect(() => registry.getRequiredTool(name)).toThrow(ToolNotFoundError);
    }
  });

  it("registers 'constructor' and '__proto__' as ordinary ids", () => {
    const ctor = new MockTool({ id: "constructor" });
    const proto = new MockTool({ id: "__proto__" });
    registry.registerTool(ctor);
    registry.registerTool(proto);
    expect(registry.count).toBe(2);
    expect(registry.getTool("constructor")).toBe(ctor);
    expect(registry.getTool("__PROTO__")).toBe(proto);
    expect(ids(registry.tools)).toEqual(["constructor", "__proto__"]);
    expect(registry.getFunctionDefinition("__proto__")?.name).toBe("__proto__");
    expect(registry.unregisterTool("__proto__")).toBe(true);
    expect(registry.getTool("__proto__")).toBeUndefined();
    expect(registry.getTool("constructor")).toBe(ctor);
  });

  it("returns undefined for a non-string id from untyped code", () => {
    registry.registerTool(new MockTool({ id: "a" }));
    expect(registry.getTool(undefined as unknown as string)).toBeUndefined();
    expect(registry.getTool(42 as unknown as string)).toBeUndefined();
  });

  it("getRequiredTool returns the tool, or throws ToolNotFoundError naming the closest id", () => {
    registry.registerTools([
      new MockTool({ id: "file-read" }),
      new MockTool({ id: "file-write" }),
      new MockTool({ id: "search" }),
    ]);
    expect(registry.getRequiredTool("FILE-READ").id).toBe("file-read");
    let caught: unknown;
    try {
      registry.getRequiredTool("file-raed");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ToolNotFoundError);
    const error = caught as ToolNotFoundError;
    expect(error.code).toBe("TOOL_NOT_FOUND");
    expect(error.toolId).toBe("file-raed");
    expect(error.availableTools).toEqual(["file-read", "file-write", "search"]);
    expect(error.message).toBe(
      "Tool 'file-raed' not found. Did you mean 'file-read'? Available: file-read, file-write, search",
    );
  });

  it("getRequiredTool gives no suggestion when nothing is close, and says when none exist", () => {
    expect(() => new ToolRegistry().getRequiredTool("x")).toThrow(
      "Tool 'x' not found. Available: none",
    );
    registry.registerTool(new MockTool({ id: "search" }));
    expect(() => registry.getRequiredTool("completely-different")).toThrow(
      "Tool 'completely-different' not found. Available: search",
    );
  });

  it("lists tools in registration order as a frozen snapshot", () => {
    registry.registerTool(new MockTool({ id: "b" }));
    registry.registerTool(new MockTool({ id: "a" }));
    const snapshot = registry.tools;
    expect(ids(snapshot)).toEqual(["b", "a"]);
    expect(Object.isFrozen(snapshot)).toBe(true);
    expect(registry.tools).toBe(snapshot);
    registry.registerTool(new MockTool({ id: "c" }));
    expect(ids(snapshot)).toEqual(["b", "a"]);
    expect(ids(registry.tools)).toEqual(["b", "a", "c"]);
  });

  it("registers the tools given at construction", () => {
    const withTools = new ToolRegistry({
      tools: [new MockTool({ id: "one" }), new MockTool({ id: "two" })],
    });
    expect(withTools.count).toBe(2);
    expect(
      () => new ToolRegistry({ tools: [new MockTool({ id: "x" }), new MockTool({ id: "X" })] }),
    ).toThrow(DuplicateToolError);
  });

  it("registerTools stops at the first failure and keeps those before it", () => {
    expect(() =>
      registry.registerTools([
        new MockTool({ id: "ok-1" }),
        new MockTool({ id: "bad id" }),
        new MockTool({ id: "ok-2" }),
      ]),
    ).toThrow(InvalidToolError);
    expect(ids(registry.tools)).toEqual(["ok-1"]);
  });
});

describe("ToolRegistry registration checks", () => {
  let registry: ToolRegistry;

  beforeEach(() => {
    registry = new ToolRegistry();
  });

  it.each([
    ["an empty id", ""],
    ["an id with spaces", "file read"],
    ["a 65-character id", "a".repeat(65)],
    ["an id with a dot", "file.read"],
    ["an id with a slash", "file/read"],
    ["an id starting with '-'", "-flag"],
    ["an id with non-ASCII letters", "fïle-read"],
  ])("refuses %s with an InvalidToolError naming the id and the rule", (_label, id) => {
    const error = registrationError(registry, new MockTool({ id }));
    expect(error.code).toBe("INVALID_TOOL");
    expect(error.toolId).toBe(id);
    expect(error.message).toContain(`Tool '${id}'`);
    expect(error.problem).toMatch(/id must be 1-64 characters/);
    expect(registry.count).toBe(0);
  });

  it("accepts a 64-character id, underscores and a leading digit", () => {
    registry.registerTool(new MockTool({ id: "a".repeat(64) }));
    registry.registerTool(new MockTool({ id: "snake_case_tool" }));
    registry.registerTool(new MockTool({ id: "7zip" }));
    registry.registerTool(new MockTool({ id: "_private" }));
    expect(registry.count).toBe(4);
  });

  it("refuses a tool without a name", () => {
    const error = registrationError(registry, rawTool({ id: "nameless", name: undefined }));
    expect(error.toolId).toBe("nameless");
    expect(error.problem).toMatch(/no name/);
    expect(error.message).toMatch(/Tool 'nameless' cannot be registered: .*no name/);
    expect(registrationError(registry, new MockTool({ id: "blank", name: "   " })).problem).toMatch(
      /no name/,
    );
  });

  it("refuses a tool whose description is not a string, or without execute", () => {
    expect(registrationError(registry, rawTool({ description: 42 })).problem).toMatch(
      /description/,
    );
    expect(registrationError(registry, rawTool({ execute: undefined })).problem).toMatch(/execute/);
  });

  it("refuses something that is not a tool object", () => {
    const error = registrationError(registry, null as unknown as Tool);
    expect(error.problem).toMatch(/tool object/);
    expect(registrationError(registry, rawTool({ id: 7 })).toolId).toBe("7");
  });

  it("refuses a schema with a misspelled type, naming the tool and the property", () => {
    const schema = { type: "object", properties: { a: { type: "strnig" } }, required: [] };
    const error = registrationError(
      registry,
      new MockTool({ id: "typo", schema: schema as JsonSchema }),
    );
    expect(error.toolId).toBe("typo");
    expect(error.message).toContain("Tool 'typo'");
    expect(error.problem).toMatch(/not a valid JSON Schema/);
    expect(error.problem).toContain("/properties/a/type");
  });

  it("refuses a schema with minLength -1", () => {
    const schema: JsonSchema = {
      type: "object",
      properties: { a: { type: "string", minLength: -1 } },
      required: [],
    };
    const error = registrationError(registry, new MockTool({ id: "negative", schema }));
    expect(error.problem).toContain("/properties/a/minLength");
  });

  it("refuses a schema that is not an object schema", () => {
    for (const schema of [{ type: "string" }, { properties: {} }, null, "object", undefined]) {
      const error = registrationError(registry, rawTool({ id: "not-object", inputSchema: schema }));
      expect(error.problem).toMatch(/type "object"/);
    }
  });

  it("checks tools given to tryRegisterTool and updateTool too", () => {
    expect(() => registry.tryRegisterTool(new MockTool({ id: "bad id" }))).toThrow(
      InvalidToolError,
    );
    registry.registerTool(new MockTool({ id: "good" }));
    expect(() => registry.updateTool(new MockTool({ id: "good", name: "" }))).toThrow(
      InvalidToolError,
    );
    expect(registry.getTool("good")?.name).toBe("Mock Tool");
  });

  it("logs registrations and refused duplicates to the given logger", () => {
    const logger: Logger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const logged = new ToolRegistry({ logger });
    logged.registerTool(new MockTool({ id: "a", category: ToolCategory.Search }));
    expect(logger.info).toHaveBeenCalledWith(
      expect.objectContaining({ toolId: "a", category: "Search" }),
      expect.stringContaining("Registered tool: a"),
    );
    expect(() => logged.registerTool(new MockTool({ id: "a" }))).toThrow(DuplicateToolError);
    expect(logger.warn).toHaveBeenCalledOnce();
  });
});

describe("ToolRegistry changes", () => {
  let registry: ToolRegistry;
  let events: ToolRegistryChangedEvent[];

  beforeEach(() => {
    registry = new ToolRegistry();
    events = [];
    registry.onToolsChanged((e) => events.push(e));
  });

  it("tryRegisterTool returns false for a duplicate and leaves the first tool in place", () => {
    const first = new MockTool({ id: "dup" });
    expect(registry.tryRegisterTool(first)).toBe(true);
    expect(registry.tryRegisterTool(new MockTool({ id: "DUP" }))).toBe(false);
    expect(registry.getTool("dup")).toBe(first);
    expect(events.map((e) => e.changeType)).toEqual([ToolRegistryChangeType.Added]);
  });

  it("updateTool replaces the tool and emits Updated", () => {
    const original = new MockTool({ id: "tool", name: "Old" });
    const replacement = new MockTool({ id: "TOOL", name: "New" });
    registry.registerTool(original);
    registry.updateTool(replacement);
    expect(registry.getTool("tool")).toBe(replacement);
    expect(registry.count).toBe(1);
    expect(events.map((e) => e.changeType)).toEqual([
      ToolRegistryChangeType.Added,
      ToolRegistryChangeType.Updated,
    ]);
    expect(events[1]?.tool).toBe(replacement);
  });

  it("updateTool throws ToolNotFoundError for an unregistered id and emits nothing", () => {
    expect(() => registry.updateTool(new MockTool({ id: "ghost" }))).toThrow(ToolNotFoundError);
    expect(events).toEqual([]);
    expect(registry.count).toBe(0);
  });

  it("emits Removed with the removed tool", () => {
    const tool = new MockTool({ id: "gone" });
    registry.registerTool(tool);
    registry.unregisterTool("GONE");
    expect(events[1]).toMatchObject({ changeType: ToolRegistryChangeType.Removed, tool });
  });

  it("stops notifying a listener after it unsubscribes", () => {
    const listener = vi.fn();
    const off = registry.onToolsChanged(listener);
    registry.registerTool(new MockTool({ id: "a" }));
    off();
    registry.registerTool(new MockTool({ id: "b" }));
    expect(listener).toHaveBeenCalledOnce();
    expect(registry.events.listenerCount("toolsChanged")).toBe(1);
  });

  it("keeps registering when a listener throws", () => {
    const errors: unknown[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((...args) => {
      errors.push(args);
    });
    try {
      registry.onToolsChanged(() => {
        throw new Error("listener bug");
      });
      registry.registerTool(new MockTool({ id: "a" }));
      expect(registry.hasTool("a")).toBe(true);
      expect(events).toHaveLength(1);
      expect(errors).toHaveLength(1);
    } finally {
      spy.mockRestore();
    }
  });
});

describe("ToolRegistry filters", () => {
  let registry: ToolRegistry;

  beforeEach(() => {
    registry = new ToolRegistry({
      tools: [
        new MockTool({
          id: "file-read",
          category: ToolCategory.FileSystem,
          riskLevel: RiskLevel.Safe,
          tags: ["files", "Read"],
          description: "Reads a file",
        }),
        new MockTool({
          id: "file-write",
          name: "Write File",
          category: ToolCategory.FileSystem,
          riskLevel: RiskLevel.Medium,
          tags: ["files", "write"],
        }),
        new MockTool({ id: "shell", category: ToolCategory.Terminal, riskLevel: RiskLevel.High }),
        new MockTool({
          id: "project",
          category: ToolCategory.Workspace,
          riskLevel: RiskLevel.Safe,
        }),
        new MockTool({ id: "format", category: ToolCategory.Editor, riskLevel: RiskLevel.Low }),
        new MockTool({ id: "git-commit", category: ToolCategory.Git, riskLevel: RiskLevel.Medium }),
        new MockTool({ id: "http", category: ToolCategory.Network, riskLevel: RiskLevel.Critical }),
        new MockTool({
          id: "offline",
          category: ToolCategory.FileSystem,
          riskLevel: RiskLevel.Safe,
          tags: ["files"],
          isAvailable: false,
        }),
      ],
    });
  });

  it("getAvailableTools without a context returns every available tool", () => {
    expect(ids(registry.getAvailableTools())).toEqual([
      "file-read",
      "file-write",
      "shell",
      "project",
      "format",
      "git-commit",
      "http",
    ]);
    expect(registry.tools).toHaveLength(8);
  });

  it("an empty context filters nothing: unset flags do not hide tools (documented choice)", () => {
    expect(ids(registry.getAvailableTools({}))).toEqual(ids(registry.getAvailableTools()));
  });

  it("enabledToolIds keeps only those ids, case-insensitively; an empty list filters nothing", () => {
    expect(ids(registry.getAvailableTools({ enabledToolIds: ["FILE-READ", "shell"] }))).toEqual([
      "file-read",
      "shell",
    ]);
    expect(ids(registry.getAvailableTools({ enabledToolIds: new Set(["offline"]) }))).toEqual([]);
    expect(registry.getAvailableTools({ enabledToolIds: [] })).toHaveLength(7);
  });

  it("disabledToolIds hides those ids, case-insensitively", () => {
    const tools = registry.getAvailableTools({ disabledToolIds: ["Shell", "http"] });
    expect(ids(tools)).not.toContain("shell");
    expect(ids(tools)).not.toContain("http");
    expect(tools).toHaveLength(5);
  });

  it("disabledToolIds wins over enabledToolIds", () => {
    const tools = registry.getAvailableTools({
      enabledToolIds: ["file-read", "shell"],
      disabledToolIds: ["shell"],
    });
    expect(ids(tools)).toEqual(["file-read"]);
  });

  it("maxRiskLevel keeps tools at or below it, including Safe (0)", () => {
    expect(ids(registry.getAvailableTools({ maxRiskLevel: RiskLevel.Safe }))).toEqual([
      "file-read",
      "project",
    ]);
    expect(ids(registry.getAvailableTools({ maxRiskLevel: RiskLevel.Medium }))).toEqual([
      "file-read",
      "file-write",
      "project",
      "format",
      "git-commit",
    ]);
    expect(registry.getAvailableTools({ maxRiskLevel: RiskLevel.Critical })).toHaveLength(7);
  });

  it("includedCategories keeps only those categories; excludedCategories hides them", () => {
    expect(
      ids(
        registry.getAvailableTools({
          includedCategories: [ToolCategory.FileSystem, ToolCategory.Network],
        }),
      ),
    ).toEqual(["file-read", "file-write", "http"]);
    expect(registry.getAvailableTools({ includedCategories: [] })).toHaveLength(7);
    expect(
      ids(registry.getAvailableTools({ excludedCategories: new Set([ToolCategory.FileSystem]) })),
    ).toEqual(["shell", "project", "format", "git-commit", "http"]);
  });

  it("requiredTags keeps tools carrying every tag, case-insensitively", () => {
    expect(ids(registry.getAvailableTools({ requiredTags: ["files"] }))).toEqual([
      "file-read",
      "file-write",
    ]);
    expect(ids(registry.getAvailableTools({ requiredTags: ["FILES", "read"] }))).toEqual([
      "file-read",
    ]);
    expect(registry.getAvailableTools({ requiredTags: ["files", "nope"] })).toEqual([]);
    expect(registry.getAvailableTools({ requiredTags: [] })).toHaveLength(7);
  });

  it("hasWorkspace / hasTerminal / hasEditor / hasGitRepository false hide their category", () => {
    const hidden = (context: ToolAvailabilityContext) =>
      ids(registry.getAvailableTools()).filter(
        (id) => !ids(registry.getAvailableTools(context)).includes(id),
      );
    expect(hidden({ hasWorkspace: false })).toEqual(["project"]);
    expect(hidden({ hasTerminal: false })).toEqual(["shell"]);
    expect(hidden({ hasEditor: false })).toEqual(["format"]);
    expect(hidden({ hasGitRepository: false })).toEqual(["git-commit"]);
    expect(
      hidden({ hasWorkspace: true, hasTerminal: true, hasEditor: true, hasGitRepository: true }),
    ).toEqual([]);
  });

  it("combines filters", () => {
    const tools = registry.getAvailableTools({
      includedCategories: [ToolCategory.FileSystem, ToolCategory.Terminal],
      maxRiskLevel: RiskLevel.High,
      hasTerminal: false,
      disabledToolIds: ["file-write"],
    });
    expect(ids(tools)).toEqual(["file-read"]);
  });

  it("the default preset hides only Git tools", () => {
    expect(ToolAvailabilityContext.default).toEqual({
      hasWorkspace: true,
      hasTerminal: true,
      hasEditor: true,
      hasGitRepository: false,
    });
    expect(ids(registry.getAvailableTools(ToolAvailabilityContext.default))).toEqual([
      "file-read",
      "file-write",
      "shell",
      "project",
      "format",
      "http",
    ]);
  });

  it("the safeOnly preset keeps only Safe tools outside Terminal and Editor", () => {
    expect(ToolAvailabilityContext.safeOnly.maxRiskLevel).toBe(RiskLevel.Safe);
    expect(ids(registry.getAvailableTools(ToolAvailabilityContext.safeOnly))).toEqual([
      "file-read",
      "project",
    ]);
  });

  it("presets are fresh objects, so editing one does not change the next", () => {
    const mutable = ToolAvailabilityContext.default as { hasGitRepository?: boolean };
    mutable.hasGitRepository = true;
    expect(ToolAvailabilityContext.default.hasGitRepository).toBe(false);
  });

  it("getToolsByCategory, ByTag and ByRiskLevel skip unavailable tools", () => {
    expect(ids(registry.getToolsByCategory(ToolCategory.FileSystem))).toEqual([
      "file-read",
      "file-write",
    ]);
    expect(registry.getToolsByCategory(ToolCategory.System)).toEqual([]);
    expect(ids(registry.getToolsByTag("FILES"))).toEqual(["file-read", "file-write"]);
    expect(ids(registry.getToolsByTag("read"))).toEqual(["file-read"]);
    expect(registry.getToolsByTag("fil")).toEqual([]);
    expect(ids(registry.getToolsByRiskLevel(RiskLevel.Safe))).toEqual(["file-read", "project"]);
    expect(registry.getToolsByRiskLevel(RiskLevel.Low)).toHaveLength(3);
    expect(registry.getToolsByRiskLevel(RiskLevel.Critical)).toHaveLength(7);
  });

  it("covers every category in the filters", () => {
    for (const category of allToolCategories) {
      const included = registry.getAvailableTools({ includedCategories: [category] });
      const excluded = registry.getAvailableTools({ excludedCategories: [category] });
      expect(included.length + excluded.length).toBe(7);
      expect(included.every((t) => t.category === category)).toBe(true);
    }
  });
});

describe("ToolRegistry.searchTools", () => {
  let registry: ToolRegistry;

  beforeEach(() => {
    registry = new ToolRegistry({
      tools: [
        new MockTool({ id: "file-read", name: "Read File", description: "Reads a UTF-8 file" }),
        new MockTool({ id: "grep", name: "Grep", description: "Finds text", tags: ["Search"] }),
        new MockTool({ id: "hidden-read", isAvailable: false }),
      ],
    });
  });

  it("matches id, name, description or a tag, case-insensitively, among available tools", () => {
    expect(ids(registry.searchTools("READ"))).toEqual(["file-read"]);
    expect(ids(registry.searchTools("grep"))).toEqual(["grep"]);
    expect(ids(registry.searchTools("utf-8"))).toEqual(["file-read"]);
    expect(ids(registry.searchTools("search"))).toEqual(["grep"]);
    expect(ids(registry.searchTools("read file"))).toEqual(["file-read"]);
    expect(registry.searchTools("nothing-matches")).toEqual([]);
  });

  it("returns every registered tool for a blank query, as the spec does", () => {
    expect(registry.searchTools("")).toHaveLength(3);
    expect(registry.searchTools("   ")).toHaveLength(3);
  });

  it("treats regex characters literally", () => {
    expect(registry.searchTools(".*")).toEqual([]);
    expect(ids(registry.searchTools("utf-8 f"))).toEqual(["file-read"]);
  });
});

describe("ToolRegistry function definitions", () => {
  let registry: ToolRegistry;

  beforeEach(() => {
    registry = new ToolRegistry();
  });

  it("FunctionDefinitions_AreCorrectlyGenerated", () => {
    registry.registerTool(
      new MockTool({
        id: "test-tool",
        description: "A test tool",
        schema: JsonSchemaBuilder.create()
          .addString("path", "File path", { required: true })
          .addBoolean("recursive", "Search recursively")
          .build(),
      }),
    );
    const definitions = registry.getFunctionDefinitions();
    expect(definitions).toHaveLength(1);
    const def = definitions[0]!;
    expect(def.name).toBe("test-tool");
    expect(def.description).toBe("A test tool");
    expect(def.parameters.required).toContain("path");
  });

  it("returns OpenAI-shaped definitions: name, description and a JSON Schema without $schema", () => {
    registry.registerTool(
      defineTool({
        id: "search",
        name: "Search",
        description: "Finds text",
        inputSchema: z.object({ query: z.string(), limit: z.number().default(10) }),
        execute: () => [],
      }),
    );
    const [def] = registry.getFunctionDefinitions();
    expect(Object.keys(def!).sort()).toEqual(["description", "name", "parameters"]);
    expect(def!.parameters).toMatchObject({
      type: "object",
      properties: { query: { type: "string" }, limit: { type: "number", default: 10 } },
      required: ["query"],
    });
    expect(def!.parameters).not.toHaveProperty("$schema");
    expect(JSON.parse(FunctionDefinition.toJson(def!))).toEqual(def);
    expect(Object.isFrozen(def)).toBe(true);
  });

  it("returns the same array instance on a repeated call", () => {
    registry.registerTools([new MockTool({ id: "a" }), new MockTool({ id: "b" })]);
    const first = registry.getFunctionDefinitions();
    expect(registry.getFunctionDefinitions()).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
  });

  it("returns a new array after a registration, an update or an unregistration", () => {
    registry.registerTool(new MockTool({ id: "a", description: "v1" }));
    const first = registry.getFunctionDefinitions();
    registry.registerTool(new MockTool({ id: "b" }));
    const second = registry.getFunctionDefinitions();
    expect(second).not.toBe(first);
    expect(second.map((d) => d.name)).toEqual(["a", "b"]);

    registry.updateTool(new MockTool({ id: "a", description: "v2" }));
    const third = registry.getFunctionDefinitions();
    expect(third).not.toBe(second);
    expect(third[0]?.description).toBe("v2");
    expect(registry.getFunctionDefinition("a")?.description).toBe("v2");

    registry.unregisterTool("b");
    const fourth = registry.getFunctionDefinitions();
    expect(fourth).not.toBe(third);
    expect(fourth.map((d) => d.name)).toEqual(["a"]);
  });

  it("returns a new array when a tool's availability changes", () => {
    let available = true;
    registry.registerTool(new MockTool({ id: "always" }));
    registry.registerTool(
      defineTool({
        id: "sometimes",
        name: "Sometimes",
        description: "Comes and goes",
        inputSchema: z.object({}),
        isAvailable: () => available,
        execute: () => undefined,
      }),
    );
    const both = registry.getFunctionDefinitions();
    expect(both.map((d) => d.name)).toEqual(["always", "sometimes"]);
    available = false;
    const one = registry.getFunctionDefinitions();
    expect(one).not.toBe(both);
    expect(one.map((d) => d.name)).toEqual(["always"]);
    available = true;
    const again = registry.getFunctionDefinitions();
    expect(again).not.toBe(one);
    expect(again.map((d) => d.name)).toEqual(["always", "sometimes"]);
    // Each tool's own definition object is reused.
    expect(again[1]).toBe(both[1]);
  });

  it("filters definitions by context", () => {
    registry.registerTools([
      new MockTool({ id: "safe", riskLevel: RiskLevel.Safe }),
      new MockTool({ id: "risky", riskLevel: RiskLevel.High }),
    ]);
    const safe = registry.getFunctionDefinitions(ToolAvailabilityContext.safeOnly);
    expect(safe.map((d) => d.name)).toEqual(["safe"]);
    const all = registry.getFunctionDefinitions();
    expect(all.map((d) => d.name)).toEqual(["safe", "risky"]);
    expect(registry.getFunctionDefinitions(ToolAvailabilityContext.safeOnly)).toEqual(safe);
  });

  it("does not reuse the list of one context for another with as many tools", () => {
    registry.registerTools([new MockTool({ id: "a" }), new MockTool({ id: "b" })]);
    const onlyA = registry.getFunctionDefinitions({ enabledToolIds: ["a"] });
    const onlyB = registry.getFunctionDefinitions({ enabledToolIds: ["b"] });
    expect(onlyA.map((d) => d.name)).toEqual(["a"]);
    expect(onlyB.map((d) => d.name)).toEqual(["b"]);
    expect(registry.getFunctionDefinitions({ enabledToolIds: ["a"] }).map((d) => d.name)).toEqual([
      "a",
    ]);
  });

  it("returns an empty list for an empty registry", () => {
    expect(registry.getFunctionDefinitions()).toEqual([]);
  });

  it("getFunctionDefinition returns one tool's definition, case-insensitively, or undefined", () => {
    registry.registerTool(new MockTool({ id: "Echo", description: "Echoes" }));
    expect(registry.getFunctionDefinition("echo")).toEqual({
      name: "Echo",
      description: "Echoes",
      parameters: { type: "object", properties: {}, required: [] },
    });
    expect(registry.getFunctionDefinition("echo")).toBe(registry.getFunctionDefinition("ECHO"));
    expect(registry.getFunctionDefinition("unknown")).toBeUndefined();
  });

  it("includes an unavailable tool's definition when asked for it by id", () => {
    registry.registerTool(new MockTool({ id: "off", isAvailable: false }));
    expect(registry.getFunctionDefinitions()).toEqual([]);
    expect(registry.getFunctionDefinition("off")?.name).toBe("off");
  });
});

describe("ToolRegistry integration (spec 001 j ToolFrameworkIntegrationTests)", () => {
  it("FullExecutionLifecycle_WorksCorrectly", async () => {
    const registry = new ToolRegistry();
    const tool = new MockTool({
      id: "integration-tool",
      schema: JsonSchemaBuilder.create()
        .addString("input", "Input value", { required: true })
        .build(),
      executeFunc: async (ctx) =>
        ToolResult.succeeded({ output: `${ctx.getRequiredString("input")} processed` }),
    });
    registry.registerTool(tool);

    const parameters = { input: "test" };
    const registered = registry.getRequiredTool("integration-tool");
    expect(registered.validate(parameters).isValid).toBe(true);
    expect(registered.validate({}).isValid).toBe(false);

    const context = ToolExecutionContextBuilder.create()
      .withToolId("integration-tool")
      .withParameters(parameters)
      .withApproval()
      .buildForTesting();
    const result = await registered.execute(context);

    expect(result.success).toBe(true);
    expect(result.data).toEqual({ output: "test processed" });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(tool.executeCallCount).toBe(1);
    expect(tool.executedParameters).toEqual([parameters]);
    expect(tool.validateCallCount).toBe(3);
  });
});
