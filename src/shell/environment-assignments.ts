import { RiskLevel } from "../core/index.js";
import { markerVariable } from "../sandbox/kill-process-tree.js";

/**
 * The risk of setting an environment or shell variable (`VAR=value cmd`, `export VAR=value`).
 *
 * @internal
 */

/** Variables that make programs load or run other code, or read configuration that can. */
const codeRunning = [
  /^(GIT_|LD_|DYLD_|NPM_CONFIG_|npm_config_|YARN_|BASH_|ZSH_|PYTHON|PERL|RUBY|NODE_|JAVA_|_JAVA_|GCONV|SSH_|SUDO_|LESS|RIPGREP|TAR_|ZDOTDIR|XDG_|CARGO_|RUSTC|RUSTFLAGS|GEM_|BUNDLE_|PIP_|MAKEFLAGS|MFLAGS|GRADLE_|MAVEN_|GOFLAGS|GOPROXY|GOPATH|DOCKER_|KUBE|GNUPG|CURL_|WGET|PROMPT_|PS[0-9])/,
  /_(PAGER|EDITOR|ASKPASS|OPTIONS|OPTS|COMMAND|SHELL|PATH|PRELOAD|CONFIG|HOME|RC)$/,
  /^(PAGER|MANPAGER|EDITOR|VISUAL|BROWSER|SHELL|ENV|PATH|HOME|IFS|CDPATH|SHELLOPTS|BASHOPTS|CLASSPATH|TERMINFO|TERMINFO_DIRS|MORE|MANOPT|LOCPATH|NLSPATH|HOSTALIASES|RESOLV_HOST_CONF|MALLOC_CONF|TMPDIR|EXINIT|VIMINIT|MYVIMRC|EMACS|INPUTRC|CC|CXX|CPP|LD|AR|AS)$/,
];

/** Variables known to change only how programs format their output. */
const harmless =
  /^(LANG|LANGUAGE|LC_[A-Z]+|TZ|NO_COLOR|FORCE_COLOR|CLICOLOR|CLICOLOR_FORCE|COLUMNS|LINES|TERM|CI|NODE_ENV|RUST_BACKTRACE|RUST_LOG|PYTHONUNBUFFERED|PYTHONDONTWRITEBYTECODE|TIME_STYLE|LS_COLORS|POSIXLY_CORRECT|GREP_COLORS?|DEBUG|VERBOSE|QUIET)$/;

/** `NAME=value` (or `NAME+=value`): the variable's name, or undefined when the word is not one. */
export function assignmentName(word: string): string | undefined {
  const match = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?\+?=/.exec(word);
  return match?.[1];
}

/** The risk an assignment adds, with the reason, or undefined when it adds none. */
export function assignmentRisk(name: string): { level: RiskLevel; reason: string } | undefined {
  // The marker of a command's processes: changed or removed, a process that also leaves the
  // command's group cannot be found and stopped with it, on a timeout or when aintern is killed.
  if (name === markerVariable) {
    return {
      level: RiskLevel.High,
      reason: `It sets ${name}, the marker by which aintern finds a command's processes to stop them.`,
    };
  }
  // PYTHONUNBUFFERED and friends match the broad prefixes too: the harmless list wins.
  if (harmless.test(name)) return undefined;
  if (codeRunning.some((pattern) => pattern.test(name))) {
    return {
      level: RiskLevel.High,
      reason: `It sets ${name}, which can make programs run other code or read other configuration.`,
    };
  }
  return {
    level: RiskLevel.Medium,
    reason: `It sets the variable ${name}, which changes what programs do.`,
  };
}

/**
 * The risk of taking a variable out of the commands' environment (`unset X`, `export -n X`,
 * `env -u X`): that of setting it, since either changes what programs read (the git configuration
 * aintern gives every command is in GIT_CONFIG_* variables). `how` names what removes it.
 */
export function removalRisk(
  name: string,
  how: string,
): { level: RiskLevel; reason: string } | undefined {
  const risk = assignmentRisk(name);
  if (risk === undefined) return undefined;
  const what = name === markerVariable ? `${name}, the marker of a command's processes,` : name;
  return { level: risk.level, reason: `It removes ${what} from the environment (${how}).` };
}
