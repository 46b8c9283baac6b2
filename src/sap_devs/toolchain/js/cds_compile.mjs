// Compiles a CAP project's CDS model with @sap/cds-compiler and prints one JSON object on stdout.
//
// Written for sap-devs (src/sap_devs/toolchain/cds.py drives it). The project is untrusted: the
// compiler gets a file cache whose every lookup goes through `lookup` below, so it reads model
// files (.cds, .csn, .json) as text, only inside the folders sap-devs allows, each and all of them
// bounded in size, and never a FIFO or device. Nothing of the project is required or imported;
// the only code loaded is the toolchain's own compiler.
//
// stdin: {compiler, root, files, cdsHome, allowed, maxFileBytes, maxTotalBytes, maxFiles}
// stdout: {compiler, messages, csn, files, probes}

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const MODEL_EXTENSIONS = new Set(['.cds', '.csn', '.json']);

const input = JSON.parse(fs.readFileSync(0, 'utf8'));
const compiler = createRequire(import.meta.url)(input.compiler);
const allowed = input.allowed.map((dir) => {
  try {
    return fs.realpathSync.native(dir);
  } catch {
    return path.resolve(dir);
  }
});

const read = []; // files read: their stat as the cache key sees it
const probes = []; // names looked up and not found: creating one later changes the model
let totalBytes = 0;

function inside(real) {
  return allowed.some((dir) => real === dir || real.startsWith(dir + path.sep));
}

const refused = new Map(); // filename -> why sap-devs did not read it

function refusal(code, filename, text) {
  refused.set(filename, text);
  const error = new Error(text);
  error.code = code;
  error.path = filename;
  return error;
}

// The compiler's file cache protocol: a string is the content, false means "no such file",
// an Error is reported for the file that was asked for, {realname} sends it to the real file.
function outside(filename, real) {
  return refusal('EACCES', filename, `sap-devs reads model files only inside the project and the CDS toolchain, not '${real}'`);
}

function lookup(filename) {
  if (!path.isAbsolute(filename) || filename.includes('\0'))
    return false;
  // Names outside (node_modules folders above the project, say) are not even looked at; under
  // Node's permission model they could not be.
  if (!inside(path.resolve(filename)))
    return false;
  let real;
  try {
    real = fs.realpathSync.native(filename);
  }
  catch (err) {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') {
      probes.push(filename);
      return false;
    }
    if (err.code === 'ERR_ACCESS_DENIED')  // a link out of the allowed folders
      return outside(filename, filename);
    return refusal(err.code || 'EIO', filename, `Cannot resolve '${filename}': ${err.code || err.message}`);
  }
  const extension = path.extname(real).toLowerCase();
  if (!MODEL_EXTENSIONS.has(extension))
    return false; // not a model file: the compiler never gets to read it
  if (!inside(real))
    return outside(filename, real);
  if (real !== filename) {
    // the compiler keeps one source per real file: a link names its target, which is read once
    const body = fileCache[real];
    return typeof body === 'string' ? { realname: real } : body;
  }
  let stat;
  try {
    stat = fs.statSync(real, { bigint: true });
  }
  catch (err) {
    return refusal(err.code || 'EIO', filename, `Cannot read '${filename}': ${err.code || err.message}`);
  }
  if (stat.isDirectory()) {
    probes.push(filename);
    return false;
  }
  if (!stat.isFile())
    return refusal('EINVAL', filename, `'${filename}' is not a regular file (a pipe or a device); sap-devs does not read it`);
  const size = Number(stat.size);
  if (size > input.maxFileBytes)
    return refusal('EFBIG', filename, `'${filename}' has ${size} bytes, more than the ${input.maxFileBytes} sap-devs reads from one model file`);
  if (read.length >= input.maxFiles)
    return refusal('EMFILE', filename, `the model has more than ${input.maxFiles} files; sap-devs stops reading at '${filename}'`);
  if (totalBytes + size > input.maxTotalBytes)
    return refusal('EFBIG', filename, `the model files add up to more than ${input.maxTotalBytes} bytes; sap-devs stops reading at '${filename}'`);
  let text;
  try {
    text = fs.readFileSync(real, 'utf8');
  }
  catch (err) {
    return refusal(err.code || 'EIO', filename, `Cannot read '${filename}': ${err.code || err.message}`);
  }
  totalBytes += Buffer.byteLength(text, 'utf8');
  read.push({ path: real, size, mtime_ns: stat.mtimeNs.toString() });
  return text;
}

const store = Object.create(null);
const fileCache = new Proxy(store, {
  get(target, key) {
    if (typeof key !== 'string')
      return undefined;
    if (!(key in target))
      target[key] = lookup(key);
    return target[key];
  },
});

function location(loc) {
  if (!loc)
    return {};
  return { file: loc.file ?? null, line: loc.line ?? null, col: loc.col ?? null, endLine: loc.endLine ?? null, endCol: loc.endCol ?? null };
}

function compilerMessage(msg) {
  return {
    severity: msg.severity,
    messageId: msg.messageId ?? null,
    message: msg.message,
    ...location(msg.$location),
    formatted: compiler.messageString(msg),
  };
}

function invocationMessage(err) {
  const file = err.path ? path.relative(input.root, err.path) : null;
  return { severity: 'Error', messageId: null, message: err.message, file, line: null, col: null, endLine: null, endCol: null, formatted: err.message, origin: 'sap-devs' };
}

const options = { messages: [], withLocations: true, docs: true };
if (input.cdsHome)
  options.cdsHome = input.cdsHome;

let csn = null;
let failure = null;
try {
  csn = await compiler.compile(input.files, input.root, options, fileCache);
}
catch (err) {
  if (err && err.code === 'ERR_CDS_COMPILER_INVOCATION' && Array.isArray(err.errors))  // files that could not be read
    failure = err.errors.map(invocationMessage);
  else if (!(err && err.messages))       // not a CompilationError: the compiler itself broke
    failure = [{ severity: 'Error', messageId: 'internal', message: String(err && err.message || err), file: null, line: null, col: null, endLine: null, endCol: null, formatted: String(err && err.stack || err), origin: 'cds-compiler' }];
}

// A file refused while resolving `using` reaches the compiler as "not found"; say why it was refused.
const reported = new Set((failure || []).map((m) => m.message));
const refusals = [...refused].filter(([, text]) => !reported.has(text)).map(([filename, text]) => invocationMessage({ path: filename, message: text }));
const messages = compiler.sortMessages(options.messages).map(compilerMessage).concat(failure || [], refusals);
process.stdout.write(JSON.stringify({ compiler: compiler.version(), messages, csn, files: read, probes }));
