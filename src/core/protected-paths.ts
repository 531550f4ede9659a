/**
 * The files that make other programs run code or hold secrets, and aintern's own files: all of
 * every `.git` (hooks, config, modules' hooks and config, a `.git` file that points elsewhere),
 * git's own settings in a repository (`.gitattributes`, `.gitconfig`), editor, agent and CI
 * settings (`.vscode/`, `.idea/`, `.cursor/`, `.claude/`, `.mcp.json`, `.devcontainer/`,
 * `.husky/`, `.pre-commit-config.yaml`, `.github/workflows/`), environment and package-manager
 * files (`.env`, `.env.*`, `.envrc`, `.direnv/`, `.npmrc`, `.yarnrc*`), aintern's configuration,
 * policy and databases. Matched case-insensitively, at any depth. (Reading any of them asks too;
 * build manifests such as `package.json` are read freely, and `file-write` rates writing one
 * Medium instead: see `FileWriteTool`.)
 */
export const defaultProtectedPathPatterns: readonly string[] = Object.freeze([
  "**/.git",
  "**/.git/**",
  "**/.gitmodules",
  "**/.gitattributes",
  "**/.gitconfig",
  "**/.vscode/**",
  "**/.idea/**",
  "**/.cursor/**",
  "**/.claude/**",
  "**/.mcp.json",
  "**/.devcontainer/**",
  "**/.husky/**",
  "**/.pre-commit-config.yaml",
  "**/.github/workflows/**",
  "**/.env",
  "**/.env.*",
  "**/.envrc",
  "**/.direnv",
  "**/.direnv/**",
  "**/.npmrc",
  "**/.yarnrc",
  "**/.yarnrc.*",
  "**/*.db",
  "**/*.db-wal",
  "**/*.db-shm",
  "**/*.db-journal",
  "**/*.sqlite",
  "**/aintern.config.json",
  "**/aintern.policy.json",
  "**/.aintern",
  "**/.aintern/**",
]);
