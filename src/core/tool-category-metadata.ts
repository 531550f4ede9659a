import type { ToolCategory } from "./tool-category.js";

/** Display information for a {@link ToolCategory}. */
export interface CategoryInfo {
  readonly displayName: string;
  readonly iconName: string;
  readonly description: string;
}

const categoryInfo = new Map<string, CategoryInfo>([
  ["FileSystem", info("File System", "file", "Operations on files and directories")],
  ["Terminal", info("Terminal", "terminal", "Shell commands and scripts")],
  ["Search", info("Search", "search", "Find files and content")],
  ["Workspace", info("Workspace", "folder", "Project and workspace operations")],
  ["Editor", info("Editor", "edit", "Code editing and navigation")],
  ["Git", info("Git", "git-branch", "Version control operations")],
  ["Network", info("Network", "globe", "HTTP and network operations")],
  ["System", info("System", "settings", "System-level operations")],
  ["Custom", info("Custom", "puzzle", "User-defined tools")],
]);

const unknownCategory = info("Unknown", "question", "Unknown category");

function info(displayName: string, iconName: string, description: string): CategoryInfo {
  return Object.freeze({ displayName, iconName, description });
}

/** UI metadata for tool categories (spec 001 a). */
export const ToolCategoryMetadata = {
  /** Display name, icon and description of a category; "Unknown" for a value outside the enum. */
  getInfo(category: ToolCategory): CategoryInfo {
    return categoryInfo.get(category) ?? unknownCategory;
  },
} as const;
