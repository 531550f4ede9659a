import vm from "node:vm";

/** One line that matched, as {@link RegexScanner.scan} reports it. */
export interface LineMatch {
  /** Index of the text in the batch. */
  readonly textIndex: number;
  /** 1-based line number. */
  readonly line: number;
  /** 1-based column (in UTF-16 code units) of the first match on the line. */
  readonly column: number;
  /** The line, or a window of it around the match when the line is long. */
  readonly text: string;
}

/** What one {@link RegexScanner.scan} found. */
export interface ScanResult {
  readonly matches: readonly LineMatch[];
  /** Lines longer than the scanner's limit, scanned only up to it. */
  readonly longLines: number;
  /** Indexes of texts with more matching lines than the per-text limit. */
  readonly cappedTexts: readonly number[];
  /** True when the scan ran out of time (its matches are then lost). */
  readonly timedOut: boolean;
}

/** Limits of a {@link RegexScanner}. */
export interface RegexScannerLimits {
  /** Lines longer than this are scanned only up to it. */
  readonly maxLineLength: number;
  /** At most this many matching lines per text. */
  readonly maxMatchesPerText: number;
  /** Shown text of a match is cut to about this many characters. */
  readonly maxShownLength: number;
}

// Runs inside the scanner's own context, so a timeout can stop it even in the middle of one
// catastrophically backtracking `exec` (V8 interrupts regular expressions as well as loops).
const scannerSource = `
(function () {
  const re = new RegExp(__source, __flags);
  globalThis.__scan = function (texts, maxTotal, maxPerText, maxLineLength, maxShown) {
    const matches = [];
    const capped = [];
    let longLines = 0;
    for (let t = 0; t < texts.length && matches.length < maxTotal; t++) {
      const lines = texts[t].split("\\n");
      let perText = 0;
      for (let i = 0; i < lines.length; i++) {
        let line = lines[i];
        if (line.endsWith("\\r")) line = line.slice(0, -1);
        if (line.length > maxLineLength) {
          line = line.slice(0, maxLineLength);
          longLines++;
        }
        const m = re.exec(line);
        if (m === null) continue;
        if (perText >= maxPerText) {
          capped.push(t);
          break;
        }
        let shown = line;
        if (line.length > maxShown) {
          const from = Math.max(0, m.index - Math.floor(maxShown / 4));
          shown = (from > 0 ? "..." : "") + line.slice(from, from + maxShown) +
            (from + maxShown < line.length ? "..." : "");
        }
        matches.push([t, i + 1, m.index + 1, shown]);
        perText++;
        if (matches.length >= maxTotal) break;
      }
    }
    return [matches, longLines, capped];
  };
})();
`;

const scanCall = new vm.Script(
  "__scan(__texts, __maxTotal, __maxPerText, __maxLineLength, __maxShown)",
);

function isTimeout(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as { code?: unknown }).code === "ERR_SCRIPT_EXECUTION_TIMEOUT"
  );
}

/**
 * Matches one JavaScript regular expression against lines of text under a time limit that
 * holds even for catastrophic patterns (`(a+)+$`): the matching runs in a separate V8 context
 * through `vm`, whose timeout interrupts a running regular expression. This is not a security
 * sandbox (the code run is the scanner's own); it is a watchdog.
 *
 * @internal
 */
export class RegexScanner {
  readonly #context: vm.Context;
  readonly #limits: RegexScannerLimits;

  /** @throws SyntaxError when `source` is not a valid regular expression. */
  constructor(source: string, flags: string, limits: RegexScannerLimits) {
    new RegExp(source, flags); // Throws in this realm, with the usual SyntaxError.
    this.#limits = limits;
    this.#context = vm.createContext({ __source: source, __flags: flags });
    vm.runInContext(scannerSource, this.#context);
  }

  /** Scans `texts` for at most `maxTotal` matching lines, stopping after `timeoutMs`. */
  scan(texts: readonly string[], maxTotal: number, timeoutMs: number): ScanResult {
    const context = this.#context;
    context.__texts = texts;
    context.__maxTotal = maxTotal;
    context.__maxPerText = this.#limits.maxMatchesPerText;
    context.__maxLineLength = this.#limits.maxLineLength;
    context.__maxShown = this.#limits.maxShownLength;
    try {
      const [rows, longLines, capped] = scanCall.runInContext(context, {
        timeout: Math.max(1, Math.ceil(timeoutMs)),
      }) as [[number, number, number, string][], number, number[]];
      return {
        matches: rows.map(([textIndex, line, column, text]) => ({ textIndex, line, column, text })),
        longLines,
        cappedTexts: [...capped],
        timedOut: false,
      };
    } catch (error) {
      if (isTimeout(error)) return { matches: [], longLines: 0, cappedTexts: [], timedOut: true };
      throw error;
    } finally {
      context.__texts = undefined;
    }
  }
}
