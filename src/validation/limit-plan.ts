import { subtreeFits, type ValueLimits } from "./value-limits.js";

/**
 * What is left to check of a value's limits once Ajv has found it valid against a schema. Ajv's
 * success already proves much (a closed object has only its declared properties, a string has
 * at most `maxLength` characters, a number is finite), so only the parts the schema leaves
 * unbounded need looking at.
 *
 * - `static`: nothing to look at; `nodes` / `size` / `depth` bound what a valid value can hold.
 * - `string`: a string (or another scalar) whose length the schema does not bound.
 * - `object`: a closed object (`additionalProperties: false`); `nodes` / `size` / `depth` bound
 *   its static part, `keys` / `children` list the properties that need looking at.
 * - `open`: an object that may have other properties; `keys` / `children` plan the declared
 *   ones, `extra` the others.
 * - `array`: an array whose items follow `items`.
 * - `any`: anything; walked in full.
 */
export interface LimitPlan {
  readonly kind: "static" | "string" | "object" | "open" | "array" | "any";
  readonly nodes: number;
  readonly size: number;
  readonly depth: number;
  readonly keys?: readonly string[];
  readonly children?: readonly LimitPlan[];
  readonly items?: LimitPlan;
  readonly extra?: LimitPlan;
}

/** The plan for a schema, and whether Ajv may run on a value before its limits are checked. */
export interface SchemaLimitPlan {
  readonly plan: LimitPlan;
  /**
   * True when Ajv cannot recurse without end or compare deep values on this schema (no recursive,
   * remote or dynamic `$ref`, no `uniqueItems`), so running it first is safe.
   */
  readonly ajvFirst: boolean;
}

const anyPlan: LimitPlan = { kind: "any", nodes: 0, size: 0, depth: 0 };
const scalarPlan: LimitPlan = { kind: "static", nodes: 1, size: 0, depth: 0 };
const stringPlan: LimitPlan = { kind: "string", nodes: 1, size: 0, depth: 0 };
const scalarTypes = new Set(["string", "number", "integer", "boolean", "null"]);
/** Keywords that make the plan below unsound; a schema using them is walked in full. */
const wideningKeywords = [
  "unevaluatedProperties",
  "unevaluatedItems",
  "$dynamicRef",
  "$recursiveRef",
];

/**
 * Plans the limits check for `schema` under `limits`. Only keywords that bound a valid value are
 * read (`type`, `properties` + `additionalProperties: false`, `items`, `maxItems`, `maxLength`,
 * `enum`, `const`, local `$ref`); every other keyword can only narrow what is valid, so ignoring
 * it keeps the plan sound.
 */
export function planLimits(schema: unknown, limits: ValueLimits): SchemaLimitPlan {
  const { ajvFirst, refsFromRoot } = scanRefs(schema);
  const memo = new Map<object, LimitPlan>();
  const resolving = new Set<object>();

  const planOf = (node: unknown, level: number): LimitPlan => {
    if (node === false) return scalarPlan; // nothing is valid
    if (typeof node !== "object" || node === null || Array.isArray(node)) return anyPlan;
    if (level > limits.maxDepth) return anyPlan;
    const cached = memo.get(node);
    if (cached !== undefined) return cached;
    if (resolving.has(node)) return anyPlan;
    resolving.add(node);
    const plan = planSchema(node as Record<string, unknown>, level);
    resolving.delete(node);
    memo.set(node, plan);
    return plan;
  };

  const planSchema = (s: Record<string, unknown>, level: number): LimitPlan => {
    if (wideningKeywords.some((keyword) => Object.hasOwn(s, keyword))) return anyPlan;
    if (typeof s.$ref === "string") {
      const target = refsFromRoot ? resolveLocalRef(schema, s.$ref) : undefined;
      return target === undefined ? anyPlan : planOf(target, level);
    }
    const bounded = boundedScalars(s, limits);
    if (bounded !== undefined) return bounded;
    const types = typeof s.type === "string" ? [s.type] : Array.isArray(s.type) ? s.type : [];
    if (types.length === 0) return anyPlan;
    if (types.every((type) => scalarTypes.has(String(type)))) {
      if (!types.includes("string")) return scalarPlan;
      // `maxLength` counts code points; a code point is at most two UTF-16 units.
      const maxUnits = typeof s.maxLength === "number" ? 2 * s.maxLength : Number.POSITIVE_INFINITY;
      return maxUnits <= limits.maxStringLength
        ? { kind: "static", nodes: 1, size: maxUnits, depth: 0 }
        : stringPlan;
    }
    if (types.length !== 1) return anyPlan;
    if (types[0] === "object") return planObject(s, level);
    if (types[0] === "array") return planArray(s, level);
    return anyPlan;
  };

  const planObject = (s: Record<string, unknown>, level: number): LimitPlan => {
    const properties = s.properties ?? {};
    if (
      typeof properties !== "object" ||
      properties === null ||
      // `value["__proto__"]` would read the prototype; leave such objects to the full walk.
      Object.hasOwn(properties, "__proto__")
    ) {
      return anyPlan;
    }
    if (s.additionalProperties !== false || Object.hasOwn(s, "patternProperties")) {
      return planOpenObject(s, properties, level);
    }
    let nodes = 1;
    let size = 0;
    let depth = 1;
    const keys: string[] = [];
    const children: LimitPlan[] = [];
    for (const [key, child] of Object.entries(properties)) {
      const plan = planOf(child, level + 1);
      size += key.length;
      if (plan.kind === "static") {
        nodes += plan.nodes;
        size += plan.size;
        depth = Math.max(depth, 1 + plan.depth);
      } else {
        keys.push(key);
        children.push(plan);
      }
    }
    return keys.length === 0
      ? { kind: "static", nodes, size, depth }
      : { kind: "object", nodes, size, depth, keys, children };
  };

  const planOpenObject = (
    s: Record<string, unknown>,
    properties: object,
    level: number,
  ): LimitPlan => {
    const keys: string[] = [];
    const children: LimitPlan[] = [];
    for (const [key, child] of Object.entries(properties)) {
      keys.push(key);
      children.push(planOf(child, level + 1));
    }
    // Properties matching `patternProperties` follow those schemas too: walk them in full.
    const extra =
      Object.hasOwn(s, "patternProperties") || s.additionalProperties === undefined
        ? anyPlan
        : planOf(s.additionalProperties, level + 1);
    return { kind: "open", nodes: 1, size: 0, depth: 1, keys, children, extra };
  };

  const planArray = (s: Record<string, unknown>, level: number): LimitPlan => {
    if (Array.isArray(s.items) || Object.hasOwn(s, "prefixItems")) return anyPlan;
    const items = s.items === undefined ? anyPlan : planOf(s.items, level + 1);
    const maxItems = s.maxItems;
    if (items.kind === "static" && typeof maxItems === "number") {
      return {
        kind: "static",
        nodes: 1 + maxItems * items.nodes,
        size: maxItems * items.size,
        depth: 1 + items.depth,
      };
    }
    return { kind: "array", nodes: 1, size: 0, depth: 1, items };
  };

  return { plan: planOf(schema, 1), ajvFirst };
}

/** Checks a value Ajv found valid: true means it fits the limits; false that it may not. */
export type LimitCheck = (value: unknown) => boolean;

const mayNotFit: LimitCheck = () => false;
const fits: LimitCheck = () => true;

/**
 * Compiles `plan` into a check of a value Ajv found valid against the planned schema. True means
 * the value fits `limits`; false means it may not (the plan's bounds are upper bounds), so walk
 * it with `fitsLimits`. Like Ajv, it generates code, so every property it reads is read by a
 * constant name: a few nanoseconds per property the schema leaves unbounded, nothing for the rest.
 */
export function compileLimitCheck(plan: LimitPlan, limits: ValueLimits): LimitCheck {
  if (plan.kind === "static") {
    return plan.nodes <= limits.maxNodes &&
      plan.size <= limits.maxTotalSize &&
      plan.depth <= limits.maxDepth
      ? fits
      : mayNotFit;
  }
  const lines: string[] = [];
  let names = 0;
  const emit = (part: LimitPlan, expression: string, level: number): void => {
    if (part.kind !== "any" && part.depth > 0 && level + part.depth - 1 > limits.maxDepth) {
      lines.push("return false;");
      return;
    }
    switch (part.kind) {
      case "static":
        lines.push(`nodes += ${part.nodes}; size += ${part.size};`);
        return;
      case "string": {
        const name = `s${names++}`;
        lines.push(
          `{ const ${name} = ${expression}; nodes++;`,
          `if (typeof ${name} === "string") { if (${name}.length > ${limits.maxStringLength}) return false; size += ${name}.length; } }`,
        );
        return;
      }
      case "object": {
        const name = `o${names++}`;
        lines.push(
          `{ const ${name} = ${expression};`,
          `if (typeof ${name} !== "object" || ${name} === null) return false;`,
          `nodes += ${part.nodes}; size += ${part.size};`,
        );
        part.keys!.forEach((key, i) => {
          const item = `p${names++}`;
          lines.push(
            `{ const ${item} = ${name}[${JSON.stringify(key)}]; if (${item} !== undefined) {`,
          );
          emit(part.children![i]!, item, level + 1);
          lines.push("} }");
        });
        lines.push("}");
        return;
      }
      case "open": {
        const name = `o${names++}`;
        const key = `n${names++}`;
        lines.push(
          `{ const ${name} = ${expression};`,
          `if (typeof ${name} !== "object" || ${name} === null) return false; nodes++;`,
          `for (const ${key} in ${name}) {`,
          `if (${key}.length > ${limits.maxStringLength}) return false; size += ${key}.length;`,
          `switch (${key}) {`,
        );
        part.keys!.forEach((property, i) => {
          const item = `p${names++}`;
          lines.push(
            `case ${JSON.stringify(property)}: { const ${item} = ${name}[${JSON.stringify(property)}]; if (${item} !== undefined) {`,
          );
          emit(part.children![i]!, item, level + 1);
          lines.push("} break; }");
        });
        const item = `p${names++}`;
        lines.push(`default: { const ${item} = ${name}[${key}];`);
        emit(part.extra!, item, level + 1);
        lines.push("} } } }");
        return;
      }
      case "array": {
        const name = `a${names++}`;
        const items = part.items!;
        lines.push(
          `{ const ${name} = ${expression}; if (!Array.isArray(${name})) return false; nodes++;`,
        );
        if (items.kind === "static") {
          lines.push(
            `nodes += ${name}.length * ${items.nodes}; size += ${name}.length * ${items.size};`,
          );
        } else {
          const index = `i${names++}`;
          const item = `x${names++}`;
          lines.push(
            `for (let ${index} = 0; ${index} < ${name}.length; ${index}++) { const ${item} = ${name}[${index}];`,
          );
          emit(items, item, level + 1);
          lines.push("}");
        }
        lines.push("}");
        return;
      }
      default:
        lines.push(
          "if (tally === undefined) tally = { nodes: 0, size: 0 };",
          "tally.nodes = nodes; tally.size = size;",
          `if (!subtreeFits(${expression}, limits, ${level}, tally)) return false;`,
          "nodes = tally.nodes; size = tally.size;",
        );
    }
  };
  emit(plan, "value", 1);
  const body = [
    "let nodes = 0; let size = 0; let tally;",
    ...lines,
    `return nodes <= ${limits.maxNodes} && size <= ${limits.maxTotalSize};`,
  ].join("\n");
  const factory = new Function(
    "subtreeFits",
    "limits",
    `"use strict"; return function checkLimits(value) {\n${body}\n};`,
  ) as (walk: typeof subtreeFits, valueLimits: ValueLimits) => LimitCheck;
  return factory(subtreeFits, limits);
}

/** `enum` / `const` of short scalars: a valid value is one of them. */
function boundedScalars(s: Record<string, unknown>, limits: ValueLimits): LimitPlan | undefined {
  const values = Object.hasOwn(s, "const") ? [s.const] : Array.isArray(s.enum) ? s.enum : undefined;
  if (values === undefined) return undefined;
  let size = 0;
  for (const value of values) {
    if (typeof value === "object" && value !== null) return undefined;
    if (typeof value === "string") {
      if (value.length > limits.maxStringLength) return undefined;
      size = Math.max(size, value.length);
    }
  }
  return { kind: "static", nodes: 1, size, depth: 0 };
}

/** The subschema a local `$ref` (`#/definitions/x`, `#/$defs/x`, `#`) points at. */
function resolveLocalRef(root: unknown, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    } catch {
      return undefined;
    }
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, segment)) {
      return undefined;
    }
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

/**
 * Whether Ajv may run first: no `uniqueItems` (it compares items deeply, pairwise), no remote or
 * dynamic `$ref`, no nested `$id` (it changes what a `$ref` means) and no local `$ref` cycle; then
 * Ajv's work on a value is bounded by the schema, whatever the value. `refsFromRoot`: every `$ref`
 * resolves against the root (no nested `$id`).
 */
function scanRefs(schema: unknown): { ajvFirst: boolean; refsFromRoot: boolean } {
  // Each local ref adds an edge from every ref target enclosing it to its own target.
  const edges = new Map<string, Set<string>>();
  const refs: { location: string; target: string }[] = [];
  const stack: { node: unknown; location: string }[] = [{ node: schema, location: "#" }];
  let visited = 0;
  let ajvFirst = true;
  let refsFromRoot = true;
  while (stack.length > 0) {
    const { node, location } = stack.pop()!;
    if (++visited > 100_000) return { ajvFirst: false, refsFromRoot: false };
    if (typeof node !== "object" || node === null) continue;
    if (Array.isArray(node)) {
      node.forEach((item, i) => {
        stack.push({ node: item, location: `${location}/${i}` });
      });
      continue;
    }
    const record = node as Record<string, unknown>;
    if (record.uniqueItems === true) ajvFirst = false;
    if (Object.hasOwn(record, "$dynamicRef") || Object.hasOwn(record, "$recursiveRef")) {
      ajvFirst = false;
    }
    if (location !== "#" && typeof record.$id === "string") {
      ajvFirst = false;
      refsFromRoot = false;
    }
    if (typeof record.$ref === "string") {
      if (record.$ref !== "#" && !record.$ref.startsWith("#/")) ajvFirst = false;
      else refs.push({ location, target: normalizePointer(record.$ref) });
    }
    for (const [key, child] of Object.entries(record)) {
      const segment = key.replace(/~/g, "~0").replace(/\//g, "~1");
      stack.push({ node: child, location: `${location}/${segment}` });
    }
  }
  const targets = [...new Set(refs.map((ref) => ref.target))];
  for (const { location, target } of refs) {
    for (const enclosing of targets) {
      if (enclosing === "#" || location === enclosing || location.startsWith(`${enclosing}/`)) {
        const set = edges.get(enclosing) ?? new Set<string>();
        set.add(target);
        edges.set(enclosing, set);
      }
    }
  }
  return { ajvFirst: ajvFirst && !hasCycle(edges), refsFromRoot };
}

function normalizePointer(ref: string): string {
  if (ref === "#") return "#";
  try {
    return `#/${ref
      .slice(2)
      .split("/")
      .map((segment) => decodeURIComponent(segment))
      .join("/")}`;
  } catch {
    return ref;
  }
}

function hasCycle(edges: ReadonlyMap<string, ReadonlySet<string>>): boolean {
  const state = new Map<string, "open" | "done">();
  for (const start of edges.keys()) {
    if (state.has(start)) continue;
    const path: { node: string; next: Iterator<string> }[] = [];
    state.set(start, "open");
    path.push({ node: start, next: (edges.get(start) ?? new Set<string>()).values() });
    while (path.length > 0) {
      const top = path[path.length - 1]!;
      const step = top.next.next();
      if (step.done === true) {
        state.set(top.node, "done");
        path.pop();
        continue;
      }
      const seen = state.get(step.value);
      if (seen === "open") return true;
      if (seen === undefined) {
        state.set(step.value, "open");
        path.push({
          node: step.value,
          next: (edges.get(step.value) ?? new Set<string>()).values(),
        });
      }
    }
  }
  return false;
}
