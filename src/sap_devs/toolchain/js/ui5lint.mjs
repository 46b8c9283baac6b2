// Runs @ui5/linter from the toolchain over a project and prints its results as JSON on stdout.
// argv: <linter package folder> <project root> <options as JSON: files, ignores, ui5Config>
// The project's ui5lint.config.* is never loaded (it is JavaScript): sap-devs reads its literal
// values as text and passes them here. Imports outside the toolchain are refused by the guard.
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { guardImports } from "./guard.mjs";

const [linterDir, rootDir, optionsJson] = process.argv.slice(2);
const options = JSON.parse(optionsJson || "{}");
const toolchainModules = join(linterDir, "..", "..");
guardImports([toolchainModules]);

try {
  const { ui5lint } = await import(pathToFileURL(join(linterDir, "lib", "index.js")).href);
  const results = await ui5lint({
    rootDir,
    filePatterns: options.files && options.files.length ? options.files : undefined,
    ignorePatterns: options.ignores || [],
    ui5Config: options.ui5Config || undefined,
    noConfig: true,
    details: true,
    fix: false,
    coverage: false,
  });
  const files = results
    .filter((r) => r.messages && r.messages.length)
    .map((r) => ({
      filePath: r.filePath,
      errorCount: r.errorCount,
      warningCount: r.warningCount,
      fatalErrorCount: r.fatalErrorCount,
      messages: r.messages.map(({ ui5TypeInfo: _, ...m }) => m),
    }));
  process.stdout.write(JSON.stringify({ ok: true, files }) + "\n");
} catch (error) {
  process.stdout.write(JSON.stringify({ ok: false, error: String((error && error.message) || error) }) + "\n");
  process.exitCode = 3;
}
