/**
 * How the shell file-operand reader reads git's subcommands that put files in the index, move
 * them or remove them (`git add`, `git mv`, `git rm`, `git hash-object`, `git update-index`,
 * `git commit PATHS`): their operands are files of the call, so `git add -f .env` asks before
 * `git diff --cached` can show it. The reading itself is in file-operands.ts.
 *
 * @internal
 */

import type { OptionSyntax } from "./program-options.js";

/**
 * A subcommand's options that take a value, as far as reading them needs, and those that make it
 * take more paths from a file or its input (`lists`: `--pathspec-from-file`, `--stdin`), which
 * the text does not show.
 *
 * @internal
 */
export interface GitIndexOptions extends OptionSyntax {
  readonly lists: readonly string[];
}

const pathspecFromFile = "--pathspec-from-file";

const addOptions: GitIndexOptions = {
  long: ["--chmod", pathspecFromFile],
  lists: [pathspecFromFile],
  letterGroupsOnly: true,
};

/**
 * The subcommands whose operands are files they stage, move, remove or store as objects, and
 * their options. `commit`'s operands are the paths it commits (`git commit -m x .env`); `stage`
 * is `add`.
 *
 * @internal
 */
export const gitIndexSubcommands: ReadonlyMap<string, GitIndexOptions> = new Map([
  ["add", addOptions],
  ["stage", addOptions],
  ["mv", { lists: [], letterGroupsOnly: true }],
  ["rm", { long: [pathspecFromFile], lists: [pathspecFromFile], letterGroupsOnly: true }],
  [
    "hash-object",
    { short: "t", long: ["--path"], lists: ["--stdin-paths"], letterGroupsOnly: true },
  ],
  [
    "update-index",
    {
      long: ["--cacheinfo", "--chmod"],
      lists: ["--stdin", "--index-info"],
      letterGroupsOnly: true,
    },
  ],
  [
    "commit",
    {
      short: "FtmcC",
      long: [
        "--file",
        "--template",
        "--message",
        "--reedit-message",
        "--reuse-message",
        "--author",
        "--date",
        "--fixup",
        "--squash",
        "--cleanup",
        "--trailer",
        pathspecFromFile,
      ],
      lists: [pathspecFromFile],
      letterGroupsOnly: true,
    },
  ],
]);
