import { ToolProgress } from "../context/index.js";

const isString = (value: unknown): value is string => typeof value === "string";
const isBoolean = (value: unknown): value is boolean => typeof value === "boolean";
const isFiniteNumber = (value: unknown): value is number =>
  typeof value === "number" && Number.isFinite(value);

/**
 * A {@link ToolProgress} from its JSON form or init (`progress.toJSON()` / `toInit()`); members
 * of the wrong type are dropped, computed members ignored.
 */
export function toolProgressFromJson(json: unknown): ToolProgress {
  const progress =
    typeof json === "object" && json !== null ? (json as Record<string, unknown>) : {};
  const pick = <T>(key: string, check: (value: unknown) => value is T): T | undefined => {
    const value = progress[key];
    return Object.hasOwn(progress, key) && check(value) ? value : undefined;
  };
  const message = pick("message", isString);
  const percentComplete = pick("percentComplete", isFiniteNumber);
  const currentOperation = pick("currentOperation", isString);
  const itemsProcessed = pick("itemsProcessed", isFiniteNumber);
  const totalItems = pick("totalItems", isFiniteNumber);
  const estimatedRemainingMs = pick("estimatedRemainingMs", isFiniteNumber);
  const hasWarning = pick("hasWarning", isBoolean);
  const warningMessage = pick("warningMessage", isString);
  return new ToolProgress({
    ...(message !== undefined && { message }),
    ...(percentComplete !== undefined && { percentComplete }),
    ...(currentOperation !== undefined && { currentOperation }),
    ...(itemsProcessed !== undefined && { itemsProcessed }),
    ...(totalItems !== undefined && { totalItems }),
    ...(estimatedRemainingMs !== undefined && { estimatedRemainingMs }),
    ...(hasWarning !== undefined && { hasWarning }),
    ...(warningMessage !== undefined && { warningMessage }),
  });
}
