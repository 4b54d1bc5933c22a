// Lazy runtime files: their globals and `internal` names are accessors that load the file on first
// read (the file's own assignments then replace the accessors with plain values).

const { ObjectDefineProperty, ObjectGetOwnPropertyDescriptor, SafeSet } = internal.primordials;

const loaded = new SafeSet();

/// Runs runtime file `name` once.
internal.load = function (name) {
  if (loaded.has(name)) return;
  loaded.add(name);
  internal.evaluateRuntimeFile(name);
};

/// Defines `target[name]` as an accessor that calls `load()` on first read, then answers whatever value the
/// loaded code stored there (its assignment replaces the accessor).
internal.defineLazy = function (target, name, load) {
  const enumerable = target === internal;
  ObjectDefineProperty(target, name, {
    configurable: true,
    enumerable: false,
    get() {
      load();
      const descriptor = ObjectGetOwnPropertyDescriptor(target, name);
      return descriptor !== undefined && "value" in descriptor ? descriptor.value : undefined;
    },
    set(value) {
      ObjectDefineProperty(target, name, { value, writable: true, configurable: true, enumerable });
    },
  });
};

for (const { file, globals, internals } of internal.startup.lazyFiles) {
  const load = () => internal.load(file);
  for (const name of globals) internal.defineLazy(globalThis, name, load);
  for (const name of internals) internal.defineLazy(internal, name, load);
}

// A plugin's globals (`localStorage`, ...) load its file, through bridge.js (which loads then too).
for (const { plugin, file, globals } of internal.startup.pluginFiles) {
  const load = () => internal.loadPluginFile(plugin, file);
  for (const name of globals) internal.defineLazy(globalThis, name, load);
}
