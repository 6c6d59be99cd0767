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
const { createHash } = require('node:crypto');
const Runtime = require('jest-runtime').default;

/** filename → { hash of the source, V8's code cache for it } (per worker process, across test files). */
const codeCache = new Map();

function cachingCompile(executor, original) {
  return function compile(scriptSource, filename) {
    const vmContext = executor.environment.getVmContext();
    // A function V8 takes from cached data loses the dynamic import() callback Node attaches to its script
    // (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING): sources that may import() are compiled by jest as always.
    if (vmContext == null || executor.resolution.isCoreModule(filename) || scriptSource.includes('import(')) return original.call(executor, scriptSource, filename);
    const hash = createHash('sha1').update(scriptSource).digest('base64');
    const hit = codeCache.get(filename);
    const cachedData = hit && hit.hash === hash ? hit.data : undefined;
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
    if (cachedData === undefined && fn.cachedDataProduced && fn.cachedData) codeCache.set(filename, { hash, data: fn.cachedData });
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
  }
}

module.exports = CodeCachingRuntime;
module.exports.default = CodeCachingRuntime;
