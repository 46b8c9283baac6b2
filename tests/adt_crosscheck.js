// Drives abap-adt-api's ADTClient against the fake ADT server, one operation after another.
// Before each operation it announces the operation's name at the fake's marker path, so the test
// can tell which recorded requests belong to which operation. It prints one JSON line per
// operation: {op, ok, error, facts}, where facts are a few values abap-adt-api parsed from the
// fake's answers (to show the fake's formats are ones a real-world client understands).
//
// usage: node adt_crosscheck.js <abap-adt-api folder> <base url> <user> <password> <client>
"use strict";

const http = require("http");
const [, , apiFolder, base, user, password, client] = process.argv;
const { ADTClient, session_types } = require(apiFolder);

const PROG = "/sap/bc/adt/programs/programs/ztest_program";
const CLAS = "/sap/bc/adt/oo/classes/zcl_sample_class";
const INTF = "/sap/bc/adt/oo/interfaces/zif_sample_interface";
const FUGR = "/sap/bc/adt/functions/groups/zfg_hello_world";
const DDLS = "/sap/bc/adt/ddic/ddl/sources/zddl_sample";
const SOURCE = "REPORT ztest_program.\nWRITE 'Cross-checked'.\n";
const CLASS_SOURCE = "CLASS zcl_sample_class IMPLEMENTATION.\n  METHOD x.\n    run( ).\n  ENDMETHOD.\nENDCLASS.\n";

function mark(op) {
  return new Promise((resolve) => {
    const request = http.request(`${base}/__crosscheck__/${op}`, { method: "GET" }, (res) => {
      res.resume();
      res.on("end", resolve);
    });
    request.on("error", resolve);
    request.end();
  });
}

async function locked(c, url, work) {
  c.stateful = session_types.stateful;
  const lock = await c.lock(url);
  try {
    return await work(lock.LOCK_HANDLE);
  } finally {
    await c.unLock(url, lock.LOCK_HANDLE).catch(() => undefined);
    c.stateful = session_types.stateless;
  }
}

const operations = [
  ["login", async (c) => { await c.login(); return { loggedin: c.loggedin }; }],
  ["discovery", async (c) => ({ collections: (await c.adtCoreDiscovery()).length })],
  ["object_structure", async (c) => {
    const s = await c.objectStructure(PROG);
    return { name: s.metaData["adtcore:name"], versionsLink: s.links.some((l) => l.rel.endsWith("/versions")) };
  }],
  ["read_source", async (c) => ({ lines: (await c.getObjectSource(`${PROG}/source/main`, { version: "active" })).split("\n").length })],
  ["class_include", async (c) => ({ chars: (await c.getObjectSource(`${CLAS}/includes/testclasses`, { version: "active" })).length })],
  ["write_source", async (c) => {
    await locked(c, PROG, (handle) => c.setObjectSource(`${PROG}/source/main`, SOURCE, handle));
    return {};
  }],
  ["syntax_check", async (c) => ({ messages: (await c.syntaxCheck(PROG, `${PROG}/source/main`, SOURCE)).length })],
  ["activate", async (c) => {
    const r = await c.activate("ZTEST_PROGRAM", PROG);
    return { success: r.success, inactive: r.inactive.length };
  }],
  ["activate_inactive", async (c) => {
    const r = await c.activate("ZCL_SAMPLE_CLASS", CLAS);
    return { success: r.success, inactive: r.inactive.filter((x) => x.object).map((x) => x.object["adtcore:name"]) };
  }],
  ["inactive_objects", async (c) => ({ entries: (await c.inactiveObjects()).length })],
  ["unit_tests", async (c) => ({ classes: (await c.unitTestRun(CLAS)).length })],
  ["atc", async (c) => {
    await c.atcCustomizing();
    const worklist = await c.atcCheckVariant("STANDARD");
    const run = await c.createAtcRun(worklist, CLAS);
    const list = await c.atcWorklists(run.id, run.timestamp, "", false);
    const findings = list.objects.flatMap((o) => o.findings);
    return { findings: findings.length, withLink: findings.filter((f) => f.link && f.link.href).length };
  }],
  ["transports_of_user", async (c) => ({ workbench: (await c.userTransports("DEVELOPER")).workbench.length })],
  ["where_used", async (c) => ({ references: (await c.usageReferences(CLAS)).length })],
  ["definition", async (c) => {
    const d = await c.findDefinition(`${CLAS}/source/main`, CLASS_SOURCE, 3, 4, 7);
    return { url: d.url };
  }],
  ["table_contents", async (c) => ({ rows: (await c.tableContents("T000", 100)).values.length })],
  ["run_query", async (c) => ({ rows: (await c.runQuery("SELECT * FROM T000", 100)).values.length })],
  ["search", async (c) => ({ found: (await c.searchObject("ZCL*", "CLAS/OC")).map((r) => r["adtcore:name"]) })],
  ["package_contents", async (c) => ({ nodes: (await c.nodeContents("DEVC/K", "$TMP")).nodes.length })],
  ["versions_class", async (c) => {
    const v = await c.revisions(CLAS);
    return { versions: v.map((r) => r.version) };
  }],
  ["versions_program", async (c) => ({ versions: (await c.revisions(PROG)).map((r) => r.version) })],
  ["feeds", async (c) => {
    const feeds = await c.feeds();
    const dumps = feeds.find((f) => f.href === "/sap/bc/adt/runtime/dumps");
    return { variants: dumps ? dumps.queryVariants.length : 0 };
  }],
  ["dumps", async (c) => {
    const feeds = await c.feeds();
    const variant = feeds.find((f) => f.href === "/sap/bc/adt/runtime/dumps").queryVariants.find((v) => v.isDefault);
    await mark("dumps_query");
    const feed = await c.dumps(variant.queryString);
    return { dumps: feed.dumps.length, summaries: feed.dumps.filter((d) => d.text && d.text.includes("Short Text")).length };
  }],
  ["create_program", async (c) => {
    await c.createObject("PROG/P", "ZCROSS_PROG", "$TMP", "Cross-checked", "/sap/bc/adt/packages/%24tmp");
    return {};
  }],
  ["delete", async (c) => {
    c.stateful = session_types.stateful;
    const lock = await c.lock(INTF);
    await c.deleteObject(INTF, lock.LOCK_HANDLE);
    c.stateful = session_types.stateless;
    return {};
  }],
  ["class_structure", async (c) => {
    const s = await c.objectStructure(CLAS);
    return { includes: s.includes.map((i) => i["class:includeType"]).sort() };
  }],
  ["read_function_module", async (c) => ({
    chars: (await c.getObjectSource(`${FUGR}/fmodules/z_fn_hello_world/source/main`, { version: "active" })).length,
  })],
  ["read_cds", async (c) => ({ chars: (await c.getObjectSource(`${DDLS}/source/main`, { version: "active" })).length })],
  ["domain", async (c) => ({ name: (await c.getDomainProperties("/sap/bc/adt/ddic/domains/begrm")).name })],
  ["data_element", async (c) => ({
    name: (await c.getDataElementProperties("/sap/bc/adt/ddic/dataelements/zsales_order_id")).name,
  })],
  ["create_class", async (c) => {
    await c.createObject("CLAS/OC", "ZCL_CROSS", "$TMP", "Cross-checked", "/sap/bc/adt/packages/%24tmp");
    return {};
  }],
  ["create_interface", async (c) => {
    await c.createObject("INTF/OI", "ZIF_CROSS", "$TMP", "Cross-checked", "/sap/bc/adt/packages/%24tmp");
    return {};
  }],
  ["create_transport", async (c) => ({
    number: await c.createTransport(`${PROG}/source/main`, "Cross-checked", "ZSALES"),
  })],
  ["release_transport", async (c) => ({ reports: (await c.transportRelease("DEVK900124")).length })],
  ["publish_service", async (c) => ({ severity: (await c.publishServiceBinding("ZSAPCLI_TEST_BND", "0001")).SEVERITY })],
];

async function main() {
  const c = new ADTClient(base, user, password, client, "EN");
  for (const [op, run] of operations) {
    await mark(op);
    try {
      const facts = await run(c);
      console.log(JSON.stringify({ op, ok: true, facts }));
    } catch (e) {
      console.log(JSON.stringify({ op, ok: false, error: String((e && e.message) || e).slice(0, 300) }));
    }
  }
  await mark("end");
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
