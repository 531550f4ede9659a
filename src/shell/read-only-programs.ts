import { RiskLevel } from "../core/index.js";
import { namesLongOption } from "./command-words.js";
import { mayBeExpanded, writeTargetFinding } from "./write-target.js";

/**
 * The read-only programs and the options each may take and stay read-only (an allow list, as
 * Codex's `is_safe_command`): an option not listed makes the call Medium at least, and an option
 * that makes the program run another program or write a file is listed with its own risk.
 *
 * @internal
 */

/** A finding: a risk level and why. */
export interface RiskFinding {
  readonly level: RiskLevel;
  readonly reason: string;
}

interface ProgramOptions {
  /** Any option is read-only (programs with no option that runs, writes or pages). */
  readonly anyOption?: true;
  /** Short options without an argument. */
  readonly flags?: string;
  /** Short options that take an argument (attached or the next word). */
  readonly withArgument?: string;
  /** Long options without an argument (or with an attached `=value`). */
  readonly long?: readonly string[];
  /** Long options that take an argument (`--name value` or `--name=value`). */
  readonly longWithArgument?: readonly string[];
  /** `-5` as a count (head, tail). */
  readonly numeric?: true;
  /** Options whose argument names the file the program writes (`-o`, `--output`). */
  readonly outputs?: readonly string[];
  /** Options (`-o`, `--output`) that make the program write, run or page: their finding. */
  readonly danger?: Readonly<Record<string, RiskFinding>>;
}

const { Medium, High } = RiskLevel;

/** A list of words written as one space-separated string. */
function words(list: string): readonly string[] {
  return list.split(" ");
}

function runs(what: string): RiskFinding {
  return { level: High, reason: `${what} makes it run another program.` };
}
function writes(what: string): RiskFinding {
  return { level: Medium, reason: `${what} makes it write a file.` };
}

const anyOption: ProgramOptions = { anyOption: true };

const hashOptions: ProgramOptions = {
  flags: "bctwz",
  long: words(
    "--binary --check --tag --text --zero --ignore-missing --quiet --status --strict --warn",
  ),
};

const grepOptions: ProgramOptions = {
  flags: "EFGPiyvwxcLloqsbHhnTZzraIRUu",
  withArgument: "efmABCdD",
  numeric: true,
  long: words(
    "--extended-regexp --fixed-strings --basic-regexp --perl-regexp --ignore-case --no-ignore-case --invert-match --word-regexp --line-regexp --count --color --colour --files-without-match --files-with-matches --only-matching --quiet --silent --no-messages --byte-offset --with-filename --no-filename --line-number --initial-tab --null --null-data --text --recursive --dereference-recursive --line-buffered --binary",
  ),
  longWithArgument: words(
    "--regexp --file --max-count --label --binary-files --devices --directories --exclude --exclude-from --exclude-dir --include --after-context --before-context --context",
  ),
};

/** Every read-only program and its options. */
export const readOnlyPrograms: ReadonlyMap<string, ProgramOptions> = new Map<
  string,
  ProgramOptions
>([
  ...words(
    "echo printf true false : pwd basename dirname whoami id uname uptime nproc arch tty groups logname which whereis type cd realpath readlink seq expr sleep printenv cut nl od tr rev whatis apropos column cmp diff ps free jq wc cksum hexdump strings fold exit return break continue shift wait times dirs nproc tac sum lsblk lscpu fmt expand unexpand comm join paste numfmt locale",
  ).map((name) => [name, anyOption] as const),
  ...["md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum"].map(
    (name) => [name, hashOptions] as const,
  ),
  // `test -v 'a[$(cmd)]'` evaluates the array subscript, running cmd.
  ["test", { anyOption: true, danger: { "-v": runs("'test -v' (its array subscript)") } }],
  ["[", { anyOption: true, danger: { "-v": runs("'[ -v' (its array subscript)") } }],
  // `hash -p /bin/rm cat` makes every later `cat` run rm.
  ["hash", { flags: "rltd", danger: { "-p": runs("'hash -p' (it rebinds a command name)") } }],
  ["grep", grepOptions],
  ["egrep", grepOptions],
  ["fgrep", grepOptions],
  [
    "ls",
    {
      flags: "1aAbBcCdfFgGhHiklLmnNopqQrRsStuUvxXZ",
      withArgument: "IwT",
      long: words(
        "--all --almost-all --color --classify --directory --human-readable --inode --recursive --reverse --size --group-directories-first --full-time --literal --si --dereference --numeric-uid-gid --no-group --author --escape --hyperlink --zero --file-type --kibibytes --dereference-command-line",
      ),
      longWithArgument: words(
        "--sort --time --time-style --ignore --hide --format --indicator-style --quoting-style --width --block-size --tabsize",
      ),
    },
  ],
  [
    "cat",
    {
      flags: "AbeEnstTuv",
      long: words(
        "--number --number-nonblank --show-all --show-ends --show-tabs --squeeze-blank --show-nonprinting",
      ),
    },
  ],
  [
    "head",
    {
      flags: "qvz",
      withArgument: "nc",
      numeric: true,
      long: words("--quiet --silent --verbose --zero-terminated"),
      longWithArgument: ["--lines", "--bytes"],
    },
  ],
  [
    "tail",
    {
      flags: "fFqvzr",
      withArgument: "ncs",
      numeric: true,
      long: words("--follow --retry --quiet --silent --verbose --zero-terminated"),
      longWithArgument: words("--lines --bytes --pid --sleep-interval --max-unchanged-stats"),
    },
  ],
  [
    "date",
    {
      flags: "uIRr",
      withArgument: "dfr",
      long: words("--utc --universal --rfc-email --iso-8601 --rfc-3339 --debug"),
      longWithArgument: ["--date", "--file", "--reference"],
      danger: {
        "-s": { level: Medium, reason: "'date -s' sets the clock." },
        "--set": { level: Medium, reason: "'date --set' sets the clock." },
      },
    },
  ],
  [
    "file",
    {
      flags: "bcEhiklLNprsvz0S",
      withArgument: "eFfmP",
      long: words(
        "--brief --mime --mime-type --mime-encoding --dereference --no-dereference --keep-going --list --no-pad --preserve-date --raw --special-files --uncompress --extension --apple --print0 --no-sandbox",
      ),
      longWithArgument: words(
        "--exclude --exclude-quiet --files-from --separator --magic-file --parameter",
      ),
      danger: { "-C": writes("'file -C'"), "--compile": writes("'file --compile'") },
    },
  ],
  [
    "stat",
    {
      flags: "LftZ",
      withArgument: "c",
      long: ["--dereference", "--file-system", "--terse"],
      longWithArgument: ["--format", "--printf", "--cached"],
    },
  ],
  [
    "du",
    {
      flags: "0abcDhHklLmsSxP",
      withArgument: "BdtX",
      long: words(
        "--all --apparent-size --bytes --total --dereference --human-readable --si --summarize --inodes --null --one-file-system --count-links --separate-dirs",
      ),
      longWithArgument: words(
        "--max-depth --exclude --exclude-from --threshold --block-size --time --time-style",
      ),
    },
  ],
  [
    "df",
    {
      flags: "ahHiklPTv",
      withArgument: "BtxF",
      long: words(
        "--all --human-readable --si --inodes --local --portability --print-type --total --output",
      ),
      longWithArgument: words("--block-size --type --exclude-type --output"),
    },
  ],
  [
    "tree",
    {
      flags: "adfilpsugDFqNQrtvUxACJShn",
      withArgument: "LIPH",
      long: words(
        "--noreport --dirsfirst --filesfirst --du --gitignore --prune --matchdirs --ignore-case --si",
      ),
      longWithArgument: words("--charset --filelimit --timefmt --sort"),
      danger: {
        "-o": writes("'tree -o'"),
        "-R": writes("'tree -R'"),
        "--fromfile": { level: Medium, reason: "'tree --fromfile' reads a listing." },
      },
      outputs: ["-o"],
    },
  ],
  [
    "sort",
    {
      flags: "bdfgiMhnRrVcCsuz",
      withArgument: "ktST",
      long: words(
        "--ignore-leading-blanks --dictionary-order --ignore-case --general-numeric-sort --ignore-nonprinting --month-sort --human-numeric-sort --numeric-sort --random-sort --reverse --version-sort --check --stable --unique --zero-terminated --merge --debug",
      ),
      longWithArgument: words(
        "--key --field-separator --buffer-size --temporary-directory --parallel --sort --random-source --batch-size --files0-from",
      ),
      danger: {
        "-o": writes("'sort -o'"),
        "--output": writes("'sort --output'"),
        "--compress-program": runs("'sort --compress-program'"),
      },
      outputs: ["-o", "--output"],
    },
  ],
  [
    "rg",
    {
      flags: "iSsvwxcloqnNHUuaLp0FPIJ",
      withArgument: "egtTAmBCfjrEMd",
      numeric: true,
      long: words(
        "--hidden --no-ignore --files --files-with-matches --files-without-match --count --count-matches --fixed-strings --ignore-case --smart-case --case-sensitive --word-regexp --line-regexp --line-number --no-line-number --json --vimgrep --multiline --pcre2 --follow --type-list --only-matching --no-heading --heading --column --trim --stats --null --invert-match --text --unrestricted --no-messages --quiet --no-ignore-vcs --no-filename --with-filename --passthru --byte-offset --sort-files --no-config --color --multiline-dotall --crlf",
      ),
      longWithArgument: words(
        "--type --type-not --glob --iglob --context --after-context --before-context --max-count --max-depth --sort --sortr --replace --max-columns --max-filesize --regexp --file --threads --encoding --colors --engine --type-add --path-separator --field-match-separator",
      ),
      danger: {
        "--pre": runs("'rg --pre'"),
        "--pre-glob": runs("'rg --pre-glob'"),
        "-z": runs("'rg -z'"),
        "--search-zip": runs("'rg --search-zip'"),
        "--hostname-bin": runs("'rg --hostname-bin'"),
      },
    },
  ],
]);

/** Pagers: any option but the few display ones can run a command (`+!cmd`, lesskey, `-o` logs). */
export const pagers: ReadonlyMap<string, string> = new Map([
  ["less", "NSRFXiIJMmnqQsWw~ErKeEgGLV"],
  ["more", "dlfpcsu"],
  ["most", ""],
]);

/**
 * Judges a read-only program's arguments against its allow list: undefined when they keep it
 * read-only, else the riskiest finding (an unknown option is Medium; a listed danger its own).
 */
export function checkProgramOptions(
  name: string,
  options: ProgramOptions,
  args: readonly string[],
): RiskFinding | undefined {
  let worst: RiskFinding | undefined;
  const note = (finding: RiskFinding) => {
    if (worst === undefined || finding.level > worst.level) worst = finding;
  };
  const noteTarget = (writer: string, file: string | undefined) => {
    if (file === undefined) return;
    const finding = writeTargetFinding(writer, file, mayBeExpanded(file));
    if (finding !== undefined) note(finding);
  };
  const unknown = (option: string) =>
    note({
      level: Medium,
      reason: `'${name} ${option}' is an option this rule does not know to be read-only.`,
    });
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--") break;
    if (!arg.startsWith("-") || arg === "-") continue;
    if (arg.startsWith("--")) {
      const [option = arg] = arg.split("=", 1);
      // getopt_long takes any unambiguous prefix: `--compress-prog` is `--compress-program`.
      const danger =
        options.danger?.[option] ??
        Object.entries(options.danger ?? {}).find(([full]) => namesLongOption(option, full))?.[1];
      if (danger !== undefined) {
        note(danger);
        const output = options.outputs?.find((full) => namesLongOption(option, full));
        if (output !== undefined) {
          const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : args[++i];
          noteTarget(`'${name} ${output}'`, value);
        }
        continue;
      }
      if (options.anyOption === true) continue;
      if (options.long?.includes(option)) continue;
      if (options.longWithArgument?.includes(option)) {
        if (!arg.includes("=")) i++;
        continue;
      }
      if (arg === "--help" || arg === "--version") continue;
      unknown(option);
      continue;
    }
    if (options.numeric === true && /^-[0-9]+$/.test(arg)) continue;
    for (let j = 1; j < arg.length; j++) {
      const letter = arg.charAt(j);
      const danger = options.danger?.[`-${letter}`];
      if (danger !== undefined) {
        note(danger);
        if (options.outputs?.includes(`-${letter}`)) {
          const value = j < arg.length - 1 ? arg.slice(j + 1) : args[++i];
          noteTarget(`'${name} -${letter}'`, value);
        }
        break;
      }
      if (options.anyOption === true) continue;
      if (options.flags?.includes(letter)) continue;
      if (options.withArgument?.includes(letter)) {
        if (j === arg.length - 1) i++;
        break;
      }
      unknown(`-${letter}`);
      break;
    }
  }
  return worst;
}
