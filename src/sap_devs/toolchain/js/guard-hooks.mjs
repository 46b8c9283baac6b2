// Module resolve hook: a module may only load from the folders sap-devs allows (the toolchain and
// these scripts). A project file that a tool would import (a ui5lint.config.js, a custom task, a
// plugin) is refused, so nothing from the user's project runs as code.
let roots = [];

export async function initialize(data) {
  roots = (data && data.roots) || [];
}

export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  const url = result.url || "";
  if (url.startsWith("file:") && !roots.some((root) => url.startsWith(root))) {
    const error = new Error(`sap-devs refused to load ${url}: code from the project never runs`);
    error.code = "SAP_DEVS_REFUSED";
    throw error;
  }
  return result;
}
