// Drives abap-adt-api (the library behind the VS Code ABAP remote filesystem) against the fake ADT
// server for the operations issue 26 added, so tests can compare its requests with sap-devs' own.
// Usage: node adt_more_ops.js <abap-adt-api folder>  (a JSON job on stdin, JSON results on stdout)
// Between operations it sends a marker request (GET /sap/bc/adt/compatibility/graph?op=<name>) so
// the test can tell which recorded requests belong to which operation.
"use strict";

const path = process.argv[2];
const api = require(path);
const { AxiosHttpClient } = require(path + "/build/AxiosHttpClient");

function readStdin() {
  return new Promise((resolve) => {
    let data = "";
    process.stdin.on("data", (chunk) => (data += chunk));
    process.stdin.on("end", () => resolve(JSON.parse(data)));
  });
}

// Real systems know the client from the session cookie; the fake wants sap-client on every request,
// which abap-adt-api sends only when it logs on.
function withClient(inner, client) {
  return { request: (config) => inner.request({ ...config, qs: { ...(config.qs || {}), "sap-client": client } }) };
}

async function main() {
  const job = await readStdin();
  const http = withClient(new AxiosHttpClient(job.url, {}), job.client);
  const c = new api.ADTClient(http, job.user, job.password, job.client, "EN");
  const s = job.sample;
  const ops = {
    classrun: () => c.runClass(s.consoleClass),
    transportcheck: () => c.transportInfo(s.programUri, "", "I"),
    prettyprinter_settings: () => c.prettyPrinterSetting(),
    prettyprinter: () => c.prettyPrinter(s.unformatted),
    completion: () => c.codeCompletion(s.sourceUri, s.code, s.line, s.column),
    elementinfo: () => c.codeCompletionElement(s.sourceUri, s.code, s.infoLine, s.infoColumn),
    keyword_docs: () => c.abapDocumentation(s.programUri, s.code, s.docLine, s.docColumn, "EN"),
    quickfix_proposals: () => c.fixProposals(s.sourceUri, s.broken, s.fixLine, s.fixColumn),
    quickfix_apply: async () => {
      const [proposal] = await c.fixProposals(s.sourceUri, s.broken, s.fixLine, s.fixColumn);
      await marker("quickfix_apply_edit");
      return c.fixEdits(proposal, s.broken);
    },
    create_function_group: () =>
      c.createObject({ objtype: "FUGR/F", name: s.group, parentName: "$TMP", description: "Prices",
        parentPath: "/sap/bc/adt/packages/%24tmp", responsible: job.user }),
    create_function_module: () =>
      c.createObject({ objtype: "FUGR/FF", name: s.module, parentName: s.group, description: "Price",
        parentPath: "/sap/bc/adt/functions/groups/" + s.group.toLowerCase() }),
    function_group_lookup: () => c.searchObject(s.module, "FUGR/FF"),
    // where abap-adt-api's callers point editor requests: the source URIs it derives from metadata
    editor_uris: async () => {
      const fm = await c.objectStructure(s.recordedModuleUri);
      const clas = await c.objectStructure(s.classUri);
      return {
        function_module: api.ADTClient.mainInclude(fm),
        class_includes: Object.fromEntries(api.ADTClient.classIncludes(clas)),
      };
    },
    write_function_module: () => locked(s.moduleUri, (h) => c.setObjectSource(s.moduleUri + "/source/main", s.fm, h)),
    write_class_include: () =>
      locked(s.classUri, async (h) => {
        await c.createTestInclude(s.className, h);
        await c.setObjectSource(s.classUri + "/includes/testclasses", s.tests, h);
      }),
  };

  async function locked(uri, body) {
    c.stateful = "stateful";
    const lock = await c.lock(uri);
    try {
      await body(lock.LOCK_HANDLE);
    } finally {
      await c.unLock(uri, lock.LOCK_HANDLE);
      c.stateful = "stateless";
    }
  }

  async function marker(name) {
    await c.h.request("/sap/bc/adt/compatibility/graph", { qs: { op: name } });
  }

  const results = [];
  for (const name of job.ops) {
    await marker(name);
    try {
      const value = await ops[name]();
      results.push({ op: name, ok: true, value: value === undefined ? null : value });
    } catch (e) {
      results.push({ op: name, ok: false, error: String((e && e.message) || e) });
    }
  }
  await marker("end");
  process.stdout.write(JSON.stringify(results));
}

main().catch((e) => {
  process.stderr.write(String((e && e.stack) || e));
  process.exit(1);
});
