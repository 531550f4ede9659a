/**
 * What the shell file-operand reader knows of command lines handed to programs through values:
 * variables a program runs (`PAGER`, `LESSOPEN`, `GIT_SSH_COMMAND`), git settings and options
 * that run a command line or name a file, and other programs' options whose value they run
 * (`ssh -o ProxyCommand=`, `rsync -e`, `tar --to-command`). The reading itself is in
 * file-operands.ts.
 *
 * @internal
 */

import type { OptionSyntax } from "./program-options.js";

/**
 * Variables whose value a program runs as a command line (`PAGER='cat .env' git log`,
 * `LESSOPEN='|cat .env %s' less x`, `GIT_SSH_COMMAND`): the files of that command line are the
 * call's too.
 */
export const commandVariables = new Set([
  "PAGER",
  "GIT_PAGER",
  "MANPAGER",
  "SYSTEMD_PAGER",
  "EDITOR",
  "VISUAL",
  "GIT_EDITOR",
  "GIT_SEQUENCE_EDITOR",
  "GIT_SSH_COMMAND",
  "GIT_SSH",
  "GIT_EXTERNAL_DIFF",
  "GIT_ASKPASS",
  "SSH_ASKPASS",
  "LESSOPEN",
  "LESSCLOSE",
  "BROWSER",
  "PROMPT_COMMAND",
  // Expanded by the shell when it prompts or traces (`PS4='$(cat .env)'; set -x`).
  "PS1",
  "PS2",
  "PS4",
  "GIT_PROXY_COMMAND",
  "KUBE_EDITOR",
  "SUDO_EDITOR",
  "SUDO_ASKPASS",
  "GH_EDITOR",
  "HGEDITOR",
  "SVN_EDITOR",
  "FCEDIT",
  "RSYNC_RSH",
  "CVS_RSH",
  "LESSEDIT",
  "RSYNC_CONNECT_PROG",
]);
/**
 * Variables that give a program settings, options or programs from outside the command line
 * (git's settings in the environment, its configuration files and helper folders; `man`'s and
 * `tar`'s default options): what they make it run cannot be read.
 */
export const opaqueVariable =
  /^(GIT_CONFIG(_PARAMETERS|_COUNT|_GLOBAL|_SYSTEM|_(KEY|VALUE)_\d+)?|GIT_EXEC_PATH|GIT_TEMPLATE_DIR|GIT_ALLOW_PROTOCOL|MANOPT|MANROFFOPT|TAR_OPTIONS)$/;
/** Variables naming a key file `less` reads (its commands and variables, LESSOPEN among them). */
export const lessKeyVariables = new Set([
  "LESSKEY",
  "LESSKEYIN",
  "LESSKEY_SRC",
  "LESSKEYIN_SYSTEM",
]);
/** Builtins that set a variable named in their arguments (`printf -v NAME`, `read NAME`). */
export const settingBuiltins = new Set([
  "printf",
  "read",
  "mapfile",
  "readarray",
  "getopts",
  "let",
  "export",
  "declare",
  "typeset",
  "local",
  "readonly",
]);
/**
 * git settings whose value git runs as a command line (`git -c core.pager='cat .env' log`), by
 * key in lower case (git's section and key names are case-insensitive; a subsection's is not
 * read here). A diff or merge tool's `path` is the program run: read as a command line, which
 * names more than a program would.
 */
export const gitCommandSetting =
  /^(core\.(pager|editor|sshcommand|fsmonitor|askpass|gitproxy)|sequence\.editor|diff\.external|gpg\.(.+\.)?program|gpg\.ssh\.defaultkeycommand|pager\..+|diff\..+\.(command|textconv)|merge\..+\.driver|filter\..+\.(clean|smudge|process)|(diff|merge)tool\..+\.(cmd|path)|credential\.(.+\.)?helper|uploadpack\.packobjectshook|alias\..+|trailer\..+\.(command|cmd)|man\..+\.cmd|browser\..+\.cmd|remote\..+\.(uploadpack|receivepack)|sendemail\.(.+\.)?(tocmd|cccmd|headercmd|sendmailcmd|smtpserver)|core\.alternaterefscommand|interactive\.difffilter|instaweb\.httpd|submodule\..+\.update)$/;
/**
 * git settings whose value names a file git reads (a template, an excludes or attributes file,
 * a mailmap, a certificate, a skip list): the file is the call's.
 */
export const gitFileSetting =
  /^(core\.(excludesfile|attributesfile)|commit\.template|blame\.ignorerevsfile|mailmap\.file|(receive\.|fetch\.)?fsck\.skiplist|gpg\.ssh\.(allowedsignersfile|revocationfile)|http\.(.+\.)?(sslcert|sslkey|sslcainfo|cookiefile))$/;
/**
 * git settings that bring settings, hooks or programs from elsewhere (an included file, a hooks
 * folder, a template folder whose hooks a new repository gets, the `ext::` transport, which runs
 * a command as a remote, a remote's helper program `git-remote-VCS`): what they run is not on the
 * command line.
 */
export const gitOpaqueSetting =
  /^(include\.path|includeif\..+\.path|core\.hookspath|core\.worktree|protocol\.(ext\.)?allow|init\.templatedir|remote\..+\.vcs)$/;
/** git subcommands that take a remote's URL (where `ext::` runs a command). */
export const gitRemoteSubcommands = new Set([
  "fetch",
  "pull",
  "push",
  "clone",
  "ls-remote",
  "remote",
  "submodule",
  "archive",
  "fetch-pack",
  "send-pack",
]);
/** git options whose value is a command line git runs as a remote's helper, through a shell. */
export const gitHelperOptions: readonly string[] = ["--upload-pack", "--receive-pack", "--exec"];
/**
 * A git subcommand's options that take a value, as far as reading them needs, and those of them
 * whose value is a command line git runs (`commands`). The others are listed so that their value
 * (`--depth "$N"`) is not read as a word that may be an option.
 */
export interface GitCommandOptions extends OptionSyntax {
  readonly commands: readonly string[];
}
/**
 * Long options that take a value of git's subcommands that talk to a remote (fetch, pull, push,
 * clone, ...), other than {@link gitHelperOptions}. Listed after them, so that a prefix
 * (`--upload-pa`) is still read as the helper option.
 */
const gitRemoteValueOptions: readonly string[] = [
  "--depth",
  "--shallow-since",
  "--shallow-exclude",
  "--jobs",
  "--server-option",
  "--push-option",
  "--branch",
  "--origin",
  "--strategy",
  "--strategy-option",
];
/**
 * The options of git's subcommands that talk to a remote (see `gitRemoteSubcommands`): the
 * helper git runs as the remote's end, and other options that take a value.
 */
export const gitRemoteOptionSyntax: GitCommandOptions = {
  long: [...gitHelperOptions, ...gitRemoteValueOptions],
  commands: gitHelperOptions,
};
/** `git filter-branch`'s filters and setup: command lines it runs through a shell (`eval`). */
const gitFilterBranchCommands: readonly string[] = [
  "--setup",
  "--env-filter",
  "--tree-filter",
  "--index-filter",
  "--parent-filter",
  "--msg-filter",
  "--commit-filter",
  "--tag-name-filter",
];
/**
 * `git send-email`'s options whose value it runs through a shell (a recipients or header
 * command, the sendmail command; an SMTP server given as a path is run as sendmail).
 */
const gitSendEmailCommands: readonly string[] = [
  "--to-cmd",
  "--cc-cmd",
  "--header-cmd",
  "--sendmail-cmd",
  "--smtp-server",
];
/**
 * `git send-email`'s other options that take a value: listed so that `--to` and `--cc`, exact,
 * are not read as a prefix of `--to-cmd` and `--cc-cmd`.
 */
const gitSendEmailValueOptions: readonly string[] = [
  "--to",
  "--cc",
  "--bcc",
  "--from",
  "--subject",
  "--in-reply-to",
  "--reply-to",
  "--identity",
  "--smtp-server-port",
  "--smtp-server-option",
  "--smtp-user",
  "--smtp-pass",
  "--smtp-domain",
  "--smtp-encryption",
  "--smtp-auth",
  "--smtp-ssl-cert-path",
  "--envelope-sender",
  "--suppress-cc",
  "--confirm",
  "--transfer-encoding",
  "--8bit-encoding",
  "--compose-encoding",
  "--batch-size",
  "--relogin-delay",
];
/**
 * The options of git's subcommands whose value is a command line git runs: a remote's helper
 * (`clone -u`, {@link gitHelperOptions}), rebase's `-x` / `--exec` after each commit, difftool's
 * `-x` / `--extcmd` on each pair of files. Every other subcommand's are
 * {@link gitRemoteOptionSyntax}.
 */
export const gitSubcommandCommandOptions: ReadonlyMap<string, GitCommandOptions> = new Map([
  [
    "clone",
    {
      short: "uboc",
      long: [...gitHelperOptions, ...gitRemoteValueOptions, "--config"],
      commands: ["-u", ...gitHelperOptions],
    },
  ],
  [
    "rebase",
    {
      short: "xsX",
      long: ["--exec", "--onto", "--strategy", "--strategy-option"],
      commands: ["-x", "--exec"],
    },
  ],
  [
    "difftool",
    {
      short: "xt",
      long: [...gitHelperOptions, "--extcmd", "--tool"],
      commands: ["-x", ...gitHelperOptions, "--extcmd"],
    },
  ],
  [
    "filter-branch",
    {
      short: "d",
      long: [...gitFilterBranchCommands, "--subdirectory-filter", "--original", "--state-branch"],
      commands: gitFilterBranchCommands,
    },
  ],
  [
    "send-email",
    {
      long: [...gitSendEmailCommands, ...gitSendEmailValueOptions],
      commands: gitSendEmailCommands,
    },
  ],
]);
/**
 * Options of other programs whose value is a command line the program runs: `man -P`, `rsync
 * -e`, `tar --to-command`, `sort --compress-program`, `zip -TT`, `scp -S`. Each program's are
 * read apart from its other options that take a value, so a word after one of those is still
 * read as a possible command option (ssh's `-o ProxyCommand=` is read apart too).
 */
export const programCommandOptions: ReadonlyMap<string, OptionSyntax> = new Map([
  ["man", { short: "PH", long: ["--pager", "--html"] }],
  ["rsync", { short: "e", long: ["--rsh", "--rsync-path"] }],
  [
    "tar",
    {
      short: "IF",
      long: [
        "--to-command",
        "--use-compress-program",
        "--rsh-command",
        "--info-script",
        "--new-volume-script",
      ],
    },
  ],
  ["sort", { short: "", long: ["--compress-program"] }],
  ["install", { short: "", long: ["--strip-program"] }],
  ["zip", { short: "", long: ["--unzip-command"] }],
  ["scp", { short: "S", long: [] }],
  ["sftp", { short: "SD", long: [] }],
]);
/** `at`'s and `batch`'s options that take a value: a file of commands, a queue, a time. */
export const atSyntax: OptionSyntax = { short: "fqt" };
/**
 * The programs that read ssh's options (`-o ProxyCommand=`, `-F FILE`), each with its own short
 * options that take a value (OpenSSH 9's getopt strings), read past `--` too. Each program's
 * own: `-X` and `-s` take none in ssh, so a table merged with sftp's would take the `-o` after
 * them as their value (`ssh -X -o ProxyCommand=...`).
 */
export const sshOptionSyntaxes: ReadonlyMap<string, OptionSyntax> = new Map([
  ["ssh", { short: "bcDEeFIiJLlmOopPQRSWw", pastDoubleDash: true }],
  ["scp", { short: "cDFiJlPoSX", pastDoubleDash: true }],
  ["sftp", { short: "BbcDFiJloPRsSX", pastDoubleDash: true }],
]);
/**
 * The keyword of an ssh setting given as `-o TEXT` (in lower case, as ssh matches it) and where
 * its value starts, read as ssh's `strdelim` reads a configuration line: leading white space
 * skipped, the keyword ending at white space or `=`, a quoted part of it taken without its
 * quotes (`"ProxyCommand"=cmd`, `Proxy"Command" cmd`), then white space and `=` skipped; an
 * empty keyword (`=ProxyCommand=cmd`) is skipped with one `=` and read again. A
 * keyword is read with every quote removed: ssh stops at the first closing quote
 * (`P"roxy"Command` is its `proxy`), so this reads more settings than ssh takes, never fewer.
 * Undefined for a quote ssh finds unclosed (it refuses the setting).
 */
export function sshSetting(text: string): { keyword: string; valueAt: number } | undefined {
  let at = /^\s*/.exec(text)?.[0].length ?? 0;
  // An empty keyword (`=ProxyCommand=cmd`): ssh skips one `=` and white space and reads again.
  if (text.charAt(at) === "=") at += 1 + (/^\s*/.exec(text.slice(at + 1))?.[0].length ?? 0);
  let keyword = "";
  for (; at < text.length && !/[\s=]/.test(text.charAt(at)); at++) {
    if (text.charAt(at) !== '"') {
      keyword += text.charAt(at);
      continue;
    }
    const close = text.indexOf('"', at + 1);
    if (close === -1) return undefined;
    keyword += text.slice(at + 1, close);
    at = close;
  }
  const valueAt = at + (/^[\s=]*/.exec(text.slice(at))?.[0].length ?? 0);
  return { keyword: keyword.toLowerCase(), valueAt };
}
/**
 * ssh settings whose value ssh runs as a command line: here (`ProxyCommand`, `LocalCommand`,
 * `KnownHostsCommand`), or on the remote machine, which may be this one (`RemoteCommand`, as
 * `ssh host CMD`).
 */
export const sshCommandSettings = new Set([
  "proxycommand",
  "localcommand",
  "knownhostscommand",
  "remotecommand",
]);
/**
 * tar's `--checkpoint-action=exec=CMD`, read past `--` too; an abbreviation that may also be
 * `--checkpoint` (`--checkp`) is read as that option, which takes no value.
 */
export const tarCheckpointSyntax: OptionSyntax = {
  long: ["--checkpoint-action"],
  flags: ["--checkpoint"],
  pastDoubleDash: true,
};
