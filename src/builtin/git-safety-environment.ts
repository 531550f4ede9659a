/**
 * git configuration every terminal command runs with, through git's environment configuration
 * (`GIT_CONFIG_COUNT`, `GIT_CONFIG_KEY_<n>`, `GIT_CONFIG_VALUE_<n>`), which git reads as
 * command-line configuration: a repository's own files cannot override it.
 *
 * `safe.bareRepository=explicit`: git no longer takes a folder that merely looks like a
 * repository (`HEAD`, `objects/`, `refs/`, a `config`) as one when it searches upwards from the
 * working directory. Such a folder can have any name, so the model can write one with plain file
 * writes that no protected path covers; its `config` would make a reading command such as `git
 * status` run programs (`core.fsmonitor`, `core.pager`, aliases). The workspace's own repository
 * (`.git`, a protected path) is found as before, and a bare repository named with `--git-dir`
 * (which asks) still works.
 *
 * @internal
 */
export const gitSafetyConfig: Readonly<Record<string, string>> = Object.freeze({
  "safe.bareRepository": "explicit",
});

/**
 * `env` with {@link gitSafetyConfig} appended to its git environment configuration: after any
 * entries it already has (so these win), or as the only ones when its `GIT_CONFIG_COUNT` is not
 * a count (git would refuse every command with it).
 */
export function withGitSafety(env: Record<string, string>): Record<string, string> {
  const given = env.GIT_CONFIG_COUNT;
  let count = given !== undefined && /^\d{1,4}$/.test(given) ? Number(given) : 0;
  for (const [key, value] of Object.entries(gitSafetyConfig)) {
    env[`GIT_CONFIG_KEY_${count}`] = key;
    env[`GIT_CONFIG_VALUE_${count}`] = value;
    count++;
  }
  env.GIT_CONFIG_COUNT = String(count);
  return env;
}
