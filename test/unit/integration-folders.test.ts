import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// An integration file's folder is its Vitest project (vitest.config.ts, docs/testing.md#projects):
// shared/ runs many files at once on the suite's shared apps, processes/ a few at a time with
// longer bounds, alone/ one at a time. A file in the wrong one either starts apps beside a crowd of
// shared files or takes a slot it does not need. This test reads every file's calls with the
// TypeScript parser (a comment or a string naming a helper is no call) and holds each folder to its
// promise: nothing in shared/ starts a process; everything in processes/ and alone/ starts one.
//
// What starts a process is worked out from test/helpers/ itself: Node's child_process calls that
// return while their process runs (spawn, exec, execFile, fork), and every helper function that
// calls one, or calls such a helper, however deep. So a new helper that starts something is caught
// without being listed here.

const root = path.resolve(import.meta.dirname, "..", "..");
const integrationDir = path.join(root, "test", "integration");
const helpersDir = path.join(root, "test", "helpers");
const FOLDERS = ["shared", "processes", "alone"] as const;

const CHILD_PROCESS = "child_process";
/** Node's calls whose process may still run when they return. */
const LEAVES_RUNNING = new Set(["spawn", "exec", "execFile", "fork"]);
// Tolerated where nothing may start: calls that run a short command to its end and wait for it.
// Node's synchronous ones (spawnSync, execSync, execFileSync: openssl making the test CA, a stale
// bundle compiled) are not in LEAVES_RUNNING at all; runScript is their asynchronous kind, the
// operator CLI run to completion (app-create.test.ts tests that CLI; createPartnerApp makes a
// file's own partner app with it), a fraction of a second with nothing left running after it.
const RUNS_TO_ITS_END = new Set(["processes.ts#runScript"]);

/** What a call's callee names: Node's child_process, a helper module's export, or a name of the file's own. */
type Target = { module: typeof CHILD_PROCESS | string; name: string } | { local: string };
type Call = { target: Target; callee: string; line: number; at: number };

/** The helper module (its file name in test/helpers) a specifier names, child_process, or null. */
function moduleOf(specifier: string, fromFile: string): string | null {
  if (specifier === "node:child_process" || specifier === "child_process") return CHILD_PROCESS;
  const resolved = specifier.startsWith("@/")
    ? path.join(root, specifier.slice(2))
    : specifier.startsWith(".")
      ? path.resolve(path.dirname(fromFile), specifier)
      : null;
  if (!resolved || path.dirname(resolved) !== helpersDir) return null;
  return path.basename(resolved).replace(/(\.ts)?$/, ".ts");
}

/** Every call in `source` whose callee is an identifier (or a namespace's member), with what it names. */
function callsIn(source: string, file: string): { calls: Call[]; sourceFile: ts.SourceFile } {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const named = new Map<string, { module: string; name: string }>();
  const namespaces = new Map<string, string>();
  for (const statement of sourceFile.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const from = moduleOf(statement.moduleSpecifier.text, file);
    const clause = statement.importClause;
    if (!from || !clause) continue;
    if (clause.name) namespaces.set(clause.name.text, from);
    const bindings = clause.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) namespaces.set(bindings.name.text, from);
    if (bindings && ts.isNamedImports(bindings))
      for (const spec of bindings.elements)
        named.set(spec.name.text, { module: from, name: (spec.propertyName ?? spec.name).text });
  }
  /** What an identifier, or a namespace's member, names; null for any other expression. */
  const targetOf = (expr: ts.Expression): Target | null =>
    ts.isIdentifier(expr)
      ? (named.get(expr.text) ?? { local: expr.text })
      : ts.isPropertyAccessExpression(expr) && ts.isIdentifier(expr.expression) && namespaces.has(expr.expression.text)
        ? { module: namespaces.get(expr.expression.text)!, name: expr.name.text }
        : null;
  const calls: Call[] = [];
  // A call's callee, and each function handed to a call (promisify(execFile), a wrapper's argument):
  // what it names runs, sooner or later.
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) || ts.isNewExpression(node))
      for (const expr of [node.expression, ...(node.arguments ?? [])]) {
        const target = targetOf(expr);
        const at = expr.getStart(sourceFile);
        const line = sourceFile.getLineAndCharacterOfPosition(at).line + 1;
        if (target) calls.push({ target, callee: expr.getText(sourceFile), line, at });
      }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return { calls, sourceFile };
}

/** The top-level names a helper file declares (functions, constants, classes), each with the calls in its body. */
function declarations(source: string, file: string): Map<string, Call[]> {
  const { calls, sourceFile } = callsIn(source, file);
  const byName = new Map<string, Call[]>();
  for (const statement of sourceFile.statements) {
    const names =
      ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)
        ? statement.name
          ? [{ name: statement.name.text, node: statement as ts.Node }]
          : []
        : ts.isVariableStatement(statement)
          ? statement.declarationList.declarations.flatMap((d) =>
              ts.isIdentifier(d.name) ? [{ name: d.name.text, node: d as ts.Node }] : [],
            )
          : [];
    for (const { name, node } of names)
      byName.set(
        name,
        calls.filter((c) => c.at >= node.getStart(sourceFile) && c.at < node.getEnd()),
      );
  }
  return byName;
}

/** "module#name" of every helper function that starts a process, directly or through another helper. */
function processStarters(helperSources: Map<string, string>): Set<string> {
  const bodies = new Map<string, Call[]>();
  for (const [helper, source] of helperSources)
    for (const [name, calls] of declarations(source, path.join(helpersDir, helper)))
      bodies.set(`${helper}#${name}`, calls);
  const starters = new Set<string>();
  const startsOne = (helper: string, call: Call) => {
    const t = call.target;
    if ("local" in t) return starters.has(`${helper}#${t.local}`);
    if (t.module === CHILD_PROCESS) return LEAVES_RUNNING.has(t.name);
    const key = `${t.module}#${t.name}`;
    return starters.has(key) && !RUNS_TO_ITS_END.has(key);
  };
  for (let grew = true; grew;) {
    grew = false;
    for (const [key, calls] of bodies) {
      const helper = key.slice(0, key.indexOf("#"));
      if (!starters.has(key) && calls.some((c) => startsOne(helper, c))) {
        starters.add(key);
        grew = true;
      }
    }
  }
  for (const key of RUNS_TO_ITS_END) starters.delete(key);
  return starters;
}

/** The calls of a test file that start a process: "line 12: startApp", as the file names them. */
function processCalls(source: string, file: string, starters: Set<string>): string[] {
  return callsIn(source, file)
    .calls.filter(({ target: t }) =>
      "local" in t
        ? false
        : t.module === CHILD_PROCESS
          ? LEAVES_RUNNING.has(t.name)
          : starters.has(`${t.module}#${t.name}`),
    )
    .map((c) => {
      const t = c.target as { name: string };
      return `line ${c.line}: ${c.callee}${c.callee.endsWith(t.name) ? "" : ` (${t.name})`}`;
    });
}

const helperSources = new Map(
  fs
    .readdirSync(helpersDir)
    .filter((f) => f.endsWith(".ts"))
    .map((f) => [f, fs.readFileSync(path.join(helpersDir, f), "utf8")] as const),
);
const starters = processStarters(helperSources);
const testFiles = fs
  .readdirSync(integrationDir, { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".test.ts"))
  .map((f) => f.split(path.sep).join("/"));
const inFolder = (folder: string) => testFiles.filter((f) => f.startsWith(`${folder}/`));
const callsOf = (file: string) =>
  processCalls(fs.readFileSync(path.join(integrationDir, file), "utf8"), path.join(integrationDir, file), starters);

describe("integration files sit in the folder of what they start", () => {
  it("every integration test file is in shared/, processes/ or alone/ (a file elsewhere belongs to no project and never runs)", () => {
    expect(testFiles.filter((f) => !FOLDERS.some((folder) => f.startsWith(`${folder}/`)))).toEqual([]);
    for (const folder of FOLDERS) expect(inFolder(folder).length, folder).toBeGreaterThan(0);
  });

  it("no file in shared/ starts a process (one that does belongs in processes/)", () => {
    const wrong = inFolder("shared").flatMap((f) => callsOf(f).map((call) => `test/integration/${f} ${call}`));
    expect(wrong).toEqual([]);
  });

  it("every file in processes/ and alone/ starts a process of its own (one that starts none belongs in shared/)", () => {
    const idle = [...inFolder("processes"), ...inFolder("alone")].filter((f) => callsOf(f).length === 0);
    expect(idle.map((f) => `test/integration/${f}`)).toEqual([]);
  });
});

describe("the check itself", () => {
  const planted = (source: string) =>
    processCalls(source, path.join(integrationDir, "shared", "planted.test.ts"), starters);

  it("finds what the helpers start, through every layer, and not what only runs a command to its end", () => {
    for (const name of [
      "processes.ts#spawnApp",
      "processes.ts#startApp",
      "app-with-own-database.ts#startAppWithOwnDatabase",
      "delivery-fixture.ts#startWorkerProcess",
      "http-delivery-fixture.ts#startHttpDelivery",
      "own-postgres.ts#startOwnPostgres",
      "own-postgres.ts#startOwnReplica",
    ])
      expect(starters, name).toContain(name);
    for (const name of [
      "processes.ts#runScript",
      "processes.ts#scriptArgs",
      "fixtures.ts#createPartnerApp",
      "https-receiver.ts#startHttpsReceiver",
      "https-receiver.ts#ensureTestCa",
    ])
      expect(starters, name).not.toContain(name);
  });

  it("catches a planted call: Node's, a helper's under another name, a namespace's member, one inside a function", () => {
    expect(planted(`import { spawn } from "node:child_process";\nspawn("bash", ["-c", "sleep 60"]);`)).toEqual([
      "line 2: spawn",
    ]);
    expect(
      planted(`import { startApp as boot } from "@/test/helpers/processes";\nawait boot({ name: "planted" });`),
    ).toEqual(["line 2: boot (startApp)"]);
    expect(
      planted(`import * as cp from "child_process";\nfunction later() {\n  return cp.execFile("sleep", ["60"]);\n}`),
    ).toEqual(["line 3: cp.execFile"]);
    expect(
      planted(
        `import { startAppWithOwnDatabase } from "../../helpers/app-with-own-database";\n` +
          `beforeAll(async () => { own = await startAppWithOwnDatabase("planted", { WORKER: "on" }); });`,
      ),
    ).toEqual(["line 2: startAppWithOwnDatabase"]);
  });

  it("is not fooled by a comment, a string or a regular expression's exec, and lets a command run to its end", () => {
    expect(
      planted(
        [
          `import { execFileSync } from "node:child_process";`,
          `import { runScript } from "@/test/helpers/processes";`,
          `import { createPartnerApp } from "@/test/helpers/fixtures";`,
          `// startApp({ name: "in a comment" }) and spawn("bash")`,
          `const text = "startAppWithOwnDatabase(";`,
          `/x/.exec(text);`,
          `execFileSync("openssl", ["version"]);`,
          `await runScript("app-create.ts", [], {});`,
          `await createPartnerApp();`,
        ].join("\n"),
      ),
    ).toEqual([]);
  });
});
