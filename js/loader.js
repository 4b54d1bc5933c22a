// Lazy runtime files: their globals and `internal` names are accessors that load the file on first
// read (the file's own assignments then replace the accessors with plain values).

const loaded = new Set();

/// Runs runtime file `name` once.
internal.load = function (name) {
  if (loaded.has(name)) return;
  loaded.add(name);
  internal.evaluateRuntimeFile(name);
};

function defineLazy(target, name, file) {
  const enumerable = target === internal;
  Object.defineProperty(target, name, {
    configurable: true,
    enumerable: false,
    get() {
      internal.load(file);
      const descriptor = Object.getOwnPropertyDescriptor(target, name);
      return descriptor !== undefined && "value" in descriptor ? descriptor.value : undefined;
    },
    set(value) {
      Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable });
    },
  });
}

for (const { file, globals, internals } of internal.startup.lazyFiles) {
  for (const name of globals) defineLazy(globalThis, name, file);
  for (const name of internals) defineLazy(internal, name, file);
}
