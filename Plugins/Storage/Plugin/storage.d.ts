// Storage (docs/storage.md): the JavaScript API of the plugin (declared beside its JavaScript; added to its generated
// typings, `jsbridge --typings`).

/** The plugin's error codes (with `INVALID_ARGUMENT`, `PERMISSION_DENIED`, `TIMEOUT` from the bridge). */
interface BridgeErrorCodes {
  /** A write of the Promise API would take the app id over its quota (`name` is `"QuotaExceededError"`); `data.quotaBytes`, `usedBytes`, `requiredBytes`. */
  QUOTA_EXCEEDED: true;
  /** The database file is damaged; `data.path`, and `data.movedTo` where it was kept. */
  STORAGE_CORRUPT: true;
  /** Any other storage failure (directory, disk full, lock held too long); `data.path`. */
  STORAGE_ERROR: true;
  /** PostgreSQL (`--storage-url`): the server was not reachable within `unavailableWaitMs`; `data.host`. */
  STORAGE_UNAVAILABLE: true;
  /** PostgreSQL: the server refused the connection (password, database, role); `data.host`. */
  STORAGE_REJECTED: true;
}

/**
 * Web Storage: `localStorage` (SQLite or PostgreSQL, per app id, synchronous and durable once a call returns) and
 * `sessionStorage` (in memory, this process only). Keys and values are any JavaScript string (lone
 * surrogates included), converted as Web IDL's `DOMString`; stored keys are also properties
 * (`localStorage.theme = "dark"`), the prototype's members win over keys. A write over the quota throws a
 * `DOMException` named `"QuotaExceededError"` (code 22) with the details in `data`.
 */
interface Storage {
  /** How many keys are stored. */
  readonly length: number;
  /** The `index`th key (code point order for localStorage, insertion order for sessionStorage), or null. */
  key(index: number): string | null;
  /** The value, or null when the key is not stored. */
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  /** Removes every key of this storage (localStorage: of this app id only, not the Promise API's groups). */
  clear(): void;
  [name: string]: any;
}

/** JSON values that `Storage` can store: anything `JSON.stringify` keeps, but not `undefined` itself. */
type StorageValue = {} | null;

/** The Promise API of one group: on `Storage.group(name)`, and on `Storage` itself for the default group. */
interface StorageGroupMethods {
  /** The stored value, else the registered default, else `undefined`. */
  get<T = any>(key: string): Promise<T | undefined>;
  /** Stores `value` as JSON text; `undefined`, functions, symbols, BigInts and cycles reject (`INVALID_ARGUMENT`). */
  set(key: string, value: StorageValue): Promise<void>;
  /** Removes `key`; resolves to whether it was stored. */
  remove(key: string): Promise<boolean>;
  /** Whether `key` is stored or has a registered default. */
  has(key: string): Promise<boolean>;
  /** Stored keys and keys with defaults, in code point order. */
  keys(): Promise<string[]>;
  /** `[key, value]` pairs of stored values and defaults, in key order. */
  entries<T = any>(): Promise<Array<[string, T]>>;
  /** Removes every stored key of the group (registered defaults stay). */
  clear(): Promise<void>;
  /** Values returned for keys that are not stored: per process, never written (NSUserDefaults' registration domain). */
  registerDefaults(values: { readonly [key: string]: StorageValue }): void;
  /** Stores `model` as an archive of model `name` (`Model.archive`'s stable form; needs the Model plugin). */
  archiveModel(key: string, name: string, model: object): Promise<void>;
  /**
   * The archived model converted again with its model's current schema; `null` when nothing is stored.
   * Rejects with `DATA_FORMAT` (and `data.issues`) when it no longer fits, or holds another model than `name`.
   */
  unarchiveModel<T = any>(key: string, name?: string): Promise<T | null>;
}

/** A group of JSON values of the Promise API (`Storage.group(name)`); every call runs off the JS thread. */
interface StorageGroup extends StorageGroupMethods {
  /** The group's name (`"default"` for `Storage.defaultGroup`). */
  readonly name: string;
  /** Applies `ops` atomically, all or none (ops without a `group` act on this group). */
  transaction(ops: readonly StorageOperation[]): Promise<void>;
  /** Applies the ops `fn` records once it returns; none when it throws (ops without a group: this group's). */
  transaction(fn: (tx: StorageTransaction) => unknown): Promise<void>;
  /** Watches one key of the group. */
  watch(key: string, listener: (change: StorageChange) => void): StorageWatch;
  /** Watches the whole group. */
  watch(listener: (change: StorageChange) => void): StorageWatch;
}

/** One operation of `Storage.transaction`; without a `group`, the default group (or the group's own). */
type StorageOperation =
  | { op: "set"; key: string; value: StorageValue; group?: string | StorageGroup }
  | { op: "remove"; key: string; group?: string | StorageGroup }
  | { op: "clear"; group?: string | StorageGroup }
  /** A job of the Queue plugin, committed with the storage writes (docs/queues.md). */
  | {
      op: "enqueue"; queue: string; payload?: unknown; delayMs?: number; key?: string; attempts?: number;
      backoff?: number | { type?: "fixed" | "exponential"; delayMs?: number; maxDelayMs?: number };
    };

/** What the function of `Storage.transaction(fn)` records ops on; they apply together once it returns. */
interface StorageTransaction {
  set(key: string, value: StorageValue, group?: string | StorageGroup): void;
  remove(key: string, group?: string | StorageGroup): void;
  clear(group?: string | StorageGroup): void;
  /** A job of the Queue plugin (`Queue.enqueue`'s arguments), committed with the storage writes. */
  enqueue(
    queue: string, payload?: unknown,
    options?: {
      delayMs?: number; key?: string; attempts?: number;
      backoff?: number | { type?: "fixed" | "exponential"; delayMs?: number; maxDelayMs?: number };
    },
  ): void;
}

/** What a watch listener receives, for writes of this process (after they commit) and of other processes. */
type StorageChange = StorageGroupChange | LocalStorageChange;

interface StorageGroupChange {
  /** The group written. */
  group: string;
  storage?: undefined;
  /** The key written; null when the group was cleared. */
  key: string | null;
  /** The new value (parsed JSON); `undefined` when removed. */
  value: any;
  removed: boolean;
  /** `"local"`: this process; `"external"`: another process on the same database. */
  origin: "local" | "external";
}

interface LocalStorageChange {
  group: null;
  storage: "localStorage";
  /** The key written; null when localStorage was cleared. */
  key: string | null;
  /** The new string; null when removed. */
  value: string | null;
  removed: boolean;
  origin: "local" | "external";
}

/** A `watch` registration. Watches do not keep the process alive. */
interface StorageWatch {
  /** Resolves once the watch is registered natively. */
  readonly ready: Promise<void>;
  remove(): void;
}

/** What `Storage.watch` can watch: a key of the default group, a group, `localStorage`, or `{group?, key?}`. */
type StorageWatchTarget =
  | string
  | StorageGroup
  | Storage
  | { group?: string | StorageGroup | Storage | null; key?: string | null };

/**
 * The `Storage` global: Web Storage's interface (`localStorage instanceof Storage`) and the Promise API,
 * whose `get`/`set`/`remove`/`has`/`keys`/`entries`/`clear`/`registerDefaults` act on the group `"default"`.
 */
interface StorageConstructor extends StorageGroupMethods {
  readonly prototype: Storage;
  /** Throws `TypeError: Illegal constructor`: the Storage objects are `localStorage` and `sessionStorage`. */
  new (): never;
  /** The group `name` (a non-empty string; none or null: the default group); the same object for the same name. */
  group(name?: string | StorageGroup | null): StorageGroup;
  /** Applies `ops` (across groups) atomically, all or none (the quota included). */
  transaction(ops: readonly StorageOperation[]): Promise<void>;
  /**
   * Applies the ops `fn(tx)` records (`tx.set`, `tx.remove`, `tx.clear`, `tx.enqueue`) once it returns or its
   * promise resolves, atomically; none when it throws or rejects (the promise then rejects with that error).
   */
  transaction(fn: (tx: StorageTransaction) => unknown): Promise<void>;
  /**
   * Calls `listener` on changes of a key of the default group (`"key"`), of `{group, key}`, of a whole group
   * (`Storage.group(name)`, `{group}`) or of `localStorage` (sessionStorage cannot be watched).
   */
  watch(target: StorageWatchTarget, listener: (change: StorageChange) => void): StorageWatch;
  /** The bytes used by this app id (localStorage and every group) and its quota (null without one). */
  usage(): Promise<{ usedBytes: number; quotaBytes: number | null }>;
  /** The names of the groups holding values. */
  groups(): Promise<string[]>;
  /** The group `"default"`. */
  readonly defaultGroup: StorageGroup;
  /** The class of groups (for `instanceof`; get groups with `Storage.group(name)`). */
  readonly StorageGroup: { readonly prototype: StorageGroup; new (name: string): StorageGroup };
}

/** HTML's `StorageEventInit`. */
interface StorageEventInit extends EventInit {
  key?: string | null;
  oldValue?: string | null;
  newValue?: string | null;
  url?: string;
  storageArea?: Storage | null;
}

/** HTML's `StorageEvent`. jsbridge runs one script (no other document), so the runtime never fires one. */
interface StorageEvent extends Event {
  readonly key: string | null;
  readonly oldValue: string | null;
  readonly newValue: string | null;
  readonly url: string;
  readonly storageArea: Storage | null;
  initStorageEvent(
    type: string,
    bubbles?: boolean,
    cancelable?: boolean,
    key?: string | null,
    oldValue?: string | null,
    newValue?: string | null,
    url?: string,
    storageArea?: Storage | null,
  ): void;
}

declare var StorageEvent: {
  readonly prototype: StorageEvent;
  new (type: string, eventInitDict?: StorageEventInit): StorageEvent;
};

declare var Storage: StorageConstructor;
declare var localStorage: Storage;
declare var sessionStorage: Storage;
