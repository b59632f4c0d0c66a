// @module-tag embedded
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { testSql } from "@/test/helpers/api";
import { root } from "@/test/helpers/processes";

// The triggers docs/architecture.md#triggers lists are the ones the migrated database has (on both
// databases): name, table, event, function, and the migration that created each. A trigger added,
// dropped or changed without the table fails here.

type Trigger = { trigger: string; table: string; fires: string; fn: string };

/** The table's rows: each cell's text, code spans unwrapped. */
function documented(): (Trigger & { migration: string })[] {
  const text = fs.readFileSync(path.join(root, "docs", "architecture.md"), "utf8");
  const section = text.split(/^## /m).find((s) => s.startsWith("Triggers\n"));
  if (!section) throw new Error("docs/architecture.md has no Triggers section");
  return section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => {
      const cells = line
        .split("|")
        .slice(1, -1)
        .map((c) => c.trim().replace(/^`|`$/g, ""));
      return { trigger: cells[0]!, table: cells[1]!, fires: cells[2]!, fn: cells[3]!, migration: cells[5]! };
    });
}

describe("triggers", () => {
  it("docs/architecture.md lists exactly the triggers of the migrated database", async () => {
    const rows = await testSql()<{ def: string }[]>`
      select pg_get_triggerdef(t.oid) as def from pg_trigger t
        join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
       where not t.tgisinternal and t.tgparentid = 0 and n.nspname = 'public'
       order by t.tgname`;
    const actual: Trigger[] = rows.map(({ def }) => {
      const m =
        /^CREATE TRIGGER (\S+) (AFTER|BEFORE|INSTEAD OF) (.+?) ON (?:public\.)?(\S+) .*FOR EACH (STATEMENT|ROW) EXECUTE FUNCTION (\w+)\(/.exec(
          def,
        );
      if (!m) throw new Error(`unexpected trigger definition: ${def}`);
      // Every trigger of ours fires once a statement; one per row would be a new kind, to be documented as such.
      expect(m[5], def).toBe("STATEMENT");
      return { trigger: m[1]!, table: m[4]!, fires: `${m[2]} ${m[3]}`.toLowerCase(), fn: m[6]! };
    });
    const listed = documented();
    expect(listed.map(({ migration: _, ...t }) => t).sort((a, b) => a.trigger.localeCompare(b.trigger))).toEqual(
      actual.sort((a, b) => a.trigger.localeCompare(b.trigger)),
    );
    // The migration named created it.
    const migrations = fs.readdirSync(path.join(root, "db", "migrations"));
    for (const t of listed) {
      const file = migrations.find((f) => f.startsWith(`${t.migration}_`));
      expect(file, `${t.trigger}: migration ${t.migration}`).toBeDefined();
      const sql = fs.readFileSync(path.join(root, "db", "migrations", file!), "utf8");
      expect(sql, `${t.trigger} in ${file}`).toMatch(new RegExp(`CREATE TRIGGER ${t.trigger} `));
    }
  });
});
