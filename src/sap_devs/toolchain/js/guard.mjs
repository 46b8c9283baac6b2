// Installs guard-hooks.mjs for every later import, allowing only the given folders.
import { register } from "node:module";
import { pathToFileURL } from "node:url";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

export function guardImports(folders) {
  const here = dirname(fileURLToPath(import.meta.url));
  const roots = [here, ...folders].map((folder) => {
    const url = pathToFileURL(folder).href;
    return url.endsWith("/") ? url : url + "/";
  });
  register("./guard-hooks.mjs", import.meta.url, { data: { roots } });
}
