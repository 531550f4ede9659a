import { RiskLevel } from "../core/index.js";
import { hasFlag, namesLongOption } from "./command-words.js";
import type { RiskFindings } from "./risk-findings.js";
import { mayBeExpanded, writeTargetFinding } from "./write-target.js";

/**
 * The risk of a `git` command. Reading commands are Low only with options from an allow list;
 * anything that sets configuration (`-c`, `--config-env`, `git config <key> <value>`), points git
 * at another repository's configuration (`--git-dir`) or names a program for git to run
 * (`--upload-pack`, `--ext-diff`, `grep -O`, `rebase --exec`, ...) is High: git configuration
 * runs programs (`core.fsmonitor`, `core.pager`, `alias.x=!cmd`, hooks).
 *
 * @internal
 */

const { Medium, High } = RiskLevel;

const readOnlySubcommands = new Set(
  (
    "status log diff show blame describe rev-parse ls-files ls-tree shortlog cat-file " +
    "whatchanged rev-list grep version help show-ref show-branch count-objects merge-base " +
    "name-rev for-each-ref check-ignore check-attr annotate reflog"
  ).split(" "),
);

/** Options of the reading subcommands known to only change what they print. */
const readOptions = new Set(
  (
    "--oneline --stat --shortstat --numstat --name-only --name-status --patch -p -u --no-patch -s " +
    "--graph --decorate --no-decorate --all --branches --tags --remotes --since --until --after " +
    "--before --author --committer --grep --all-match --invert-grep -i --regexp-ignore-case " +
    "--cached --staged --short --branch -b --porcelain --long --untracked-files --ignored " +
    "--no-color --color --word-diff --word-diff-regex --unified -U -w --ignore-all-space -b " +
    "--ignore-space-change --abbrev-commit --abbrev --follow --reverse --max-count -n --skip " +
    "--first-parent --merges --no-merges --date --relative-date --summary --diff-filter -M -C " +
    "--find-renames --find-copies --check --exit-code --quiet -q --format --pretty -z --raw " +
    "--full-history --simplify-by-decoration --left-right --cherry-pick --boundary --no-walk " +
    "--count -c -e -E -F -P -l -L -v -x --heading --break --line-number --show-function -W " +
    "--function-context --files-with-matches --files-without-match --fixed-strings " +
    "--extended-regexp --perl-regexp --basic-regexp --ignore-case --word-regexp --invert-match " +
    "--max-depth --recurse-submodules --untracked --no-index --full-name -r -t -d -m -o " +
    "--others --modified --deleted --exclude-standard --exclude --directory --error-unmatch " +
    "--show-toplevel --show-prefix --git-dir --is-inside-work-tree --abbrev-ref --verify " +
    "--symbolic-full-name --show-current --list --contains --merged --no-merged --points-at " +
    "--sort --verbose -vv -a --type --batch-check -e --tags --always --dirty --exact-match " +
    "--no-renames --minimal --patience --histogram --diff-algorithm --src-prefix --dst-prefix " +
    "--no-prefix --relative --stat-width --color-words --color-moved --ignore-blank-lines " +
    "--ignore-cr-at-eol --text -a --binary --full-index --name-status --ita-invisible-in-index " +
    "--no-ext-diff --no-textconv --show-signature --encoding --notes --no-notes --mailmap " +
    "--use-mailmap --topo-order --date-order --author-date-order --ancestry-path --dense --sparse " +
    "--get --get-all --get-regexp --local --global --system --show-origin --show-scope --null " +
    "--line-porcelain --incremental --root --show-stats --show-email --show-name --show-number " +
    "--porcelain=v1 --porcelain=v2 --ahead-behind --no-ahead-behind --renames --no-renames " +
    "--find-object --pickaxe-all --pickaxe-regex -S -G --expand-tabs --no-expand-tabs"
  ).split(" "),
);

/** Options, on any subcommand, that name a program for git to run or a template of hooks. */
const runsProgram = new Set([
  "--upload-pack",
  "--receive-pack",
  "--exec",
  "--extcmd",
  "--ext-diff",
  "--open-files-in-pager",
  "--template",
  "--config",
  "--tool",
  "--gpg-program",
  "--textconv",
  "--config-env",
  "--hooks",
]);
/** Short options that name a program, per subcommand. */
const shortRunsProgram: Readonly<Record<string, string>> = {
  grep: "O",
  rebase: "x",
  difftool: "xt",
  mergetool: "t",
  clone: "uc",
  fetch: "u",
  pull: "u",
  "ls-remote": "u",
  archive: "",
};

/** Global options before the subcommand that take an argument. */
const globalWithArgument = new Set(["--namespace", "--super-prefix", "--list-cmds"]);
const globalFlags = new Set([
  "--no-pager",
  "-P",
  "--literal-pathspecs",
  "--glob-pathspecs",
  "--noglob-pathspecs",
  "--icase-pathspecs",
  "--no-optional-locks",
  "--no-replace-objects",
  "--no-lazy-fetch",
  "--exec-path",
  "--html-path",
  "--man-path",
  "--info-path",
  "--version",
  "--help",
]);

export function classifyGit(
  args: readonly string[],
  findings: RiskFindings,
  assess: (command: string) => void,
): void {
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i] as string;
    if (!arg.startsWith("-")) break;
    const name = arg.split("=", 1)[0] as string;
    if (name === "-c" || namesLongOption(name, "--config-env") || /^-c./.test(arg)) {
      findings.add(
        High,
        `'git ${name}' sets configuration, which can make git run programs (core.fsmonitor, core.pager, aliases).`,
      );
      if (arg === "-c" || arg === "--config-env") i++;
      continue;
    }
    if (
      name === "-C" ||
      namesLongOption(name, "--bare") ||
      namesLongOption(name, "--git-dir") ||
      namesLongOption(name, "--work-tree") ||
      (namesLongOption(name, "--exec-path") && arg.includes("="))
    ) {
      findings.add(
        High,
        `'git ${name}' points git at another directory or repository, whose configuration (core.fsmonitor, hooks, aliases) it would run.`,
      );
      if (!arg.includes("=") && !/^-C./.test(arg) && !namesLongOption(name, "--bare")) i++;
      continue;
    }
    if (name === "-p" || name === "--paginate") {
      findings.add(Medium, "'git --paginate' runs the configured pager.");
      continue;
    }
    if (globalWithArgument.has(name)) {
      if (!arg.includes("=")) i++;
      continue;
    }
    if (globalFlags.has(name)) continue;
    findings.add(Medium, `'git ${name}' is an option this rule does not know to be read-only.`);
  }
  const sub = args[i];
  const subArgs = args.slice(i + 1);
  if (sub === undefined) return;
  for (const arg of subArgs) {
    if (arg === "--") break;
    const name = arg.split("=", 1)[0] as string;
    const short = shortRunsProgram[sub] ?? "";
    const shortHit =
      /^-[a-zA-Z]+/.test(arg) &&
      !arg.startsWith("--") &&
      [...short].some((l) => arg.slice(1).includes(l));
    const longHit =
      name.startsWith("--") && [...runsProgram].some((full) => namesLongOption(name, full));
    if (longHit || shortHit) {
      findings.add(High, `'git ${sub} ${name}' makes git run another program.`);
    }
  }
  if (sub === "config") {
    classifyGitConfig(subArgs, findings);
    return;
  }
  if (sub === "submodule" && subArgs.includes("foreach")) {
    findings.add(High, "'git submodule foreach' runs a command in every submodule.");
    const script = subArgs.slice(subArgs.indexOf("foreach") + 1).filter((a) => !a.startsWith("--"));
    if (script.length > 0) assess(script.join(" "));
    return;
  }
  if (sub === "bisect" && subArgs[0] === "run") {
    findings.add(High, "'git bisect run' runs a command on every step.");
    return;
  }
  if (readOnlySubcommands.has(sub)) {
    if (
      sub === "reflog" &&
      subArgs[0] !== undefined &&
      subArgs[0] !== "show" &&
      !subArgs[0].startsWith("-")
    ) {
      classifyGitChange(sub, subArgs, findings);
      return;
    }
    for (let i = 0; i < subArgs.length; i++) {
      const arg = subArgs[i] as string;
      if (arg === "--") break;
      if (!arg.startsWith("-")) continue;
      const name = arg.split("=", 1)[0] as string;
      if (name.startsWith("--output-indicator-")) continue;
      if (namesLongOption(name, "--output")) {
        // git takes `--output=FILE` and `--output FILE`, and any unambiguous prefix of the name:
        // the file is judged as a redirection to it would be.
        findings.add(Medium, `It writes 'git ${sub}' output to a file.`);
        const file = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : subArgs[++i];
        if (file !== undefined) {
          findings.addFinding(
            writeTargetFinding(`'git ${sub} --output'`, file, mayBeExpanded(file)),
          );
        }
      } else if (!readOptions.has(name) && !/^-[0-9]+$/.test(arg) && !/^-[nUSGLCM]./.test(arg)) {
        findings.add(
          Medium,
          `'git ${sub} ${name}' is an option this rule does not know to be read-only.`,
        );
      }
    }
    return;
  }
  const plainList = subArgs.every((a) =>
    ["-a", "-r", "-v", "-vv", "--all", "--list", "-l", "--show-current", "--verbose"].includes(a),
  );
  if ((sub === "branch" || sub === "tag" || sub === "remote") && plainList) return;
  if (sub === "stash" && (subArgs[0] === "list" || subArgs[0] === "show")) return;
  classifyGitChange(sub, subArgs, findings);
}

function classifyGitConfig(args: readonly string[], findings: RiskFindings): void {
  const reading = args.some((a) =>
    [
      "--get",
      "--get-all",
      "--get-regexp",
      "--list",
      "-l",
      "--get-urlmatch",
      "--show-origin",
      "get",
      "list",
    ].includes(a),
  );
  const operands = args.filter((a) => !a.startsWith("-"));
  if (reading || operands.length <= 1) {
    if (args.some((a) => ["--edit", "-e"].includes(a))) {
      findings.add(High, "'git config --edit' opens an editor.");
    }
    return;
  }
  findings.add(
    High,
    "'git config' sets configuration, which can make git run programs (core.fsmonitor, core.pager, aliases, hooksPath).",
  );
}

function classifyGitChange(sub: string, subArgs: readonly string[], findings: RiskFindings): void {
  if (sub === "push") {
    const force =
      hasFlag(subArgs, "f", [
        "--force",
        "--force-with-lease",
        "--force-if-includes",
        "--mirror",
        "--delete",
      ]) || subArgs.some((a) => (a.startsWith("+") || a.startsWith(":")) && a.length > 1);
    findings.add(
      force ? High : Medium,
      force
        ? "It rewrites or deletes remote history ('git push --force')."
        : "It pushes to a remote ('git push').",
    );
    return;
  }
  const destructive =
    (sub === "reset" && subArgs.includes("--hard")) ||
    (sub === "clean" && hasFlag(subArgs, "f", ["--force"])) ||
    (sub === "branch" &&
      hasFlag(subArgs, "D", ["--delete"]) &&
      hasFlag(subArgs, "Df", ["--force"])) ||
    (sub === "checkout" && (hasFlag(subArgs, "f", ["--force"]) || subArgs.includes("."))) ||
    (sub === "restore" && !subArgs.includes("--staged")) ||
    (sub === "stash" && (subArgs[0] === "drop" || subArgs[0] === "clear")) ||
    (sub === "reflog" && (subArgs[0] === "expire" || subArgs[0] === "delete")) ||
    sub === "filter-branch" ||
    sub === "filter-repo" ||
    (sub === "update-ref" && subArgs.includes("-d"));
  if (destructive) {
    findings.add(High, `It discards work beyond easy recovery ('git ${sub}').`);
    return;
  }
  findings.add(Medium, `It changes the repository or its remotes ('git ${sub}').`);
}
