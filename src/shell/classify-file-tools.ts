import { RiskLevel } from "../core/index.js";
import { namesLongOption } from "./command-words.js";
import type { RiskFindings } from "./risk-findings.js";
import type { ShellWord } from "./shell-scanner.js";

/**
 * The risk of `find`, `sed`, `tar` and pagers: programs that read files but have options or
 * commands that run programs or write files.
 *
 * @internal
 */

const { Medium, High } = RiskLevel;

/** `find` primaries that only test or print, and whether each takes an argument. */
const findPrimaries = new Map<string, boolean>([
  ..."name iname path ipath wholename iwholename regex iregex regextype type xtype size newer anewer cnewer mtime mmin atime amin ctime cmin used perm user group uid gid links inum samefile maxdepth mindepth printf lname ilname fstype context D O newermt newerct newerat"
    .split(" ")
    .map((p) => [`-${p}`, true] as const),
  ..."empty nouser nogroup depth prune quit print print0 ls true false not and or a o readable writable executable follow mount xdev noleaf daystart ignore_readdir_race noignore_readdir_race P L H help version"
    .split(" ")
    .map((p) => [`-${p}`, false] as const),
]);

/**
 * `find`: `-exec`, `-execdir`, `-ok`, `-okdir` run a command (judged too, with `{}` standing for
 * the start paths); `-delete` deletes; `-fprint*` / `-fls` write files. All of them are High at
 * least; a primary not in the allow list is Medium.
 */
export function classifyFind(
  words: readonly ShellWord[],
  findings: RiskFindings,
  classifyWords: (words: readonly ShellWord[]) => void,
  isSweeping: (target: string) => boolean,
): void {
  const args = words.slice(1);
  const starts: ShellWord[] = [];
  let i = 0;
  while (i < args.length && !/^[-(!]/.test((args[i] as ShellWord).value))
    starts.push(args[i++] as ShellWord);
  let filtered = false;
  for (; i < args.length; i++) {
    const word = (args[i] as ShellWord).value;
    if (
      findPrimaries.get(word) === true &&
      !["-maxdepth", "-mindepth", "-regextype", "-D", "-O"].includes(word)
    ) {
      filtered = true;
    }
    if (["-exec", "-execdir", "-ok", "-okdir"].includes(word)) {
      let end = i + 1;
      while (end < args.length && !(args[end]?.value === ";" || args[end]?.value === "+")) end++;
      findings.add(High, `It runs a command on every file it finds ('find ${word}').`);
      const inner = args.slice(i + 1, end);
      // Unfiltered, `{}` is every path under the starts, the starts themselves included.
      const withStarts = inner.flatMap((w) =>
        w.value === "{}" && !filtered && starts.length > 0 ? starts : [w],
      );
      if (withStarts.length > 0) classifyWords(withStarts);
      i = end;
    } else if (word === "-delete") {
      const sweeping =
        !filtered && (starts.length === 0 || starts.some((s) => isSweeping(s.value)));
      findings.add(
        sweeping ? RiskLevel.Critical : High,
        sweeping
          ? "It deletes everything under a system, home or workspace root ('find -delete')."
          : "It deletes every file it finds ('find -delete').",
      );
    } else if (/^-f(print0?|printf|ls)$/.test(word)) {
      findings.add(High, `It writes its list to a file it names ('find ${word}').`);
      i++;
    } else if (word.startsWith("-")) {
      const takesArgument = findPrimaries.get(word);
      if (takesArgument === undefined) {
        findings.add(
          Medium,
          `'find ${word}' is a primary this rule does not know to be read-only.`,
        );
      } else if (takesArgument) {
        i++;
      }
    }
  }
}

/**
 * `sed`: Low only for scripts of printing, deleting and substituting commands. `-i` edits files,
 * the `w`/`W` commands and the `w` flag write files, `e` and the `e` flag run commands (the
 * class of CVE-2025-64755): all High. A script from a file (`-f`) is not read: Medium.
 */
export function classifySed(args: readonly string[], findings: RiskFindings): void {
  const scripts: string[] = [];
  let scriptGiven = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--") break;
    if (arg.startsWith("--") && namesLongOption(arg, "--expression")) {
      const script = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : args[++i];
      if (script !== undefined) scripts.push(script);
      scriptGiven = true;
      continue;
    }
    if (
      namesLongOption(arg, "--in-place") ||
      arg === "-i" ||
      arg.startsWith("-i") ||
      arg.startsWith("--in-place") ||
      (/^-[a-zA-Z]+$/.test(arg) && arg.includes("i") && !arg.startsWith("--"))
    ) {
      findings.add(High, "'sed -i' rewrites the files it names.");
      continue;
    }
    if (arg === "-e" || arg === "--expression") {
      const script = args[++i];
      if (script !== undefined) scripts.push(script);
      scriptGiven = true;
      continue;
    }
    if (arg.startsWith("--expression=")) {
      scripts.push(arg.slice("--expression=".length));
      scriptGiven = true;
      continue;
    }
    if (
      arg === "-f" ||
      (arg.startsWith("--") && namesLongOption(arg, "--file")) ||
      (/^-[a-zA-Z]*f/.test(arg) && !arg.startsWith("--"))
    ) {
      findings.add(Medium, "'sed -f' runs a script from a file this rule does not read.");
      scriptGiven = true;
      continue;
    }
    if (
      /^-[nErsuz]+$/.test(arg) ||
      [
        "--quiet",
        "--silent",
        "--regexp-extended",
        "--separate",
        "--unbuffered",
        "--null-data",
        "--posix",
        "--debug",
        "--sandbox",
      ].includes(arg)
    )
      continue;
    if (arg.startsWith("-") && arg !== "-") {
      findings.add(Medium, `'sed ${arg}' is an option this rule does not know to be read-only.`);
      continue;
    }
    if (!scriptGiven) {
      scripts.push(arg);
      scriptGiven = true;
    }
  }
  for (const script of scripts) {
    if (!isPrintOnlySedScript(script)) {
      findings.add(
        High,
        "Its sed script may write files or run commands (w, W, e, r or flags this rule does not know).",
      );
      return;
    }
  }
}

/** Addresses, then `p`, `d`, `q`, `=`, `n`, `N`, `P`, `D`, `G`, `h`, `x`, or `s` with `/` and safe flags. */
const sedCommand =
  /^\s*(?:(?:\d+|\$|\/(?:[^/\\\n]|\\.)*\/I?)(?:\s*,\s*(?:\d+|\$|\/(?:[^/\\\n]|\\.)*\/I?|[+~]\d+))?\s*!?\s*)?(?:[pdqQ=nNPDgGhHxl]|s\/(?:[^/\\\n]|\\.)*\/(?:[^/\\\n]|\\.)*\/[gpiImM0-9]*|y\/(?:[^/\\\n]|\\.)*\/(?:[^/\\\n]|\\.)*\/|\{|\})?\s*$/;

function isPrintOnlySedScript(script: string): boolean {
  // Split on `;` and newlines outside the `/.../` parts.
  const parts: string[] = [];
  let current = "";
  let slashes = 0;
  for (let i = 0; i < script.length; i++) {
    const c = script[i] as string;
    if (c === "\\") {
      current += c + (script[i + 1] ?? "");
      i++;
      continue;
    }
    if (c === "/") slashes++;
    if ((c === ";" || c === "\n") && slashes % 2 === 0) {
      parts.push(current);
      current = "";
      slashes = 0;
      continue;
    }
    current += c;
  }
  parts.push(current);
  return parts.every((part) => sedCommand.test(part));
}

/** `tar`: options that run programs are High; otherwise Medium (it writes when it extracts or creates). */
export function classifyTar(args: readonly string[], findings: RiskFindings): void {
  const runs = args.some((arg) => {
    const name = arg.split("=", 1)[0] as string;
    return (
      [
        "--to-command",
        "--use-compress-program",
        "--info-script",
        "--new-volume-script",
        "--rsh-command",
        "--rmt-command",
        "--checkpoint-action",
        "--index-file",
      ].some((full) => full === name || namesLongOption(name, full)) ||
      (/^-[a-zA-Z]+$/.test(arg) && /[IF]/.test(arg)) ||
      (/^[a-zA-Z]+$/.test(arg) && arg === args[0] && /[IF]/.test(arg))
    );
  });
  if (runs) {
    findings.add(
      High,
      "A 'tar' option makes it run another program (--to-command, --use-compress-program, -I, ...).",
    );
    return;
  }
  findings.add(Medium, "'tar' writes files when it creates or extracts an archive.");
}

/** Pagers: only display options are allowed; any other option or a `+command` can run commands. */
export function classifyPager(
  name: string,
  allowed: string,
  args: readonly string[],
  findings: RiskFindings,
): void {
  for (const arg of args) {
    if (arg === "--") break;
    if (
      arg.startsWith("+") ||
      (arg.startsWith("-") && arg !== "-" && ![...arg.slice(1)].every((l) => allowed.includes(l)))
    ) {
      findings.add(High, `'${name} ${arg}': pager options and commands can run programs.`);
      return;
    }
  }
}
