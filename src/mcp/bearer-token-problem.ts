/** The fewest characters a bearer token chosen by the user may have. */
export const MIN_BEARER_TOKEN_LENGTH = 16;

/**
 * Why `token` cannot guard an HTTP server, or undefined when it can: empty (no client can send
 * it), shorter than {@link MIN_BEARER_TOKEN_LENGTH} characters (guessable), or with characters
 * an `Authorization` header cannot carry as they are (RFC 6750's token68: letters, digits and
 * `-._~+/` then `=` padding).
 */
export function bearerTokenProblem(token: string): string | undefined {
  if (token === "") return "is empty: no client can send it";
  if (!/^[A-Za-z0-9\-._~+/]+=*$/.test(token)) {
    return "may hold only letters, digits and -._~+/ (then = padding): a header cannot carry the rest";
  }
  if (token.length < MIN_BEARER_TOKEN_LENGTH) {
    return `is shorter than ${MIN_BEARER_TOKEN_LENGTH} characters: it could be guessed`;
  }
  return undefined;
}
