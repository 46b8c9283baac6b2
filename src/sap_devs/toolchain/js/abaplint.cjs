// Checks ABAP files with @abaplint/core from the toolchain and prints, as JSON on stdout, the
// issues abaplint finds and every object the code refers to that is not among the files (SAP's
// objects: tables, CDS views, classes, interfaces, types, function modules), which sap-devs then
// looks up in SAP's released-API lists.
// argv: <@abaplint/core folder>. stdin: {"files": [{"name", "text"}], "language": "Cloud"|"Standard",
// "errorNamespace": "...", "rules": {...}}. Only the files given are read: no config file, no folder scan.
"use strict";

const path = require("node:path");
const core = require(path.resolve(process.argv[2]));

function readStdin() {
  return new Promise((resolve, reject) => {
    const chunks = [];
    process.stdin.on("data", (c) => chunks.push(c));
    process.stdin.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    process.stdin.on("error", reject);
  });
}

const KINDS = {
  "Table (Void)": "table",
  "Type (Void)": "type",
  "Object (Void)": "object",
  "Object (Unknown)": "unknown",
};

function functionNames(file) {
  const found = [];
  for (const statement of file.getStatements()) {
    const kind = statement.get().constructor.name;
    if (kind !== "CallFunction" && kind !== "CallFunctionInUpdateTask") continue;
    const expr = statement.findFirstExpression(core.Expressions.FunctionName);
    if (!expr) continue;
    const literal = expr.concatTokens();
    if (!/^['`]/.test(literal)) continue; // a name in a variable is decided at run time
    const token = expr.getFirstToken().getStart();
    found.push({ name: literal.slice(1, -1), kind: "function", file: file.getFilename(), row: token.getRow(), col: token.getCol() });
  }
  return found;
}

function references(reg) {
  const found = [];
  for (const obj of reg.getObjects()) {
    if (reg.isDependency(obj) || !(obj instanceof core.ABAPObject)) continue;
    let spaghetti;
    try {
      spaghetti = new core.SyntaxLogic(reg, obj).run().spaghetti;
    } catch (error) {
      continue; // check_syntax reports the same problem as an issue
    }
    const stack = [spaghetti.getTop()];
    while (stack.length) {
      const node = stack.pop();
      for (const ref of node.getData().references) {
        const kind = KINDS[ref.referenceType];
        if (!kind) continue;
        const name = (ref.extra && ref.extra.ooName) || ref.position.getName();
        const start = ref.position.getStart();
        found.push({ name, kind, file: ref.position.getFilename(), row: start.getRow(), col: start.getCol() });
      }
      stack.push(...node.getChildren());
    }
    for (const file of obj.getABAPFiles()) found.push(...functionNames(file));
  }
  return found;
}

async function main() {
  const input = JSON.parse(await readStdin());
  const defaults = core.Config.getDefault().get();
  const config = {
    ...defaults,
    global: { ...defaults.global, files: "/**/*.*" },
    syntax: {
      ...defaults.syntax,
      version: { release: "Newest", language: input.language === "Cloud" ? "Cloud" : "Normal" },
      errorNamespace: input.errorNamespace || defaults.syntax.errorNamespace,
    },
    rules: input.rules,
  };
  const reg = new core.Registry(new core.Config(JSON.stringify(config)));
  for (const file of input.files) reg.addFile(new core.MemoryFile(file.name, file.text));
  reg.parse();
  const issues = reg.findIssues().map((issue) => ({
    rule: issue.getKey(),
    severity: String(issue.getSeverity()),
    message: issue.getMessage(),
    file: issue.getFilename(),
    row: issue.getStart().getRow(),
    col: issue.getStart().getCol(),
    endRow: issue.getEnd().getRow(),
    endCol: issue.getEnd().getCol(),
  }));
  const objects = Array.from(reg.getObjects()).filter((o) => !reg.isDependency(o)).map((o) => ({ type: o.getType(), name: o.getName() }));
  process.stdout.write(JSON.stringify({ ok: true, version: core.Registry.abaplintVersion(), issues, references: references(reg), objects }) + "\n");
}

main().catch((error) => {
  process.stdout.write(JSON.stringify({ ok: false, error: String((error && error.stack) || error) }) + "\n");
  process.exitCode = 3;
});
