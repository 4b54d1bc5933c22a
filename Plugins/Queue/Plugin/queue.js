// Queue: durable job queues on SQLite (one machine) or Storage's PostgreSQL (many hosts). Jobs are leased to
// workers, kept alive by heartbeats, retried with backoff and kept on a dead-letter list after their last
// attempt. See docs/queues.md.

const PLUGIN = "Queue";
const { BridgeError } = runtime;
const {
  ArrayPrototypeMap, Error, JSONParse, JSONStringify, NumberIsFinite, NumberIsInteger, ObjectFreeze,
  PromisePrototypeThen, PromiseReject, PromiseResolve, String,
} = runtime.primordials;

function invalid(action, path, message) {
  return new BridgeError("INVALID_ARGUMENT", `Queue.${action}: ${path} ${message}`, {
    plugin: PLUGIN, action, data: { issues: [{ path, message }] },
  });
}

function checkName(action, name) {
  if (typeof name !== "string" || name === "") throw invalid(action, "name", "must be a non-empty string");
}

function optionalInteger(action, options, key) {
  const value = options[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !NumberIsFinite(value) || !NumberIsInteger(value) || value < 0) {
    throw invalid(action, key, "must be a non-negative integer");
  }
  return value;
}

function options(action, value) {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object") throw invalid(action, "options", "must be an object");
  return value;
}

/// `backoff`: a number (milliseconds, doubling) or `{type|kind: "fixed"|"exponential", delayMs, maxDelayMs}`.
function backoff(value) {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "number") {
    if (!NumberIsFinite(value) || value < 0) throw invalid("enqueue", "backoff", "must be a non-negative number");
    return { kind: "exponential", delayMs: value };
  }
  if (typeof value !== "object") throw invalid("enqueue", "backoff", "must be a number or an object");
  const kind = value.kind ?? value.type;
  if (kind !== undefined && kind !== "fixed" && kind !== "exponential") {
    throw invalid("enqueue", "backoff.type", 'must be "fixed" or "exponential"');
  }
  return {
    kind, delayMs: optionalInteger("enqueue", value, "delayMs"), maxDelayMs: optionalInteger("enqueue", value, "maxDelayMs"),
  };
}

function call(action, args) {
  return PromisePrototypeThen(plugin.call(action, args), undefined, (error) => {
    if (error instanceof BridgeError) { error.plugin = PLUGIN; error.action = action; }
    throw error;
  });
}

function message(error) {
  try {
    if (error instanceof Error) return String(error.message);
    return String(error);
  } catch {
    return "the handler failed";
  }
}

const Queue = ObjectFreeze({
  /// Adds a job; resolves with its id (the existing job's id when `key` is already in the queue).
  enqueue(name, payload, opts) {
    try {
      checkName("enqueue", name);
      const o = options("enqueue", opts);
      const json = JSONStringify(payload === undefined ? null : payload);
      const key = o.key;
      if (key !== undefined && key !== null && typeof key !== "string") throw invalid("enqueue", "key", "must be a string");
      const args = {
        name, json, delayMs: optionalInteger("enqueue", o, "delayMs"), key: key ?? undefined,
        attempts: optionalInteger("enqueue", o, "attempts"), backoff: backoff(o.backoff),
      };
      return PromisePrototypeThen(call("enqueue", args), (answer) => answer.id);
    } catch (error) {
      return PromiseReject(error);
    }
  },

  /// Runs `handler(job)` for each job of `name`, up to `concurrency` at once. The handler's promise resolving
  /// completes the job; throwing or rejecting fails it (retried with backoff, then the dead-letter list).
  /// Returns `{ stop(), done }`: `stop()` ends the worker and gives unfinished jobs back.
  work(name, handler, opts) {
    checkName("work", name);
    if (typeof handler !== "function") throw invalid("work", "handler", "must be a function");
    const o = options("work", opts);
    const args = {
      name, concurrency: optionalInteger("work", o, "concurrency"), leaseMs: optionalInteger("work", o, "leaseMs"),
    };
    const settle = (job, ok, error) => {
      const answer = { worker: job.worker, id: job.id, attempt: job.attempt, ok };
      if (!ok) answer.error = message(error);
      PromisePrototypeThen(plugin.call("settle", answer), undefined, (e) => runtime.reportError(e));
    };
    const subscription = plugin.subscribe("work", args, (job) => {
      let result;
      try {
        const view = ObjectFreeze({
          id: job.id, name: job.name, payload: JSONParse(job.payload), attempt: job.attempt,
          maxAttempts: job.maxAttempts,
        });
        result = PromiseResolve(handler(view));
      } catch (error) {
        settle(job, false, error);
        return;
      }
      PromisePrototypeThen(result, () => settle(job, true), (error) => settle(job, false, error));
    }, (error) => {
      if (error instanceof BridgeError) { error.plugin = PLUGIN; error.action = "work"; }
      if (typeof o.onError === "function") o.onError(error);
    });
    const done = PromisePrototypeThen(subscription.done, () => undefined, (error) => {
      if (error instanceof BridgeError && error.code === "CANCELLED") return undefined;
      throw error;
    });
    return ObjectFreeze({
      done,
      stop() {
        subscription.cancel();
        return done;
      },
    });
  },

  /// `{ready, delayed, leased, done, dead}` for queue `name`.
  stats(name) {
    try {
      checkName("stats", name);
      return call("stats", { name });
    } catch (error) {
      return PromiseReject(error);
    }
  },

  /// The dead-letter list of `name`: `[{id, payload, attempts, error, failedAt}]`, oldest first.
  dead(name, opts) {
    try {
      checkName("dead", name);
      const limit = optionalInteger("dead", options("dead", opts), "limit");
      return PromisePrototypeThen(call("dead", { name, limit }), (jobs) => ArrayPrototypeMap(jobs, (job) => ({
        id: job.id, payload: JSONParse(job.payload), attempts: job.attempts, error: job.error,
        failedAt: job.failedAt,
      })));
    } catch (error) {
      return PromiseReject(error);
    }
  },

  /// Deletes the done jobs of `name` that finished more than `olderThanMs` ago (default 0: all), and the
  /// dead ones too with `dead: true`; resolves with how many. Their keys can be enqueued again.
  purge(name, opts) {
    try {
      checkName("purge", name);
      const o = options("purge", opts);
      const olderThanMs = optionalInteger("purge", o, "olderThanMs");
      if (o.dead !== undefined && typeof o.dead !== "boolean") throw invalid("purge", "dead", "must be a boolean");
      return call("purge", { name, olderThanMs, dead: o.dead });
    } catch (error) {
      return PromiseReject(error);
    }
  },

  /// `{backend: "sqlite"|"postgres", location}`.
  info() {
    return plugin.execSync("info", []);
  },
});

runtime.defineGlobal("Queue", Queue);
