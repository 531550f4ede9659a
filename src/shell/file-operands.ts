import {
  atSyntax,
  commandVariables,
  gitCommandSetting,
  gitFileSetting,
  gitHelperOptions,
  gitOpaqueSetting,
  gitRemoteOptionSyntax,
  gitRemoteSubcommands,
  gitSubcommandCommandOptions,
  lessKeyVariables,
  opaqueVariable,
  programCommandOptions,
  settingBuiltins,
  sshCommandSettings,
  sshOptionSyntaxes,
  sshSetting,
  tarCheckpointSyntax,
} from "./command-line-values.js";
import {
  commandName,
  namesLongOption,
  quoteWords,
  scriptsProducedBy,
  stdinPaths,
  stdinScripts,
  substitutionBodies,
  unreadStdin,
  unreadSubstitution,
} from "./command-words.js";
import { assignmentName } from "./environment-assignments.js";
import { gitIndexSubcommands } from "./git-index-options.js";
import {
  hidesOption,
  longOption,
  type OptionSyntax,
  readOptions,
  readOptionsWhole,
  restOfWord,
  splitsIntoWords,
  writtenLength,
} from "./program-options.js";
import type { ShellSimpleCommand } from "./shell-grammar.js";
import { shellInput, shellStartupFiles } from "./shell-invocation.js";
import type { ShellRedirection, ShellWord } from "./shell-scanner.js";
import { lexShellCommand } from "./shell-syntax.js";
import { sliceWord, writtenText } from "./shell-word.js";
import { sshRunsInput } from "./ssh-runs-input.js";
import { gitWritesFilesNamedInside, writesFilesNamedInside } from "./unpacked-files.js";
import { unwrapCommand } from "./unwrap-command.js";
import { wrapperFileItems } from "./wrapper-files.js";

/**
 * The files a command line names as the operands of programs that read or write files (`cat x`,
 * `sed -n p x`, `cp a b`) and as redirection targets (`< x`, `> x`), read with the same parser
 * the risk rules and deny patterns use: so a policy can check them like a file tool's `path`.
 */
export interface CommandFileOperands {
  /**
   * The file operands as written, after quote removal (`cat "./.env"` gives `./.env`); relative
   * ones are relative to the directory the command starts in. `~/x` is kept as written.
   */
  readonly paths: readonly string[];
  /**
   * Why some file operand cannot be known from the text (a glob, a variable, a `cd` before a
   * relative path, a line that does not parse, `xargs`), or undefined when every one is known.
   * A caller must treat such a command as possibly naming any file.
   */
  readonly unknown: string | undefined;
}

/**
 * {@link CommandFileOperands} with what a policy guarding particular files needs beyond them.
 *
 * @internal
 */
export interface CommandFileOperandDetails extends CommandFileOperands {
  /**
   * The file operands that are globs in their last segment only, without expansion or braces
   * (`aintern.conf*.json`, `src/*.ts`), as written: a caller may list what they match itself.
   * Each also sets `unknown`.
   */
  readonly globs: readonly string[];
  /**
   * The words that start with a glob where a program may read an option (`ssh * host`, `tar czf
   * a.tgz *`), globs in their last segment only as `globs` are, as written: a name they match
   * that starts with `-` (`-oProxyCommand=CMD`, `--checkpoint-action=exec=CMD`) is an option.
   * A caller may list what they match now; each also sets `unknown`, since the command line
   * itself may make such a name before the shell expands the glob.
   */
  readonly optionGlobs: readonly string[];
  /**
   * Why some file operand cannot be known, for a reason other than one of `globs` or
   * `optionGlobs` or a program
   * reading more than it names (`grep -r`, `ls -L`): a file the command may change is then unknown.
   */
  readonly opaque: string | undefined;
  /**
   * The operands (among `paths`) of programs that remove or move what they name, a folder with
   * everything in it: `rm`, `mv`, and `find`'s start folders when its expression deletes or runs
   * a command (`-delete`, `-exec`, `-execdir`, `-ok`, `-okdir`).
   */
  readonly removed: readonly string[];
  /**
   * The operands (among `paths`) a program reads every file of when they are folders: `diff`'s
   * (two folders compare the files of the same name, `-N` prints those only one holds). Whether
   * one is a folder is for a caller to look up.
   */
  readonly folders: readonly string[];
  /**
   * The two operands of `git diff A B` (`git diff A -- B`): outside a git repository it is
   * `git diff --no-index A B`, which compares two folders whole. Whether the command runs in a
   * repository, and whether one is a folder, is for a caller to look up.
   */
  readonly foldersOutsideRepository: readonly string[];
}

/**
 * How a program's operands and options name files: its options that take a value (read by
 * `readOptions`, so an option not listed takes none and the word after it counts as a file:
 * reading too many words as files only asks more), and which of them name files.
 */
interface OperandRule extends OptionSyntax {
  /** Options whose argument is a file (they must also be listed as taking an argument). */
  readonly fileOptions?: readonly string[];
  /**
   * The first operand is a script or pattern, not a file (`grep PATTERN file`, `sed SCRIPT
   * file`), unless one of `scriptOptions` gives the script.
   */
  readonly script?: true;
  readonly scriptOptions?: readonly string[];
  /** Options after which no script operand is expected (`rg --files`). */
  readonly noScriptOptions?: readonly string[];
  /** `key=FILE` operands (`dd if=x of=y`): only these keys' values are files. */
  readonly keyValueFiles?: readonly string[];
  /** Operands are paths only up to the first expression word (`find PATH... -name x`). */
  readonly pathsBeforeExpression?: true;
  /** Only the options in `fileOptions` name files; operands do not (`date -r FILE +%s`). */
  readonly optionFilesOnly?: true;
  /**
   * Options after which a file (the option's argument, or with one that takes none, an operand)
   * names the files the program opens: `sort --files0-from=LIST`, `file -f LIST`, `md5sum -c
   * SUMS`. Those files cannot be known from the text, whatever the list is; they are only read,
   * unless `listChanges` (`tar -x -T LIST` extracts them).
   */
  readonly listOptions?: readonly string[];
  readonly listChanges?: true;
}

/**
 * The list option of `lists` a long option as written names: itself, or one it abbreviates, but
 * not when it is exactly another option of the program (`tar --file` is not `--files-from`).
 */
function listOption(
  given: string,
  rule: OperandRule,
  lists: readonly string[],
): string | undefined {
  if (lists.includes(given)) return given;
  const exact = [rule.long, rule.flags, rule.fileOptions].some((names) => names?.includes(given));
  return exact ? undefined : longOption(given, lists);
}

function words(list: string): readonly string[] {
  return list.split(" ");
}

const plain: OperandRule = {};
const grepRule: OperandRule = {
  short: "efmABCdD",
  long: words(
    "--regexp --file --max-count --label --binary-files --devices --directories --exclude --exclude-from --exclude-dir --include --after-context --before-context --context",
  ),
  fileOptions: ["-f", "--file", "--exclude-from"],
  script: true,
  scriptOptions: ["-e", "-f", "--regexp", "--file"],
};
const awkRule: OperandRule = {
  short: "fvFEilWe",
  long: words("--file --assign --field-separator --exec --include --load --source"),
  fileOptions: ["-f", "--file", "-E", "--exec", "-i", "--include"],
  script: true,
  scriptOptions: ["-f", "--file", "-E", "--exec", "-e", "--source"],
};
// Each program's own options only: a one-letter prefix of an option listed for another program
// would take the word after it (`head --s .env` is head's `--silent`, not tail's
// `--sleep-interval`).
const headRule: OperandRule = { short: "nc", long: words("--lines --bytes") };
const tailRule: OperandRule = {
  short: "ncs",
  long: words("--lines --bytes --pid --sleep-interval --max-unchanged-stats"),
};
const copyRule: OperandRule = {
  short: "tS",
  long: words("--target-directory --suffix"),
  fileOptions: ["-t", "--target-directory"],
};
const installRule: OperandRule = {
  short: "tSmog",
  long: words("--target-directory --suffix --mode --owner --group --strip-program"),
  fileOptions: ["-t", "--target-directory"],
};
const compressRule: OperandRule = { short: "S", long: ["--suffix"] };
/** `md5sum -c SUMS` opens the files SUMS names. */
const hashRule: OperandRule = { listOptions: ["-c", "--check"] };
/** man-db's `whatis` and `apropos`: `-C FILE` is read (its bad lines are printed), `-M` searched. */
const manIndexRule: OperandRule = {
  short: "CMmLs",
  long: words("--config-file --manpath --systems --locale --sections --section"),
  fileOptions: words("-C -M --config-file --manpath"),
  optionFilesOnly: true,
};

/**
 * The programs whose operands are files they read or write, and how to tell their options'
 * arguments from operands. An option not listed is taken to have no argument, so the word after
 * it counts as a file: reading too many words as files only asks more.
 */
const operandRules: ReadonlyMap<string, OperandRule> = new Map<string, OperandRule>([
  ...words("cat tac rev tee rm comm cksum sum source . split").map(
    (name) => [name, plain] as const,
  ),
  ...words("b2sum md5sum sha1sum sha224sum sha256sum sha384sum sha512sum").map(
    (name) => [name, hashRule] as const,
  ),
  ["whatis", manIndexRule],
  ["apropos", manIndexRule],
  ...words("base64 base32 basenc").map((name) => [name, { short: "w" }] as const),
  ["strings", { short: "nteT" }],
  ["nl", { short: "bdfhilnsvw" }],
  ["fold", { short: "w" }],
  ["fmt", { short: "wpg" }],
  ["expand", { short: "t" }],
  ["unexpand", { short: "t" }],
  ["paste", { short: "d" }],
  ["join", { short: "12jteoav" }],
  ["touch", { short: "dtr", long: ["--reference"], fileOptions: ["-r", "--reference"] }],
  ["shred", { short: "ns", long: ["--random-source"], fileOptions: ["--random-source"] }],
  ...words("gzip gunzip zcat bzip2 bunzip2 bzcat xz unxz xzcat").map(
    (name) => [name, compressRule] as const,
  ),
  ["head", headRule],
  ["tail", tailRule],
  [
    "less",
    {
      short: "bhjkoOpPtTxyz#",
      long: ["--lesskey-file", "--lesskey-src", "--lesskey-content"],
      fileOptions: ["-k", "-o", "-O", "-T", "--lesskey-file", "--lesskey-src"],
    },
  ],
  ["more", { short: "n" }],
  // Programs whose operands are files they read (and may print, copy or pack).
  [
    "rsync",
    {
      short: "efTBM",
      long: [
        "--rsh",
        "--rsync-path",
        "--filter",
        "--exclude",
        "--include",
        "--exclude-from",
        "--include-from",
        "--files-from",
        "--temp-dir",
        "--partial-dir",
        "--backup-dir",
        "--suffix",
        "--log-file",
        "--password-file",
        "--chmod",
        "--chown",
        "--timeout",
        "--port",
        "--out-format",
        "--max-size",
        "--min-size",
        "--bwlimit",
        "--compare-dest",
        "--copy-dest",
        "--link-dest",
        "--write-batch",
        "--only-write-batch",
        "--read-batch",
        "--early-input",
      ],
      // A batch file written or read, a file sent to the daemon. The folders of backups and
      // partial files are read apart (see `rsyncDestinationFolders`); --temp-dir's files have
      // names of their own, and the --*-dest folders only give a file that matches the source's.
      fileOptions: [
        "--exclude-from",
        "--include-from",
        "--files-from",
        "--password-file",
        "--log-file",
        "--write-batch",
        "--only-write-batch",
        "--read-batch",
        "--early-input",
      ],
    },
  ],
  ["zip", plain],
  // scp copies its local operands (`scp .env host:`); a remote one (`host:path`) names no file here.
  ["scp", { short: "cFiJlPSoDX", fileOptions: ["-i", "-F"] }],
  ["unzip", { short: "d", fileOptions: ["-d"] }],
  ["7z", plain],
  ...words("zstd zstdcat unzstd lz4 lz4cat brotli").map((name) => [name, plain] as const),
  [
    "iconv",
    {
      short: "fto",
      long: ["--from-code", "--to-code", "--output"],
      fileOptions: ["-o", "--output"],
    },
  ],
  ["pr", plain],
  ["most", plain],
  [
    "sed",
    {
      short: "efl",
      long: words("--expression --file --line-length"),
      fileOptions: ["-f", "--file"],
      script: true,
      scriptOptions: ["-e", "-f", "--expression", "--file"],
    },
  ],
  ["awk", awkRule],
  ["gawk", awkRule],
  ["mawk", awkRule],
  ["nawk", awkRule],
  ["grep", grepRule],
  ["egrep", grepRule],
  ["fgrep", grepRule],
  [
    "rg",
    {
      short: "egtTAmBCfjrEMd",
      long: words(
        "--regexp --file --type --type-not --glob --iglob --context --after-context --before-context --max-count --max-depth --sort --sortr --replace --max-columns --max-filesize --threads --encoding --colors --engine --type-add --path-separator --field-match-separator --ignore-file --pre --pre-glob",
      ),
      fileOptions: ["-f", "--file", "--ignore-file"],
      script: true,
      scriptOptions: ["-e", "-f", "--regexp", "--file"],
      noScriptOptions: ["--files", "--type-list"],
    },
  ],
  [
    "jq",
    {
      short: "fL",
      long: words("--from-file --indent --library-path"),
      longWithTwo: words("--arg --argjson --slurpfile --rawfile"),
      // `-L DIR`: `include "x"` tells whether DIR/x.jq exists.
      fileOptions: ["-f", "--from-file", "--slurpfile", "--rawfile", "-L", "--library-path"],
      script: true,
      scriptOptions: ["-f", "--from-file"],
    },
  ],
  [
    "cut",
    {
      short: "bcdf",
      long: words("--bytes --characters --delimiter --fields --output-delimiter"),
    },
  ],
  [
    "sort",
    {
      short: "ktSTo",
      long: words(
        "--key --field-separator --buffer-size --temporary-directory --parallel --output --random-source --batch-size --files0-from --compress-program --sort",
      ),
      fileOptions: words("-o -T --output --temporary-directory --random-source --files0-from"),
      listOptions: ["--files0-from"],
    },
  ],
  ["uniq", { short: "fsw", long: words("--skip-fields --skip-chars --check-chars") }],
  [
    "wc",
    {
      long: ["--files0-from"],
      fileOptions: ["--files0-from"],
      listOptions: ["--files0-from"],
    },
  ],
  [
    "diff",
    {
      short: "CUIFxXSLD",
      long: words(
        "--label --ifdef --ignore-matching-lines --show-function-line --exclude --exclude-from --starting-file --from-file --to-file --line-format --old-line-format --new-line-format --unchanged-line-format --old-group-format --new-group-format --changed-group-format --unchanged-group-format --horizon-lines --tabsize",
      ),
      fileOptions: ["-X", "--exclude-from", "--from-file", "--to-file"],
    },
  ],
  ["cmp", { short: "in", long: ["--ignore-initial", "--bytes"] }],
  ["cp", copyRule],
  ["mv", copyRule],
  ["install", installRule],
  ["ln", copyRule],
  ["xxd", { short: "cglosn" }],
  [
    "od",
    {
      short: "AjNSt",
      long: words("--address-radix --skip-bytes --read-bytes --format --endian"),
    },
  ],
  ["hexdump", { short: "efns", fileOptions: ["-f"] }],
  ["column", { short: "sco" }],
  [
    "truncate",
    {
      short: "sr",
      long: ["--size", "--reference"],
      fileOptions: ["-r", "--reference"],
    },
  ],
  ["dd", { keyValueFiles: ["if", "of"] }],
  [
    "tar",
    {
      short: "fCbHKLNTVXg",
      long: words(
        "--file --directory --files-from --exclude-from --exclude --blocking-factor --format --newer --label --listed-incremental --transform --owner --group --mode",
      ),
      fileOptions: words(
        "-f -C -T -X -g --file --directory --files-from --exclude-from --listed-incremental",
      ),
      listOptions: ["-T", "--files-from"],
      listChanges: true,
    },
  ],
  ["patch", { short: "ipoBdDrF", fileOptions: ["-i", "-o", "-r", "-d"] }],
  [
    "file",
    {
      short: "efFmP",
      long: words("--exclude --exclude-quiet --files-from --separator --magic-file --parameter"),
      fileOptions: ["-f", "-m", "--files-from", "--magic-file"],
      listOptions: ["-f", "--files-from"],
    },
  ],
  // `df FILE` tells whether FILE exists (and its file system).
  [
    "df",
    {
      short: "BtxF",
      long: words("--block-size --type --exclude-type"),
    },
  ],
  // `date -r FILE` shows FILE's time; `date -f FILE` prints its lines back as invalid dates.
  [
    "date",
    {
      short: "dfrs",
      long: words("--date --file --reference --set"),
      fileOptions: words("-f -r --file --reference"),
      optionFilesOnly: true,
    },
  ],
  // `history -r FILE; history` prints FILE's lines; `-w`/`-a` write one.
  ["history", { short: "d" }],
  [
    "ls",
    {
      short: "ITw",
      long: words(
        "--ignore --hide --format --sort --block-size --quoting-style --indicator-style --tabsize --width",
      ),
    },
  ],
  ["dir", { short: "ITw" }],
  [
    "du",
    {
      short: "BdtX",
      long: words("--block-size --max-depth --threshold --exclude --exclude-from --files0-from"),
      fileOptions: words("-X --exclude-from --files0-from"),
      listOptions: ["--files0-from"],
    },
  ],
  ["stat", { short: "c", long: ["--format", "--printf"] }],
  [
    "tree",
    {
      short: "LPIoHT",
      long: words("--filelimit --timefmt --sort --charset"),
      fileOptions: ["-o"],
    },
  ],
  [
    "realpath",
    {
      long: ["--relative-to", "--relative-base"],
      fileOptions: ["--relative-to", "--relative-base"],
    },
  ],
  ["readlink", plain],
  ["find", { pathsBeforeExpression: true }],
]);

/**
 * The letters of every group of short options (`-la`, `-1RL`: digits are options too, `grep -1`
 * is one line of context), joined: enough to ask whether a flag is among them.
 */
function shortFlagLetters(values: readonly string[]): string {
  return values.filter((v) => /^-[A-Za-z0-9]+$/.test(v)).join("");
}

/**
 * Why `name` with `args` reads files it does not name, or undefined: a recursive search or
 * comparison reads every file below a folder operand (`grep -r KEY .` reads `.env`), `rg`, `ag`
 * and `ack` do so unasked, `git diff --no-index` compares any two paths, `jq`'s `import` and
 * `include` read the modules and data files its program names, and `ps` with BSD's `e` shows the
 * environment of every process of the user (the server's secrets).
 */
function readsUnnamedFiles(name: string, args: readonly ShellWord[]): string | undefined {
  const values = args.map((word) => word.value);
  const shortFlags = shortFlagLetters(values);
  switch (name) {
    case "grep":
    case "egrep":
    case "fgrep":
      return /[rR]/.test(shortFlags) ||
        values.some(
          (v, i) =>
            v === "--recursive" ||
            v === "--dereference-recursive" ||
            // `-d recurse`, `--directories recurse`, `--dir=recurse` (any prefix).
            (/^--d/.test(v) &&
              namesLongOption(v, "--directories") &&
              (v.endsWith("=recurse") || (!v.includes("=") && values[i + 1] === "recurse"))) ||
            (/^-[A-Za-z0-9]*d$/.test(v) && values[i + 1] === "recurse") ||
            /^--d(irectories)?=recurse$/.test(v),
        )
        ? `'${name}' searches a whole folder tree`
        : undefined;
    case "rg":
    case "ag":
    case "ack":
      return `'${name}' searches a whole folder tree`;
    case "diff":
      return /r/.test(shortFlags) || values.includes("--recursive")
        ? "'diff' compares whole folder trees"
        : undefined;
    case "jq":
      // `import "x" as $x {search: "."}` reads `x.json` (`.vscode/settings`, `~/.jq/...`) and
      // `include` a `.jq` file; a program from a file (`-f`) may hold either.
      return values.some(
        (v) => /(^|[^\w.$"])(import|include)\s*"/.test(v) || /\bmodulemeta\b/.test(v),
      ) || values.some((v) => /^-[A-Za-z]*f/.test(v) || /^--fr/.test(v))
        ? "'jq' imports files its program names"
        : undefined;
    case "git":
      if (values.includes("--no-index")) return "'git --no-index' reads any file";
      // `git grep KEY` searches every tracked file (`.env` if committed), `--untracked` more.
      if (values.includes("grep")) return "'git grep' searches a whole folder tree";
      return gitPrintsLocalContent(args);
    case "ps":
      return values.some((v) => !v.startsWith("-") && /^[A-Za-z]*e[A-Za-z]*$/.test(v)) ||
        values.some((v) => /env/i.test(v))
        ? "'ps' with 'e' shows other processes' environments"
        : undefined;
    default:
      return undefined;
  }
}

/** The options with which a diff prints names, counts or a status, and no line of any file. */
const gitNoContentOptions = new Set([
  "--stat",
  "--shortstat",
  "--numstat",
  "--name-only",
  "--name-status",
  "--summary",
  "--compact-summary",
  "--dirstat",
  "--raw",
  "--quiet",
  "--exit-code",
  "-s",
  "--no-patch",
]);

/**
 * Options of `git diff` known to take no value (or only one written with `=`): with these alone,
 * every other word is a revision or a path. Any other option may take the next word as its value
 * (`--src-prefix --stat` prints the patch), so a diff with one is taken to print lines.
 */
const gitDiffKnownFlags = new Set([
  ...gitNoContentOptions,
  "-p",
  "-u",
  "--patch",
  "--cached",
  "--staged",
  "--merge-base",
  "--color",
  "--no-color",
  "-R",
  "-M",
  "-C",
  "--find-renames",
  "--find-copies",
  "--no-renames",
  "-w",
  "-b",
  "--ignore-all-space",
  "--ignore-space-change",
  "--ignore-blank-lines",
  "--ignore-cr-at-eol",
  "-z",
  "--no-ext-diff",
  "--no-textconv",
  "--minimal",
  "--patience",
  "--histogram",
  "--full-index",
  "--no-prefix",
]);

/**
 * Whether `option` cannot take the next word as its value: one of {@link gitDiffKnownFlags}
 * (`--stat=80`, `-U5`, `-M50%` too), or any long option with its value written after `=`.
 */
function isKnownGitDiffFlag(option: string): boolean {
  return (
    gitDiffKnownFlags.has(option.split("=", 1)[0] as string) ||
    /^--[^=]+=/.test(option) ||
    /^-U\d+$/.test(option) ||
    /^-[MC]\d+%?$/.test(option)
  );
}

/** Whether a git option makes a diff, a log or a stash listing print the files' lines. */
function isGitPatchOption(value: string): boolean {
  return (
    /^-(p|u|W|c|U\d*)$/.test(value) ||
    /^--(patch|unified|function-context|word-diff|color-words|binary|cc$|dd$|remerge-diff)/.test(
      value,
    )
  );
}

/**
 * A revision range (`A..B`, `A...B`, `..B`): `..` between two names, not a path's `..`
 * (`../x`, `a/../b`).
 */
function isRevisionRange(value: string): boolean {
  return /[^/.]\.\.\.?[^/.]|^\.\.\.?[^/.]|[^/.]\.\.\.?$/.test(value);
}

/** The stash, named as a revision (`stash`, `stash@{1}`, `refs/stash~2`). */
function namesStash(value: string): boolean {
  return /^(refs\/)?stash(@\{[^}]*\})?([~^].*)?$/.test(value);
}

/** Whether a revision or either end of a range (`HEAD..stash`, `^stash`) is the stash. */
function reachesStash(value: string): boolean {
  return value
    .replace(/^\^/, "")
    .split(/\.\.\.?/)
    .some((end) => end !== "" && namesStash(end));
}

/**
 * Why a git command prints lines of files that exist only on this machine (the working tree,
 * the index, the stash) without naming them, or undefined: `git diff` compares the working tree
 * or the index unless it is given a range of commits or the files after `--` (`git diff`
 * printed a tracked `.env`'s local secret, which `cat .env` may not); `git status -v` adds
 * those lines; `git stash show` and a view of the stash print what was put aside, and `git log
 * --all` takes the stash in. A view of committed history (`git log -p`, `git show HEAD`, `git
 * diff A..B`) prints what anyone with the repository has, and runs (docs/decisions.md); a diff
 * that prints only names or counts (`--stat`) prints no file.
 */
function gitPrintsLocalContent(args: readonly ShellWord[]): string | undefined {
  const at = gitSubcommandAt(args);
  if (at === -1) return undefined;
  const values = args.map((word) => word.value);
  const sub = values[at];
  if (sub === undefined) return undefined;
  const rest = values.slice(at + 1);
  const end = rest.indexOf("--");
  const before = end === -1 ? rest : rest.slice(0, end);
  const options = before.filter((v) => v.startsWith("-"));
  const operands = before.filter((v) => !v.startsWith("-"));
  const patch = options.some(isGitPatchOption);
  const printsLines =
    patch || !options.some((v) => gitNoContentOptions.has(v.split("=", 1)[0] as string));
  const why = `'git ${sub}' prints lines of files it does not name, from the working tree, the index or the stash`;
  switch (sub) {
    case "diff": {
      // An option it does not know may take the next word as its value: then no word can be
      // told for an operand or a revision.
      if (!options.every(isKnownGitDiffFlag)) return why;
      if (!printsLines) return undefined;
      if (operands.some(reachesStash)) return why;
      if (operands.some(isRevisionRange)) return undefined;
      // Paths after `--` narrow it to what they name, judged as named paths; `.`, a folder
      // written as one (`src/`), a glob or pathspec magic (`:/`) still takes in the whole tree.
      const paths = end === -1 ? [] : rest.slice(end + 1);
      const named =
        paths.length > 0 &&
        paths.every((p) => p !== "." && p !== ".." && !p.endsWith("/") && !/^:|[*?[]/.test(p));
      return named ? undefined : why;
    }
    case "diff-files":
    case "diff-index":
      return patch ? why : undefined;
    case "status":
      // `-v` adds the staged changes' lines, `-vv` the working tree's too.
      return options.some((v) => /^-[A-Za-z]*v/.test(v) || /^--ve/.test(v)) ? why : undefined;
    case "stash": {
      const action = rest[0];
      if (action === "show") {
        return printsLines || !options.every(isKnownGitDiffFlag) ? why : undefined;
      }
      return action === "list" && patch ? why : undefined;
    }
    case "show":
    case "log":
    case "whatchanged":
    case "reflog": {
      const stash =
        operands.some(reachesStash) ||
        options.some((v) => v === "--all" || v === "--reflog" || v.startsWith("--glob"));
      return stash && (sub === "show" ? printsLines : patch) ? why : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * Why a listing program may list names beyond the folders it is given, or undefined: told to
 * follow every symbolic link it meets (`ls -L`, `du -L`, `find -L`, `tree -l`), it lists where a
 * link in the workspace leads, outside it too. (Links given as operands are resolved by the
 * policy, so `-H` is fine.)
 */
function followsLinksOut(name: string, args: readonly ShellWord[]): string | undefined {
  const values = args.map((word) => word.value);
  const shortFlags = shortFlagLetters(values);
  const follows =
    name === "ls" || name === "dir" || name === "du"
      ? /L/.test(shortFlags) || values.includes("--dereference")
      : name === "find"
        ? values.includes("-L") || values.includes("-follow")
        : name === "tree"
          ? /l/.test(shortFlags)
          : false;
  return follows ? `'${name}' follows symbolic links out of the folders it lists` : undefined;
}

/**
 * Wrappers with an option that sets the folder their command runs in: its short letter, its long
 * names, and the other short options that take an argument (the rest of a group is theirs).
 */
const workingDirectoryOptions: ReadonlyMap<
  string,
  { readonly short: string; readonly long: readonly string[]; readonly withArgument: string }
> = new Map([
  ["env", { short: "C", long: ["--chdir"], withArgument: "uSP" }],
  ["sudo", { short: "D", long: ["--chdir"], withArgument: "ughpCrtTUR" }],
  ["run0", { short: "D", long: ["--chdir"], withArgument: "ug" }],
  ["unshare", { short: "w", long: ["--wd"], withArgument: "S" }],
  ["nsenter", { short: "w", long: ["--wd"], withArgument: "tSGd" }],
  ["systemd-run", { short: "", long: ["--working-directory"], withArgument: "pEu" }],
  ["start-stop-daemon", { short: "d", long: ["--chdir"], withArgument: "xpnugrsRaNPIkcO" }],
]);

/** `find` primaries whose argument is a file it stats, reads or writes. */
const findFilePrimaries = new Set(
  words("-newer -anewer -cnewer -samefile -files0-from -fprint -fprint0 -fprintf -fls"),
);
/** Programs that look a name up as a file when it has a slash (`type /root/x`, `which ./x`). */
const pathLookups = new Set(["type", "which", "whereis", "hash"]);
/** `command -v NAME` / `command -V NAME` look NAME up (`command -pv`, too). */
function commandLooksUp(args: readonly ShellWord[]): boolean {
  for (const word of args) {
    if (word.dynamic || !word.value.startsWith("-") || word.value === "--") return false;
    if (/[vV]/.test(word.value)) return true;
  }
  return false;
}

/** Programs that remove or move their operands, whole folders included. */
const removers = new Set(["rm", "mv"]);
/** `find` primaries that delete what it finds or run a command on it (`rm -rf {}`). */
const findRemovingPrimaries = new Set(["-delete", "-exec", "-execdir", "-ok", "-okdir"]);

/** Programs that change the directory later relative paths are read from. */
const directoryChangers = new Set(["cd", "pushd", "popd"]);
const shells = new Set(["sh", "bash", "rbash", "zsh", "dash", "ksh", "ash", "mksh"]);
/** Redirections whose target is not a file: here-documents, here-strings. */
const bodyOperators = new Set(["<<", "<<-", "<<<"]);
/** Scripts nested deeper than this are not read: unknown. */
const maxDepth = 8;

/**
 * The unary operators of `test`, `[` and `[[` whose operand is a file (bash's and POSIX's; `-t`
 * takes a file descriptor), and the binary ones that compare two files.
 */
const fileTests = new Set(words("-a -b -c -d -e -f -g -h -k -p -r -s -u -w -x -G -L -N -O -S"));
const fileComparisons = new Set(words("-nt -ot -ef"));
/** Every word a test expression may read as an operator: none is taken for a file there. */
const testOperators = new Set([
  ...fileTests,
  ...fileComparisons,
  ...words("! ( ) -o -n -z -t -v -R = == != =~ < > -eq -ne -lt -le -gt -ge && || |"),
]);

/**
 * Variables whose value lists folders the shell or a program then searches, `:`-separated:
 * `PATH=/root/.ssh type id_rsa` and `CDPATH=/root cd .ssh` ask whether files exist there.
 */
const searchPathVariables = new Set(["PATH", "CDPATH"]);
/**
 * Variables that change how a shell reads the text that follows (extended globs through
 * `BASHOPTS`, a startup file through `BASH_ENV`): after them, file names cannot be read from it.
 */
const shellReadingVariables = new Set(["BASHOPTS", "SHELLOPTS", "BASH_ENV", "ENV"]);
/** Commands whose arguments may be assignments the shell or the command makes (`export A=b`). */
const assigningCommands = new Set(["export", "declare", "typeset", "local", "readonly", "env"]);
/** git's options (before its subcommand) that name the folder or repository it works in. */
const gitFolderOptions = new Set(["-C", "--git-dir", "--work-tree"]);

/** Why a word's file name cannot be read from the text, or undefined when it can. */
function unreadable(word: ShellWord): string | undefined {
  if (word.dynamic) return `'${word.value}' is built by expansion or substitution`;
  if (/[*?[]/.test(word.shadow)) return `'${word.value}' is a glob`;
  if (/\{.*(,|\.\.).*\}/.test(word.shadow)) return `'${word.value}' is brace-expanded`;
  return undefined;
}

/**
 * Why a word may be an option of `program` the text does not show (`"$OPT"`, `--$X=v`, `-v$X`,
 * an unquoted `$X` the shell splits into words): see `hidesOption`.
 */
function builtOption(program: string, word: ShellWord): string {
  return `'${word.value}' may be an option of '${program}' built by expansion or substitution`;
}

/**
 * Whether the `KEY` of a `KEY=VALUE` word (a git setting, an ssh `-o` setting, a tar checkpoint
 * action) is written in the text: up to its separator (`=`, or for ssh blanks too), or the whole
 * word when it has none. `"$S"`, `"$K=v"`, `core.$K=v` name a key the text does not show.
 */
function keyWritten(word: ShellWord, separator: RegExp = /=/): boolean {
  const written = writtenLength(word);
  // ssh skips blanks in front of the key (`-o " ProxyCommand=x"`).
  const start = /^\s*/.exec(word.value)?.[0].length ?? 0;
  const at = word.value.slice(start).search(separator);
  return at === -1 ? written === word.value.length : start + at < written;
}

/** A word that is a whole process substitution (`<(sort a)`): a pipe, read through its body. */
function isProcessSubstitution(word: ShellWord): boolean {
  return (word.value.startsWith("<(") || word.value.startsWith(">(")) && !/[^\0]/.test(word.shadow);
}

/** git subcommands whose operands name files whose content they show, compare or restore. */
const gitContentSubcommands = new Set([
  "show",
  "log",
  "whatchanged",
  "diff",
  "diff-tree",
  "diff-index",
  "diff-files",
  "difftool",
  "blame",
  "annotate",
  "cat-file",
  "archive",
  "ls-tree",
  "ls-files",
  "rev-parse",
  "checkout",
  "restore",
  "stash",
  "format-patch",
  "apply",
  "grep",
  "interpret-trailers",
  "merge-file",
  "am",
  "send-email",
  "web--browse",
  "mailsplit",
  "bundle",
]);

/**
 * A git subcommand's options that take a value, as far as reading them needs, and those of them
 * whose value is a file (`files`). The others are listed so that their value (`-m "$MSG"`) is
 * not read as a word that may be an option.
 */
interface GitFileOptions extends OptionSyntax {
  readonly files: readonly string[];
}

/**
 * Options of other git subcommands whose value is a file git reads and may show (a commit
 * message or template, a tag message, a file added to an archive).
 */
const gitSubcommandFileOptions: ReadonlyMap<string, GitFileOptions> = new Map([
  [
    "commit",
    {
      short: "FtmcC",
      long: words(
        "--file --template --message --reedit-message --reuse-message --author --date --fixup --squash --cleanup --trailer",
      ),
      files: words("-F -t --file --template"),
      letterGroupsOnly: true,
    },
  ],
  [
    "tag",
    {
      short: "Fmu",
      long: words("--file --message --local-user"),
      files: ["-F", "--file"],
      letterGroupsOnly: true,
    },
  ],
  [
    "notes",
    {
      short: "FmcC",
      long: words("--file --message --reedit-message --reuse-message"),
      files: ["-F", "--file"],
      letterGroupsOnly: true,
    },
  ],
  [
    "merge",
    {
      short: "FmsX",
      long: words("--file --message --strategy --strategy-option"),
      files: ["-F", "--file"],
      letterGroupsOnly: true,
    },
  ],
  ["archive", { long: ["--add-file"], files: ["--add-file"], letterGroupsOnly: true }],
  ["credential-store", { long: ["--file"], files: ["--file"], letterGroupsOnly: true }],
  [
    "fmt-merge-msg",
    { short: "Fm", long: ["--file", "--message"], files: ["-F", "--file"], letterGroupsOnly: true },
  ],
]);

/**
 * Why `ssh-keygen` or `ssh-add` with `args` loads a library whose code runs (a PKCS#11 or
 * security-key provider: `ssh-keygen -D lib`, `-w lib`; `ssh-add -s lib`, `-e lib`, `-S lib`).
 */
function loadsLibrary(name: string, args: readonly ShellWord[]): string | undefined {
  const syntax =
    name === "ssh-keygen"
      ? { short: "abCDEfGIJjKmMnNOPrsStTVwYZ", letters: "Dw" }
      : name === "ssh-add"
        ? { short: "eHhSst", letters: "esS" }
        : undefined;
  if (syntax === undefined) return undefined;
  const letters = readOptionsWhole(args, syntax).letters;
  const given = [...syntax.letters].find((letter) => letters.has(letter));
  return given === undefined ? undefined : `'${name} -${given}' loads a library, whose code runs`;
}

/** ssh settings that name a library ssh loads (a PKCS#11 or security-key provider). */
const sshLibrarySettings = new Set(["pkcs11provider", "securitykeyprovider"]);

/** Where a git subcommand writes: its options that take a value, which of them name places. */
interface GitDestinations extends GitFileOptions {
  /** Its operands from this one on are places (`worktree add PATH`: 1, after `add`). */
  readonly operandsFrom: number;
  /** When it takes a subcommand first: those that write where their operands say. */
  readonly subcommands?: readonly string[];
}

/** `git init` (and its old name `init-db`): the new repository's folder, `--separate-git-dir`. */
const gitInitDestinations: GitDestinations = {
  short: "b",
  long: words("--template --separate-git-dir --initial-branch --object-format --ref-format"),
  files: ["--separate-git-dir"],
  letterGroupsOnly: true,
  operandsFrom: 0,
};

/**
 * git subcommands that make a folder or write a file their command line names (see
 * `gitDestinations`). `submodule` and `worktree` take a subcommand first; `bundle create FILE`
 * too. A revision or branch read as a place names nothing protected.
 */
const gitDestinationOptions: ReadonlyMap<string, GitDestinations> = new Map([
  [
    "clone",
    {
      short: "obucj",
      long: words(
        "--origin --branch --upload-pack --reference --reference-if-able --separate-git-dir --depth --shallow-since --shallow-exclude --config --server-option --jobs --filter --template --bundle-uri --ref-format --revision",
      ),
      files: words("--reference --reference-if-able --separate-git-dir"),
      letterGroupsOnly: true,
      operandsFrom: 0,
    },
  ],
  ["init", gitInitDestinations],
  ["init-db", gitInitDestinations],
  [
    "worktree",
    {
      short: "bB",
      long: words("--reason --expire"),
      files: [],
      letterGroupsOnly: true,
      operandsFrom: 1,
      subcommands: words("add move remove lock unlock repair"),
    },
  ],
  [
    "submodule",
    {
      short: "b",
      long: words("--branch --name --reference --depth"),
      files: ["--reference"],
      letterGroupsOnly: true,
      operandsFrom: 1,
      subcommands: ["add"],
    },
  ],
  [
    "checkout-index",
    { long: ["--prefix", "--stage"], files: ["--prefix"], letterGroupsOnly: true, operandsFrom: 0 },
  ],
  [
    "format-patch",
    {
      short: "ovS",
      long: words("--output-directory --output --subject-prefix --in-reply-to --to --cc --from"),
      files: words("-o --output-directory --output"),
      letterGroupsOnly: true,
      operandsFrom: Number.POSITIVE_INFINITY,
    },
  ],
  // Plumbing that writes files named on its command line: a pack's base name, an index, mails.
  [
    "pack-objects",
    {
      long: words(
        "--window --depth --window-memory --max-pack-size --compression --threads --filter --index-version",
      ),
      files: [],
      letterGroupsOnly: true,
      operandsFrom: 0,
    },
  ],
  [
    "index-pack",
    {
      short: "o",
      long: ["--index-version", "--threads"],
      files: ["-o"],
      letterGroupsOnly: true,
      operandsFrom: Number.POSITIVE_INFINITY,
    },
  ],
  [
    "mailsplit",
    { short: "bo", files: ["-o"], letterGroupsOnly: true, operandsFrom: Number.POSITIVE_INFINITY },
  ],
  [
    "bundle",
    {
      files: [],
      letterGroupsOnly: true,
      operandsFrom: 1,
      subcommands: words("create verify list-heads unbundle"),
    },
  ],
  [
    "archive",
    {
      short: "o",
      long: words("--output --prefix --format --remote --exec --add-file"),
      files: ["-o", "--output"],
      letterGroupsOnly: true,
      operandsFrom: Number.POSITIVE_INFINITY,
    },
  ],
]);

/** A word as if written in quotes: a path a command reads without naming it. */
function literalWord(value: string): ShellWord {
  return {
    value,
    shadow: "\0".repeat(value.length),
    expansions: writtenText.repeat(value.length),
    dynamic: false,
    substitutions: [],
  };
}

/**
 * The subcommands of `gitContentSubcommands` whose options are read as options when only their
 * name is written (`git log --author="$USER"`, `-n"$N"`): no option of theirs runs a command,
 * and those that name a file are read as files (`--output`, `-O`, `blame -S`, `-L`). The
 * others' options with a value built by expansion are read as files, which asks.
 */
const gitOptionsRead = new Set(
  words("log show whatchanged diff diff-tree diff-index diff-files blame annotate"),
);
/**
 * The options of `git log`, `show` and `whatchanged` that take the next word as their value
 * (`--author "$USER"`, `-n "$N"`), as git's revision parser takes them: the exact name only,
 * never in a group. `short` holds the letters whose value may be attached (`-n"$N"`), for
 * `hidesOption`.
 */
const gitRevisionValueOptions = {
  short: "nSGLO",
  separate: new Set(
    words(
      "-n -S -G --max-count --skip --since --after --until --before --max-age --min-age --author --committer --grep --grep-reflog",
    ),
  ),
};

/** git options of those subcommands whose `=VALUE` is a file. */
const gitFileOptions = new Set([
  "--output",
  "--output-directory",
  "-O",
  "--orderfile",
  "--contents",
  "--ignore-revs-file",
  "--exclude-from",
]);

/** Where git's subcommand is in `args` (after its own options), or -1. */
function gitSubcommandAt(args: readonly ShellWord[]): number {
  for (const item of readOptions(args, gitOptionSyntax)) {
    if (item.kind === "operand") return item.at;
    if (item.kind === "built") return -1;
  }
  return -1;
}

/**
 * Where the path starts in a git object name that holds one: `REV:path`, `:path` (the staged
 * copy), `:N:path` (a merge stage), and pathspec magic (`:(exclude)path`, `:/path` from the top,
 * `:!path`); undefined for a word without one (a revision, a plain path, a URL).
 */
function objectPathStart(value: string): number | undefined {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return undefined;
  const staged = /^:(?:[0-3]:|\([^)]*\)|[/!^]+)?/.exec(value);
  if (staged !== null) return staged[0].length;
  const colon = value.indexOf(":");
  if (colon <= 0) return undefined;
  // `REV:path`, where REV has no white space and no `..` (a range names no file).
  const revision = value.slice(0, colon);
  return /^[^\s/]*(?:\/[^\s:]*)?$/.test(revision) && !revision.includes("..")
    ? colon + 1
    : undefined;
}

/**
 * git's own options (before its subcommand) that take a value, as git reads them: each a whole
 * word, its value after `=` or the next word.
 */
const gitOptionSyntax: OptionSyntax = {
  wholeWords: true,
  long: [
    ...gitFolderOptions,
    ...words("-c --attr-source --namespace --exec-path --config-env --super-prefix"),
  ],
};

/** `shopt -s extglob` and `bash -O extglob`: patterns like `@(...)` become globs. */
function turnsOnExtendedGlobs(name: string, args: readonly ShellWord[]): boolean {
  const names = (word: ShellWord | undefined) =>
    word !== undefined && (word.dynamic || word.value === "extglob");
  if (name === "shopt") return args.some(names);
  if (!shells.has(name)) return false;
  return args.some((word, i) => (word.value === "-O" || word.value === "+O") && names(args[i + 1]));
}

/**
 * `syntax` with the other options of `program` that take a value (its `operandRules` entry):
 * getopt gives an option that takes a value the next word whatever it is, so `tar -czf "$OUT"`
 * reads `"$OUT"` as `-f`'s value, not as a word that may be an option. `syntax`'s own come
 * first: a prefix both may name is read as one of them.
 */
function withValueOptions(syntax: OptionSyntax, program: string): OptionSyntax {
  const rule = operandRules.get(program);
  if (rule === undefined) return syntax;
  return {
    ...syntax,
    short: `${syntax.short ?? ""}${rule.short ?? ""}`,
    long: [...(syntax.long ?? []), ...(rule.long ?? [])],
    longWithTwo: [...(syntax.longWithTwo ?? []), ...(rule.longWithTwo ?? [])],
  };
}

/** Whether `syntax` lists the option `name` (`-P`, or a long one as listed: `--pager`). */
function listsOption(syntax: OptionSyntax, name: string): boolean {
  return name.startsWith("--")
    ? (syntax.long ?? []).includes(name)
    : (syntax.short ?? "").includes(name.slice(1));
}

/** A glob only in its last segment, not built by expansion, no braces, not from `~`. */
function isPlainGlob(word: ShellWord): boolean {
  if (word.dynamic || word.value.startsWith("~")) return false;
  const wildcard = /[*?[]/.exec(word.shadow);
  if (wildcard === null || /\{.*(,|\.\.).*\}/.test(word.shadow)) return false;
  return wildcard.index > word.value.lastIndexOf("/");
}

class OperandCollector {
  readonly paths: string[] = [];
  readonly globs: string[] = [];
  readonly optionGlobs: string[] = [];
  readonly removed: string[] = [];
  readonly folders: string[] = [];
  readonly foldersOutsideRepository: string[] = [];
  unknown: string | undefined;
  opaque: string | undefined;
  changesDirectory = false;
  /** Whether a relative path was met (a `cd` anywhere makes every relative path unknown). */
  relativeSeen = false;

  note(reason: string): void {
    this.unknown ??= reason;
    this.opaque ??= reason;
  }

  /**
   * A word `readOptions` read as `built` in `program`'s arguments: an option the text does not
   * show. One that is so only because it starts with a glob (`*`, `[-]o*`) is an option only if
   * the folder holds a name starting with `-` when the shell expands it (see `optionGlobs`).
   */
  optionBuilt(program: string, word: ShellWord): void {
    if (!word.dynamic && isPlainGlob(word)) {
      this.unknown ??= builtOption(program, word);
      this.optionGlobs.push(word.value);
    } else this.note(builtOption(program, word));
  }

  file(word: ShellWord): void {
    if (isProcessSubstitution(word)) return;
    const why = unreadable(word);
    if (why !== undefined && isPlainGlob(word)) {
      this.unknown ??= why;
      this.globs.push(word.value);
      return;
    }
    if (why !== undefined) {
      this.note(why);
      return;
    }
    this.text(word.value);
  }

  /**
   * `cd DIR`: what runs next lists, reads and writes there (`cd /root && ls`), so DIR is a path
   * of the call. No DIR is the home folder; `cd -`, `popd` and a relative DIR after another
   * directory change cannot be told from the text.
   */
  changeDirectory(name: string, args: readonly ShellWord[]): void {
    let at = 0;
    while (at < args.length && !args[at]?.dynamic && /^-[LPe@]+$/.test(args[at]?.value ?? "")) at++;
    if (args[at]?.value === "--" && !args[at]?.dynamic) at++;
    const target = args[at];
    const earlier = this.changesDirectory;
    this.changesDirectory = true;
    if (name === "popd" || (target?.value === "-" && !target.dynamic)) {
      this.note(`'${name}' returns to a folder the text does not name`);
      return;
    }
    if (target === undefined) {
      this.paths.push("~");
      return;
    }
    const why = unreadable(target);
    if (why !== undefined) this.note(why);
    else if (earlier && !target.value.startsWith("/") && !target.value.startsWith("~")) {
      this.note(`'${name} ${target.value}' is relative to an earlier change of directory`);
    } else this.paths.push(target.value);
  }

  /**
   * A wrapper that runs its command in another folder (`env -C DIR cmd`, `sudo -D DIR cmd`,
   * `unshare --wd DIR cmd`), as `cd DIR && cmd` would. Short options are read as getopt reads a
   * group (`-iC/root`, `-vC /root`); long ones by any unambiguous prefix (`--ch=/root`).
   */
  wrapperDirectory(name: string, stage: readonly ShellWord[]): void {
    const rule = workingDirectoryOptions.get(name);
    if (rule === undefined) return;
    for (let i = 1; i < stage.length; i++) {
      const word = stage[i] as ShellWord;
      const v = word.value;
      // Only the option's name need be written: its value may be built (`--chdir="$D"`), and a
      // word whose option the text does not show stops the unwrapping before this is read.
      const written = writtenLength(word);
      if (written === 0 || !v.startsWith("-") || v === "-" || v === "--") continue;
      if (v.startsWith("--")) {
        const [given = v] = v.split("=", 1);
        if (v.includes("=") ? v.indexOf("=") >= written : written < v.length) continue;
        if (!rule.long.some((full) => full === given || namesLongOption(given, full))) continue;
        const target = v.includes("=") ? restOfWord(word, v.indexOf("=") + 1) : stage[i + 1];
        if (target !== undefined) this.changeDirectory(name, [target]);
        continue;
      }
      for (let j = 1; j < v.length && j < written; j++) {
        const letter = v.charAt(j);
        if (letter === rule.short) {
          const target = j < v.length - 1 ? restOfWord(word, j + 1) : stage[i + 1];
          if (target !== undefined) this.changeDirectory(name, [target]);
          break;
        }
        if (rule.withArgument.includes(letter)) break;
      }
    }
  }

  /**
   * The files a wrapper writes or reads beside running its command (`strace -o FILE`, `time -o
   * FILE`, `script FILE`, `logsave FILE cmd`, `start-stop-daemon --pidfile FILE`): paths of the
   * call. Read up to the wrapper's command, or through all its words for one whose options may
   * follow its operands. strace's `-o |cmd` / `-o !cmd` pipes its output to a command line.
   */
  wrapperFiles(name: string, args: readonly ShellWord[], depth: number): void {
    for (const item of wrapperFileItems(name, args)) {
      if (item.kind === "built") this.optionBuilt(name, item.word);
      else if (item.kind === "pipe") this.commandValue(`${name} ${item.option}`, item.word, depth);
      else this.file(item.word);
    }
  }

  /**
   * The script a shell or `source` reads from a process substitution among `words` (`sh <(cmd)`,
   * `sh < <(cmd)`, `. <(cmd)`): read when `echo`, `printf` or `cat <<EOF` prints it, unknown
   * otherwise (`sh <(base64 -d <<< ...)`).
   */
  substitutedScripts(name: string, words: readonly ShellWord[], depth: number): void {
    for (const word of words) {
      if (!/^[<>]\(/.test(word.value)) continue;
      for (const body of word.substitutions) {
        for (const text of scriptsProducedBy(body)) this.line(text, depth + 1);
        const why = unreadSubstitution(body);
        if (why !== undefined) this.note(`'${name}' runs a script a substitution writes: ${why}`);
      }
    }
  }

  /**
   * A program that runs its input as a script (a shell given none, `ssh HOST` without a command,
   * `at`): unknown when the input is a pipe whose text the line does not show (`base64 -d | sh`),
   * or, in a script another program runs (`sh -c 'sh'`, `git send-email --smtp-server=/bin/sh`),
   * the input that program gives, unless the script itself gives one.
   */
  unreadInput(name: string, simple: ShellSimpleCommand, depth: number, fileUnread = false): void {
    const unread = unreadStdin(simple);
    if (unread !== undefined) this.note(`'${name}' reads its script from a pipe: ${unread}`);
    // A shell's script file is judged by its path (`sh < x.sh`, as `sh x.sh`), its text left to
    // the process isolation the command runs in; what ssh and at run from a file (`ssh
    // localhost < x.sh`, `at now < x.sh`) runs outside it, on the remote machine or later.
    if (fileUnread && simple.redirections.some((r) => r.operator === "<" || r.operator === "<>")) {
      this.note(`'${name}' runs a file's text as its script`);
    }
    const given = simple.stdinFrom !== undefined || simple.stdinFromCompound === true;
    const redirected = simple.redirections.some((r) => r.operator.startsWith("<"));
    if (depth > 0 && !given && !redirected) {
      this.note(`'${name}' reads its script from the input of the program that runs it`);
    }
  }

  /**
   * An unquoted glob in any command lists the names it matches (`echo /root/*`), so the folder
   * it matches in is a path of the call. A glob in an earlier segment (`*\/x`, `.?/x`) may pass
   * through links or `..` and cannot be told.
   */
  glob(word: ShellWord): void {
    const match = /[*?]|\[[^\]]*\]/.exec(word.shadow);
    if (match === null) return;
    const value = word.value;
    if (word.dynamic) {
      this.note(`'${value}' is a glob built by expansion`);
      return;
    }
    const slash = value.indexOf("/", match.index);
    if (slash !== -1 && slash < value.length - 1) {
      this.note(`'${value}' is a glob in a folder of its path`);
      return;
    }
    const folderEnd = value.lastIndexOf("/", match.index);
    // `{/root,x}/*`, `{..,a}/*`, `{~,a}/*`, `.ai{ntern,x}/*`: bash expands the braces (and then
    // tildes) first, so braces in the folder, or with a slash or tilde, change where it globs.
    if (/\{.*(,|\.\.).*\}/.test(word.shadow)) {
      const brace = word.shadow.indexOf("{");
      if (brace <= folderEnd || /[/~]/.test(value.slice(brace))) {
        this.note(`'${value}' is a glob in a brace-expanded folder`);
        return;
      }
    }
    this.text(folderEnd === -1 ? "." : value.slice(0, folderEnd + 1));
  }

  /**
   * A test expression (`test`'s or `[`'s arguments, a `[[ ]]`'s words) probes whether files exist
   * and what they are (`test -e /root/.ssh/id_rsa`): their operands are paths of the call. Read
   * generously rather than parsed, since shells differ: a word counts when it follows a unary file
   * operator or stands beside `-nt`, `-ot`, `-ef` or a word built by expansion (which may expand
   * to an operator). `-a` is read as the file test where a test may start (`-a x`, `! -a x`),
   * and as the `and` of two tests right after an operand (`-f x -a -n y`).
   */
  testOperands(expression: readonly ShellWord[]): void {
    const isOperator = (word: ShellWord | undefined) =>
      word !== undefined && !word.dynamic && testOperators.has(word.value);
    const probed = new Set<number>();
    expression.forEach((word, i) => {
      const v = word.value;
      if (word.dynamic || fileComparisons.has(v)) {
        probed.add(i - 1).add(i + 1);
      } else if (fileTests.has(v)) {
        const before = expression[i - 1];
        const startsPrimary =
          before === undefined || before.dynamic || (isOperator(before) && before.value !== ")");
        if (v !== "-a" || startsPrimary) {
          probed.add(i + 1);
          // `test -f -- x`: some implementations may skip the `--`.
          if (expression[i + 1]?.value === "--") probed.add(i + 2);
        }
      }
    });
    for (const i of [...probed].sort((a, b) => a - b)) {
      const word = expression[i];
      if (word === undefined || isOperator(word)) continue;
      if (word.value === "--" && !word.dynamic) continue;
      this.file(word);
    }
  }

  text(value: string): void {
    if (value === "" || value === "-") return;
    if (!value.startsWith("/") && !value.startsWith("~")) this.relativeSeen = true;
    this.paths.push(value);
  }

  line(command: string, depth: number): void {
    if (depth > maxDepth) {
      this.note(`scripts are nested more than ${maxDepth} deep`);
      return;
    }
    const parsed = lexShellCommand(command);
    if (!parsed.ok) {
      this.note("the command does not parse");
      return;
    }
    const nested = (body: string) => this.line(body, depth + 1);
    for (const word of parsed.inertWords) for (const body of word.substitutions) nested(body);
    // `for x in /root/.ssh/*`: a loop's list is globbed, a `case` word or `[[ ]]` pattern is not.
    for (const word of parsed.loopWords) this.glob(word);
    for (const expression of parsed.conditionals) this.testOperands(expression);
    for (const simple of parsed.commands) this.simple(simple, depth);
  }

  simple(simple: ShellSimpleCommand, depth: number): void {
    const nested = (body: string) => this.line(body, depth + 1);
    for (const word of simple.words) for (const body of word.substitutions) nested(body);
    for (const redirection of simple.redirections) this.redirection(redirection, depth);
    const unwrapped = unwrapCommand(simple.words);
    // Assignments in front of the command or of any wrapper's command (`nice env A=b cmd`).
    for (const stage of unwrapped.stages) this.assignments(stage, depth);
    for (const script of unwrapped.scripts) nested(script);
    for (const reason of unwrapped.unread) this.note(reason);
    for (const stage of unwrapped.stages) {
      const name = stage[0] === undefined ? "" : commandName(stage[0].value);
      // `echo CMD | ssh HOST`: the remote shell, on this machine for `localhost`, runs the input.
      if (name === "ssh" && sshRunsInput(stage.slice(1))) {
        for (const text of stdinScripts(simple)) nested(text);
        this.unreadInput(name, simple, depth, true);
      }
      if (name === "xargs") this.note("'xargs' takes its operands from its input");
      if (name === "parallel") this.note("'parallel' takes its operands from ':::' or its input");
    }
    // Options whose value a program runs, the wrappers' too (`ssh -o ProxyCommand=... host`).
    for (const stage of unwrapped.stages) {
      const first = stage[0];
      if (first !== undefined) {
        this.programCommands(commandName(first.value), stage.slice(1), depth);
        // The files a wrapper writes beside its command (`strace -o FILE`, `script FILE`).
        this.wrapperFiles(commandName(first.value), stage.slice(1), depth);
      }
    }
    const effective = unwrapped.words;
    const program = effective[0];
    if (program === undefined) return;
    const name = commandName(program.value);
    const args = effective.slice(1);
    if (settingBuiltins.has(name)) this.variablesSetBy(name, args);
    if (directoryChangers.has(name)) this.changeDirectory(name, args);
    else if (name === "alias") this.note("an alias may rename a program");
    else if (name === "eval") nested(args.map((w) => w.value).join(" "));
    else if (name === "trap") this.trapCommand(args, depth);
    else if (
      (name === "mapfile" || name === "readarray") &&
      args.some((w) => /^-\w*C/.test(w.value))
    ) {
      // `mapfile -C 'cat' -c 1 < list`: the callback runs with each line read as an argument.
      this.note(`'${name} -C' runs a command on the lines it reads`);
    } else if (shells.has(name)) {
      const input = shellInput(args);
      if (input.kind === "command" && input.script !== undefined) nested(input.script.value);
      for (const text of stdinScripts(simple)) nested(text);
      if (input.kind === "built") this.note(`'${name}' is given an option built by expansion`);
      if (input.kind === "stdin") this.unreadInput(name, simple, depth);
      // The script file it runs and the startup files it reads (`sh .env`, `bash --rcfile x`)
      // are read: paths of the call. One built by expansion (`bash "$SCRIPT"`) is left unread.
      const read = [...shellStartupFiles(args), ...(input.kind === "file" ? [input.file] : [])];
      for (const word of read) if (!word.dynamic) this.file(word);
      const from = input.kind === "file" ? [input.file] : [];
      if (input.kind === "stdin") {
        for (const r of simple.redirections) if (r.operator === "<") from.push(r.target);
      }
      this.substitutedScripts(name, from, depth);
    } else if (name === "at" || name === "batch") {
      // at runs its input, or the file of `-f`, as a shell script later; it lists, removes or
      // prints jobs with `-l`, `-r`, `-d`, `-c` (a queue's letter, `-qc`, is no such option).
      let file: ShellWord | undefined;
      for (const item of readOptions(args, atSyntax)) {
        if (item.kind === "option" && item.name === "-f") file = item.value;
      }
      const letters = readOptionsWhole(args, atSyntax).letters;
      const lists = [..."lrdc"].some((letter) => letters.has(letter));
      if (file !== undefined) {
        this.file(file);
        this.note(`'${name} -f' runs the commands of a file`);
      } else if (!lists) {
        for (const text of stdinScripts(simple)) nested(text);
        this.unreadInput(name, simple, depth, true);
      }
    } else if (name === "source" || name === ".") {
      const script = args[0]?.value === "--" ? args[1] : args[0];
      if (script !== undefined) this.substitutedScripts(name, [script], depth);
      const unread = script !== undefined && stdinPaths.has(script.value) && unreadStdin(simple);
      if (unread) this.note(`'${name}' reads its script from a pipe: ${unread}`);
    }
    for (const stage of unwrapped.stages) {
      if (stage[0] !== undefined) this.wrapperDirectory(commandName(stage[0].value), stage);
    }
    // Every word the shell globs: a wrapper's own arguments too (`timeout /root/* true`).
    for (const word of simple.words.slice(1)) this.glob(word);
    // Reading beyond what is named: unknown files, but none changed or named by it (not opaque).
    const follows = followsLinksOut(name, args);
    if (follows !== undefined) this.unknown ??= follows;
    const unnamed = readsUnnamedFiles(name, args);
    if (unnamed !== undefined) this.unknown ??= unnamed;
    const library = loadsLibrary(name, args);
    if (library !== undefined) this.note(library);
    // Writing what an archive or patch names: any file below the folder it writes in, a protected
    // one too, may change. Not opaque: the rules guarding what can never change judge the folder
    // (`foldersChangedWhole`), which an extraction elsewhere (`tar -x -C other`) leaves alone.
    const unpacked = writesFilesNamedInside(name, args);
    if (unpacked !== undefined) this.unknown ??= unpacked;
    if (name === "test") this.testOperands(args);
    else if (name === "[") this.testOperands(args.at(-1)?.value === "]" ? args.slice(0, -1) : args);
    const rule = operandRules.get(name);
    const named = this.paths.length;
    if (rule !== undefined) this.operands(rule, args);
    const removes =
      removers.has(name) ||
      (name === "find" && args.some((w) => w.dynamic || findRemovingPrimaries.has(w.value)));
    if (removes) this.removed.push(...this.paths.slice(named));
    if (name === "diff") this.folders.push(...this.paths.slice(named));
    if (name === "rsync" && rule !== undefined) this.rsyncDestinationFolders(rule, args);
    if (name === "find") this.findExpression(args, depth);
    else if (pathLookups.has(name) || (name === "command" && commandLooksUp(args))) {
      // `type /root/x`, `command -v ~/bin/x`: a name with a slash is looked up as a file.
      for (const word of args) {
        if (word.dynamic || word.value.includes("/") || word.value.startsWith("~")) {
          if (!(word.value.startsWith("-") && !word.dynamic)) this.file(word);
        }
      }
    }
    if (name === "compgen") this.note("'compgen' lists file names");
    if (name === "man") {
      // `man -l FILE`, `man ./FILE`: a page read from a file, which man prints.
      const local = args.some((w) => /^-[a-zA-Z]*l/.test(w.value) || w.value === "--local-file");
      for (let i = 0; i < args.length; i++) {
        const word = args[i] as ShellWord;
        // `-C FILE`, `--config-file=FILE`: a configuration man reads (its pager among it).
        if (word.value === "-C" || word.value === "--config-file") {
          if (args[i + 1] !== undefined) this.file(args[++i] as ShellWord);
          continue;
        }
        if (word.value.startsWith("--config-file=")) this.file(restOfWord(word, 14));
        if (word.value.startsWith("-")) continue;
        if (local || word.dynamic || word.value.includes("/")) this.file(word);
      }
    }
    if (name === "git") {
      const aliases = this.gitConfigCommands(args, depth);
      this.gitFolders(args);
      const at = gitSubcommandAt(args);
      const subcommand = args[at];
      if (subcommand !== undefined && !subcommand.dynamic) {
        const after = args.slice(at + 1);
        const alias = aliases.get(subcommand.value.toLowerCase());
        if (alias !== undefined) this.gitAlias(alias, after, aliases, depth);
        this.gitPaths(subcommand.value, after);
        this.gitIndexPaths(subcommand.value, after);
        this.gitDestinations(subcommand.value, after);
        const patched = gitWritesFilesNamedInside(subcommand.value, after);
        if (patched !== undefined) this.unknown ??= patched;
        this.gitTemplates(subcommand.value, after);
        this.gitCommands(subcommand.value, after, depth);
      }
      const remoteTaking = gitRemoteSubcommands.has(subcommand?.value ?? "");
      if (
        args.some(
          (w, i) =>
            (i < at && /ext::/i.test(w.value)) ||
            (i > at && remoteTaking && /^(--[a-z-]+=)?ext::/i.test(w.value)),
        )
      ) {
        this.note("git's ext:: transport runs a command as its remote");
      }
    }
    if (turnsOnExtendedGlobs(name, args)) {
      this.note("extended globs are turned on: the file names of what follows cannot be read");
    }
  }

  /**
   * Assignments in front of a command, and those `export`, `declare`, `env` and the like make:
   * the folders of `PATH` and `CDPATH` are paths of the call, and a variable that changes how the
   * shell reads what follows makes it unknown.
   */
  assignments(words: readonly ShellWord[], depth: number): void {
    const first = words.findIndex((word) => assignmentName(word.value) === undefined);
    const program = first === -1 ? undefined : words[first];
    const assigning = program !== undefined && assigningCommands.has(commandName(program.value));
    // The words in front of the command, or all of them when the command itself assigns.
    const considered = first === -1 || assigning ? words : words.slice(0, first);
    for (const word of considered) {
      const name = assignmentName(word.value);
      if (name === undefined) continue;
      if (shellReadingVariables.has(name)) {
        this.note(`'${name}' changes how the shell reads the command`);
      } else if (commandVariables.has(name)) {
        this.commandValue(name, restOfWord(word, word.value.indexOf("=") + 1), depth);
      } else if (opaqueVariable.test(name)) {
        this.note(`'${name}' gives a program settings or programs from elsewhere`);
      } else if (lessKeyVariables.has(name)) {
        this.file(restOfWord(word, word.value.indexOf("=") + 1));
      } else if (name === "LESS" && /[!|]/.test(word.value)) {
        this.note("'LESS' may hold a command for less to run");
      } else if (searchPathVariables.has(name)) {
        let start = word.value.indexOf("=") + 1;
        for (const folder of word.value.slice(start).split(":")) {
          if (folder !== "") this.file(sliceWord(word, start, start + folder.length));
          start += folder.length + 1;
        }
      }
    }
  }

  /**
   * A command line given as a value (a variable's, a git setting's), read as a nested script:
   * `!` in front (a git alias or credential helper that runs a shell command) and `|` (a
   * LESSOPEN pipe) are not part of it, nor is `%s` (the file less opens).
   */
  commandValue(what: string, value: ShellWord, depth: number): void {
    if (value.dynamic) {
      this.note(`'${what}' is a command line built by expansion or substitution`);
      return;
    }
    // `!cmd` (a git alias), `|cmd`, `||cmd`, `|-cmd` and `||-cmd` (LESSOPEN's pipes).
    const script = value.value.replace(/^[!|]+-?/, "").replaceAll("%s", "");
    if (script.trim() !== "") this.line(script, depth + 1);
  }

  /**
   * `git -c KEY=VALUE` before the subcommand, for a KEY whose value git runs as a command line
   * (`core.pager`, `alias.x=!cmd`, a diff or filter driver's command, ...): its files are the
   * call's. An alias without `!` is more git: `alias.x='show HEAD:.env'` is read as that git
   * command. A setting from the environment (`--config-env`) cannot be read.
   */
  gitConfigCommands(
    args: readonly ShellWord[],
    depth: number,
    aliases = new Map<string, ShellWord>(),
  ): Map<string, ShellWord> {
    for (const item of readOptions(args, gitOptionSyntax)) {
      if (item.kind === "operand") return aliases; // the subcommand
      if (item.kind === "built") {
        // Not left to what a glob matches: its names may also make the subcommand (`git *`).
        this.note(builtOption("git", item.word));
        return aliases;
      }
      const word = item.word;
      let setting: ShellWord | undefined;
      if (item.kind === "option" && word.value === "-c") setting = item.value;
      else if (/^-c./.test(word.value)) setting = restOfWord(word, 2);
      else if (namesLongOption(item.given, "--config-env")) {
        const named = item.kind === "option" ? item.value : (item.attached ?? args[item.at + 1]);
        if (named !== undefined && !keyWritten(named)) {
          this.note(`git's setting '${named.value}' is named by expansion or substitution`);
        }
        const key = (named?.value ?? "").split("=", 1)[0]?.toLowerCase() ?? "";
        if (gitCommandSetting.test(key)) {
          this.note(`git's '${key}' setting is a command line taken from the environment`);
        }
        // git refuses a prefix of `--config-env` (`--config-e`); it is read as the option all the
        // same, the next word its value.
        if (item.kind === "other" && item.attached === undefined) {
          return this.gitConfigCommands(args.slice(item.at + 2), depth, aliases);
        }
        continue;
      }
      if (setting !== undefined) this.gitSetting(setting, depth, aliases);
    }
    return aliases;
  }

  /**
   * A git setting given on the command line (`git -c KEY=VALUE`, `git clone -c KEY=VALUE`): a
   * file it names, a command line it runs (an alias is recorded in `aliases`), or something it
   * brings from elsewhere.
   */
  gitSetting(setting: ShellWord, depth: number, aliases: Map<string, ShellWord>): void {
    if (!keyWritten(setting)) {
      this.note(`git's setting '${setting.value}' is named by expansion or substitution`);
      return;
    }
    const at = setting.value.indexOf("=");
    const key = (at === -1 ? setting.value : setting.value.slice(0, at)).toLowerCase();
    if (gitOpaqueSetting.test(key) && setting.value.slice(at + 1) !== "/dev/null") {
      this.note(`git's '${key}' setting brings what git runs from elsewhere`);
      return;
    }
    if (gitFileSetting.test(key) && at !== -1) {
      this.file(restOfWord(setting, at + 1));
      return;
    }
    if (!gitCommandSetting.test(key)) return;
    const value = restOfWord(setting, at === -1 ? setting.value.length : at + 1);
    if (key.startsWith("alias.")) aliases.set(key.slice("alias.".length), value);
    // A helper without `!` is `git credential-<helper>`: `store --file FILE` reads FILE.
    if (/^credential\./.test(key) && !value.dynamic && !value.value.startsWith("!")) {
      this.line(`git credential-${value.value}`, depth + 1);
      return;
    }
    if (key.startsWith("alias.") && !value.dynamic && !value.value.startsWith("!")) {
      if (value.value.trim() !== "") this.line(`git ${value.value}`, depth + 1);
    } else this.commandValue(`git ${key}`, value, depth);
  }

  /**
   * A git alias set on the command line, run with the arguments after it: they are operands of
   * the alias's command (`git -c alias.x='!cat' x .env` runs `cat .env`; `git -c alias.x=show x
   * HEAD:.env` runs `git show HEAD:.env`).
   */
  gitAlias(
    alias: ShellWord,
    after: readonly ShellWord[],
    aliases: ReadonlyMap<string, ShellWord>,
    depth: number,
  ): void {
    if (alias.dynamic || after.some((w) => w.dynamic)) {
      this.note("a git alias runs with arguments built by expansion or substitution");
      return;
    }
    const words = quoteWords(after.map((w) => w.value));
    if (alias.value.startsWith("!")) {
      this.line(`${alias.value.replace(/^!+/, "")} ${words}`, depth + 1);
      return;
    }
    // More git, with the aliases of this command line still set (`alias.x=y` runs alias y).
    const settings = quoteWords(
      [...aliases].flatMap(([name, value]) => ["-c", `alias.${name}=${value.value}`]),
    );
    this.line(`git ${settings} ${alias.value} ${words}`, depth + 1);
  }

  /**
   * A command-line variable set by a builtin other than an assignment (`printf -v GIT_PAGER
   * ...`, `read GIT_PAGER`, `export GIT_PAGER` of a value set elsewhere): its value cannot be
   * read.
   */
  variablesSetBy(name: string, args: readonly ShellWord[]): void {
    for (const word of args) {
      const variable = word.value.split("=", 1)[0] ?? "";
      if (word.value.includes("=") && name !== "printf" && name !== "read" && name !== "let") {
        continue;
      }
      if (commandVariables.has(variable) || opaqueVariable.test(variable)) {
        this.note(`'${name}' sets '${variable}', whose value a program runs`);
      }
    }
  }

  /**
   * ssh's, scp's and sftp's options, each program's own (`syntax`): `-o ProxyCommand=CMD` (also
   * `LocalCommand`, `KnownHostsCommand`, `RemoteCommand`; `=`, spaces or a tab between; the
   * keyword in any case, quoted or partly quoted; in a cluster, `-4o`) runs CMD; a configuration
   * file (`-F FILE`, `-o Include=FILE`) may run anything (`Match exec`).
   */
  sshOptions(name: string, syntax: OptionSyntax, args: readonly ShellWord[], depth: number): void {
    for (const item of readOptions(args, syntax)) {
      if (item.kind === "built") this.optionBuilt(name, item.word);
      if (item.kind !== "option" || item.value === undefined) continue;
      const { name: option, value } = item;
      if (option === "-F") {
        this.note(`'${name} -F' reads a configuration file, which may run commands`);
      }
      // A configuration it reads, a log it writes. An identity is read, never shown: a key in
      // ~/.ssh is what `-i` is for.
      if (option === "-F" || option === "-E") this.file(value);
      // A PKCS#11 library ssh loads: its code runs in ssh.
      if (name === "ssh" && option === "-I") {
        this.note(`'${name} -I' loads a library, whose code runs`);
      }
      // A path as sftp's subsystem is the server program it runs, on the remote machine, which
      // may be this one (`sftp -s /bin/sh localhost`).
      if (name === "sftp" && option === "-s" && value.value.includes("/")) {
        this.commandValue(`${name} -s`, value, depth);
      }
      if (name === "sftp" && option === "-b") {
        this.note("'sftp -b' runs the commands of a batch file, local ones among them");
      }
      if (option !== "-o") continue;
      if (!keyWritten(value, /[=\s]/)) {
        this.note(`'${name} -o' sets a setting named by expansion or substitution`);
        continue;
      }
      const setting = sshSetting(value.value);
      if (setting === undefined) continue;
      if (sshCommandSettings.has(setting.keyword)) {
        // ssh reads `ProxyCommand="cmd"` without its quotes.
        const cmd = restOfWord(value, setting.valueAt);
        const unquoted = /^"(.*)"$/s.exec(cmd.value);
        this.commandValue(
          `${name} -o`,
          unquoted === null ? cmd : sliceWord(cmd, 1, cmd.value.length - 1),
          depth,
        );
      } else if (setting.keyword === "userknownhostsfile") {
        // A file ssh writes to (a host's key, added).
        this.file(restOfWord(value, setting.valueAt));
      } else if (setting.keyword === "include" || setting.keyword === "match") {
        this.note(`'${name} -o' reads settings that may run commands`);
      } else if (sshLibrarySettings.has(setting.keyword)) {
        this.note(`'${name} -o ${setting.keyword}' loads a library, whose code runs`);
      }
    }
  }

  /**
   * `tar --checkpoint-action=exec=CMD` (also abbreviated, or with its value as the next word):
   * CMD runs at each checkpoint.
   */
  tarCheckpointActions(args: readonly ShellWord[], depth: number): void {
    for (const item of readOptions(args, withValueOptions(tarCheckpointSyntax, "tar"))) {
      if (item.kind === "built") this.optionBuilt("tar", item.word);
      if (item.kind !== "option" || item.value === undefined) continue;
      if (item.name !== "--checkpoint-action") continue;
      if (!keyWritten(item.value)) {
        this.note("'tar --checkpoint-action' is an action named by expansion or substitution");
        continue;
      }
      const exec = /^exec=/.exec(item.value.value);
      if (exec !== null) {
        this.commandValue("tar --checkpoint-action", restOfWord(item.value, exec[0].length), depth);
      }
    }
  }

  /**
   * Options whose value is a command line the program runs (`man -P`, `rsync -e`, `tar
   * --to-command`, `ssh -o ProxyCommand=`, ...): read as nested scripts.
   */
  programCommands(name: string, args: readonly ShellWord[], depth: number): void {
    const ssh = sshOptionSyntaxes.get(name);
    if (ssh !== undefined) this.sshOptions(name, ssh, args, depth);
    if ((name === "less" || name === "more") && args.some((w) => /^\+.*[!|]/.test(w.value))) {
      this.note(`'${name} +' runs its commands, which may start a shell`);
    }
    const syntax = programCommandOptions.get(name);
    if (syntax === undefined) return;
    for (const item of readOptions(args, withValueOptions(syntax, name))) {
      if (item.kind === "built") this.optionBuilt(name, item.word);
      if (item.kind === "option" && item.value !== undefined && listsOption(syntax, item.name)) {
        this.commandValue(`${name} ${item.given}`, item.value, depth);
      }
    }
    if (name === "tar") {
      this.tarCheckpointActions(args, depth);
      // Old-style options (`tar xI CMD -f a.tar`): a first word of letters, each letter that
      // takes a value taking the next word in turn (GNU tar's -b -C -f -F -g -H -I -K -L -N -T
      // -V -X: `tar xHI posix CMD` gives `posix` to -H).
      const first = args[0];
      if (first !== undefined && !first.dynamic && /^[A-Za-z]+$/.test(first.value)) {
        let next = 1;
        for (const letter of first.value) {
          if (!"bCfFgHIKLNTVX".includes(letter)) continue;
          const value = args[next++];
          if (value !== undefined && (syntax.short ?? "").includes(letter)) {
            this.commandValue(`tar ${letter}`, value, depth);
          }
        }
      }
    }
    if (name === "zip") {
      // `-TT CMD`, `-TT=CMD`, `-TTCMD`, and after flags in a group (`-qTTCMD`).
      for (let i = 0; i < args.length; i++) {
        const word = args[i] as ShellWord;
        const option = /^-[A-Za-z]*?TT=?/.exec(word.value);
        if (option === null) continue;
        const value =
          option[0].length < word.value.length ? restOfWord(word, option[0].length) : args[i + 1];
        if (value !== undefined) this.commandValue("zip -TT", value, depth);
      }
    }
  }

  /** `trap 'cat x' EXIT`: the command runs when the shell exits (or gets the signal). */
  trapCommand(args: readonly ShellWord[], depth: number): void {
    const at = args[0]?.value === "--" && !args[0].dynamic ? 1 : 0;
    const action = args[at];
    if (action === undefined || args.length - at < 2 || action.value.startsWith("-")) return;
    if (action.dynamic) this.note(`'${action.value}' is built by expansion or substitution`);
    else this.line(action.value, depth + 1);
  }

  /**
   * The commands git runs from its arguments: the options of `gitSubcommandCommandOptions`
   * (`--upload-pack CMD`, `git rebase -x CMD`, ...) and `git bisect run CMD...` in the work tree,
   * `git submodule foreach CMD` in every submodule (so its relative paths are read as after a
   * `cd`).
   */
  gitCommands(subcommand: string, after: readonly ShellWord[], depth: number): void {
    const syntax = gitSubcommandCommandOptions.get(subcommand) ?? gitRemoteOptionSyntax;
    const runsOptions =
      gitSubcommandCommandOptions.has(subcommand) || gitRemoteSubcommands.has(subcommand);
    for (const item of readOptions(after, syntax)) {
      if (item.kind === "built" && runsOptions) this.optionBuilt(`git ${subcommand}`, item.word);
      if (item.kind !== "option" || item.value === undefined) continue;
      // `git clone -c core.sshCommand=CMD`: a setting of the new repository, used by the clone.
      if (subcommand === "clone" && (item.name === "-c" || item.name === "--config")) {
        this.gitSetting(item.value, depth, new Map());
      }
      if (!syntax.commands.includes(item.name)) continue;
      if (subcommand !== "rebase" && gitHelperOptions.includes(item.name)) {
        this.commandValue(`git ${item.given}`, item.value, depth);
      } else if (item.value.dynamic) {
        this.note(`'git ${subcommand} ${item.given}' runs a built command`);
      } else this.line(item.value.value, depth + 1);
    }
    if (subcommand === "submodule" && after.some((w) => w.value === "foreach")) {
      // It runs in each submodule's folder, as `-execdir` does.
      const script = after.slice(after.findIndex((w) => w.value === "foreach") + 1);
      const words = script.filter((w) => w.dynamic || !w.value.startsWith("--"));
      this.changesDirectory = true;
      if (words.some((w) => w.dynamic)) this.note("'git submodule foreach' runs a built command");
      else if (words.length > 0) this.line(words.map((w) => w.value).join(" "), depth + 1);
    } else if (subcommand === "bisect" && after[0]?.value === "run") {
      this.simple({ words: after.slice(1), redirections: [] }, depth + 1);
    }
  }

  /**
   * `git -C DIR`, `--git-dir DIR`, `--work-tree=DIR` before the subcommand: folders it reads.
   * `--exec-path=DIR` is where git finds its programs, as `GIT_EXEC_PATH`: what it runs from
   * there is not on the command line.
   */
  gitFolders(args: readonly ShellWord[]): void {
    for (const item of readOptions(args, gitOptionSyntax)) {
      if (item.kind === "operand" || item.kind === "built") return; // the subcommand, or unknown
      if (item.kind === "option" && gitFolderOptions.has(item.name) && item.value !== undefined) {
        this.file(item.value);
      }
      if (item.kind === "option" && item.name === "--exec-path" && item.word.value.includes("=")) {
        this.note("'git --exec-path' runs git's programs from a folder the text does not show");
      }
    }
  }

  /**
   * The operands of a git subcommand that stages, moves, removes or stores files
   * (`gitIndexSubcommands`: `git add -f .env`, `git mv .env x`, `git hash-object -w .env`) and
   * the path of a pathspec with magic (`:/.env`). git matches a pathspec's wildcards itself
   * (`git add '.en*'`), and paths from a list (`--pathspec-from-file`, `--stdin`) are not in the
   * text.
   */
  gitIndexPaths(subcommand: string, after: readonly ShellWord[]): void {
    const syntax = gitIndexSubcommands.get(subcommand);
    if (syntax === undefined) return;
    for (const item of readOptions(after, syntax)) {
      if (item.kind === "option" || item.kind === "other") {
        const list = longOption(item.given, syntax.lists);
        if (list !== undefined) {
          this.note(`'git ${subcommand} ${list}' takes paths from a list the text does not show`);
        }
        if (item.kind === "option" && item.name === "--pathspec-from-file" && item.value) {
          this.file(item.value);
        }
        continue;
      }
      const word = item.word;
      this.file(word);
      if (item.kind === "built") continue;
      const magic = objectPathStart(word.value);
      if (magic !== undefined && word.value.startsWith(":")) this.file(restOfWord(word, magic));
      if (/[*?[]/.test(word.value)) {
        this.note(`'git ${subcommand}' matches the pathspec '${word.value}' itself`);
      }
    }
  }

  /**
   * `git init --template=DIR`, `git clone --template=DIR`: the new repository gets DIR's hooks
   * and settings, as `GIT_TEMPLATE_DIR` gives it, which the text does not show.
   */
  gitTemplates(subcommand: string, after: readonly ShellWord[]): void {
    if (subcommand !== "init" && subcommand !== "clone") return;
    for (const word of after) {
      if (word.value === "--") return;
      const given = word.value.split("=", 1)[0] ?? "";
      if (given.startsWith("--") && namesLongOption(given, "--template")) {
        this.note(`'git ${subcommand} --template' brings hooks from a folder`);
      }
    }
  }

  /**
   * The files a git command that shows, compares or restores content names: its pathspecs
   * (after `--`), the path of an object name (`HEAD:.env`, `:.env` the staged copy, `:0:.env`,
   * `stash@{0}:.env`), and its other operands, which git reads as paths when they are not
   * revisions (`git blame .env`, `git diff .env`). A revision taken for a path is harmless: it
   * names nothing protected. `git cat-file` prints any object by its id, which names no file.
   */
  gitPaths(subcommand: string, after: readonly ShellWord[]): void {
    if (subcommand === "config" || subcommand === "remote") {
      this.gitConfigFiles(subcommand, after);
      return;
    }
    const fileOptions = gitSubcommandFileOptions.get(subcommand);
    if (fileOptions !== undefined) this.gitFileOptionValues(subcommand, fileOptions, after);
    if (!gitContentSubcommands.has(subcommand)) return;
    if (subcommand === "cat-file") {
      this.unknown ??= "'git cat-file' prints any object of the repository by its id";
    }
    if (subcommand === "diff") this.gitDiffFolders(after);
    let pathspecs = false;
    const optionsRead = gitOptionsRead.has(subcommand);
    const revisions = ["log", "show", "whatchanged"].includes(subcommand);
    for (let i = 0; i < after.length; i++) {
      const word = after[i] as ShellWord;
      if (!pathspecs && !word.dynamic && word.value === "--") {
        pathspecs = true;
        continue;
      }
      const option =
        !pathspecs &&
        word.value.startsWith("-") &&
        (!word.dynamic || (optionsRead && !hidesOption(word, gitRevisionValueOptions)));
      if (option) {
        const equals = word.value.indexOf("=");
        const name = equals === -1 ? word.value : word.value.slice(0, equals);
        // `--output=FILE` writes there; `-O` / `--orderfile=FILE` reads it.
        if (equals !== -1 && gitFileOptions.has(name)) this.file(restOfWord(word, equals + 1));
        if (optionsRead && subcommand !== "blame" && /^-O./.test(word.value)) {
          this.file(restOfWord(word, 2));
        }
        // `git blame -SFILE` reads revisions from FILE (and prints a line it cannot read).
        if (subcommand === "blame" && /^-S./.test(word.value)) this.file(restOfWord(word, 2));
        // `git log -L1,9:FILE`, `-L:name:FILE`: the lines of FILE's history. A range built by
        // expansion may hold the colon.
        if (/^-L./.test(word.value) && word.dynamic) this.file(restOfWord(word, 2));
        else if (/^-L./.test(word.value)) {
          const first = word.value.indexOf(":", 2);
          const last = word.value.lastIndexOf(":");
          if (first !== -1) this.file(restOfWord(word, first + 1));
          if (last !== first) this.file(restOfWord(word, last + 1));
        }
        // `--author "$USER"`, `-n "$N"`: the next word is the value, whatever it is.
        if (revisions && gitRevisionValueOptions.separate.has(word.value)) {
          const value = after[++i];
          if (value !== undefined && splitsIntoWords(value)) {
            this.note(builtOption(`git ${subcommand}`, value));
          }
        }
        continue;
      }
      // The word itself too: a file may have a colon in its name.
      this.file(word);
      const colon = objectPathStart(word.value);
      if (colon !== undefined) this.file(restOfWord(word, colon));
    }
  }

  /**
   * Where a git subcommand makes or moves a folder or writes a file named on its command line:
   * a new repository's or worktree's folder (`git clone . ../copy`, `git worktree add ../w`), a
   * repository it copies from, `checkout-index --prefix`, a patch folder, a bundle, an archive.
   * Paths of the call: one outside the workspace, or a protected one, asks.
   */
  gitDestinations(subcommand: string, after: readonly ShellWord[]): void {
    const places = gitDestinationOptions.get(subcommand);
    if (places === undefined) return;
    let operand = 0;
    for (const item of readOptions(after, places)) {
      if (item.kind === "built") this.optionBuilt(`git ${subcommand}`, item.word);
      if (item.kind === "option" && item.value !== undefined && places.files.includes(item.name)) {
        this.file(item.value);
      }
      if (item.kind !== "operand") continue;
      const first = operand++ === 0;
      if (first && places.subcommands !== undefined) {
        if (item.word.dynamic || !places.subcommands.includes(item.word.value)) return;
      }
      if (operand > places.operandsFrom) this.file(item.word);
    }
  }

  /**
   * The files named by the file options of `syntax` (`-F FILE`, `-FFILE`, `--file=FILE`); a word
   * that may be an option built by expansion (`git commit "$O"`) may be one of them.
   */
  gitFileOptionValues(subcommand: string, syntax: GitFileOptions, after: readonly ShellWord[]) {
    for (const item of readOptions(after, syntax)) {
      if (item.kind === "built") this.optionBuilt(`git ${subcommand}`, item.word);
      if (item.kind !== "option" || item.value === undefined) continue;
      if (syntax.files.includes(item.name)) this.file(item.value);
    }
  }

  /**
   * `git diff A B` and `git diff A -- B` outside a repository are `git diff --no-index A B`,
   * which compares two folders whole (see `foldersOutsideRepository`); inside one, git reads
   * them as revisions and pathspecs.
   */
  gitDiffFolders(args: readonly ShellWord[]): void {
    const operands: ShellWord[] = [];
    let pathspecs = false;
    for (const word of args) {
      if (word.dynamic) return;
      if (word.value === "--" && !pathspecs) pathspecs = true;
      else if (pathspecs || !word.value.startsWith("-")) operands.push(word);
    }
    if (operands.length !== 2) return;
    for (const word of operands) {
      if (unreadable(word) === undefined) this.foldersOutsideRepository.push(word.value);
    }
  }

  /**
   * The configuration files `git config` reads or writes (it prints their values: a remote's URL
   * may hold a token, `~/.gitconfig` credentials), and the repository's own for `git remote -v`
   * and the other forms of `git remote` that print URLs: `.git/config`, `~/.gitconfig` and
   * `/etc/gitconfig` as its scope options say (all of them without one), or `--file FILE`.
   */
  gitConfigFiles(subcommand: "config" | "remote", args: readonly ShellWord[]): void {
    const values = args.map((word) => word.value);
    if (subcommand === "remote") {
      const printsUrls =
        values.includes("-v") || values.includes("--verbose") || values[0] === "get-url";
      if (printsUrls) this.file(literalWord(".git/config"));
      return;
    }
    if (values.length === 1 && values[0] === "--help") return;
    for (let i = 0; i < args.length; i++) {
      const word = args[i] as ShellWord;
      if (word.dynamic) continue;
      if (word.value === "-f" || word.value === "--file" || word.value === "--blob") {
        const file = args[i + 1];
        if (file !== undefined) this.file(file);
        return;
      }
      if (word.value.startsWith("--file=")) {
        this.file(restOfWord(word, "--file=".length));
        return;
      }
    }
    const scoped = ["--global", "--system", "--local", "--worktree"].filter((s) =>
      values.includes(s),
    );
    if (scoped.length === 0 || scoped.includes("--local") || scoped.includes("--worktree")) {
      this.file(literalWord(".git/config"));
    }
    if (scoped.length === 0 || scoped.includes("--global")) this.file(literalWord("~/.gitconfig"));
    if (scoped.length === 0 || scoped.includes("--system"))
      this.file(literalWord("/etc/gitconfig"));
  }

  /**
   * `find`'s expression: primaries that name a file (`-newer FILE`, `-samefile FILE`, which fail
   * when it does not exist), `-files0-from FILE`, `-fprint FILE`, and the commands `-exec`,
   * `-execdir`, `-ok`, `-okdir` run (`{}` stands for what it finds, under its start paths).
   */
  findExpression(args: readonly ShellWord[], depth: number): void {
    for (let i = 0; i < args.length; i++) {
      const word = args[i] as ShellWord;
      const v = word.value;
      if (word.dynamic) continue;
      if (findFilePrimaries.has(v) || /^-newer[aBcm][aBcm]$/.test(v)) {
        const file = args[i + 1];
        if (file !== undefined) this.file(file);
        i++;
      } else if (["-exec", "-execdir", "-ok", "-okdir"].includes(v)) {
        let end = i + 1;
        while (end < args.length && !(args[end]?.value === ";" || args[end]?.value === "+")) end++;
        const inner = args.slice(i + 1, end).filter((w) => w.dynamic || w.value !== "{}");
        if (v.endsWith("dir")) {
          // It runs in the folder of each file found: a relative path there cannot be told.
          this.changesDirectory = true;
        }
        if (inner.length > 0) this.simple({ words: inner, redirections: [] }, depth + 1);
        i = end;
      }
    }
  }

  redirection(redirection: ShellRedirection, depth: number): void {
    const { operator, target } = redirection;
    for (const body of target.substitutions) this.line(body, depth + 1);
    if (redirection.body !== undefined && redirection.bodyExpands !== false) {
      // An expanding here-document runs the substitutions in its body.
      for (const body of substitutionBodies(redirection.body)) this.line(body, depth + 1);
    }
    if (bodyOperators.has(operator)) return;
    // `>&2`, `<&0`, `>&-`: a file descriptor, not a file.
    if ((operator === ">&" || operator === "<&") && /^[0-9]*-?$/.test(target.value)) return;
    this.file(target);
  }

  operands(rule: OperandRule, args: readonly ShellWord[]): void {
    if (rule.pathsBeforeExpression === true) {
      this.findPaths(args);
      return;
    }
    const files = new Set(rule.fileOptions ?? []);
    // `sort --files0-from=LIST`, `tar -T -`, `file -f LIST`, `md5sum -c SUMS`: the files it opens
    // are named in a list (a file the model may have written, or the input), not in the text.
    const lists = rule.listOptions ?? [];
    for (const word of args) {
      const v = word.value;
      if (word.dynamic || v === "--") break;
      const listed = v.startsWith("--")
        ? listOption(v.split("=", 1)[0] ?? v, rule, lists)
        : /^-[A-Za-z0-9]+$/.test(v)
          ? lists.find((o) => o.length === 2 && v.slice(1).includes(o.charAt(1)))
          : undefined;
      if (listed !== undefined) {
        const why = `'${listed}' opens the files a list names, which the text does not show`;
        if (rule.listChanges === true) this.note(why);
        else this.unknown ??= why;
        break;
      }
    }
    const scriptGiven = args.some((word) => {
      const v = word.value;
      const option = v.startsWith("--") ? v.split("=", 1)[0] : undefined;
      if (option !== undefined) {
        return (
          longOption(option, rule.scriptOptions) !== undefined ||
          longOption(option, rule.noScriptOptions) !== undefined
        );
      }
      return (
        v.startsWith("-") &&
        (rule.scriptOptions ?? []).some((o) => o.length === 2 && v.slice(1).includes(o.charAt(1)))
      );
    });
    let scriptPending = rule.script === true && !scriptGiven;
    for (const item of readOptions(args, rule)) {
      if (item.kind === "option") {
        if (files.has(item.name) && item.value !== undefined) this.file(item.value);
        continue;
      }
      if (item.kind === "other") {
        // An option not known to take a file: its value counts as one only where it may be.
        const file = longOption(item.given, rule.fileOptions);
        if (item.attached !== undefined && file !== undefined) this.file(item.attached);
        continue;
      }
      const word = item.word;
      const v = word.value;
      // A word that may be an option built by expansion (`grep "$P" x`: `-f.env`) may be a file
      // option, even where a script is expected.
      if (item.kind === "built") this.file(word);
      if (scriptPending) {
        scriptPending = false;
        continue;
      }
      if (item.kind === "built") continue;
      if (rule.optionFilesOnly === true) continue;
      if (rule.keyValueFiles !== undefined) {
        const at = v.indexOf("=");
        if (at > 0 && rule.keyValueFiles.includes(v.slice(0, at)))
          this.file(restOfWord(word, at + 1));
        else if (word.dynamic) this.file(word);
        continue;
      }
      this.file(word);
    }
  }

  /**
   * `rsync --backup-dir=DIR` moves each file it replaces or deletes into DIR under its own name,
   * `--partial-dir=DIR` keeps a partly sent file there: files it writes. A relative DIR is below
   * the destination (the last operand), which names no local folder when it is remote
   * (`host:path`, `rsync://`).
   */
  rsyncDestinationFolders(rule: OperandRule, args: readonly ShellWord[]): void {
    const folders: ShellWord[] = [];
    let destination: ShellWord | undefined;
    for (const item of readOptions(args, rule)) {
      if (item.kind === "operand") destination = item.word;
      if (item.kind !== "option" || item.value === undefined) continue;
      if (item.name === "--backup-dir" || item.name === "--partial-dir") folders.push(item.value);
    }
    for (const folder of folders) {
      const v = folder.value;
      if (unreadable(folder) !== undefined || v.startsWith("/") || v.startsWith("~")) {
        this.file(folder);
      } else if (destination === undefined || unreadable(destination) !== undefined) {
        this.note(`'rsync' writes below a destination the text does not show`);
      } else if (!/^[^/]*:/.test(destination.value)) {
        this.text(`${destination.value.replace(/\/*$/, "")}/${v}`);
      }
    }
  }

  /** `find`'s start paths: its own options (-H -L -P -D x -O3) come first, its expression after. */
  findPaths(args: readonly ShellWord[]): void {
    for (let i = 0; i < args.length; i++) {
      const word = args[i] as ShellWord;
      const v = word.value;
      if (word.dynamic) {
        this.file(word);
        continue;
      }
      if (/^-[HLP]+$/.test(v) || /^-O\d*$/.test(v)) continue;
      if (v === "-D") {
        i++;
        continue;
      }
      if (v.startsWith("-") || v === "(" || v === "!" || v === ")" || v === ",") break;
      this.file(word);
    }
  }
}

/**
 * The files a command line names as operands of programs that read or write files (`cat`,
 * `head`, `tail`, `less`, `sed`, `awk`, `grep`, `rg`, `jq`, `cut`, `sort`, `uniq`, `wc`,
 * `diff`, `cp`, `mv`, `tee`, `xxd`, `od`, `strings`, `base64`, `dd if=/of=`, `tar`, ... see
 * `operandRules`) and as redirection targets (`< x`, `> x`, `2>> x`), in every simple command:
 * inside compound commands, substitutions, `sh -c` and `eval` scripts, and through wrappers
 * (`env`, `sudo`, `timeout`, ...). A grep-like program's pattern and a sed or awk script are not
 * files; an option's argument is a file only where the option names one (`grep -f x`). The
 * operands of file tests (`test -e x`, `[ -d x ]`, `[[ x -nt y ]]`) are files too, and so is the
 * folder of a glob in a command's arguments or a `for`/`select` list (`for x in /root/*`), but
 * not a `case` pattern or the pattern of a `[[ x == y* ]]`, which the shell does not glob.
 *
 * A file it cannot read from the text (a glob, an expansion, a relative path after a `cd`, an
 * `xargs`) sets `unknown`, as does a line that does not parse. Other programs' operands are not
 * read (an interpreter, or an unknown program, may open any file; the risk rules ask for those).
 *
 * @example
 * ```ts
 * commandFileOperands('sed -n p .npmrc && < .env cat'); // { paths: [".npmrc", ".env"], unknown: undefined }
 * commandFileOperands("grep -r .env src");               // { paths: ["src"], unknown: undefined }
 * commandFileOperands("cat *.txt");                      // { paths: [], unknown: "'*.txt' is a glob" }
 * ```
 */
export function commandFileOperands(command: string): CommandFileOperands {
  const { paths, unknown } = commandFileOperandDetails(command);
  return Object.freeze({ paths, unknown });
}

/**
 * The reason {@link commandFileOperandDetails} gives when the only thing it cannot read is where
 * relative paths lead after a change of directory (`cd sub && cat a.txt`): their names are read.
 *
 * @internal
 */
export const relativeAfterCd = "a relative path follows a change of directory ('cd')";

/**
 * {@link commandFileOperands} with the globs it could not read, whether anything else was
 * unreadable, what is removed or moved whole, and what is read whole if it is a folder.
 *
 * @internal
 */
export function commandFileOperandDetails(command: string): CommandFileOperandDetails {
  const collector = new OperandCollector();
  collector.line(command, 0);
  if (collector.changesDirectory && collector.relativeSeen) collector.note(relativeAfterCd);
  return Object.freeze({
    paths: Object.freeze([...collector.paths]),
    unknown: collector.unknown,
    globs: Object.freeze([...collector.globs]),
    optionGlobs: Object.freeze([...collector.optionGlobs]),
    opaque: collector.opaque,
    removed: Object.freeze([...collector.removed]),
    folders: Object.freeze([...collector.folders]),
    foldersOutsideRepository: Object.freeze([...collector.foldersOutsideRepository]),
  });
}
