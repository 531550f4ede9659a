/**
 * The pieces the shell reader produces: words, redirections, tokens and syntax flags.
 *
 * @internal
 */

/** A word of a command as the reader sees it. */
export interface ShellWord {
  /** The word with quotes removed and escapes applied; substitutions are kept as written. */
  readonly value: string;
  /**
   * `value` with every character that was quoted, escaped or produced by a substitution or
   * expansion replaced by NUL (input NUL bytes are refused, so NUL is free as a marker). What
   * remains are the characters the shell would still interpret: glob and brace characters.
   */
  readonly shadow: string;
  /**
   * For each character of `value`, whether an expansion or substitution produces it:
   * {@link writtenText} when not (it is written in the text, quoted or not), {@link quotedExpansion}
   * when one does and the shell keeps what it gives in the word (inside double quotes, `$'..'`,
   * `$"..."`, `<(..)`), {@link splitExpansion} when one does outside quotes, so that the shell
   * splits what it gives into words and globs them.
   */
  readonly expansions: string;
  /** True when part of the word comes from an expansion or substitution (`$X`, `$(...)`, `$'..'`). */
  readonly dynamic: boolean;
  /** The programs of the word's command and process substitutions, as written, in order. */
  readonly substitutions: readonly string[];
}

/**
 * The part of `word` from `from` up to `to` (to its end when `to` is omitted), with indexes as
 * `String.prototype.slice` takes them: its `value`, `shadow` and `expansions` are cut at the same
 * characters, so they stay aligned. `dynamic` and `substitutions` are the whole word's, kept as
 * they are: a part of a word that holds an expansion is still read as coming from one.
 *
 * Used for an option's attached value (`--file=x`, `-fx`), a group of short options cut after
 * one that takes the rest as its value, and a part of a list (`PATH=a:b`).
 *
 * @internal
 */
export function sliceWord(word: ShellWord, from: number, to?: number): ShellWord {
  return {
    ...word,
    value: word.value.slice(from, to),
    shadow: word.shadow.slice(from, to),
    expansions: word.expansions.slice(from, to),
  };
}

/** A character of `ShellWord.expansions`: see there. */
export type Expansion = "." | "q" | "s";
/** In `ShellWord.expansions`: a character written in the text. */
export const writtenText: Expansion = ".";
/** In `ShellWord.expansions`: a character an expansion gives that stays in its word. */
export const quotedExpansion: Expansion = "q";
/** In `ShellWord.expansions`: a character an unquoted expansion gives, split into words. */
export const splitExpansion: Expansion = "s";

/** A redirection: its operator, its target word and, for a here-document, its body. */
export interface ShellRedirection {
  readonly operator: string;
  readonly target: ShellWord;
  /** The body of a `<<` / `<<-` here-document, or the word of a `<<<` here-string. */
  body?: string;
  /** True when the body is expanded like a double-quoted string (unquoted delimiter). */
  readonly bodyExpands?: boolean;
}

/** The constructs a command line uses, each of which makes its effect depend on more than text. */
export interface ShellSyntaxFlags {
  hasSubstitution: boolean;
  hasExpansion: boolean;
  hasRedirection: boolean;
  hasSubshell: boolean;
  hasComment: boolean;
  hasBackground: boolean;
}

/** Thrown inside the reader and turned into `{ ok: false }` by `lexShellCommand`. */
export class ShellSyntaxError extends Error {}

/** A token: an operator, a word, a redirection (its target read with it), or the end. */
export type ShellToken =
  | { readonly kind: "op"; readonly op: string; readonly at: number }
  | {
      readonly kind: "word";
      readonly word: ShellWord;
      readonly isFdPrefix: boolean;
      readonly at: number;
    }
  | { readonly kind: "redirect"; readonly redirection: ShellRedirection; readonly at: number }
  | { readonly kind: "end"; readonly at: number };
