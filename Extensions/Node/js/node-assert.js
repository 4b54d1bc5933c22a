// `node:assert` and `node:assert/strict`: AssertionError (code ERR_ASSERTION, actual/expected/operator), ok,
// equal family, deep equality (util's comparison), throws/rejects/doesNotThrow/doesNotReject, match, fail,
// ifError. Messages follow Node's wording without its diffs (the values are printed with the inspector).

const {
  ArrayPrototypePush, Error, MethodStartsWith, ObjectAssign, ObjectIs, ObjectKeys, ReflectApply, RegExpPrototypeTest,
  TypeError,
} = internal.primordials;
const { invalidArgType, invalidArgValue, make } = internal.nodeErrors;
const inspect = (value) => internal.inspect(value, { depth: 1000, compact: 3, breakLength: 80 });
internal.nodeBuiltin("util"); // defines internal.isDeepEqual
const isDeepEqual = internal.isDeepEqual;

const operatorMessages = {
  deepStrictEqual: "Expected values to be strictly deep-equal:",
  strictEqual: "Expected values to be strictly equal:",
  deepEqual: "Expected values to be loosely deep-equal:",
  equal: "Expected values to be loosely equal:",
  notDeepStrictEqual: 'Expected "actual" not to be strictly deep-equal to:',
  notStrictEqual: 'Expected "actual" to be strictly unequal to:',
  notDeepEqual: 'Expected "actual" not to be loosely deep-equal to:',
  notEqual: 'Expected "actual" to be loosely unequal to:',
};

class AssertionError extends Error {
  constructor(options) {
    if (options === null || typeof options !== "object") throw invalidArgType("options", "object", options);
    const { message, actual, expected, operator, stackStartFn } = options;
    let text;
    if (message !== undefined && message !== null) {
      text = `${message}`;
    } else if (operator in operatorMessages) {
      text = MethodStartsWith(operator, "not")
        ? (typeof actual !== "object" || actual === null ? `${operatorMessages[operator]} ${inspect(actual)}`
          : `${operatorMessages[operator]}\n\n${inspect(actual)}\n`)
        : `${operatorMessages[operator]}\n\n${inspect(actual)}\n\nshould equal\n\n${inspect(expected)}\n`;
      if (operator === "strictEqual" && typeof actual !== "object" && typeof expected !== "object") {
        text = `Expected values to be strictly equal:\n\n${inspect(actual)} !== ${inspect(expected)}\n`;
      }
    } else {
      text = `${inspect(actual)} ${operator} ${inspect(expected)}`;
    }
    super(text);
    this.generatedMessage = message === undefined || message === null;
    this.code = "ERR_ASSERTION";
    this.actual = actual;
    this.expected = expected;
    this.operator = operator;
    if (typeof Error.captureStackTrace === "function") Error.captureStackTrace(this, stackStartFn);
  }

  get name() {
    return "AssertionError";
  }

  toString() {
    return `AssertionError [ERR_ASSERTION]: ${this.message}`;
  }
}

function fail(actual, expected, message, operator, stackStartFn) {
  if (arguments.length === 0) message = "Failed";
  else if (arguments.length === 1) {
    message = actual;
    actual = undefined;
  }
  if (message instanceof Error) throw message;
  throw new AssertionError({ actual, expected, operator: operator ?? "fail", message, stackStartFn: stackStartFn ?? fail });
}

function innerFail(options) {
  if (options.message instanceof Error) throw options.message;
  throw new AssertionError(options);
}

function ok(...args) {
  innerOk(ok, args.length, ...args);
}

function innerOk(fn, count, value, message) {
  if (value) return;
  let generated = message;
  if (count === 0) generated = "No value argument passed to `assert.ok()`";
  // Node quotes the call's source when it can read it; jsbridge words it as Node does when it cannot.
  else if (message === undefined || message === null) generated = `${inspect(value)} == true`;
  const error = new AssertionError({ actual: value, expected: true, message: generated, operator: "==", stackStartFn: fn });
  error.generatedMessage = message === undefined || message === null;
  if (message instanceof Error) throw message;
  throw error;
}

function requireTwo(count) {
  if (count < 2) throw make(TypeError, "ERR_MISSING_ARGS", 'The "actual" and "expected" arguments must be specified');
}

const comparisons = {
  equal: (a, b) => a == b || (a !== a && b !== b), // eslint-disable-line eqeqeq
  notEqual: (a, b) => !(a == b || (a !== a && b !== b)), // eslint-disable-line eqeqeq
  strictEqual: (a, b) => ObjectIs(a, b),
  notStrictEqual: (a, b) => !ObjectIs(a, b),
  deepEqual: (a, b) => isDeepEqual(a, b, false),
  notDeepEqual: (a, b) => !isDeepEqual(a, b, false),
  deepStrictEqual: (a, b) => isDeepEqual(a, b, true),
  notDeepStrictEqual: (a, b) => !isDeepEqual(a, b, true),
};

const assertions = {};
for (const name of ObjectKeys(comparisons)) {
  const compare = comparisons[name];
  assertions[name] = {
    [name](actual, expected, message) {
      requireTwo(arguments.length);
      if (!compare(actual, expected)) {
        innerFail({ actual, expected, message, operator: name, stackStartFn: assertions[name] });
      }
    },
  }[name];
}

function checkError(actual, expected, message, fn) {
  if (expected === undefined) return;
  if (typeof expected === "function") {
    if (expected.prototype !== undefined && actual instanceof expected) return;
    if (Error.isPrototypeOf(expected) || expected === Error) {
      innerFail({ actual, expected, operator: fn.name, stackStartFn: fn,
        message: message ?? `The error is expected to be an instance of "${expected.name}". Received "${actual?.constructor?.name ?? typeof actual}"\n\nError message:\n\n${actual?.message}` });
    }
    const result = ReflectApply(expected, {}, [actual]);
    if (result !== true) {
      innerFail({ actual, expected, operator: fn.name, stackStartFn: fn,
        message: message ?? `The ${expected.name ? `"${expected.name}" validation function` : "validation function"} is expected to return "true". Received ${inspect(result)}\n\nCaught error:\n\n${actual}` });
    }
    return;
  }
  if (expected instanceof RegExp) {
    if (RegExpPrototypeTest(expected, String(actual))) return;
    innerFail({ actual, expected, operator: fn.name, stackStartFn: fn,
      message: message ?? `The input did not match the regular expression ${inspect(expected)}. Input:\n\n${inspect(String(actual))}\n` });
  }
  if (typeof expected === "object" && expected !== null) {
    const keys = ObjectKeys(expected);
    if (expected instanceof Error) ArrayPrototypePush(keys, "name", "message");
    else if (keys.length === 0) throw invalidArgValue("error", expected, "may not be an empty object");
    for (const key of keys) {
      const want = expected[key], got = actual?.[key];
      const matches = typeof got === "string" && want instanceof RegExp ? RegExpPrototypeTest(want, got) : isDeepEqual(got, want, true);
      if (!matches) {
        innerFail({ actual, expected, operator: fn.name, stackStartFn: fn,
          message: message ?? `Expected values to be strictly deep-equal:\n+ actual - expected\n\n  Comparison {\n+   ${key}: ${inspect(got)}\n-   ${key}: ${inspect(want)}\n  }\n` });
      }
    }
    return;
  }
  throw invalidArgType("expected", ["Function", "RegExp", "Object", "Error"], expected);
}

function splitArguments(error, message) {
  if (typeof error === "string") return [undefined, error];
  return [error, message];
}

function throws(fn, error, message) {
  if (typeof fn !== "function") throw invalidArgType("fn", "function", fn);
  [error, message] = splitArguments(error, message);
  try {
    fn();
  } catch (actual) {
    checkError(actual, error, message, throws);
    return;
  }
  innerFail({ actual: undefined, expected: error, operator: "throws", stackStartFn: throws,
    message: `Missing expected exception${error?.name ? ` (${error.name})` : ""}${message ? `: ${message}` : "."}` });
}

async function rejects(promiseOrFn, error, message) {
  [error, message] = splitArguments(error, message);
  let promise = promiseOrFn;
  if (typeof promiseOrFn === "function") {
    promise = promiseOrFn();
    if (promise === null || typeof promise?.then !== "function") {
      throw make(TypeError, "ERR_INVALID_RETURN_VALUE",
        `Expected instance of Promise to be returned from the "promiseFn" function but got ${promise === undefined ? "undefined" : `type ${typeof promise}`}.`);
    }
  } else if (promise === null || typeof promise?.then !== "function") {
    throw invalidArgType("promiseFn", ["function", "Promise"], promiseOrFn);
  }
  try {
    await promise;
  } catch (actual) {
    checkError(actual, error, message, rejects);
    return;
  }
  innerFail({ actual: undefined, expected: error, operator: "rejects", stackStartFn: rejects,
    message: `Missing expected rejection${error?.name ? ` (${error.name})` : ""}${message ? `: ${message}` : "."}` });
}

function doesNotThrow(fn, error, message) {
  if (typeof fn !== "function") throw invalidArgType("fn", "function", fn);
  [error, message] = splitArguments(error, message);
  try {
    fn();
  } catch (actual) {
    innerFail({ actual, expected: error, operator: "doesNotThrow", stackStartFn: doesNotThrow,
      message: `Got unwanted exception${message ? `: ${message}` : "."}\nActual message: "${actual?.message}"` });
  }
}

async function doesNotReject(promiseOrFn, error, message) {
  [error, message] = splitArguments(error, message);
  try {
    await (typeof promiseOrFn === "function" ? promiseOrFn() : promiseOrFn);
  } catch (actual) {
    innerFail({ actual, expected: error, operator: "doesNotReject", stackStartFn: doesNotReject,
      message: `Got unwanted rejection${message ? `: ${message}` : "."}\nActual message: "${actual?.message}"` });
  }
}

function matcher(name, shouldMatch) {
  const fn = {
    [name](string, regexp, message) {
      if (!(regexp instanceof RegExp)) throw invalidArgType("regexp", "RegExp", regexp);
      if (typeof string !== "string" || RegExpPrototypeTest(regexp, string) !== shouldMatch) {
        if (message instanceof Error) throw message;
        const generated = typeof string !== "string"
          ? `The "string" argument must be of type string. Received type ${typeof string} (${inspect(string)})`
          : shouldMatch
            ? `The input did not match the regular expression ${inspect(regexp)}. Input:\n\n${inspect(string)}\n`
            : `The input was expected to not match the regular expression ${inspect(regexp)}. Input:\n\n${inspect(string)}\n`;
        innerFail({ actual: string, expected: regexp, operator: name, stackStartFn: fn, message: message ?? generated });
      }
    },
  }[name];
  return fn;
}

function ifError(value) {
  if (value === null || value === undefined) return;
  let message = "ifError got unwanted exception: ";
  message += typeof value === "object" && typeof value.message === "string"
    ? (value.message.length === 0 && value.constructor ? value.constructor.name : value.message)
    : inspect(value);
  const error = new AssertionError({ actual: value, expected: null, operator: "ifError", message, stackStartFn: ifError });
  error.generatedMessage = true;
  throw error;
}

/** @returns {any} the assert function, with its methods */
function makeAssert(strict) {
  const assert = strict
    ? function strictAssert(...args) { innerOk(strictAssert, args.length, ...args); }
    : function assert(...args) { innerOk(assert, args.length, ...args); };
  ObjectAssign(assert, assertions, {
    AssertionError, ok, fail, throws, rejects, doesNotThrow, doesNotReject, ifError,
    match: matcher("match", true), doesNotMatch: matcher("doesNotMatch", false),
  });
  if (strict) {
    ObjectAssign(assert, {
      equal: assertions.strictEqual, notEqual: assertions.notStrictEqual,
      deepEqual: assertions.deepStrictEqual, notDeepEqual: assertions.notDeepStrictEqual,
    });
  }
  return assert;
}

const assert = makeAssert(false);
const strict = makeAssert(true);
assert.strict = strict;
strict.strict = strict;

internal.nodeExport("assert", assert);
internal.nodeExport("assert/strict", strict);
