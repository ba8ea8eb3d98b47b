// Options declared once with their documentation: each declaration gives the schema and a row of the table that documents it.

/** What a documentation table says of an option: its default and its meaning (Markdown). */
export interface OptionDoc {
  default: string;
  meaning: string;
}

/** A set of options whose declarations also write their table. */
export interface DocumentedOptions {
  /** One option: its schema (under its name, to spread into an object schema) and its row. */
  declare<K extends string, S>(name: K, schema: S, doc: OptionDoc): { [P in K]: S };
  /** The table, in declaration order, under the given header cells (option, default, meaning). */
  table(header: readonly [string, string, string]): string;
}

export function documentedOptions(): DocumentedOptions {
  const docs = new Map<string, OptionDoc>();
  return {
    declare: (name, schema, doc) => {
      docs.set(name, doc);
      return { [name]: schema } as { [P in typeof name]: typeof schema };
    },
    table: (header) => {
      const rows = [...docs].map(([name, doc]) => `| \`${name}\` | ${doc.default} | ${doc.meaning} |`);
      return [`| ${header.join(' | ')} |`, '|---|---|---|', ...rows].join('\n');
    },
  };
}
