import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Column } from "../core/contracts.js";
import { compilePathTemplate } from "../sinks/path-template.js";
import { columnName, columnCollisions } from "../warehouse/column-names.js";
import type { ColumnNamingRules } from "../warehouse/column-names.js";
import { placeholderProblems, resolvePlaceholders } from "./path-placeholders.js";

const columns = (...names: string[]): Column[] => names.map((name) => ({ name, type: "string" }));
const SNAKE: ColumnNamingRules = { naming: "snake_case" };
const AS_IS: ColumnNamingRules = { naming: "as_is" };

describe("path placeholders", () => {
  const tickets = columns("_id", "ticket.type", "@timestamp");

  it("takes the output name and the field's name, and rewrites the latter to the output name", () => {
    const path = "type={ticket.type}/t={ ticket_type }/{date}/part-{slice}-{seq}.{ext}";
    expect(placeholderProblems(path, tickets, SNAKE)).toEqual([]);
    expect(resolvePlaceholders(path, tickets, SNAKE)).toBe(
      "type={ticket_type}/t={ ticket_type }/{date}/part-{slice}-{seq}.{ext}",
    );
    expect(resolvePlaceholders("t={ticket.type}/{slice}", tickets, AS_IS)).toBe("t={ticket.type}/{slice}");
  });

  it("refuses a name no column has, with a did-you-mean among the output names", () => {
    expect(placeholderProblems("{ticket.typo}/{slice}", tickets, SNAKE)).toEqual([
      '{ticket.typo} names no column this sink writes, so every row would go under the null partition; did you mean "ticket_type"? (placeholders name output columns, after column_names and the transforms; mdq-export schema lists them)',
    ]);
    expect(placeholderProblems("{ticket_type}/{slice}", tickets, AS_IS)[0]).toContain(
      'did you mean "ticket.type"?',
    );
  });

  it("refuses a name that is one column's output name and another field's own name", () => {
    // ticket.type is written as `kind`; the field `kind` is written as `kind_2`.
    const rules: ColumnNamingRules = {
      naming: "as_is",
      overrides: new Map([
        ["ticket.type", "kind"],
        ["kind", "kind_2"],
      ]),
    };
    expect(placeholderProblems("{kind}/{slice}", columns("ticket.type", "kind"), rules)).toEqual([
      '{kind} is ambiguous: it is a column of the output, and the field "kind" is written as column "kind_2"; write {kind_2} for that field',
    ]);
  });

  it("refuses a field whose column would be read as a built-in ({Date} is {date} under snake_case)", () => {
    expect(placeholderProblems("{Date}/{slice}", columns("Date"), SNAKE)[0]).toContain(
      '{Date} is written as column "date", which a path cannot name',
    );
  });

  // For every set of fields and naming: a placeholder that is accepted ends up naming an output
  // column (what the sink reads from the rows it gets), and the field's own name and its output name
  // end up as the same placeholder.
  it("an accepted placeholder always names the output column of its field", () => {
    const name = fc.stringMatching(/^[@a-zA-Z][a-zA-Z0-9._]{0,12}$/);
    fc.assert(
      fc.property(
        fc.uniqueArray(name, { minLength: 1, maxLength: 8 }),
        fc.constantFrom(SNAKE, AS_IS),
        fc.nat(),
        (names, rules, pick) => {
          const cols = columns(...names);
          fc.pre(columnCollisions(cols, rules).length === 0);
          const field = names[pick % names.length] as string;
          const output = columnName(field, rules);
          const outputs = new Set(cols.map((column) => columnName(column.name, rules)));
          for (const written of [field, output]) {
            const path = `v={${written}}/{slice}`;
            const problems = placeholderProblems(path, cols, rules);
            const resolved = compilePathTemplate(resolvePlaceholders(path, cols, rules)).fields;
            if (problems.length === 0) {
              expect(resolved).toHaveLength(1);
              expect(outputs.has(resolved[0] as string)).toBe(true);
              if (written === field || !names.includes(written)) expect(resolved).toEqual([output]);
            }
          }
          const unknown = `${field}~x`;
          expect(placeholderProblems(`{${unknown}}/{slice}`, cols, rules)).toHaveLength(1);
        },
      ),
    );
  });
});
