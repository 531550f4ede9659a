import { previewJson, withArticle } from "./value-preview.js";

/**
 * A short phrase for what a schema accepts, for messages about `anyOf` / `oneOf` / `not`:
 * `a string`, `an object with required name, size`, `exactly "circle"`, `'Shape'` (a `$ref`).
 */
export function summarizeSchema(schema: unknown): string {
  if (schema === true) return "any value";
  if (schema === false) return "no value";
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return "a schema";
  const s = schema as Record<string, unknown>;
  if (typeof s.title === "string" && s.title !== "") return s.title;
  if (typeof s.$ref === "string") {
    const name = s.$ref.slice(s.$ref.lastIndexOf("/") + 1);
    return `'${decodeURIComponent(name)}'`;
  }
  if (Object.hasOwn(s, "const")) return `exactly ${previewJson(s.const, 40)}`;
  if (Array.isArray(s.enum)) return `one of ${previewList(s.enum)}`;
  const types = typeof s.type === "string" ? [s.type] : Array.isArray(s.type) ? s.type : [];
  const required = Array.isArray(s.required) ? s.required.filter((k) => typeof k === "string") : [];
  const properties =
    typeof s.properties === "object" && s.properties !== null ? Object.keys(s.properties) : [];
  const isObject = types.includes("object") || (types.length === 0 && properties.length > 0);
  let phrase =
    types.length > 0
      ? types.map((type) => withArticle(String(type))).join(" or ")
      : isObject || required.length > 0
        ? "an object"
        : "";
  if (isObject || required.length > 0) {
    if (required.length > 0) phrase += ` with required ${listOf(required)}`;
    else if (properties.length > 0) phrase += ` with properties ${listOf(properties)}`;
  }
  if (typeof s.format === "string") phrase += ` in format ${s.format}`;
  if (typeof s.pattern === "string") phrase += ` matching ${s.pattern}`;
  if (phrase !== "") return phrase;
  if (typeof s.description === "string" && s.description !== "") {
    return s.description.length > 60 ? `${s.description.slice(0, 60)}…` : s.description;
  }
  return "a value matching its schema";
}

function listOf(names: readonly string[]): string {
  return names.length > 5 ? `${names.slice(0, 5).join(", ")}, …` : names.join(", ");
}

function previewList(values: readonly unknown[]): string {
  const shown = values.slice(0, 8).map((value) => previewJson(value, 40));
  return values.length > 8 ? `${shown.join(", ")}, …` : shown.join(", ");
}
