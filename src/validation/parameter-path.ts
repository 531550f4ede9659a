/** Keys written bare in a path: identifiers, plus `-` for the kebab-case names tools often use. */
const plainKey = /^[A-Za-z_$][\w$-]*$/;
const arrayIndex = /^(?:0|[1-9]\d*)$/;
/** Longer keys are shortened in paths so a huge key never makes a huge message. */
const maxKeyChars = 100;

/** `options` + `depth` -> `options.depth`; a key that is not plain -> `options["weird key"]`. */
export function appendKey(path: string, key: string): string {
  if (plainKey.test(key) && key.length <= maxKeyChars) {
    return path === "" ? key : `${path}.${key}`;
  }
  const shown = key.length > maxKeyChars ? `${key.slice(0, maxKeyChars)}…` : key;
  return `${path}[${JSON.stringify(shown)}]`;
}

/** `items` + 2 -> `items[2]`. */
export function appendIndex(path: string, index: number): string {
  return `${path}[${index}]`;
}

/**
 * Turns a JSON Pointer into the instance (Ajv's `instancePath`, e.g. `/options/items/2`) into a
 * parameter path (`options.items[2]`), starting from `basePath`. It follows `root` along the
 * pointer so an array index reads `[2]` while an object key that happens to be `"2"` reads `["2"]`.
 */
export function pathFromPointer(pointer: string, root: unknown, basePath = ""): string {
  if (pointer === "") return basePath;
  let path = basePath;
  let current: unknown = root;
  for (const raw of pointer.slice(1).split("/")) {
    const segment = raw.includes("~") ? raw.replace(/~1/g, "/").replace(/~0/g, "~") : raw;
    if (Array.isArray(current) && arrayIndex.test(segment)) {
      const index = Number(segment);
      path = appendIndex(path, index);
      current = current[index];
    } else {
      path = appendKey(path, segment);
      current =
        typeof current === "object" && current !== null && Object.hasOwn(current, segment)
          ? (current as Record<string, unknown>)[segment]
          : undefined;
    }
  }
  return path;
}
