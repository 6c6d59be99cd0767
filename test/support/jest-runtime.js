// jest.config.js `runtime`: jest's own Runtime, plus V8's code cache for the CommonJS modules it compiles.
//
// Every test file gets a fresh module registry (that isolation stays), so each file compiles the same ~1,500
// modules (the app, NestJS, TypeORM, ...) again from source: about half of what loading the app costs a file. This
// keeps, per worker process, the code V8 made for each module's source the first time, and hands it back to V8 for
// the next file that loads the same source (vm.compileFunction's `cachedData`). The module still runs from scratch in
// that file's context; only parsing and compiling are skipped. A source that differs (a changed file) gets no cache;
// V8 itself refuses data that does not match the source, flags or version. Anything unexpected falls back to jest's
// own compile.
const vm = require('node:vm');
const Runtime = require('jest-runtime').default;

/**
 * Packages a worker loads once, natively, and shares across its test files: PGlite (the embedded database) is ESM,
 * which jest would link and evaluate again in every file, so its JavaScript (the data directory's untar among it)
 * would always run cold. It holds no state between instances; each `PGlite.create` is still a fresh database.
 */
const SHARED_NATIVE = /^@electric-sql\/pglite(-socket)?(\/|$)/;
const nativeModules = new Map();
function sharedNativeImport(specifier) {
  let loaded = nativeModules.get(specifier);
  if (!loaded) {
    loaded = import(specifier);
    nativeModules.set(specifier, loaded);
  }
  return loaded;
}

/** filename → { the source, V8's code cache for it } (per worker process, across test files). */
const codeCache = new Map();

function cachingCompile(executor, original) {
  return function compile(scriptSource, filename) {
    const vmContext = executor.environment.getVmContext();
    // A function V8 takes from cached data loses the dynamic import() callback Node attaches to its script
    // (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING): sources that may import() are compiled by jest as always.
    if (vmContext == null || executor.resolution.isCoreModule(filename) || scriptSource.includes('import(')) return original.call(executor, scriptSource, filename);
    // The source itself is the key: comparing it costs less than hashing it (about 19 MB of source per e2e file).
    const hit = codeCache.get(filename);
    const cachedData = hit && hit.source === scriptSource ? hit.data : undefined;
    let fn;
    try {
      fn = vm.compileFunction(scriptSource, executor.injectedModuleParameters, {
        filename,
        cachedData,
        produceCachedData: cachedData === undefined,
        importModuleDynamically: (specifier, _fn, importAttributes, phase) => executor.dynamicImport(specifier, filename, vmContext, importAttributes, phase),
        parsingContext: vmContext,
      });
    } catch {
      return original.call(executor, scriptSource, filename); // jest's own errors (syntax, ESM in a CommonJS file)
    }
    if (cachedData === undefined && fn.cachedDataProduced && fn.cachedData) codeCache.set(filename, { source: scriptSource, data: fn.cachedData });
    else if (cachedData !== undefined && fn.cachedDataRejected) codeCache.delete(filename);
    return fn;
  };
}

class CodeCachingRuntime extends Runtime {
  constructor(...args) {
    super(...args);
    const executor = this.executor;
    if (executor && typeof executor.compile === 'function' && Array.isArray(executor.injectedModuleParameters)) {
      executor.compile = cachingCompile(executor, executor.compile);
    }
    if (executor && typeof executor.dynamicImport === 'function') {
      const dynamicImport = executor.dynamicImport;
      executor.dynamicImport = (specifier, ...rest) => (SHARED_NATIVE.test(specifier) ? sharedNativeImport(specifier) : dynamicImport(specifier, ...rest));
    }
  }
}

module.exports = CodeCachingRuntime;
module.exports.default = CodeCachingRuntime;
