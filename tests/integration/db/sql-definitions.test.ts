import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";

// lib/db/sql holds, one file each, the functions and triggers PostgreSQL runs
// today; the migrations in drizzle/ are what creates them. The test compares
// what PostgreSQL itself makes of both, on one fresh database: the catalog's
// definitions (pg_get_functiondef, pg_get_triggerdef) as the migrations leave
// them, then again after every function and trigger is dropped and the files
// are applied in their place. A migration that changes a function without its
// file, a file edited without a migration, a function or trigger added or
// dropped on one side only: each fails here.

const SQL_DIR = path.resolve(import.meta.dirname, "../../../lib/db/sql");
const FUNCTIONS_DIR = path.join(SQL_DIR, "functions");
const TRIGGERS_DIR = path.join(SQL_DIR, "triggers");

const sqlFiles = (dir: string) =>
  readdirSync(dir)
    .filter((name) => name.endsWith(".sql"))
    .sort();

interface Definitions {
  /** By signature (`name(argument types)`), pg_get_functiondef's text. */
  functions: Record<string, string>;
  /** By `name on table`, pg_get_triggerdef's text, and whether it is enabled. */
  triggers: Record<string, string>;
}

async function definitions(sql: postgres.Sql | postgres.TransactionSql): Promise<Definitions> {
  const functions = await sql<{ signature: string; definition: string }[]>`
    select p.oid::regprocedure::text as signature, pg_get_functiondef(p.oid) as definition
    from pg_proc p
    where p.pronamespace = 'public'::regnamespace and p.prokind in ('f', 'p')
      and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
    order by 1`;
  const triggers = await sql<{ name: string; definition: string }[]>`
    select t.tgname || ' on ' || c.relname as name,
      pg_get_triggerdef(t.oid) || case t.tgenabled when 'O' then '' else ' -- enabled: ' || t.tgenabled::text end as definition
    from pg_trigger t join pg_class c on c.oid = t.tgrelid
    where c.relnamespace = 'public'::regnamespace and not t.tgisinternal
    order by 1`;
  return {
    functions: Object.fromEntries(functions.map((f) => [f.signature, f.definition])),
    triggers: Object.fromEntries(triggers.map((t) => [t.name, t.definition])),
  };
}

const functionName = (signature: string) => signature.slice(0, signature.indexOf("("));

/** Which file should hold each definition that differs between the two, for the failure message. */
function whereTheyDiffer(migrated: Definitions, applied: Definitions): string[] {
  const differing = (a: Record<string, string>, b: Record<string, string>) =>
    [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((key) => a[key] !== b[key]).sort();
  const triggerFiles = sqlFiles(TRIGGERS_DIR).map((file) => file.replace(/\.sql$/, ""));
  return [
    ...differing(migrated.functions, applied.functions).map((signature) => `lib/db/sql/functions/${functionName(signature)}.sql (${signature})`),
    ...differing(migrated.triggers, applied.triggers).map((trigger) => {
      const file = triggerFiles.find((name) => trigger.startsWith(`${name}_`));
      return `${file ? `lib/db/sql/triggers/${file}.sql` : "lib/db/sql/triggers/<no file>"} (${trigger})`;
    }),
  ];
}

describe("lib/db/sql: the functions and triggers PostgreSQL runs today", () => {
  let database: TestDatabase;
  let migrated: Definitions;
  let applied: Definitions;
  /** What applying each file added: function names, or trigger names. */
  const added = new Map<string, string[]>();

  beforeAll(async () => {
    database = await createTestDatabase();
    const sql = database.db.$client;
    migrated = await definitions(sql);

    for (const name of Object.keys(migrated.triggers)) {
      const [trigger, table] = name.split(" on ");
      await sql.unsafe(`drop trigger "${trigger}" on "${table}"`);
    }
    for (const signature of Object.keys(migrated.functions)) await sql.unsafe(`drop function ${signature}`);

    // As pg_dump restores them: a function's body is checked when it runs, not
    // when it is created, so the files need no order among themselves.
    await sql.begin(async (tx) => {
      await tx`set local check_function_bodies = off`;
      for (const [dir, kind] of [
        [FUNCTIONS_DIR, "functions"],
        [TRIGGERS_DIR, "triggers"],
      ] as const) {
        for (const file of sqlFiles(dir)) {
          const before = await definitions(tx);
          await tx.unsafe(readFileSync(path.join(dir, file), "utf8")).simple();
          const after = await definitions(tx);
          const names = Object.keys(after[kind]).filter((key) => !(key in before[kind]));
          added.set(`${kind}/${file}`, kind === "functions" ? names.map(functionName) : names.map((n) => n.split(" on ")[0]!));
        }
      }
    });
    applied = await definitions(sql);
  });

  afterAll(async () => {
    await database?.drop();
  });

  it("the files define what the migrations leave, no more and no less", () => {
    expect(Object.keys(migrated.functions).length).toBeGreaterThan(0);
    expect(Object.keys(migrated.triggers).length).toBeGreaterThan(0);
    const differing = whereTheyDiffer(migrated, applied);
    expect(applied, `differ from the migrations (update the file, or write the migration):\n${differing.join("\n")}`).toEqual(migrated);
  });

  it("each function file defines the one function it is named after", () => {
    for (const file of sqlFiles(FUNCTIONS_DIR)) {
      expect(added.get(`functions/${file}`), file).toEqual([file.replace(/\.sql$/, "")]);
    }
  });

  it("each trigger file defines triggers named after it", () => {
    for (const file of sqlFiles(TRIGGERS_DIR)) {
      const triggers = added.get(`triggers/${file}`) ?? [];
      expect(triggers.length, file).toBeGreaterThan(0);
      for (const trigger of triggers) expect(trigger, file).toMatch(new RegExp(`^${file.replace(/\.sql$/, "")}_`));
    }
  });

  it("each file says it is the current definition and that a change needs a migration", () => {
    for (const file of [...sqlFiles(FUNCTIONS_DIR).map((f) => path.join(FUNCTIONS_DIR, f)), ...sqlFiles(TRIGGERS_DIR).map((f) => path.join(TRIGGERS_DIR, f))]) {
      const text = readFileSync(file, "utf8");
      expect(text, file).toMatch(/^-- The (function|triggers) .*as PostgreSQL runs (it|them) today/s);
      expect(text, file).toContain("A change is a new migration");
    }
  });
});
