import {
  type KyselyPlugin,
  OperationNodeTransformer,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryId,
  type QueryResult,
  type RootOperationNode,
  type SchemableIdentifierNode,
  type UnknownRow,
} from "kysely";
import { sqliteTableName } from "./table-names.js";

class TablePrefixTransformer extends OperationNodeTransformer {
  readonly #schema: string;
  readonly #tables: ReadonlySet<string>;

  constructor(schema: string, tables: readonly string[]) {
    super();
    this.#schema = schema;
    this.#tables = new Set(tables);
  }

  protected override transformSchemableIdentifier(
    node: SchemableIdentifierNode,
    queryId?: QueryId,
  ): SchemableIdentifierNode {
    const transformed = super.transformSchemableIdentifier(node, queryId);
    const name = transformed.identifier.name;
    if (transformed.schema !== undefined || !this.#tables.has(name)) return transformed;
    return {
      ...transformed,
      identifier: { ...transformed.identifier, name: sqliteTableName(this.#schema, name) },
    };
  }
}

/**
 * The SQLite stand-in for Kysely's `withSchema`: renames the store's logical tables to
 * `<schema>_<table>` in every query, so one query body serves both dialects.
 */
export class TablePrefixPlugin implements KyselyPlugin {
  readonly #transformer: TablePrefixTransformer;

  constructor(schema: string, tables: readonly string[]) {
    this.#transformer = new TablePrefixTransformer(schema, tables);
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node, args.queryId);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
