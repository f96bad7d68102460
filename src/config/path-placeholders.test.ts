import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Column } from "../core/contracts.js";
import { compilePathTemplate } from "../sinks/path-template.js";
import { columnName, columnCollisions } from "../warehouse/column-names.js";
import type { ColumnNamingRules } from "../warehouse/column-names.js";
import { placeholderProblems } from "./path-placeholders.js";

const columns = (...names: string[]): Column[] => names.map((name) => ({ name, type: "string" }));
const SNAKE: ColumnNamingRules = { naming: "snake_case" };
const AS_IS: ColumnNamingRules = { naming: "as_is" };

describe("path placeholders", () => {
  const tickets = columns("_id", "ticket.type", "@timestamp");

  it("takes the output name, as written in the files, with or without spaces", () => {
    const path = "type={ticket_type}/t={ ticket_type }/{date}/part-{slice}-{seq}.{ext}";
    expect(placeholderProblems(path, tickets, SNAKE)).toEqual([]);
    expect(placeholderProblems("t={ticket.type}/{slice}", tickets, AS_IS)).toEqual([]);
  });

  // Regression: `{ticket.type}` under snake_case passed validate (the column is `ticket_type`).
  it("refuses a field's name before naming, saying the column it is written as", () => {
    expect(placeholderProblems("t={ticket.type}/{slice}", tickets, SNAKE)).toEqual([
      '{ticket.type} names no column this sink writes: the field "ticket.type" is written as column "ticket_type"; write {ticket_type} (placeholders name output columns, after column_names and the transforms; mdq-export schema lists them)',
    ]);
  });

  it("refuses a name no column has, with a did-you-mean among the output names", () => {
    expect(placeholderProblems("{ticket.typo}/{slice}", tickets, SNAKE)).toEqual([
      '{ticket.typo} names no column this sink writes, so every row would go under the null partition; did you mean "ticket_type"? (placeholders name output columns, after column_names and the transforms; mdq-export schema lists them)',
    ]);
    expect(placeholderProblems("{ticket_type}/{slice}", tickets, AS_IS)[0]).toContain(
      'did you mean "ticket.type"?',
    );
  });

  it("reads a name that is one column's output name as that column, not as the field of that name", () => {
    // ticket.type is written as `kind`; the field `kind` is written as `kind_2`.
    const rules: ColumnNamingRules = {
      naming: "as_is",
      overrides: new Map([
        ["ticket.type", "kind"],
        ["kind", "kind_2"],
      ]),
    };
    const cols = columns("ticket.type", "kind");
    expect(placeholderProblems("{kind}/{kind_2}/{slice}", cols, rules)).toEqual([]);
    expect(placeholderProblems("{ticket.type}/{slice}", cols, rules)).toEqual([
      '{ticket.type} names no column this sink writes: the field "ticket.type" is written as column "kind"; write {kind} (placeholders name output columns, after column_names and the transforms; mdq-export schema lists them)',
    ]);
  });

  it("refuses a field whose column would be read as a built-in ({Date} is {date} under snake_case)", () => {
    expect(placeholderProblems("{Date}/{slice}", columns("Date"), SNAKE)[0]).toContain(
      '{Date} names no column this sink writes: the field "Date" is written as column "date", which a path cannot name',
    );
  });

  // For every set of fields and naming: a placeholder is taken exactly when it names an output
  // column (what the sink reads from the rows it gets); a field's own name that is no output name is
  // refused with the column it is written as; any other name is refused.
  it("accepts exactly the output columns, and points a field's own name at its column", () => {
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
            // A name the template takes as its own ({date}, {slice}, ...) is no record placeholder.
            if (compilePathTemplate(path).fields.length === 0) continue;
            const problems = placeholderProblems(path, cols, rules);
            if (outputs.has(written)) expect(problems).toEqual([]);
            else {
              expect(problems).toHaveLength(1);
              expect(problems[0]).toContain(`is written as column ${JSON.stringify(output)}`);
            }
          }
          const unknown = `${field}~x`;
          expect(placeholderProblems(`{${unknown}}/{slice}`, cols, rules)).toHaveLength(1);
        },
      ),
    );
  });
});
