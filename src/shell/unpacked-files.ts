/**
 * Programs that write files named inside what they read, not on the command line: an archive
 * they extract (`tar xf a.tar`, `unzip a.zip`, `cpio -i`), a patch they apply (`patch -p1 <
 * x.diff`, `git apply x.patch`). The archive or patch may be the model's own work, and may name
 * any file: a git hook, aintern's configuration, a path outside the workspace (`tar
 * --transform`, `../`, `git apply --unsafe-paths`). What such a command changes cannot be told
 * from its text, so a policy guarding particular files must treat it as naming any file.
 *
 * @internal
 */
import { namesLongOption } from "./command-words.js";
import {
  type OptionSyntax,
  readOptionsWhole as optionsOf,
  type ReadOptions,
  readOptions,
} from "./program-options.js";
import type { ShellWord } from "./shell-word.js";

/** Whether `full` is given, also by a prefix: for options that make a command write. */
const hasLong = (read: ReadOptions, full: string): boolean =>
  read.long.some((given) => namesLongOption(given, full));

/**
 * Whether `full` is given by its whole name: for options that keep a command from writing, a
 * prefix may stand for another option (GNU patch reads `--c` as `--context`).
 */
const hasExactly = (read: ReadOptions, full: string): boolean =>
  read.long.some((given) => given.split("=", 1)[0] === full);

/** GNU tar's options that take a value (`jar` reads its own few the same way). */
const tarSyntax: OptionSyntax = {
  short: "fCbHIKLNTVXg",
  long: [
    "--file",
    "--directory",
    "--files-from",
    "--exclude-from",
    "--exclude",
    "--blocking-factor",
    "--format",
    "--newer",
    "--label",
    "--listed-incremental",
    "--transform",
    "--owner",
    "--group",
    "--mode",
    "--use-compress-program",
  ],
};

/** bsdtar's: `-H` and `-L` are flags there (follow links), not GNU tar's format and length. */
const bsdtarSyntax: OptionSyntax = {
  short: "bCfIsTX",
  long: ["--file", "--directory", "--files-from", "--exclude", "--format", "--options", "--newer"],
};

/** unzip's options that take a value: the folder it extracts into, a password. */
const unzipSyntax: OptionSyntax = { short: "dP" };
/** cpio's options that take a value (`-D DIR`, `--directory`: the folder it extracts into). */
const cpioSyntax: OptionSyntax = { short: "CDEFHIMORs", long: ["--directory"] };
/** cabextract's options that take a value (`-d DIR`: the folder it extracts into). */
const cabextractSyntax: OptionSyntax = { short: "dFe" };
/** unar's options that take a value (`-o DIR`: the folder it extracts into). */
const unarSyntax: OptionSyntax = { short: "oep" };
/** GNU patch's options that take a value (`-d DIR`: the folder it patches in). */
const patchSyntax: OptionSyntax = {
  short: "BdDFgioprVYz",
  long: [
    "--prefix",
    "--directory",
    "--ifdef",
    "--fuzz",
    "--get",
    "--input",
    "--output",
    "--strip",
    "--reject-file",
    "--version-control",
    "--basename-prefix",
    "--suffix",
  ],
};

/** Whether a tar-like command (`tar`, `bsdtar`, `jar`) extracts. */
function tarExtracts(args: readonly ShellWord[], syntax: OptionSyntax): boolean {
  // Old style: a first word of letters without a dash (`tar xzf a.tgz`, `jar xf a.jar`).
  const first = args[0]?.value ?? "";
  if (/^[A-Za-z]+$/.test(first) && first.includes("x")) return true;
  const read = optionsOf(args, syntax);
  return read.letters.has("x") || hasLong(read, "--extract") || hasLong(read, "--get");
}

/** unzip's modes that write no file: list, test, to standard output, comment, zipinfo. */
const unzipReadOnlyLetters = "lvtpczZ";

/** Whether the command only prints its help or version. */
const onlyHelp = (read: ReadOptions): boolean =>
  hasExactly(read, "--help") || hasExactly(read, "--version");

function unzipExtracts(args: readonly ShellWord[]): boolean {
  const read = optionsOf(args, unzipSyntax);
  if (onlyHelp(read) || read.letters.has("h")) return false;
  return ![...unzipReadOnlyLetters].some((letter) => read.letters.has(letter));
}

function patchWrites(args: readonly ShellWord[]): boolean {
  const read = optionsOf(args, patchSyntax);
  // A dry run writes nothing; `-o FILE` writes that file. An original file named is not taken
  // for one: patch has options whose value could be read as it (`-x 1`, `--quoting-style x`).
  if (hasExactly(read, "--dry-run") || read.letters.has("C") || hasExactly(read, "--check")) {
    return false;
  }
  if (onlyHelp(read)) return false;
  return !(read.letters.has("o") || hasExactly(read, "--output"));
}

/**
 * Whether `ar` extracts: its key (`x`, `-x`, `xv`) is the first word of letters holding an
 * operation (`d m p q r s t x`), after options such as `--output=DIR` and `--plugin NAME`.
 */
function arExtracts(args: readonly ShellWord[]): boolean {
  for (let at = 0; at < args.length; at++) {
    const v = (args[at] as ShellWord).value;
    if (v === "--plugin" || v === "--target" || v === "--output") {
      at++;
      continue;
    }
    if (v.startsWith("--")) continue;
    if (!/^-?[A-Za-z]+$/.test(v)) return false;
    if (/[dmpqrstx]/.test(v)) return v.includes("x");
  }
  return false;
}

/** The first operand of a program whose first operand is a command (`7z x a.7z`). */
function firstOperand(args: readonly ShellWord[]): string | undefined {
  return args.find((word) => !word.value.startsWith("-"))?.value;
}

/**
 * Why `name` run with `args` writes files named inside an archive or patch it reads, or
 * undefined when it does not (it creates or lists an archive, or the files it writes are named).
 */
export function writesFilesNamedInside(
  name: string,
  args: readonly ShellWord[],
): string | undefined {
  const archive = `'${name}' extracts files named inside the archive, which the text does not show`;
  switch (name) {
    case "tar":
    case "gtar":
    case "jar":
      return tarExtracts(args, tarSyntax) ? archive : undefined;
    case "bsdtar":
      return tarExtracts(args, bsdtarSyntax) ? archive : undefined;
    case "unzip":
    case "bsdunzip":
      return unzipExtracts(args) ? archive : undefined;
    case "ar":
      return arExtracts(args) ? archive : undefined;
    case "gzip":
    case "gunzip": {
      // `-N` restores the name stored in the compressed file.
      const read = optionsOf(args, { short: "S", long: ["--suffix"] });
      const decompresses =
        name === "gunzip" || read.letters.has("d") || hasLong(read, "--decompress");
      const stored = read.letters.has("N") || hasLong(read, "--name");
      const toOutput = read.letters.has("c") || hasLong(read, "--stdout");
      return decompresses && stored && !toOutput ? archive : undefined;
    }
    case "unar":
      return onlyHelp(optionsOf(args, unarSyntax)) ? undefined : archive;
    case "cabextract": {
      const read = optionsOf(args, cabextractSyntax);
      const lists = ["l", "t", "p"].some((letter) => read.letters.has(letter));
      return lists || onlyHelp(read) ? undefined : archive;
    }
    case "lha": {
      const key = args[0]?.value.replace(/^-/, "") ?? "";
      return /^[a-z]*[xe]/.test(key) ? archive : undefined;
    }
    case "dpkg-deb": {
      const extracts = args.some((w) =>
        /^(-[A-Za-z]*[xXR][A-Za-z]*|--(extract|vextract|raw-extract))$/.test(w.value),
      );
      return extracts ? archive : undefined;
    }
    case "git-apply":
      return gitWritesFilesNamedInside("apply", args);
    case "git-am":
      return gitWritesFilesNamedInside("am", args);
    case "7z":
    case "7za":
    case "7zr":
    case "7zz":
    case "unrar": {
      const command = firstOperand(args)?.toLowerCase();
      return command === "x" || command === "e" ? archive : undefined;
    }
    case "cpio":
    case "bsdcpio": {
      const read = optionsOf(args, cpioSyntax);
      // `-it` lists the archive.
      const lists = read.letters.has("t") || hasExactly(read, "--list");
      const extracts =
        ((read.letters.has("i") || hasLong(read, "--extract")) && !lists) ||
        read.letters.has("p") ||
        hasLong(read, "--pass-through");
      return extracts ? archive : undefined;
    }
    case "pax":
      return optionsOf(args, { short: "bfopsx" }).letters.has("r") ? archive : undefined;
    case "patch":
      return patchWrites(args)
        ? "'patch' changes the files the patch names, which the text does not show"
        : undefined;
    default:
      return undefined;
  }
}

/**
 * Why `git SUBCOMMAND` with `after` writes files a patch names (`git apply`, `git am`), or
 * undefined when it does not (`git apply --check`, `--stat`, `--cached`; `git am --abort`).
 */
export function gitWritesFilesNamedInside(
  subcommand: string,
  after: readonly ShellWord[],
): string | undefined {
  const why = `'git ${subcommand}' changes the files the patch names, which the text does not show`;
  if (subcommand === "apply") {
    const read = optionsOf(after, {
      short: "pC",
      long: ["--exclude", "--include", "--directory", "--whitespace", "--build-fake-ancestor"],
      letterGroupsOnly: true,
    });
    if (hasExactly(read, "--cached") || onlyHelp(read) || read.letters.has("h")) return undefined;
    const onlyReports = ["--check", "--stat", "--numstat", "--summary"].some((o) =>
      hasExactly(read, o),
    );
    return onlyReports && !hasLong(read, "--apply") ? undefined : why;
  }
  if (subcommand === "am") {
    const read = optionsOf(after, { long: ["--whitespace", "--directory", "--exclude"] });
    const stops = ["--abort", "--quit", "--show-current-patch", "--help"].some((o) =>
      hasExactly(read, o),
    );
    return stops ? undefined : why;
  }
  return undefined;
}

/** The options that name the folder a program extracts or patches into, by program. */
const folderOptions: ReadonlyMap<string, { syntax: OptionSyntax; names: readonly string[] }> =
  new Map([
    ["tar", { syntax: tarSyntax, names: ["-C", "--directory"] }],
    ["gtar", { syntax: tarSyntax, names: ["-C", "--directory"] }],
    ["bsdtar", { syntax: bsdtarSyntax, names: ["-C", "--directory"] }],
    ["jar", { syntax: tarSyntax, names: ["-C", "--directory"] }],
    ["unzip", { syntax: unzipSyntax, names: ["-d"] }],
    ["bsdunzip", { syntax: unzipSyntax, names: ["-d"] }],
    ["cpio", { syntax: cpioSyntax, names: ["-D", "--directory"] }],
    ["patch", { syntax: patchSyntax, names: ["-d", "--directory"] }],
    ["cabextract", { syntax: cabextractSyntax, names: ["-d"] }],
    ["unar", { syntax: unarSyntax, names: ["-o"] }],
  ]);

/**
 * The folders `name` with `args` writes the files of an archive or patch into, when it does
 * (see {@link writesFilesNamedInside}): those its folder option names (`tar -C DIR`, `unzip -d
 * DIR`, `patch -d DIR`), as written, or none when it writes into its working folder. Undefined
 * when it writes no such files.
 *
 * @internal
 */
export function extractionFolders(
  name: string,
  args: readonly ShellWord[],
): readonly string[] | undefined {
  if (writesFilesNamedInside(name, args) === undefined) return undefined;
  const folder = folderOptions.get(name);
  if (folder === undefined) return [];
  const folders: string[] = [];
  for (const item of readOptions(args, folder.syntax)) {
    if (item.kind === "option" && item.value !== undefined && folder.names.includes(item.name)) {
      folders.push(item.value.value);
    }
  }
  return folders;
}
