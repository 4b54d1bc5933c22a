// streams.js - the WHATWG Streams Standard (https://streams.spec.whatwg.org/): ReadableStream with default
// and byte controllers, readers, BYOB requests, WritableStream, TransformStream, pipes, tee, queuing
// strategies, and TextEncoderStream / TextDecoderStream. Loaded the first time a script reads one of the
// globals, so start-up does not pay for it.
//
// Every public object keeps its internal slots in one plain record under a file-private symbol (`kSlots`):
// the abstract operations work on the records, whose shapes stay fixed (fast property access), and scripts
// see none of it. Promises and built-ins come from the primordials, so a script that replaces
// `Promise.prototype.then` or a stream method cannot reach into a pipe.

const {
  ArrayBufferIsView, ArrayIsArray, FunctionPrototypeBind, FunctionPrototypeCall, MathFloor, MathMin,
  MethodCharCodeAt, MethodSlice, NumberIsInteger, NumberIsNaN, ObjectCreate, ObjectDefineProperty,
  ObjectGetOwnPropertyDescriptor, ObjectGetPrototypeOf, ObjectSetPrototypeOf, Promise, PromisePrototypeThen,
  PromiseReject, PromiseResolve, RangeError, ReflectApply, ReflectGetOwnPropertyDescriptor, ReflectOwnKeys,
  SymbolAsyncIterator, SymbolIterator, SymbolToStringTag, TypeError, Uint8Array,
} = internal.primordials;

// Built-ins the primordials do not carry, captured when this file loads.
const ArrayBufferCtor = ArrayBuffer;
const DataViewCtor = DataView;
const callFunction = Function.prototype.call;
/// `fn` as a function of its receiver and arguments.
const uncurry = (fn) => FunctionPrototypeBind(callFunction, fn);
const ArrayBufferPrototypeSlice = uncurry(ArrayBuffer.prototype.slice);
// `transfer` and `detached` are ES2024; the fallbacks serve older engines (the Node-run unit tests).
const ArrayBufferPrototypeTransfer = ArrayBuffer.prototype.transfer !== undefined
  ? uncurry(ArrayBuffer.prototype.transfer)
  : (buffer) => structuredClone(buffer, { transfer: [buffer] });
const detachedGetter = ObjectGetOwnPropertyDescriptor(ArrayBuffer.prototype, 'detached')?.get;
const ArrayBufferPrototypeGetDetached = detachedGetter !== undefined
  ? uncurry(detachedGetter)
  : (buffer) => {
    if (ArrayBufferPrototypeGetByteLength(buffer) !== 0) return false;
    try {
      new Uint8Array(buffer);
      return false;
    } catch {
      return true;
    }
  };
const ArrayBufferPrototypeGetByteLength = uncurry(ObjectGetOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get);
const TypedArray = ObjectGetPrototypeOf(Uint8Array);
const TypedArrayPrototypeGetBuffer = uncurry(ObjectGetOwnPropertyDescriptor(TypedArray.prototype, 'buffer').get);
const TypedArrayPrototypeGetByteOffset = uncurry(ObjectGetOwnPropertyDescriptor(TypedArray.prototype, 'byteOffset').get);
const TypedArrayPrototypeGetByteLength = uncurry(ObjectGetOwnPropertyDescriptor(TypedArray.prototype, 'byteLength').get);
const TypedArrayPrototypeGetLength = uncurry(ObjectGetOwnPropertyDescriptor(TypedArray.prototype, 'length').get);
const TypedArrayPrototypeGetToStringTag = uncurry(ObjectGetOwnPropertyDescriptor(TypedArray.prototype, SymbolToStringTag).get);
const TypedArrayPrototypeSet = uncurry(TypedArray.prototype.set);
const DataViewPrototypeGetBuffer = uncurry(ObjectGetOwnPropertyDescriptor(DataView.prototype, 'buffer').get);
const DataViewPrototypeGetByteOffset = uncurry(ObjectGetOwnPropertyDescriptor(DataView.prototype, 'byteOffset').get);
const DataViewPrototypeGetByteLength = uncurry(ObjectGetOwnPropertyDescriptor(DataView.prototype, 'byteLength').get);
const SharedArrayBufferPrototypeGetByteLength = typeof SharedArrayBuffer === 'function'
  ? uncurry(ObjectGetOwnPropertyDescriptor(SharedArrayBuffer.prototype, 'byteLength').get) : undefined;
const AsyncIteratorPrototype = ObjectGetPrototypeOf(ObjectGetPrototypeOf(async function* () {}).prototype);
const typedArrayConstructors = {
  Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array,
  Float64Array, BigInt64Array, BigUint64Array,
};
if (typeof Float16Array === 'function') typedArrayConstructors.Float16Array = Float16Array;

const { AbortSignal, AbortController } = internal;
const AbortControllerPrototypeAbort = uncurry(AbortController.prototype.abort);
const AbortControllerPrototypeGetSignal = uncurry(ObjectGetOwnPropertyDescriptor(AbortController.prototype, 'signal').get);
const EventTargetPrototypeAddEventListener = uncurry(internal.EventTarget.prototype.addEventListener);
const EventTargetPrototypeRemoveEventListener = uncurry(internal.EventTarget.prototype.removeEventListener);
const AbortSignalPrototypeGetAborted = uncurry(ObjectGetOwnPropertyDescriptor(AbortSignal.prototype, 'aborted').get);
const AbortSignalPrototypeGetReason = uncurry(ObjectGetOwnPropertyDescriptor(AbortSignal.prototype, 'reason').get);

const kSlots = Symbol('slots');
const kConstruct = Symbol('construct'); // lets this file build objects whose constructors scripts cannot call

// MARK: - Promises

const noop = () => {};

/// A promise with its resolving functions; `pending` says whether it was settled (the standard inspects it).
class Deferred {
  constructor() {
    this.pending = true;
    this.resolveFunction = undefined;
    this.rejectFunction = undefined;
    this.promise = new Promise((resolve, reject) => {
      this.resolveFunction = resolve;
      this.rejectFunction = reject;
    });
  }

  resolve(value) {
    if (!this.pending) return;
    this.pending = false;
    this.resolveFunction(value);
  }

  reject(reason) {
    if (!this.pending) return;
    this.pending = false;
    this.rejectFunction(reason);
  }
}

const newDeferred = () => new Deferred();

/// A deferred already rejected with `reason` (its rejection marked handled by the caller as needed).
function rejectedDeferred(reason) {
  const deferred = new Deferred();
  deferred.reject(reason);
  return deferred;
}

const resolved = (value) => PromiseResolve(value);
const rejected = (reason) => PromiseReject(reason);
const markHandled = (promise) => { PromisePrototypeThen(promise, undefined, noop); };
const then = (promise, onFulfilled, onRejected) => PromisePrototypeThen(promise, onFulfilled, onRejected);
/// Reacts to `promise` without creating a promise anyone could observe rejecting.
/// The reactions never throw, so the derived promise only needs a rejection handler of its own when none is
/// given (one promise per reaction instead of two).
function uponPromise(promise, onFulfilled, onRejected = noop) {
  PromisePrototypeThen(promise, onFulfilled, onRejected);
}

/// A promise fulfilled when every promise in `promises` is, rejected with the first rejection (as
/// `Promise.all`, without looking up `then` or `Promise.resolve`, which scripts may replace).
function waitForAll(promises) {
  const deferred = newDeferred();
  let remaining = promises.length;
  if (remaining === 0) deferred.resolve(undefined);
  for (let i = 0; i < promises.length; i++) {
    uponPromise(promises[i], () => {
      if (--remaining === 0) deferred.resolve(undefined);
    }, (e) => deferred.reject(e));
  }
  return deferred.promise;
}

/// Runs `fn` in a microtask (the standard's "queue a microtask").
function queueMicrotaskSteps(fn) {
  PromisePrototypeThen(resolved(undefined), fn);
}

/// Calls `method` of `object` (if any) with `args`, answering a promise (a throw becomes a rejection).
function promiseCall(method, object, args) {
  try {
    return resolved(ReflectApply(method, object, args));
  } catch (error) {
    return rejected(error);
  }
}

// MARK: - A queue that dequeues in O(1)

class Queue {
  constructor() {
    this.items = [];
    this.head = 0;
  }

  get length() {
    return this.items.length - this.head;
  }

  push(value) {
    this.items[this.items.length] = value;
  }

  shift() {
    const items = this.items;
    const value = items[this.head];
    items[this.head] = undefined;
    this.head++;
    if (this.head === items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > items.length) {
      this.items = MethodSlice(items, this.head);
      this.head = 0;
    }
    return value;
  }

  peek() {
    return this.items[this.head];
  }

  last() {
    return this.items[this.items.length - 1];
  }

  clear() {
    this.items = [];
    this.head = 0;
  }
}

// Queue-with-sizes (values and sizes side by side; no pair object per chunk).
function resetQueue(container) {
  container.queue = new Queue();
  container.sizes = new Queue();
  container.queueTotalSize = 0;
}

function enqueueValueWithSize(container, value, size) {
  if (typeof size !== 'number' || NumberIsNaN(size) || size < 0 || size === Infinity) {
    throw new RangeError('The chunk size must be a finite, non-negative number');
  }
  container.queue.push(value);
  container.sizes.push(size);
  container.queueTotalSize += size;
}

function dequeueValue(container) {
  const value = container.queue.shift();
  container.queueTotalSize -= container.sizes.shift();
  if (container.queueTotalSize < 0) container.queueTotalSize = 0; // rounding
  return value;
}

// MARK: - WebIDL conversions

function isObject(value) {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}

/// Converts a dictionary argument: undefined and null are empty, other non-objects are a TypeError.
function toDictionary(value, what) {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw new TypeError(`${what} must be an object`);
  return value;
}

/// A callback-function dictionary member: undefined or callable.
function toCallback(value, what) {
  if (value === undefined) return undefined;
  if (typeof value !== 'function') throw new TypeError(`${what} must be a function`);
  return value;
}

function toUnrestrictedDouble(value) {
  if (typeof value === 'bigint') throw new TypeError('Cannot convert a BigInt to a number');
  return +value;
}

/// [EnforceRange] unsigned long long.
function toEnforcedUnsignedLongLong(value, what) {
  const number = toUnrestrictedDouble(value);
  if (NumberIsNaN(number) || number === Infinity || number === -Infinity) {
    throw new TypeError(`${what} must be a finite number`);
  }
  const integer = number < 0 ? -MathFloor(-number) : MathFloor(number);
  if (integer < 0 || integer > Number.MAX_SAFE_INTEGER) throw new TypeError(`${what} is out of range`);
  return integer === 0 ? 0 : integer;
}

function brandError(name) {
  return new TypeError(`Illegal invocation: the receiver is not a ${name}`);
}

// MARK: - Buffers

function isDetached(buffer) {
  try {
    return ArrayBufferPrototypeGetDetached(buffer);
  } catch {
    return false; // a SharedArrayBuffer is never detached
  }
}

function isArrayBuffer(value) {
  try {
    ArrayBufferPrototypeGetByteLength(value);
    return true;
  } catch {
    return false;
  }
}

function isSharedArrayBuffer(value) {
  if (SharedArrayBufferPrototypeGetByteLength === undefined) return false;
  try {
    SharedArrayBufferPrototypeGetByteLength(value);
    return true;
  } catch {
    return false;
  }
}

function isDataView(view) {
  try {
    DataViewPrototypeGetBuffer(view);
    return true;
  } catch {
    return false;
  }
}

// The buffer, offset, length and element size of an ArrayBufferView.
function viewBuffer(view) {
  return isDataView(view) ? DataViewPrototypeGetBuffer(view) : TypedArrayPrototypeGetBuffer(view);
}
function viewByteOffset(view) {
  if (!isDataView(view)) return TypedArrayPrototypeGetByteOffset(view);
  try {
    return DataViewPrototypeGetByteOffset(view);
  } catch {
    return 0;
  }
}
function viewByteLength(view) {
  if (!isDataView(view)) return TypedArrayPrototypeGetByteLength(view);
  try {
    return DataViewPrototypeGetByteLength(view);
  } catch {
    return 0; // a DataView on a detached buffer throws where a typed array answers 0
  }
}
function viewConstructor(view) {
  if (isDataView(view)) return DataViewCtor;
  return typedArrayConstructors[TypedArrayPrototypeGetToStringTag(view)];
}
function elementSize(view) {
  return isDataView(view) ? 1 : viewConstructor(view).BYTES_PER_ELEMENT;
}

/// Checks a BYOB/enqueue view argument: an ArrayBufferView (not on a SharedArrayBuffer).
function toArrayBufferView(value, what) {
  if (!ArrayBufferIsView(value)) throw new TypeError(`${what} must be an ArrayBufferView`);
  if (isSharedArrayBuffer(viewBuffer(value))) throw new TypeError(`${what} must not be on a SharedArrayBuffer`);
  return value;
}

function transferArrayBuffer(buffer) {
  if (isDetached(buffer)) throw new TypeError('The ArrayBuffer is detached');
  return ArrayBufferPrototypeTransfer(buffer);
}

function canTransferArrayBuffer(buffer) {
  return !isDetached(buffer);
}

function cloneAsUint8Array(view) {
  const buffer = ArrayBufferPrototypeSlice(viewBuffer(view), viewByteOffset(view), viewByteOffset(view) + viewByteLength(view));
  return new Uint8Array(buffer);
}

function copyDataBlockBytes(destination, destinationOffset, source, sourceOffset, count) {
  TypedArrayPrototypeSet(new Uint8Array(destination, destinationOffset, count), new Uint8Array(source, sourceOffset, count));
}

// MARK: - Queuing strategies

function extractHighWaterMark(strategy, defaultHWM) {
  const hwm = strategy.highWaterMark;
  if (hwm === undefined) return defaultHWM;
  if (NumberIsNaN(hwm) || hwm < 0) throw new RangeError('The highWaterMark must be a non-negative number');
  return hwm;
}

const countSize = () => 1;

function extractSizeAlgorithm(strategy) {
  const size = strategy.size;
  if (size === undefined) return countSize;
  // The callback's declared return type (unrestricted double) converts its result.
  return (chunk) => toUnrestrictedDouble(size(chunk));
}

/// Converts a QueuingStrategy dictionary (highWaterMark, then size, as WebIDL orders members).
function toQueuingStrategy(value, what) {
  const dict = toDictionary(value, what);
  if (dict === undefined) return { highWaterMark: undefined, size: undefined };
  const hwm = dict.highWaterMark;
  const highWaterMark = hwm === undefined ? undefined : toUnrestrictedDouble(hwm);
  const size = toCallback(dict.size, `${what}.size`);
  return { highWaterMark, size };
}

function toQueuingStrategyInit(init, name) {
  if (arguments.length === 0 || init === undefined) {
    // `init` is a required argument whose member highWaterMark is required.
  }
  const dict = toDictionary(init, `${name} init`);
  const hwm = dict === undefined ? undefined : dict.highWaterMark;
  if (hwm === undefined) throw new TypeError(`${name} requires init.highWaterMark`);
  return toUnrestrictedDouble(hwm);
}

// The size functions are one per realm, shared by every instance (the standard's caching).
const byteLengthSizeFunction = { size(chunk) { return chunk.byteLength; } }.size;
ObjectDefineProperty(byteLengthSizeFunction, 'name', { value: 'size' });
const countSizeFunction = { size() { return 1; } }.size;
ObjectDefineProperty(countSizeFunction, 'name', { value: 'size' });
// Neither is a constructor (method definitions never are).

class ByteLengthQueuingStrategy {
  constructor(init) {
    if (arguments.length === 0) throw new TypeError('ByteLengthQueuingStrategy requires an init argument');
    this[kSlots] = { brand: 'ByteLengthQueuingStrategy', highWaterMark: toQueuingStrategyInit(init, 'ByteLengthQueuingStrategy') };
  }

  get highWaterMark() {
    const slots = this?.[kSlots];
    if (slots?.brand !== 'ByteLengthQueuingStrategy') throw brandError('ByteLengthQueuingStrategy');
    return slots.highWaterMark;
  }

  get size() {
    const slots = this?.[kSlots];
    if (slots?.brand !== 'ByteLengthQueuingStrategy') throw brandError('ByteLengthQueuingStrategy');
    return byteLengthSizeFunction;
  }
}

class CountQueuingStrategy {
  constructor(init) {
    if (arguments.length === 0) throw new TypeError('CountQueuingStrategy requires an init argument');
    this[kSlots] = { brand: 'CountQueuingStrategy', highWaterMark: toQueuingStrategyInit(init, 'CountQueuingStrategy') };
  }

  get highWaterMark() {
    const slots = this?.[kSlots];
    if (slots?.brand !== 'CountQueuingStrategy') throw brandError('CountQueuingStrategy');
    return slots.highWaterMark;
  }

  get size() {
    const slots = this?.[kSlots];
    if (slots?.brand !== 'CountQueuingStrategy') throw brandError('CountQueuingStrategy');
    return countSizeFunction;
  }
}

// MARK: - Internal records

// The record behind a ReadableStream.
class ReadableStreamState {
  constructor(wrapper) {
    this.wrapper = wrapper;
    this.state = 'readable';
    this.reader = undefined;
    this.storedError = undefined;
    this.controller = undefined; // a DefaultControllerState or ByteControllerState
    this.disturbed = false;
  }
}

class DefaultControllerState {
  constructor(wrapper) {
    this.wrapper = wrapper;
    this.byte = false;
    this.stream = undefined;
    this.queue = undefined;
    this.sizes = undefined;
    this.queueTotalSize = 0;
    this.started = false;
    this.closeRequested = false;
    this.pullAgain = false;
    this.pulling = false;
    this.strategySizeAlgorithm = undefined;
    this.strategyHWM = 0;
    this.pullAlgorithm = undefined;
    this.cancelAlgorithm = undefined;
  }
}

class ByteControllerState {
  constructor(wrapper) {
    this.wrapper = wrapper;
    this.byte = true;
    this.stream = undefined;
    this.queue = undefined; // of { buffer, byteOffset, byteLength }
    this.sizes = undefined;
    this.queueTotalSize = 0;
    this.started = false;
    this.closeRequested = false;
    this.pullAgain = false;
    this.pulling = false;
    this.strategyHWM = 0;
    this.pullAlgorithm = undefined;
    this.cancelAlgorithm = undefined;
    this.autoAllocateChunkSize = undefined;
    this.byobRequest = null; // the ReadableStreamBYOBRequest object, or null
    this.pendingPullIntos = new Queue();
  }
}

class ReaderState {
  constructor(wrapper, byob) {
    this.wrapper = wrapper;
    this.byob = byob;
    this.stream = undefined;
    this.closedPromise = undefined; // a deferred
    this.readRequests = new Queue(); // or readIntoRequests for BYOB readers
  }
}

// A read request: { chunk(value), close(), error(e) } (the standard's chunk/close/error steps).
class PromiseReadRequest {
  constructor() {
    this.deferred = newDeferred();
  }
  chunk(value) { this.deferred.resolve({ value, done: false }); }
  close() { this.deferred.resolve({ value: undefined, done: true }); }
  error(e) { this.deferred.reject(e); }
}

// MARK: - ReadableStream

function readableSlots(value) {
  const slots = isObject(value) ? value[kSlots] : undefined;
  return slots instanceof ReadableStreamState ? slots : undefined;
}

class ReadableStream {
  constructor(underlyingSource = undefined, strategy = undefined) {
    if (underlyingSource === kConstruct) {
      this[kSlots] = new ReadableStreamState(this);
      return;
    }
    if (underlyingSource !== undefined && !isObject(underlyingSource)) {
      throw new TypeError('The underlying source must be an object');
    }
    const strategyDict = toQueuingStrategy(strategy, 'The strategy');
    const source = underlyingSource === undefined ? null : underlyingSource;
    const sourceDict = toUnderlyingSource(source);
    const stream = new ReadableStreamState(this);
    this[kSlots] = stream;
    if (sourceDict.type === 'bytes') {
      if (strategyDict.size !== undefined) throw new RangeError('A byte stream cannot have a strategy with a size');
      const hwm = extractHighWaterMark(strategyDict, 0);
      setUpByteControllerFromSource(stream, source, sourceDict, hwm);
    } else {
      const sizeAlgorithm = extractSizeAlgorithm(strategyDict);
      const hwm = extractHighWaterMark(strategyDict, 1);
      setUpDefaultControllerFromSource(stream, source, sourceDict, hwm, sizeAlgorithm);
    }
  }

  get locked() {
    const stream = readableSlots(this);
    if (stream === undefined) throw brandError('ReadableStream');
    return stream.reader !== undefined;
  }

  cancel(reason = undefined) {
    const stream = readableSlots(this);
    if (stream === undefined) return rejected(brandError('ReadableStream'));
    if (stream.reader !== undefined) return rejected(new TypeError('Cannot cancel a locked ReadableStream'));
    return readableStreamCancel(stream, reason);
  }

  getReader(options = undefined) {
    const stream = readableSlots(this);
    if (stream === undefined) throw brandError('ReadableStream');
    const dict = toDictionary(options, 'The options');
    const mode = dict === undefined ? undefined : dict.mode;
    if (mode === undefined) return acquireDefaultReader(stream).wrapper;
    if (`${mode}` !== 'byob') throw new TypeError(`'${mode}' is not a valid reader mode`);
    return acquireBYOBReader(stream).wrapper;
  }

  pipeThrough(transform, options = undefined) {
    const stream = readableSlots(this);
    if (stream === undefined) throw brandError('ReadableStream');
    const pair = toDictionary(transform, 'The transform');
    if (pair === undefined) throw new TypeError('pipeThrough requires a { readable, writable } pair');
    const readable = readableSlots(pair.readable);
    if (readable === undefined) throw new TypeError('transform.readable must be a ReadableStream');
    const writable = writableSlots(pair.writable);
    if (writable === undefined) throw new TypeError('transform.writable must be a WritableStream');
    const { preventAbort, preventCancel, preventClose, signal } = toPipeOptions(options);
    if (stream.reader !== undefined) throw new TypeError('Cannot pipe a locked ReadableStream');
    if (writable.writer !== undefined) throw new TypeError('Cannot pipe to a locked WritableStream');
    const promise = readableStreamPipeTo(stream, writable, preventClose, preventAbort, preventCancel, signal);
    markHandled(promise);
    return readable.wrapper;
  }

  pipeTo(destination, options = undefined) {
    const stream = readableSlots(this);
    if (stream === undefined) return rejected(brandError('ReadableStream'));
    const writable = writableSlots(destination);
    if (writable === undefined) return rejected(new TypeError('pipeTo requires a WritableStream'));
    let pipeOptions;
    try {
      pipeOptions = toPipeOptions(options);
    } catch (error) {
      return rejected(error);
    }
    if (stream.reader !== undefined) return rejected(new TypeError('Cannot pipe a locked ReadableStream'));
    if (writable.writer !== undefined) return rejected(new TypeError('Cannot pipe to a locked WritableStream'));
    const { preventAbort, preventCancel, preventClose, signal } = pipeOptions;
    return readableStreamPipeTo(stream, writable, preventClose, preventAbort, preventCancel, signal);
  }

  tee() {
    const stream = readableSlots(this);
    if (stream === undefined) throw brandError('ReadableStream');
    const [a, b] = readableStreamTee(stream, false);
    return [a.wrapper, b.wrapper];
  }

  values(options = undefined) {
    const stream = readableSlots(this);
    if (stream === undefined) throw brandError('ReadableStream');
    const dict = toDictionary(options, 'The options');
    const preventCancel = dict === undefined ? false : !!dict.preventCancel;
    const reader = acquireDefaultReader(stream);
    const iterator = ObjectCreate(ReadableStreamAsyncIteratorPrototype);
    iterator[kSlots] = { brand: 'iterator', reader, preventCancel, ongoingPromise: undefined, isFinished: false };
    return iterator;
  }

  static from(asyncIterable) {
    return readableStreamFromIterable(asyncIterable).wrapper;
  }
}

function toUnderlyingSource(source) {
  if (source === null) {
    return { autoAllocateChunkSize: undefined, cancel: undefined, pull: undefined, start: undefined, type: undefined };
  }
  const chunkSize = source.autoAllocateChunkSize;
  const autoAllocateChunkSize = chunkSize === undefined ? undefined : toEnforcedUnsignedLongLong(chunkSize, 'autoAllocateChunkSize');
  const cancel = toCallback(source.cancel, 'The underlying source cancel');
  const pull = toCallback(source.pull, 'The underlying source pull');
  const start = toCallback(source.start, 'The underlying source start');
  let type = source.type;
  if (type !== undefined) {
    type = `${type}`;
    if (type !== 'bytes') throw new TypeError(`'${type}' is not a valid ReadableStream type`);
  }
  return { autoAllocateChunkSize, cancel, pull, start, type };
}

function toPipeOptions(options) {
  const dict = toDictionary(options, 'The options');
  if (dict === undefined) return { preventAbort: false, preventCancel: false, preventClose: false, signal: undefined };
  const preventAbort = !!dict.preventAbort;
  const preventCancel = !!dict.preventCancel;
  const preventClose = !!dict.preventClose;
  const signal = dict.signal;
  if (signal !== undefined && !isAbortSignal(signal)) throw new TypeError('options.signal must be an AbortSignal');
  return { preventAbort, preventCancel, preventClose, signal };
}

function isAbortSignal(value) {
  if (!isObject(value)) return false;
  try {
    AbortSignalPrototypeGetAborted(value);
    return true;
  } catch {
    return false;
  }
}

/// A new ReadableStream's record (no controller yet).
function createReadableStreamState() {
  return new ReadableStream(kConstruct)[kSlots];
}

/// CreateReadableStream: a default-controlled stream over the given algorithms.
function createReadableStream(startAlgorithm, pullAlgorithm, cancelAlgorithm, highWaterMark = 1, sizeAlgorithm = countSize) {
  const stream = createReadableStreamState();
  const controller = new DefaultControllerState(new ReadableStreamDefaultController(kConstruct));
  controller.wrapper[kSlots] = controller;
  setUpDefaultController(stream, controller, startAlgorithm, pullAlgorithm, cancelAlgorithm, highWaterMark, sizeAlgorithm);
  return stream;
}

/// CreateReadableByteStream.
function createReadableByteStream(startAlgorithm, pullAlgorithm, cancelAlgorithm) {
  const stream = createReadableStreamState();
  const controller = new ByteControllerState(new ReadableByteStreamController(kConstruct));
  controller.wrapper[kSlots] = controller;
  setUpByteController(stream, controller, startAlgorithm, pullAlgorithm, cancelAlgorithm, 0, undefined);
  return stream;
}

function readableStreamCancel(stream, reason) {
  stream.disturbed = true;
  if (stream.state === 'closed') return resolved(undefined);
  if (stream.state === 'errored') return rejected(stream.storedError);
  readableStreamClose(stream);
  const reader = stream.reader;
  if (reader !== undefined && reader.byob) {
    const requests = reader.readRequests;
    reader.readRequests = new Queue();
    while (requests.length > 0) requests.shift().close(undefined);
  }
  const sourceCancelPromise = stream.controller.byte
    ? byteControllerCancelSteps(stream.controller, reason)
    : defaultControllerCancelSteps(stream.controller, reason);
  return then(sourceCancelPromise, noop);
}

function readableStreamClose(stream) {
  stream.state = 'closed';
  const reader = stream.reader;
  if (reader === undefined) return;
  reader.closedPromise.resolve(undefined);
  if (!reader.byob) {
    const requests = reader.readRequests;
    reader.readRequests = new Queue();
    while (requests.length > 0) requests.shift().close();
  }
}

function readableStreamError(stream, e) {
  stream.state = 'errored';
  stream.storedError = e;
  const reader = stream.reader;
  if (reader === undefined) return;
  reader.closedPromise.reject(e);
  markHandled(reader.closedPromise.promise);
  readerErrorReadRequests(reader, e);
}

function readerErrorReadRequests(reader, e) {
  const requests = reader.readRequests;
  reader.readRequests = new Queue();
  while (requests.length > 0) requests.shift().error(e);
}

function readableStreamAddReadRequest(stream, readRequest) {
  stream.reader.readRequests.push(readRequest);
}

function readableStreamFulfillReadRequest(stream, chunk, done) {
  const readRequest = stream.reader.readRequests.shift();
  if (done) readRequest.close();
  else readRequest.chunk(chunk);
}

function readableStreamGetNumReadRequests(stream) {
  return stream.reader.readRequests.length;
}

function readableStreamHasDefaultReader(stream) {
  return stream.reader !== undefined && !stream.reader.byob;
}

function readableStreamHasBYOBReader(stream) {
  return stream.reader !== undefined && stream.reader.byob;
}

// MARK: - Readers

function readerGenericInitialize(reader, stream) {
  reader.stream = stream;
  stream.reader = reader;
  reader.closedPromise = newDeferred();
  if (stream.state === 'closed') {
    reader.closedPromise.resolve(undefined);
  } else if (stream.state === 'errored') {
    reader.closedPromise.reject(stream.storedError);
    markHandled(reader.closedPromise.promise);
  }
}

function readerGenericCancel(reader, reason) {
  return readableStreamCancel(reader.stream, reason);
}

function readerGenericRelease(reader) {
  const stream = reader.stream;
  const error = new TypeError('The reader was released');
  if (stream.state === 'readable') {
    reader.closedPromise.reject(error);
  } else {
    reader.closedPromise = newDeferred();
    reader.closedPromise.reject(error);
  }
  markHandled(reader.closedPromise.promise);
  if (stream.controller.byte) byteControllerReleaseSteps(stream.controller);
  stream.reader = undefined;
  reader.stream = undefined;
}

function defaultReaderRelease(reader) {
  readerGenericRelease(reader);
  readerErrorReadRequests(reader, new TypeError('The reader was released'));
}

function byobReaderRelease(reader) {
  readerGenericRelease(reader);
  readerErrorReadRequests(reader, new TypeError('The reader was released'));
}

function acquireDefaultReader(stream) {
  const reader = new ReadableStreamDefaultReader(kConstruct)[kSlots];
  setUpDefaultReader(reader, stream);
  return reader;
}

function setUpDefaultReader(reader, stream) {
  if (stream.reader !== undefined) throw new TypeError('The ReadableStream is locked');
  readerGenericInitialize(reader, stream);
  reader.readRequests = new Queue();
}

function acquireBYOBReader(stream) {
  const reader = new ReadableStreamBYOBReader(kConstruct)[kSlots];
  setUpBYOBReader(reader, stream);
  return reader;
}

function setUpBYOBReader(reader, stream) {
  if (stream.reader !== undefined) throw new TypeError('The ReadableStream is locked');
  if (!stream.controller.byte) throw new TypeError('A BYOB reader needs a byte stream');
  readerGenericInitialize(reader, stream);
  reader.readRequests = new Queue();
}

function defaultReaderRead(reader, readRequest) {
  const stream = reader.stream;
  stream.disturbed = true;
  if (stream.state === 'closed') readRequest.close();
  else if (stream.state === 'errored') readRequest.error(stream.storedError);
  else if (stream.controller.byte) byteControllerPullSteps(stream.controller, readRequest);
  else defaultControllerPullSteps(stream.controller, readRequest);
}

function readerSlots(value, byob) {
  const slots = isObject(value) ? value[kSlots] : undefined;
  return slots instanceof ReaderState && slots.byob === byob ? slots : undefined;
}

class ReadableStreamDefaultReader {
  constructor(stream) {
    if (stream === kConstruct) {
      this[kSlots] = new ReaderState(this, false);
      return;
    }
    const streamSlots = readableSlots(stream);
    if (streamSlots === undefined) throw new TypeError('ReadableStreamDefaultReader needs a ReadableStream');
    const reader = new ReaderState(this, false);
    setUpDefaultReader(reader, streamSlots);
    this[kSlots] = reader;
  }

  get closed() {
    const reader = readerSlots(this, false);
    if (reader === undefined) return rejected(brandError('ReadableStreamDefaultReader'));
    return reader.closedPromise.promise;
  }

  cancel(reason = undefined) {
    const reader = readerSlots(this, false);
    if (reader === undefined) return rejected(brandError('ReadableStreamDefaultReader'));
    if (reader.stream === undefined) return rejected(new TypeError('The reader has been released'));
    return readerGenericCancel(reader, reason);
  }

  read() {
    const reader = readerSlots(this, false);
    if (reader === undefined) return rejected(brandError('ReadableStreamDefaultReader'));
    const stream = reader.stream;
    if (stream === undefined) return rejected(new TypeError('The reader has been released'));
    // Fast path: a chunk already queued answers at once (what the pull steps would do, without a request).
    const controller = stream.controller;
    if (stream.state === 'readable' && !controller.byte && controller.queue.length > 0) {
      stream.disturbed = true;
      const chunk = defaultControllerDequeue(controller);
      return resolved({ value: chunk, done: false });
    }
    const request = new PromiseReadRequest();
    defaultReaderRead(reader, request);
    return request.deferred.promise;
  }

  releaseLock() {
    const reader = readerSlots(this, false);
    if (reader === undefined) throw brandError('ReadableStreamDefaultReader');
    if (reader.stream === undefined) return;
    defaultReaderRelease(reader);
  }
}

class ReadIntoRequest {
  constructor() {
    this.deferred = newDeferred();
  }
  chunk(value) { this.deferred.resolve({ value, done: false }); }
  close(value) { this.deferred.resolve({ value, done: true }); }
  error(e) { this.deferred.reject(e); }
}

class ReadableStreamBYOBReader {
  constructor(stream) {
    if (stream === kConstruct) {
      this[kSlots] = new ReaderState(this, true);
      return;
    }
    const streamSlots = readableSlots(stream);
    if (streamSlots === undefined) throw new TypeError('ReadableStreamBYOBReader needs a ReadableStream');
    const reader = new ReaderState(this, true);
    setUpBYOBReader(reader, streamSlots);
    this[kSlots] = reader;
  }

  get closed() {
    const reader = readerSlots(this, true);
    if (reader === undefined) return rejected(brandError('ReadableStreamBYOBReader'));
    return reader.closedPromise.promise;
  }

  cancel(reason = undefined) {
    const reader = readerSlots(this, true);
    if (reader === undefined) return rejected(brandError('ReadableStreamBYOBReader'));
    if (reader.stream === undefined) return rejected(new TypeError('The reader has been released'));
    return readerGenericCancel(reader, reason);
  }

  read(view, options = undefined) {
    const reader = readerSlots(this, true);
    if (reader === undefined) return rejected(brandError('ReadableStreamBYOBReader'));
    let min;
    try {
      if (arguments.length === 0) throw new TypeError('read() requires a view');
      toArrayBufferView(view, 'The view');
      const dict = toDictionary(options, 'The options');
      min = dict === undefined || dict.min === undefined ? 1 : toEnforcedUnsignedLongLong(dict.min, 'options.min');
    } catch (error) {
      return rejected(error);
    }
    if (viewByteLength(view) === 0) return rejected(new TypeError('The view must have a non-zero byteLength'));
    const buffer = viewBuffer(view);
    if (ArrayBufferPrototypeGetByteLength(buffer) === 0) {
      return rejected(new TypeError("The view's buffer must have a non-zero byteLength"));
    }
    if (isDetached(buffer)) return rejected(new TypeError("The view's buffer is detached"));
    if (min === 0) return rejected(new TypeError('options.min must be greater than 0'));
    if (isDataView(view)) {
      if (min > viewByteLength(view)) return rejected(new RangeError('options.min is larger than the view'));
    } else if (min > TypedArrayPrototypeGetLength(view)) {
      return rejected(new RangeError('options.min is larger than the view'));
    }
    if (reader.stream === undefined) return rejected(new TypeError('The reader has been released'));
    const request = new ReadIntoRequest();
    byobReaderRead(reader, view, min, request);
    return request.deferred.promise;
  }

  releaseLock() {
    const reader = readerSlots(this, true);
    if (reader === undefined) throw brandError('ReadableStreamBYOBReader');
    if (reader.stream === undefined) return;
    byobReaderRelease(reader);
  }
}

function byobReaderRead(reader, view, min, readIntoRequest) {
  const stream = reader.stream;
  stream.disturbed = true;
  if (stream.state === 'errored') readIntoRequest.error(stream.storedError);
  else byteControllerPullInto(stream.controller, view, min, readIntoRequest);
}

// MARK: - ReadableStreamDefaultController

function defaultControllerSlots(value) {
  const slots = isObject(value) ? value[kSlots] : undefined;
  return slots instanceof DefaultControllerState ? slots : undefined;
}

class ReadableStreamDefaultController {
  constructor(token = undefined) {
    if (token !== kConstruct) throw new TypeError('Illegal constructor');
  }

  get desiredSize() {
    const controller = defaultControllerSlots(this);
    if (controller === undefined) throw brandError('ReadableStreamDefaultController');
    return defaultControllerGetDesiredSize(controller);
  }

  close() {
    const controller = defaultControllerSlots(this);
    if (controller === undefined) throw brandError('ReadableStreamDefaultController');
    if (!defaultControllerCanCloseOrEnqueue(controller)) throw new TypeError('The stream is not in a state that permits close');
    defaultControllerClose(controller);
  }

  enqueue(chunk = undefined) {
    const controller = defaultControllerSlots(this);
    if (controller === undefined) throw brandError('ReadableStreamDefaultController');
    if (!defaultControllerCanCloseOrEnqueue(controller)) throw new TypeError('The stream is not in a state that permits enqueue');
    defaultControllerEnqueue(controller, chunk);
  }

  error(e = undefined) {
    const controller = defaultControllerSlots(this);
    if (controller === undefined) throw brandError('ReadableStreamDefaultController');
    defaultControllerError(controller, e);
  }
}

function defaultControllerCancelSteps(controller, reason) {
  resetQueue(controller);
  const result = controller.cancelAlgorithm(reason);
  defaultControllerClearAlgorithms(controller);
  return result;
}

function defaultControllerDequeue(controller) {
  const chunk = dequeueValue(controller);
  if (controller.closeRequested && controller.queue.length === 0) {
    defaultControllerClearAlgorithms(controller);
    readableStreamClose(controller.stream);
  } else {
    defaultControllerCallPullIfNeeded(controller);
  }
  return chunk;
}

function defaultControllerPullSteps(controller, readRequest) {
  const stream = controller.stream;
  if (controller.queue.length > 0) {
    readRequest.chunk(defaultControllerDequeue(controller));
  } else {
    readableStreamAddReadRequest(stream, readRequest);
    defaultControllerCallPullIfNeeded(controller);
  }
}

function defaultControllerCallPullIfNeeded(controller) {
  if (!defaultControllerShouldCallPull(controller)) return;
  if (controller.pulling) {
    controller.pullAgain = true;
    return;
  }
  controller.pulling = true;
  uponPromise(
    controller.pullAlgorithm(),
    () => {
      controller.pulling = false;
      if (controller.pullAgain) {
        controller.pullAgain = false;
        defaultControllerCallPullIfNeeded(controller);
      }
    },
    (e) => defaultControllerError(controller, e));
}

function defaultControllerShouldCallPull(controller) {
  const stream = controller.stream;
  if (!defaultControllerCanCloseOrEnqueue(controller)) return false;
  if (!controller.started) return false;
  if (stream.reader !== undefined && !stream.reader.byob && stream.reader.readRequests.length > 0) return true;
  return defaultControllerGetDesiredSize(controller) > 0;
}

function defaultControllerClearAlgorithms(controller) {
  controller.pullAlgorithm = undefined;
  controller.cancelAlgorithm = undefined;
  controller.strategySizeAlgorithm = undefined;
}

function defaultControllerClose(controller) {
  if (!defaultControllerCanCloseOrEnqueue(controller)) return;
  controller.closeRequested = true;
  if (controller.queue.length === 0) {
    defaultControllerClearAlgorithms(controller);
    readableStreamClose(controller.stream);
  }
}

function defaultControllerEnqueue(controller, chunk) {
  if (!defaultControllerCanCloseOrEnqueue(controller)) return;
  const stream = controller.stream;
  if (stream.reader !== undefined && !stream.reader.byob && stream.reader.readRequests.length > 0) {
    readableStreamFulfillReadRequest(stream, chunk, false);
  } else {
    let chunkSize;
    const sizeAlgorithm = controller.strategySizeAlgorithm;
    if (sizeAlgorithm === countSize) {
      chunkSize = 1;
    } else {
      try {
        chunkSize = sizeAlgorithm(chunk);
      } catch (error) {
        defaultControllerError(controller, error);
        throw error;
      }
    }
    try {
      enqueueValueWithSize(controller, chunk, chunkSize);
    } catch (error) {
      defaultControllerError(controller, error);
      throw error;
    }
  }
  defaultControllerCallPullIfNeeded(controller);
}

function defaultControllerError(controller, e) {
  const stream = controller.stream;
  if (stream.state !== 'readable') return;
  resetQueue(controller);
  defaultControllerClearAlgorithms(controller);
  readableStreamError(stream, e);
}

function defaultControllerGetDesiredSize(controller) {
  const state = controller.stream.state;
  if (state === 'errored') return null;
  if (state === 'closed') return 0;
  return controller.strategyHWM - controller.queueTotalSize;
}

function defaultControllerHasBackpressure(controller) {
  return !defaultControllerShouldCallPull(controller);
}

function defaultControllerCanCloseOrEnqueue(controller) {
  return !controller.closeRequested && controller.stream.state === 'readable';
}

function setUpDefaultController(stream, controller, startAlgorithm, pullAlgorithm, cancelAlgorithm, highWaterMark, sizeAlgorithm) {
  controller.stream = stream;
  resetQueue(controller);
  controller.started = false;
  controller.closeRequested = false;
  controller.pullAgain = false;
  controller.pulling = false;
  controller.strategySizeAlgorithm = sizeAlgorithm;
  controller.strategyHWM = highWaterMark;
  controller.pullAlgorithm = pullAlgorithm;
  controller.cancelAlgorithm = cancelAlgorithm;
  stream.controller = controller;
  const startResult = startAlgorithm();
  uponPromise(
    resolved(startResult),
    () => {
      controller.started = true;
      defaultControllerCallPullIfNeeded(controller);
    },
    (r) => defaultControllerError(controller, r));
}

function setUpDefaultControllerFromSource(stream, source, sourceDict, highWaterMark, sizeAlgorithm) {
  const wrapper = new ReadableStreamDefaultController(kConstruct);
  const controller = new DefaultControllerState(wrapper);
  wrapper[kSlots] = controller;
  const { start, pull, cancel } = sourceDict;
  const startAlgorithm = start === undefined ? noop : () => FunctionPrototypeCall(start, source, wrapper);
  const pullAlgorithm = pull === undefined ? () => resolved(undefined) : () => promiseCall(pull, source, [wrapper]);
  const cancelAlgorithm = cancel === undefined ? () => resolved(undefined) : (reason) => promiseCall(cancel, source, [reason]);
  setUpDefaultController(stream, controller, startAlgorithm, pullAlgorithm, cancelAlgorithm, highWaterMark, sizeAlgorithm);
}

// MARK: - ReadableByteStreamController

function byteControllerSlots(value) {
  const slots = isObject(value) ? value[kSlots] : undefined;
  return slots instanceof ByteControllerState ? slots : undefined;
}

class ReadableByteStreamController {
  constructor(token = undefined) {
    if (token !== kConstruct) throw new TypeError('Illegal constructor');
  }

  get byobRequest() {
    const controller = byteControllerSlots(this);
    if (controller === undefined) throw brandError('ReadableByteStreamController');
    return byteControllerGetBYOBRequest(controller);
  }

  get desiredSize() {
    const controller = byteControllerSlots(this);
    if (controller === undefined) throw brandError('ReadableByteStreamController');
    return byteControllerGetDesiredSize(controller);
  }

  close() {
    const controller = byteControllerSlots(this);
    if (controller === undefined) throw brandError('ReadableByteStreamController');
    if (controller.closeRequested) throw new TypeError('The stream is already closing');
    if (controller.stream.state !== 'readable') throw new TypeError('The stream is not readable');
    byteControllerClose(controller);
  }

  enqueue(chunk) {
    const controller = byteControllerSlots(this);
    if (controller === undefined) throw brandError('ReadableByteStreamController');
    if (arguments.length === 0) throw new TypeError('enqueue() requires a chunk');
    toArrayBufferView(chunk, 'The chunk');
    if (viewByteLength(chunk) === 0) throw new TypeError('The chunk must have a non-zero byteLength');
    if (ArrayBufferPrototypeGetByteLength(viewBuffer(chunk)) === 0) {
      throw new TypeError("The chunk's buffer must have a non-zero byteLength");
    }
    if (controller.closeRequested) throw new TypeError('The stream is closing');
    if (controller.stream.state !== 'readable') throw new TypeError('The stream is not readable');
    byteControllerEnqueue(controller, chunk);
  }

  error(e = undefined) {
    const controller = byteControllerSlots(this);
    if (controller === undefined) throw brandError('ReadableByteStreamController');
    byteControllerError(controller, e);
  }
}

class BYOBRequestState {
  constructor(wrapper) {
    this.wrapper = wrapper;
    this.controller = undefined;
    this.view = null;
  }
}

function byobRequestSlots(value) {
  const slots = isObject(value) ? value[kSlots] : undefined;
  return slots instanceof BYOBRequestState ? slots : undefined;
}

class ReadableStreamBYOBRequest {
  constructor(token = undefined) {
    if (token !== kConstruct) throw new TypeError('Illegal constructor');
  }

  get view() {
    const request = byobRequestSlots(this);
    if (request === undefined) throw brandError('ReadableStreamBYOBRequest');
    return request.view;
  }

  respond(bytesWritten) {
    const request = byobRequestSlots(this);
    if (request === undefined) throw brandError('ReadableStreamBYOBRequest');
    if (arguments.length === 0) throw new TypeError('respond() requires bytesWritten');
    const written = toEnforcedUnsignedLongLong(bytesWritten, 'bytesWritten');
    if (request.controller === undefined) throw new TypeError('This BYOB request has been invalidated');
    if (isDetached(viewBuffer(request.view))) throw new TypeError("The view's buffer is detached");
    byteControllerRespond(request.controller, written);
  }

  respondWithNewView(view) {
    const request = byobRequestSlots(this);
    if (request === undefined) throw brandError('ReadableStreamBYOBRequest');
    if (arguments.length === 0) throw new TypeError('respondWithNewView() requires a view');
    toArrayBufferView(view, 'The view');
    if (request.controller === undefined) throw new TypeError('This BYOB request has been invalidated');
    if (isDetached(viewBuffer(view))) throw new TypeError("The view's buffer is detached");
    byteControllerRespondWithNewView(request.controller, view);
  }
}

// A pull-into descriptor.
class PullInto {
  constructor(buffer, bufferByteLength, byteOffset, byteLength, bytesFilled, minimumFill, elementSize, viewConstructor, readerType) {
    this.buffer = buffer;
    this.bufferByteLength = bufferByteLength;
    this.byteOffset = byteOffset;
    this.byteLength = byteLength;
    this.bytesFilled = bytesFilled;
    this.minimumFill = minimumFill;
    this.elementSize = elementSize;
    this.viewConstructor = viewConstructor;
    this.readerType = readerType;
  }
}

function byteControllerCancelSteps(controller, reason) {
  byteControllerClearPendingPullIntos(controller);
  resetQueue(controller);
  const result = controller.cancelAlgorithm(reason);
  byteControllerClearAlgorithms(controller);
  return result;
}

function byteControllerPullSteps(controller, readRequest) {
  const stream = controller.stream;
  if (controller.queueTotalSize > 0) {
    byteControllerFillReadRequestFromQueue(controller, readRequest);
    return;
  }
  const autoAllocateChunkSize = controller.autoAllocateChunkSize;
  if (autoAllocateChunkSize !== undefined) {
    let buffer;
    try {
      buffer = new ArrayBufferCtor(autoAllocateChunkSize);
    } catch (e) {
      readRequest.error(e);
      return;
    }
    controller.pendingPullIntos.push(new PullInto(buffer, autoAllocateChunkSize, 0, autoAllocateChunkSize, 0, 1, 1, Uint8Array, 'default'));
  }
  readableStreamAddReadRequest(stream, readRequest);
  byteControllerCallPullIfNeeded(controller);
}

function byteControllerReleaseSteps(controller) {
  if (controller.pendingPullIntos.length > 0) {
    const first = controller.pendingPullIntos.peek();
    first.readerType = 'none';
    const rest = new Queue();
    rest.push(first);
    controller.pendingPullIntos = rest;
  }
}

function byteControllerGetBYOBRequest(controller) {
  if (controller.byobRequest === null && controller.pendingPullIntos.length > 0) {
    const first = controller.pendingPullIntos.peek();
    const view = new Uint8Array(first.buffer, first.byteOffset + first.bytesFilled, first.byteLength - first.bytesFilled);
    const wrapper = new ReadableStreamBYOBRequest(kConstruct);
    const request = new BYOBRequestState(wrapper);
    wrapper[kSlots] = request;
    request.controller = controller;
    request.view = view;
    controller.byobRequest = wrapper;
  }
  return controller.byobRequest;
}

function byteControllerGetDesiredSize(controller) {
  const state = controller.stream.state;
  if (state === 'errored') return null;
  if (state === 'closed') return 0;
  return controller.strategyHWM - controller.queueTotalSize;
}

function byteControllerCallPullIfNeeded(controller) {
  if (!byteControllerShouldCallPull(controller)) return;
  if (controller.pulling) {
    controller.pullAgain = true;
    return;
  }
  controller.pulling = true;
  uponPromise(
    controller.pullAlgorithm(),
    () => {
      controller.pulling = false;
      if (controller.pullAgain) {
        controller.pullAgain = false;
        byteControllerCallPullIfNeeded(controller);
      }
    },
    (e) => byteControllerError(controller, e));
}

function byteControllerShouldCallPull(controller) {
  const stream = controller.stream;
  if (stream.state !== 'readable') return false;
  if (controller.closeRequested) return false;
  if (!controller.started) return false;
  if (readableStreamHasDefaultReader(stream) && readableStreamGetNumReadRequests(stream) > 0) return true;
  if (readableStreamHasBYOBReader(stream) && stream.reader.readRequests.length > 0) return true;
  return byteControllerGetDesiredSize(controller) > 0;
}

function byteControllerClearAlgorithms(controller) {
  controller.pullAlgorithm = undefined;
  controller.cancelAlgorithm = undefined;
}

function byteControllerClearPendingPullIntos(controller) {
  byteControllerInvalidateBYOBRequest(controller);
  controller.pendingPullIntos = new Queue();
}

function byteControllerInvalidateBYOBRequest(controller) {
  if (controller.byobRequest === null) return;
  const request = controller.byobRequest[kSlots];
  request.controller = undefined;
  request.view = null;
  controller.byobRequest = null;
}

function byteControllerClose(controller) {
  const stream = controller.stream;
  if (controller.closeRequested || stream.state !== 'readable') return;
  if (controller.queueTotalSize > 0) {
    controller.closeRequested = true;
    return;
  }
  if (controller.pendingPullIntos.length > 0) {
    const first = controller.pendingPullIntos.peek();
    if (first.bytesFilled % first.elementSize !== 0) {
      const e = new TypeError('Insufficient bytes to fill elements in the given buffer');
      byteControllerError(controller, e);
      throw e;
    }
  }
  byteControllerClearAlgorithms(controller);
  readableStreamClose(stream);
}

function byteControllerCommitPullIntoDescriptor(stream, pullIntoDescriptor) {
  let done = false;
  if (stream.state === 'closed') done = true;
  const filledView = byteControllerConvertPullIntoDescriptor(pullIntoDescriptor);
  if (pullIntoDescriptor.readerType === 'default') {
    readableStreamFulfillReadRequest(stream, filledView, done);
  } else {
    const readIntoRequest = stream.reader.readRequests.shift();
    if (done) readIntoRequest.close(filledView);
    else readIntoRequest.chunk(filledView);
  }
}

function byteControllerConvertPullIntoDescriptor(pullIntoDescriptor) {
  const { bytesFilled, elementSize } = pullIntoDescriptor;
  const buffer = transferArrayBuffer(pullIntoDescriptor.buffer);
  return new pullIntoDescriptor.viewConstructor(buffer, pullIntoDescriptor.byteOffset, bytesFilled / elementSize);
}

function byteControllerEnqueue(controller, chunk) {
  const stream = controller.stream;
  if (controller.closeRequested || stream.state !== 'readable') return;
  const buffer = viewBuffer(chunk);
  const byteOffset = viewByteOffset(chunk);
  const byteLength = viewByteLength(chunk);
  if (isDetached(buffer)) throw new TypeError("The chunk's buffer is detached");
  const transferredBuffer = transferArrayBuffer(buffer);
  if (controller.pendingPullIntos.length > 0) {
    const first = controller.pendingPullIntos.peek();
    if (isDetached(first.buffer)) throw new TypeError("The BYOB request's buffer is detached");
    byteControllerInvalidateBYOBRequest(controller);
    first.buffer = transferArrayBuffer(first.buffer);
    if (first.readerType === 'none') byteControllerEnqueueDetachedPullIntoToQueue(controller, first);
  }
  if (readableStreamHasDefaultReader(stream)) {
    byteControllerProcessReadRequestsUsingQueue(controller);
    if (readableStreamGetNumReadRequests(stream) === 0) {
      byteControllerEnqueueChunkToQueue(controller, transferredBuffer, byteOffset, byteLength);
    } else {
      if (controller.pendingPullIntos.length > 0) byteControllerShiftPendingPullInto(controller);
      const transferredView = new Uint8Array(transferredBuffer, byteOffset, byteLength);
      readableStreamFulfillReadRequest(stream, transferredView, false);
    }
  } else if (readableStreamHasBYOBReader(stream)) {
    byteControllerEnqueueChunkToQueue(controller, transferredBuffer, byteOffset, byteLength);
    const filled = byteControllerProcessPullIntoDescriptorsUsingQueue(controller);
    for (const descriptor of filled) byteControllerCommitPullIntoDescriptor(stream, descriptor);
  } else {
    byteControllerEnqueueChunkToQueue(controller, transferredBuffer, byteOffset, byteLength);
  }
  byteControllerCallPullIfNeeded(controller);
}

function byteControllerEnqueueChunkToQueue(controller, buffer, byteOffset, byteLength) {
  controller.queue.push({ buffer, byteOffset, byteLength });
  controller.sizes.push(byteLength);
  controller.queueTotalSize += byteLength;
}

function byteControllerEnqueueClonedChunkToQueue(controller, buffer, byteOffset, byteLength) {
  let clone;
  try {
    clone = ArrayBufferPrototypeSlice(buffer, byteOffset, byteOffset + byteLength);
  } catch (e) {
    byteControllerError(controller, e);
    throw e;
  }
  byteControllerEnqueueChunkToQueue(controller, clone, 0, byteLength);
}

function byteControllerEnqueueDetachedPullIntoToQueue(controller, pullIntoDescriptor) {
  if (pullIntoDescriptor.bytesFilled > 0) {
    byteControllerEnqueueClonedChunkToQueue(controller, pullIntoDescriptor.buffer, pullIntoDescriptor.byteOffset, pullIntoDescriptor.bytesFilled);
  }
  byteControllerShiftPendingPullInto(controller);
}

function byteControllerFillPullIntoDescriptorFromQueue(controller, pullIntoDescriptor) {
  const maxBytesToCopy = MathMin(controller.queueTotalSize, pullIntoDescriptor.byteLength - pullIntoDescriptor.bytesFilled);
  const maxBytesFilled = pullIntoDescriptor.bytesFilled + maxBytesToCopy;
  let totalBytesToCopyRemaining = maxBytesToCopy;
  let ready = false;
  const remainderBytes = maxBytesFilled % pullIntoDescriptor.elementSize;
  const maxAlignedBytes = maxBytesFilled - remainderBytes;
  if (maxAlignedBytes >= pullIntoDescriptor.minimumFill) {
    totalBytesToCopyRemaining = maxAlignedBytes - pullIntoDescriptor.bytesFilled;
    ready = true;
  }
  const queue = controller.queue;
  while (totalBytesToCopyRemaining > 0) {
    const headOfQueue = queue.peek();
    const bytesToCopy = MathMin(totalBytesToCopyRemaining, headOfQueue.byteLength);
    const destStart = pullIntoDescriptor.byteOffset + pullIntoDescriptor.bytesFilled;
    copyDataBlockBytes(pullIntoDescriptor.buffer, destStart, headOfQueue.buffer, headOfQueue.byteOffset, bytesToCopy);
    if (headOfQueue.byteLength === bytesToCopy) {
      queue.shift();
      controller.sizes.shift();
    } else {
      headOfQueue.byteOffset += bytesToCopy;
      headOfQueue.byteLength -= bytesToCopy;
    }
    controller.queueTotalSize -= bytesToCopy;
    byteControllerFillHeadPullIntoDescriptor(controller, bytesToCopy, pullIntoDescriptor);
    totalBytesToCopyRemaining -= bytesToCopy;
  }
  return ready;
}

function byteControllerFillReadRequestFromQueue(controller, readRequest) {
  const entry = controller.queue.shift();
  controller.sizes.shift();
  controller.queueTotalSize -= entry.byteLength;
  byteControllerHandleQueueDrain(controller);
  const view = new Uint8Array(entry.buffer, entry.byteOffset, entry.byteLength);
  readRequest.chunk(view);
}

function byteControllerFillHeadPullIntoDescriptor(controller, size, pullIntoDescriptor) {
  pullIntoDescriptor.bytesFilled += size;
}

function byteControllerHandleQueueDrain(controller) {
  if (controller.queueTotalSize === 0 && controller.closeRequested) {
    byteControllerClearAlgorithms(controller);
    readableStreamClose(controller.stream);
  } else {
    byteControllerCallPullIfNeeded(controller);
  }
}

function byteControllerProcessPullIntoDescriptorsUsingQueue(controller) {
  const filled = [];
  while (controller.pendingPullIntos.length > 0) {
    if (controller.queueTotalSize === 0) break;
    const pullIntoDescriptor = controller.pendingPullIntos.peek();
    if (byteControllerFillPullIntoDescriptorFromQueue(controller, pullIntoDescriptor)) {
      byteControllerShiftPendingPullInto(controller);
      filled[filled.length] = pullIntoDescriptor;
    }
  }
  return filled;
}

function byteControllerProcessReadRequestsUsingQueue(controller) {
  const reader = controller.stream.reader;
  while (reader.readRequests.length > 0) {
    if (controller.queueTotalSize === 0) return;
    const readRequest = reader.readRequests.shift();
    byteControllerFillReadRequestFromQueue(controller, readRequest);
  }
}

function byteControllerPullInto(controller, view, min, readIntoRequest) {
  const stream = controller.stream;
  let elementSizeOfView = 1;
  /** @type {any} */
  let ctor = DataViewCtor;
  if (!isDataView(view)) {
    ctor = viewConstructor(view);
    elementSizeOfView = ctor.BYTES_PER_ELEMENT;
  }
  const minimumFill = min * elementSizeOfView;
  const byteOffset = viewByteOffset(view);
  const byteLength = viewByteLength(view);
  let buffer;
  try {
    buffer = transferArrayBuffer(viewBuffer(view));
  } catch (e) {
    readIntoRequest.error(e);
    return;
  }
  const pullIntoDescriptor = new PullInto(buffer, ArrayBufferPrototypeGetByteLength(buffer), byteOffset, byteLength, 0, minimumFill, elementSizeOfView, ctor, 'byob');
  if (controller.pendingPullIntos.length > 0) {
    controller.pendingPullIntos.push(pullIntoDescriptor);
    stream.reader.readRequests.push(readIntoRequest);
    return;
  }
  if (stream.state === 'closed') {
    const emptyView = new ctor(pullIntoDescriptor.buffer, pullIntoDescriptor.byteOffset, 0);
    readIntoRequest.close(emptyView);
    return;
  }
  if (controller.queueTotalSize > 0) {
    if (byteControllerFillPullIntoDescriptorFromQueue(controller, pullIntoDescriptor)) {
      const filledView = byteControllerConvertPullIntoDescriptor(pullIntoDescriptor);
      byteControllerHandleQueueDrain(controller);
      readIntoRequest.chunk(filledView);
      return;
    }
    if (controller.closeRequested) {
      const e = new TypeError('Insufficient bytes to fill elements in the given buffer');
      byteControllerError(controller, e);
      readIntoRequest.error(e);
      return;
    }
  }
  controller.pendingPullIntos.push(pullIntoDescriptor);
  stream.reader.readRequests.push(readIntoRequest);
  byteControllerCallPullIfNeeded(controller);
}

function byteControllerRespond(controller, bytesWritten) {
  const first = controller.pendingPullIntos.peek();
  const state = controller.stream.state;
  if (state === 'closed') {
    if (bytesWritten !== 0) throw new TypeError('bytesWritten must be 0 when the stream is closed');
  } else {
    if (bytesWritten === 0) throw new TypeError('bytesWritten must be greater than 0 when the stream is readable');
    if (first.bytesFilled + bytesWritten > first.byteLength) throw new RangeError('bytesWritten is out of range');
  }
  first.buffer = transferArrayBuffer(first.buffer);
  byteControllerRespondInternal(controller, bytesWritten);
}

function byteControllerRespondInClosedState(controller, firstDescriptor) {
  if (firstDescriptor.readerType === 'none') byteControllerShiftPendingPullInto(controller);
  const stream = controller.stream;
  if (readableStreamHasBYOBReader(stream)) {
    const filled = [];
    while (filled.length < stream.reader.readRequests.length) {
      filled[filled.length] = byteControllerShiftPendingPullInto(controller);
    }
    for (const descriptor of filled) byteControllerCommitPullIntoDescriptor(stream, descriptor);
  }
}

function byteControllerRespondInReadableState(controller, bytesWritten, pullIntoDescriptor) {
  byteControllerFillHeadPullIntoDescriptor(controller, bytesWritten, pullIntoDescriptor);
  if (pullIntoDescriptor.readerType === 'none') {
    byteControllerEnqueueDetachedPullIntoToQueue(controller, pullIntoDescriptor);
    const filled = byteControllerProcessPullIntoDescriptorsUsingQueue(controller);
    for (const descriptor of filled) byteControllerCommitPullIntoDescriptor(controller.stream, descriptor);
    return;
  }
  if (pullIntoDescriptor.bytesFilled < pullIntoDescriptor.minimumFill) return;
  byteControllerShiftPendingPullInto(controller);
  const remainderSize = pullIntoDescriptor.bytesFilled % pullIntoDescriptor.elementSize;
  if (remainderSize > 0) {
    const end = pullIntoDescriptor.byteOffset + pullIntoDescriptor.bytesFilled;
    byteControllerEnqueueClonedChunkToQueue(controller, pullIntoDescriptor.buffer, end - remainderSize, remainderSize);
  }
  pullIntoDescriptor.bytesFilled -= remainderSize;
  const filled = byteControllerProcessPullIntoDescriptorsUsingQueue(controller);
  byteControllerCommitPullIntoDescriptor(controller.stream, pullIntoDescriptor);
  for (const descriptor of filled) byteControllerCommitPullIntoDescriptor(controller.stream, descriptor);
}

function byteControllerRespondInternal(controller, bytesWritten) {
  const first = controller.pendingPullIntos.peek();
  byteControllerInvalidateBYOBRequest(controller);
  if (controller.stream.state === 'closed') byteControllerRespondInClosedState(controller, first);
  else byteControllerRespondInReadableState(controller, bytesWritten, first);
  byteControllerCallPullIfNeeded(controller);
}

function byteControllerRespondWithNewView(controller, view) {
  const first = controller.pendingPullIntos.peek();
  const state = controller.stream.state;
  const byteLength = viewByteLength(view);
  if (state === 'closed') {
    if (byteLength !== 0) throw new TypeError("The view's length must be 0 when the stream is closed");
  } else if (byteLength === 0) {
    throw new TypeError("The view's length must be greater than 0 when the stream is readable");
  }
  const byteOffset = viewByteOffset(view);
  if (first.byteOffset + first.bytesFilled !== byteOffset) throw new RangeError('The view has an invalid byteOffset');
  const buffer = viewBuffer(view);
  if (first.bufferByteLength !== ArrayBufferPrototypeGetByteLength(buffer)) {
    throw new RangeError("The view's buffer has an invalid byteLength");
  }
  if (first.bytesFilled + byteLength > first.byteLength) throw new RangeError('The view is too long');
  const viewByteLengthValue = byteLength;
  first.buffer = transferArrayBuffer(buffer);
  byteControllerRespondInternal(controller, viewByteLengthValue);
}

function byteControllerShiftPendingPullInto(controller) {
  return controller.pendingPullIntos.shift();
}

function byteControllerError(controller, e) {
  const stream = controller.stream;
  if (stream.state !== 'readable') return;
  byteControllerClearPendingPullIntos(controller);
  resetQueue(controller);
  byteControllerClearAlgorithms(controller);
  readableStreamError(stream, e);
}

function setUpByteController(stream, controller, startAlgorithm, pullAlgorithm, cancelAlgorithm, highWaterMark, autoAllocateChunkSize) {
  controller.stream = stream;
  controller.pullAgain = false;
  controller.pulling = false;
  controller.byobRequest = null;
  resetQueue(controller);
  controller.closeRequested = false;
  controller.started = false;
  controller.strategyHWM = highWaterMark;
  controller.pullAlgorithm = pullAlgorithm;
  controller.cancelAlgorithm = cancelAlgorithm;
  controller.autoAllocateChunkSize = autoAllocateChunkSize;
  controller.pendingPullIntos = new Queue();
  stream.controller = controller;
  const startResult = startAlgorithm();
  uponPromise(
    resolved(startResult),
    () => {
      controller.started = true;
      byteControllerCallPullIfNeeded(controller);
    },
    (r) => byteControllerError(controller, r));
}

function setUpByteControllerFromSource(stream, source, sourceDict, highWaterMark) {
  const wrapper = new ReadableByteStreamController(kConstruct);
  const controller = new ByteControllerState(wrapper);
  wrapper[kSlots] = controller;
  const { start, pull, cancel, autoAllocateChunkSize } = sourceDict;
  const startAlgorithm = start === undefined ? noop : () => FunctionPrototypeCall(start, source, wrapper);
  const pullAlgorithm = pull === undefined ? () => resolved(undefined) : () => promiseCall(pull, source, [wrapper]);
  const cancelAlgorithm = cancel === undefined ? () => resolved(undefined) : (reason) => promiseCall(cancel, source, [reason]);
  if (autoAllocateChunkSize === 0) throw new TypeError('autoAllocateChunkSize must be greater than 0');
  setUpByteController(stream, controller, startAlgorithm, pullAlgorithm, cancelAlgorithm, highWaterMark, autoAllocateChunkSize);
}

// MARK: - Async iteration

const ReadableStreamAsyncIteratorPrototype = ObjectCreate(AsyncIteratorPrototype);

class IteratorReadRequest {
  constructor(iterator) {
    this.iterator = iterator;
    this.deferred = newDeferred();
  }
  chunk(value) { this.deferred.resolve({ value, done: false }); }
  close() {
    defaultReaderRelease(this.iterator.reader);
    this.deferred.resolve({ value: undefined, done: true });
  }
  error(e) {
    defaultReaderRelease(this.iterator.reader);
    this.deferred.reject(e);
  }
}

function iteratorNextSteps(iterator) {
  if (iterator.isFinished) return resolved({ value: undefined, done: true });
  const request = new IteratorReadRequest(iterator);
  defaultReaderRead(iterator.reader, request);
  return then(
    request.deferred.promise,
    (result) => {
      iterator.ongoingPromise = undefined;
      if (result.done) iterator.isFinished = true;
      return result;
    },
    (reason) => {
      iterator.ongoingPromise = undefined;
      iterator.isFinished = true;
      throw reason;
    });
}

function iteratorReturnSteps(iterator, value) {
  if (iterator.isFinished) return resolved({ value, done: true });
  iterator.isFinished = true;
  const reader = iterator.reader;
  if (reader.stream === undefined) return resolved(undefined);
  if (!iterator.preventCancel) {
    const result = readableStreamCancel(reader.stream, value);
    defaultReaderRelease(reader);
    return result;
  }
  defaultReaderRelease(reader);
  return resolved(undefined);
}

function iteratorSlots(value) {
  const slots = isObject(value) ? value[kSlots] : undefined;
  return slots?.brand === 'iterator' ? slots : undefined;
}

const asyncIteratorMethods = {
  next() {
    const iterator = iteratorSlots(this);
    if (iterator === undefined) return rejected(brandError('ReadableStream async iterator'));
    const nextSteps = () => iteratorNextSteps(iterator);
    iterator.ongoingPromise = iterator.ongoingPromise === undefined
      ? nextSteps()
      : then(iterator.ongoingPromise, nextSteps, nextSteps);
    return iterator.ongoingPromise;
  },
  return(value) {
    const iterator = iteratorSlots(this);
    if (iterator === undefined) return rejected(brandError('ReadableStream async iterator'));
    const returnSteps = () => iteratorReturnSteps(iterator, value);
    iterator.ongoingPromise = iterator.ongoingPromise === undefined
      ? returnSteps()
      : then(iterator.ongoingPromise, returnSteps, returnSteps);
    return then(iterator.ongoingPromise, () => ({ value, done: true }));
  },
};
for (const name of ['next', 'return']) {
  ObjectDefineProperty(ReadableStreamAsyncIteratorPrototype, name, {
    value: asyncIteratorMethods[name], writable: true, enumerable: true, configurable: true,
  });
}
ObjectDefineProperty(ReadableStreamAsyncIteratorPrototype, SymbolToStringTag, {
  value: 'ReadableStream AsyncIterator', configurable: true,
});

// MARK: - ReadableStream.from

function getIterator(obj, kind) {
  let method;
  if (kind === 'async') {
    method = obj[SymbolAsyncIterator];
    if (method === undefined || method === null) {
      const syncMethod = obj[SymbolIterator];
      if (syncMethod === undefined || syncMethod === null) throw new TypeError('The value is not iterable');
      const syncRecord = getIteratorFromMethod(obj, syncMethod);
      return createAsyncFromSyncIterator(syncRecord);
    }
  } else {
    method = obj[SymbolIterator];
  }
  if (method === undefined || method === null) throw new TypeError('The value is not async iterable');
  return getIteratorFromMethod(obj, method);
}

function getIteratorFromMethod(obj, method) {
  if (typeof method !== 'function') throw new TypeError('The iterator method is not a function');
  const iterator = FunctionPrototypeCall(method, obj);
  if (!isObject(iterator)) throw new TypeError('The iterator is not an object');
  return { iterator, nextMethod: iterator.next, done: false };
}

// CreateAsyncFromSyncIterator, via an async generator delegating to the sync iterator (`yield*` wraps it the
// same way, awaiting each value).
function createAsyncFromSyncIterator(syncRecord) {
  const { iterator, nextMethod } = syncRecord;
  const delegate = {
    next: (value) => FunctionPrototypeCall(nextMethod, iterator, value),
    get return() {
      const method = iterator.return;
      return method === undefined || method === null ? method : (value) => FunctionPrototypeCall(method, iterator, value);
    },
  };
  const iterable = /** @type {any} */ ({ [SymbolIterator]: () => delegate });
  const asyncIterator = (async function* () {
    yield* iterable;
  })();
  return { iterator: asyncIterator, nextMethod: asyncIterator.next, done: false };
}

function readableStreamFromIterable(asyncIterable) {
  let stream;
  const iteratorRecord = getIterator(asyncIterable, 'async');
  const startAlgorithm = noop;
  const pullAlgorithm = () => {
    let nextResult;
    try {
      nextResult = FunctionPrototypeCall(iteratorRecord.nextMethod, iteratorRecord.iterator);
      if (!isObject(nextResult)) throw new TypeError('The iterator result is not an object');
    } catch (e) {
      return rejected(e);
    }
    const nextPromise = resolved(nextResult);
    return then(nextPromise, (iterResult) => {
      if (!isObject(iterResult)) throw new TypeError('The iterator result is not an object');
      if (iterResult.done) {
        defaultControllerClose(stream.controller);
      } else {
        defaultControllerEnqueue(stream.controller, iterResult.value);
      }
    });
  };
  const cancelAlgorithm = (reason) => {
    const iterator = iteratorRecord.iterator;
    let returnMethod;
    try {
      returnMethod = iterator.return;
    } catch (e) {
      return rejected(e);
    }
    if (returnMethod === undefined || returnMethod === null) return resolved(undefined);
    let returnResult;
    try {
      if (typeof returnMethod !== 'function') throw new TypeError('The iterator return method is not a function');
      returnResult = FunctionPrototypeCall(returnMethod, iterator, reason);
    } catch (e) {
      return rejected(e);
    }
    return then(resolved(returnResult), (result) => {
      if (!isObject(result)) throw new TypeError('The iterator return result is not an object');
    });
  };
  stream = createReadableStream(startAlgorithm, pullAlgorithm, cancelAlgorithm, 0);
  return stream;
}

// MARK: - Tee

function readableStreamTee(stream, cloneForBranch2) {
  if (stream.controller.byte) return readableByteStreamTee(stream);
  return readableStreamDefaultTee(stream, cloneForBranch2);
}

function readableStreamDefaultTee(stream, cloneForBranch2) {
  const reader = acquireDefaultReader(stream);
  let reading = false;
  let readAgain = false;
  let canceled1 = false;
  let canceled2 = false;
  let reason1;
  let reason2;
  let branch1;
  let branch2;
  const cancelPromise = newDeferred();
  const readRequest = {
    chunk(chunk) {
      queueMicrotaskSteps(() => {
        readAgain = false;
        const chunk1 = chunk;
        let chunk2 = chunk;
        if (!canceled2 && cloneForBranch2) {
          try {
            chunk2 = internal.structuredClone(chunk2);
          } catch (cloneError) {
            defaultControllerError(branch1.controller, cloneError);
            defaultControllerError(branch2.controller, cloneError);
            cancelPromise.resolve(readableStreamCancel(stream, cloneError));
            return;
          }
        }
        if (!canceled1) defaultControllerEnqueue(branch1.controller, chunk1);
        if (!canceled2) defaultControllerEnqueue(branch2.controller, chunk2);
        reading = false;
        if (readAgain) pullAlgorithm();
      });
    },
    close() {
      reading = false;
      if (!canceled1) defaultControllerClose(branch1.controller);
      if (!canceled2) defaultControllerClose(branch2.controller);
      if (!canceled1 || !canceled2) cancelPromise.resolve(undefined);
    },
    error() {
      reading = false;
    },
  };
  const pullAlgorithm = () => {
    if (reading) {
      readAgain = true;
      return resolved(undefined);
    }
    reading = true;
    defaultReaderRead(reader, readRequest);
    return resolved(undefined);
  };
  const cancel1Algorithm = (reason) => {
    canceled1 = true;
    reason1 = reason;
    if (canceled2) {
      const cancelResult = readableStreamCancel(stream, [reason1, reason2]);
      cancelPromise.resolve(cancelResult);
    }
    return cancelPromise.promise;
  };
  const cancel2Algorithm = (reason) => {
    canceled2 = true;
    reason2 = reason;
    if (canceled1) {
      const cancelResult = readableStreamCancel(stream, [reason1, reason2]);
      cancelPromise.resolve(cancelResult);
    }
    return cancelPromise.promise;
  };
  branch1 = createReadableStream(noop, pullAlgorithm, cancel1Algorithm);
  branch2 = createReadableStream(noop, pullAlgorithm, cancel2Algorithm);
  uponPromise(reader.closedPromise.promise, undefined, (r) => {
    defaultControllerError(branch1.controller, r);
    defaultControllerError(branch2.controller, r);
    if (!canceled1 || !canceled2) cancelPromise.resolve(undefined);
  });
  return [branch1, branch2];
}

function readableByteStreamTee(stream) {
  let reader = acquireDefaultReader(stream);
  let reading = false;
  let readAgainForBranch1 = false;
  let readAgainForBranch2 = false;
  let canceled1 = false;
  let canceled2 = false;
  let reason1;
  let reason2;
  let branch1;
  let branch2;
  const cancelPromise = newDeferred();

  const forwardReaderError = (thisReader) => {
    uponPromise(thisReader.closedPromise.promise, undefined, (r) => {
      if (thisReader !== reader) return;
      byteControllerError(branch1.controller, r);
      byteControllerError(branch2.controller, r);
      if (!canceled1 || !canceled2) cancelPromise.resolve(undefined);
    });
  };

  const pullWithDefaultReader = () => {
    if (reader.byob) {
      byobReaderRelease(reader);
      reader = acquireDefaultReader(stream);
      forwardReaderError(reader);
    }
    const readRequest = {
      chunk(chunk) {
        queueMicrotaskSteps(() => {
          readAgainForBranch1 = false;
          readAgainForBranch2 = false;
          const chunk1 = chunk;
          let chunk2 = chunk;
          if (!canceled1 && !canceled2) {
            try {
              chunk2 = cloneAsUint8Array(chunk);
            } catch (cloneError) {
              byteControllerError(branch1.controller, cloneError);
              byteControllerError(branch2.controller, cloneError);
              cancelPromise.resolve(readableStreamCancel(stream, cloneError));
              return;
            }
          }
          if (!canceled1) byteControllerEnqueue(branch1.controller, chunk1);
          if (!canceled2) byteControllerEnqueue(branch2.controller, chunk2);
          reading = false;
          if (readAgainForBranch1) pull1Algorithm();
          else if (readAgainForBranch2) pull2Algorithm();
        });
      },
      close() {
        reading = false;
        if (!canceled1) byteControllerClose(branch1.controller);
        if (!canceled2) byteControllerClose(branch2.controller);
        if (branch1.controller.pendingPullIntos.length > 0) byteControllerRespond(branch1.controller, 0);
        if (branch2.controller.pendingPullIntos.length > 0) byteControllerRespond(branch2.controller, 0);
        if (!canceled1 || !canceled2) cancelPromise.resolve(undefined);
      },
      error() {
        reading = false;
      },
    };
    defaultReaderRead(reader, readRequest);
  };

  const pullWithBYOBReader = (view, forBranch2) => {
    if (!reader.byob) {
      defaultReaderRelease(reader);
      reader = acquireBYOBReader(stream);
      forwardReaderError(reader);
    }
    const byobBranch = forBranch2 ? branch2 : branch1;
    const otherBranch = forBranch2 ? branch1 : branch2;
    const readIntoRequest = {
      chunk(chunk) {
        queueMicrotaskSteps(() => {
          readAgainForBranch1 = false;
          readAgainForBranch2 = false;
          const byobCanceled = forBranch2 ? canceled2 : canceled1;
          const otherCanceled = forBranch2 ? canceled1 : canceled2;
          if (!otherCanceled) {
            let clonedChunk;
            try {
              clonedChunk = cloneAsUint8Array(chunk);
            } catch (cloneError) {
              byteControllerError(byobBranch.controller, cloneError);
              byteControllerError(otherBranch.controller, cloneError);
              cancelPromise.resolve(readableStreamCancel(stream, cloneError));
              return;
            }
            if (!byobCanceled) byteControllerRespondWithNewView(byobBranch.controller, chunk);
            byteControllerEnqueue(otherBranch.controller, clonedChunk);
          } else if (!byobCanceled) {
            byteControllerRespondWithNewView(byobBranch.controller, chunk);
          }
          reading = false;
          if (readAgainForBranch1) pull1Algorithm();
          else if (readAgainForBranch2) pull2Algorithm();
        });
      },
      close(chunk) {
        reading = false;
        const byobCanceled = forBranch2 ? canceled2 : canceled1;
        const otherCanceled = forBranch2 ? canceled1 : canceled2;
        if (!byobCanceled) byteControllerClose(byobBranch.controller);
        if (!otherCanceled) byteControllerClose(otherBranch.controller);
        if (chunk !== undefined) {
          if (!byobCanceled) byteControllerRespondWithNewView(byobBranch.controller, chunk);
          if (!otherCanceled && otherBranch.controller.pendingPullIntos.length > 0) {
            byteControllerRespond(otherBranch.controller, 0);
          }
        }
        if (!byobCanceled || !otherCanceled) cancelPromise.resolve(undefined);
      },
      error() {
        reading = false;
      },
    };
    byobReaderRead(reader, view, 1, readIntoRequest);
  };

  const pull1Algorithm = () => {
    if (reading) {
      readAgainForBranch1 = true;
      return resolved(undefined);
    }
    reading = true;
    const byobRequest = byteControllerGetBYOBRequest(branch1.controller);
    if (byobRequest === null) pullWithDefaultReader();
    else pullWithBYOBReader(byobRequest[kSlots].view, false);
    return resolved(undefined);
  };
  const pull2Algorithm = () => {
    if (reading) {
      readAgainForBranch2 = true;
      return resolved(undefined);
    }
    reading = true;
    const byobRequest = byteControllerGetBYOBRequest(branch2.controller);
    if (byobRequest === null) pullWithDefaultReader();
    else pullWithBYOBReader(byobRequest[kSlots].view, true);
    return resolved(undefined);
  };
  const cancel1Algorithm = (reason) => {
    canceled1 = true;
    reason1 = reason;
    if (canceled2) cancelPromise.resolve(readableStreamCancel(stream, [reason1, reason2]));
    return cancelPromise.promise;
  };
  const cancel2Algorithm = (reason) => {
    canceled2 = true;
    reason2 = reason;
    if (canceled1) cancelPromise.resolve(readableStreamCancel(stream, [reason1, reason2]));
    return cancelPromise.promise;
  };
  branch1 = createReadableByteStream(noop, pull1Algorithm, cancel1Algorithm);
  branch2 = createReadableByteStream(noop, pull2Algorithm, cancel2Algorithm);
  forwardReaderError(reader);
  return [branch1, branch2];
}

// MARK: - WritableStream

class WritableStreamState {
  constructor(wrapper) {
    this.wrapper = wrapper;
    this.state = 'writable';
    this.storedError = undefined;
    this.writer = undefined;
    this.controller = undefined;
    this.inFlightWriteRequest = undefined;
    this.closeRequest = undefined;
    this.inFlightCloseRequest = undefined;
    this.pendingAbortRequest = undefined;
    this.writeRequests = new Queue();
    this.backpressure = false;
  }
}

class WritableControllerState {
  constructor(wrapper) {
    this.wrapper = wrapper;
    this.stream = undefined;
    this.queue = undefined;
    this.sizes = undefined;
    this.queueTotalSize = 0;
    this.started = false;
    this.strategySizeAlgorithm = undefined;
    this.strategyHWM = 0;
    this.writeAlgorithm = undefined;
    this.closeAlgorithm = undefined;
    this.abortAlgorithm = undefined;
    this.abortController = undefined;
  }
}

class WriterState {
  constructor(wrapper) {
    this.wrapper = wrapper;
    this.stream = undefined;
    this.readyPromise = undefined;
    this.closedPromise = undefined;
  }
}

const closeSentinel = Symbol('close');

function writableSlots(value) {
  const slots = isObject(value) ? value[kSlots] : undefined;
  return slots instanceof WritableStreamState ? slots : undefined;
}

class WritableStream {
  constructor(underlyingSink = undefined, strategy = undefined) {
    if (underlyingSink === kConstruct) {
      this[kSlots] = new WritableStreamState(this);
      return;
    }
    if (underlyingSink !== undefined && !isObject(underlyingSink)) {
      throw new TypeError('The underlying sink must be an object');
    }
    const strategyDict = toQueuingStrategy(strategy, 'The strategy');
    const sink = underlyingSink === undefined ? null : underlyingSink;
    const sinkDict = toUnderlyingSink(sink);
    if (sinkDict.type !== undefined) throw new RangeError('Invalid type is specified');
    const stream = new WritableStreamState(this);
    this[kSlots] = stream;
    const sizeAlgorithm = extractSizeAlgorithm(strategyDict);
    const hwm = extractHighWaterMark(strategyDict, 1);
    setUpWritableControllerFromSink(stream, sink, sinkDict, hwm, sizeAlgorithm);
  }

  get locked() {
    const stream = writableSlots(this);
    if (stream === undefined) throw brandError('WritableStream');
    return stream.writer !== undefined;
  }

  abort(reason = undefined) {
    const stream = writableSlots(this);
    if (stream === undefined) return rejected(brandError('WritableStream'));
    if (stream.writer !== undefined) return rejected(new TypeError('Cannot abort a locked WritableStream'));
    return writableStreamAbort(stream, reason);
  }

  close() {
    const stream = writableSlots(this);
    if (stream === undefined) return rejected(brandError('WritableStream'));
    if (stream.writer !== undefined) return rejected(new TypeError('Cannot close a locked WritableStream'));
    if (writableStreamCloseQueuedOrInFlight(stream)) return rejected(new TypeError('The stream is closing or closed'));
    return writableStreamClose(stream);
  }

  getWriter() {
    const stream = writableSlots(this);
    if (stream === undefined) throw brandError('WritableStream');
    return acquireWriter(stream).wrapper;
  }
}

function toUnderlyingSink(sink) {
  if (sink === null) return { abort: undefined, close: undefined, start: undefined, type: undefined, write: undefined };
  const abort = toCallback(sink.abort, 'The underlying sink abort');
  const close = toCallback(sink.close, 'The underlying sink close');
  const start = toCallback(sink.start, 'The underlying sink start');
  const type = sink.type;
  const write = toCallback(sink.write, 'The underlying sink write');
  return { abort, close, start, type, write };
}

function acquireWriter(stream) {
  const wrapper = new WritableStreamDefaultWriter(kConstruct);
  const writer = wrapper[kSlots];
  setUpWriter(writer, stream);
  return writer;
}

function createWritableStream(startAlgorithm, writeAlgorithm, closeAlgorithm, abortAlgorithm, highWaterMark, sizeAlgorithm) {
  const stream = new WritableStream(kConstruct)[kSlots];
  const wrapper = new WritableStreamDefaultController(kConstruct);
  const controller = new WritableControllerState(wrapper);
  wrapper[kSlots] = controller;
  setUpWritableController(stream, controller, startAlgorithm, writeAlgorithm, closeAlgorithm, abortAlgorithm, highWaterMark, sizeAlgorithm);
  return stream;
}

function writableStreamAbort(stream, reason) {
  if (stream.state === 'closed' || stream.state === 'errored') return resolved(undefined);
  AbortControllerPrototypeAbort(stream.controller.abortController, reason);
  const state = stream.state;
  if (state === 'closed' || state === 'errored') return resolved(undefined);
  if (stream.pendingAbortRequest !== undefined) return stream.pendingAbortRequest.deferred.promise;
  let wasAlreadyErroring = false;
  if (state === 'erroring') {
    wasAlreadyErroring = true;
    reason = undefined;
  }
  const deferred = newDeferred();
  stream.pendingAbortRequest = { deferred, reason, wasAlreadyErroring };
  if (!wasAlreadyErroring) writableStreamStartErroring(stream, reason);
  return deferred.promise;
}

function writableStreamClose(stream) {
  const state = stream.state;
  if (state === 'closed' || state === 'errored') {
    return rejected(new TypeError('The stream is closed or errored'));
  }
  const deferred = newDeferred();
  stream.closeRequest = deferred;
  const writer = stream.writer;
  if (writer !== undefined && stream.backpressure && state === 'writable') writer.readyPromise.resolve(undefined);
  writableControllerClose(stream.controller);
  return deferred.promise;
}

function writableStreamAddWriteRequest(stream) {
  const deferred = newDeferred();
  stream.writeRequests.push(deferred);
  return deferred.promise;
}

function writableStreamDealWithRejection(stream, error) {
  if (stream.state === 'writable') {
    writableStreamStartErroring(stream, error);
    return;
  }
  writableStreamFinishErroring(stream);
}

function writableStreamStartErroring(stream, reason) {
  const controller = stream.controller;
  stream.state = 'erroring';
  stream.storedError = reason;
  const writer = stream.writer;
  if (writer !== undefined) writerEnsureReadyPromiseRejected(writer, reason);
  if (!writableStreamHasOperationMarkedInFlight(stream) && controller.started) writableStreamFinishErroring(stream);
}

function writableStreamFinishErroring(stream) {
  stream.state = 'errored';
  writableControllerErrorSteps(stream.controller);
  const storedError = stream.storedError;
  const requests = stream.writeRequests;
  stream.writeRequests = new Queue();
  while (requests.length > 0) requests.shift().reject(storedError);
  if (stream.pendingAbortRequest === undefined) {
    writableStreamRejectCloseAndClosedPromiseIfNeeded(stream);
    return;
  }
  const abortRequest = stream.pendingAbortRequest;
  stream.pendingAbortRequest = undefined;
  if (abortRequest.wasAlreadyErroring) {
    abortRequest.deferred.reject(storedError);
    writableStreamRejectCloseAndClosedPromiseIfNeeded(stream);
    return;
  }
  const promise = stream.controller.abortAlgorithm(abortRequest.reason);
  writableControllerClearAlgorithms(stream.controller);
  uponPromise(
    promise,
    () => {
      abortRequest.deferred.resolve(undefined);
      writableStreamRejectCloseAndClosedPromiseIfNeeded(stream);
    },
    (reason) => {
      abortRequest.deferred.reject(reason);
      writableStreamRejectCloseAndClosedPromiseIfNeeded(stream);
    });
}

function writableStreamFinishInFlightWrite(stream) {
  stream.inFlightWriteRequest.resolve(undefined);
  stream.inFlightWriteRequest = undefined;
}

function writableStreamFinishInFlightWriteWithError(stream, error) {
  stream.inFlightWriteRequest.reject(error);
  stream.inFlightWriteRequest = undefined;
  writableStreamDealWithRejection(stream, error);
}

function writableStreamFinishInFlightClose(stream) {
  stream.inFlightCloseRequest.resolve(undefined);
  stream.inFlightCloseRequest = undefined;
  if (stream.state === 'erroring') {
    stream.storedError = undefined;
    if (stream.pendingAbortRequest !== undefined) {
      stream.pendingAbortRequest.deferred.resolve(undefined);
      stream.pendingAbortRequest = undefined;
    }
  }
  stream.state = 'closed';
  const writer = stream.writer;
  if (writer !== undefined) writer.closedPromise.resolve(undefined);
}

function writableStreamFinishInFlightCloseWithError(stream, error) {
  stream.inFlightCloseRequest.reject(error);
  stream.inFlightCloseRequest = undefined;
  if (stream.pendingAbortRequest !== undefined) {
    stream.pendingAbortRequest.deferred.reject(error);
    stream.pendingAbortRequest = undefined;
  }
  writableStreamDealWithRejection(stream, error);
}

function writableStreamCloseQueuedOrInFlight(stream) {
  return stream.closeRequest !== undefined || stream.inFlightCloseRequest !== undefined;
}

function writableStreamHasOperationMarkedInFlight(stream) {
  return stream.inFlightWriteRequest !== undefined || stream.inFlightCloseRequest !== undefined;
}

function writableStreamMarkCloseRequestInFlight(stream) {
  stream.inFlightCloseRequest = stream.closeRequest;
  stream.closeRequest = undefined;
}

function writableStreamMarkFirstWriteRequestInFlight(stream) {
  stream.inFlightWriteRequest = stream.writeRequests.shift();
}

function writableStreamRejectCloseAndClosedPromiseIfNeeded(stream) {
  if (stream.closeRequest !== undefined) {
    stream.closeRequest.reject(stream.storedError);
    stream.closeRequest = undefined;
  }
  const writer = stream.writer;
  if (writer !== undefined) {
    writer.closedPromise.reject(stream.storedError);
    markHandled(writer.closedPromise.promise);
  }
}

function writableStreamUpdateBackpressure(stream, backpressure) {
  const writer = stream.writer;
  if (writer !== undefined && backpressure !== stream.backpressure) {
    if (backpressure) writer.readyPromise = newDeferred();
    else writer.readyPromise.resolve(undefined);
  }
  stream.backpressure = backpressure;
}

// MARK: - WritableStreamDefaultWriter

function writerSlots(value) {
  const slots = isObject(value) ? value[kSlots] : undefined;
  return slots instanceof WriterState ? slots : undefined;
}

class WritableStreamDefaultWriter {
  constructor(stream) {
    if (stream === kConstruct) {
      this[kSlots] = new WriterState(this);
      return;
    }
    const streamSlots = writableSlots(stream);
    if (streamSlots === undefined) throw new TypeError('WritableStreamDefaultWriter needs a WritableStream');
    const writer = new WriterState(this);
    setUpWriter(writer, streamSlots);
    this[kSlots] = writer;
  }

  get closed() {
    const writer = writerSlots(this);
    if (writer === undefined) return rejected(brandError('WritableStreamDefaultWriter'));
    return writer.closedPromise.promise;
  }

  get desiredSize() {
    const writer = writerSlots(this);
    if (writer === undefined) throw brandError('WritableStreamDefaultWriter');
    if (writer.stream === undefined) throw new TypeError('The writer has been released');
    return writerGetDesiredSize(writer);
  }

  get ready() {
    const writer = writerSlots(this);
    if (writer === undefined) return rejected(brandError('WritableStreamDefaultWriter'));
    return writer.readyPromise.promise;
  }

  abort(reason = undefined) {
    const writer = writerSlots(this);
    if (writer === undefined) return rejected(brandError('WritableStreamDefaultWriter'));
    if (writer.stream === undefined) return rejected(new TypeError('The writer has been released'));
    return writableStreamAbort(writer.stream, reason);
  }

  close() {
    const writer = writerSlots(this);
    if (writer === undefined) return rejected(brandError('WritableStreamDefaultWriter'));
    const stream = writer.stream;
    if (stream === undefined) return rejected(new TypeError('The writer has been released'));
    if (writableStreamCloseQueuedOrInFlight(stream)) return rejected(new TypeError('The stream is closing or closed'));
    return writableStreamClose(stream);
  }

  releaseLock() {
    const writer = writerSlots(this);
    if (writer === undefined) throw brandError('WritableStreamDefaultWriter');
    if (writer.stream === undefined) return;
    writerRelease(writer);
  }

  write(chunk = undefined) {
    const writer = writerSlots(this);
    if (writer === undefined) return rejected(brandError('WritableStreamDefaultWriter'));
    if (writer.stream === undefined) return rejected(new TypeError('The writer has been released'));
    return writerWrite(writer, chunk);
  }
}

function setUpWriter(writer, stream) {
  if (stream.writer !== undefined) throw new TypeError('The WritableStream is locked');
  writer.stream = stream;
  stream.writer = writer;
  const state = stream.state;
  if (state === 'writable') {
    writer.readyPromise = newDeferred();
    if (writableStreamCloseQueuedOrInFlight(stream) || !stream.backpressure) writer.readyPromise.resolve(undefined);
    writer.closedPromise = newDeferred();
  } else if (state === 'erroring') {
    writer.readyPromise = newDeferred();
    writer.readyPromise.reject(stream.storedError);
    markHandled(writer.readyPromise.promise);
    writer.closedPromise = newDeferred();
  } else if (state === 'closed') {
    writer.readyPromise = newDeferred();
    writer.readyPromise.resolve(undefined);
    writer.closedPromise = newDeferred();
    writer.closedPromise.resolve(undefined);
  } else {
    const storedError = stream.storedError;
    writer.readyPromise = newDeferred();
    writer.readyPromise.reject(storedError);
    markHandled(writer.readyPromise.promise);
    writer.closedPromise = newDeferred();
    writer.closedPromise.reject(storedError);
    markHandled(writer.closedPromise.promise);
  }
}

function writerCloseWithErrorPropagation(writer) {
  const stream = writer.stream;
  const state = stream.state;
  if (writableStreamCloseQueuedOrInFlight(stream) || state === 'closed') return resolved(undefined);
  if (state === 'errored') return rejected(stream.storedError);
  return writableStreamClose(stream);
}

function writerEnsureClosedPromiseRejected(writer, error) {
  if (writer.closedPromise.pending) writer.closedPromise.reject(error);
  else writer.closedPromise = rejectedDeferred(error);
  markHandled(writer.closedPromise.promise);
}

function writerEnsureReadyPromiseRejected(writer, error) {
  if (writer.readyPromise.pending) writer.readyPromise.reject(error);
  else writer.readyPromise = rejectedDeferred(error);
  markHandled(writer.readyPromise.promise);
}

function writerGetDesiredSize(writer) {
  const stream = writer.stream;
  const state = stream.state;
  if (state === 'errored' || state === 'erroring') return null;
  if (state === 'closed') return 0;
  return writableControllerGetDesiredSize(stream.controller);
}

function writerRelease(writer) {
  const stream = writer.stream;
  const releasedError = new TypeError('The writer was released');
  writerEnsureReadyPromiseRejected(writer, releasedError);
  writerEnsureClosedPromiseRejected(writer, releasedError);
  stream.writer = undefined;
  writer.stream = undefined;
}

function writerWrite(writer, chunk) {
  const stream = writer.stream;
  const controller = stream.controller;
  const chunkSize = writableControllerGetChunkSize(controller, chunk);
  if (stream !== writer.stream) return rejected(new TypeError('The writer was released'));
  const state = stream.state;
  if (state === 'errored') return rejected(stream.storedError);
  if (writableStreamCloseQueuedOrInFlight(stream) || state === 'closed') {
    return rejected(new TypeError('The stream is closing or closed'));
  }
  if (state === 'erroring') return rejected(stream.storedError);
  const promise = writableStreamAddWriteRequest(stream);
  writableControllerWrite(controller, chunk, chunkSize);
  return promise;
}

// MARK: - WritableStreamDefaultController

function writableControllerSlots(value) {
  const slots = isObject(value) ? value[kSlots] : undefined;
  return slots instanceof WritableControllerState ? slots : undefined;
}

class WritableStreamDefaultController {
  constructor(token = undefined) {
    if (token !== kConstruct) throw new TypeError('Illegal constructor');
  }

  get signal() {
    const controller = writableControllerSlots(this);
    if (controller === undefined) throw brandError('WritableStreamDefaultController');
    return AbortControllerPrototypeGetSignal(controller.abortController);
  }

  error(e = undefined) {
    const controller = writableControllerSlots(this);
    if (controller === undefined) throw brandError('WritableStreamDefaultController');
    if (controller.stream.state !== 'writable') return;
    writableControllerError(controller, e);
  }
}

function writableControllerErrorSteps(controller) {
  resetQueue(controller);
}

function setUpWritableController(stream, controller, startAlgorithm, writeAlgorithm, closeAlgorithm, abortAlgorithm, highWaterMark, sizeAlgorithm) {
  controller.stream = stream;
  stream.controller = controller;
  resetQueue(controller);
  controller.abortController = new AbortController();
  controller.started = false;
  controller.strategySizeAlgorithm = sizeAlgorithm;
  controller.strategyHWM = highWaterMark;
  controller.writeAlgorithm = writeAlgorithm;
  controller.closeAlgorithm = closeAlgorithm;
  controller.abortAlgorithm = abortAlgorithm;
  const backpressure = writableControllerGetBackpressure(controller);
  writableStreamUpdateBackpressure(stream, backpressure);
  const startResult = startAlgorithm();
  uponPromise(
    resolved(startResult),
    () => {
      controller.started = true;
      writableControllerAdvanceQueueIfNeeded(controller);
    },
    (r) => {
      controller.started = true;
      writableStreamDealWithRejection(stream, r);
    });
}

function setUpWritableControllerFromSink(stream, sink, sinkDict, highWaterMark, sizeAlgorithm) {
  const wrapper = new WritableStreamDefaultController(kConstruct);
  const controller = new WritableControllerState(wrapper);
  wrapper[kSlots] = controller;
  const { start, write, close, abort } = sinkDict;
  const startAlgorithm = start === undefined ? noop : () => FunctionPrototypeCall(start, sink, wrapper);
  const writeAlgorithm = write === undefined ? () => resolved(undefined) : (chunk) => promiseCall(write, sink, [chunk, wrapper]);
  const closeAlgorithm = close === undefined ? () => resolved(undefined) : () => promiseCall(close, sink, []);
  const abortAlgorithm = abort === undefined ? () => resolved(undefined) : (reason) => promiseCall(abort, sink, [reason]);
  setUpWritableController(stream, controller, startAlgorithm, writeAlgorithm, closeAlgorithm, abortAlgorithm, highWaterMark, sizeAlgorithm);
}

function writableControllerAdvanceQueueIfNeeded(controller) {
  const stream = controller.stream;
  if (!controller.started) return;
  if (stream.inFlightWriteRequest !== undefined) return;
  const state = stream.state;
  if (state === 'erroring') {
    writableStreamFinishErroring(stream);
    return;
  }
  if (controller.queue.length === 0) return;
  const value = controller.queue.peek();
  if (value === closeSentinel) writableControllerProcessClose(controller);
  else writableControllerProcessWrite(controller, value);
}

function writableControllerClearAlgorithms(controller) {
  controller.writeAlgorithm = undefined;
  controller.closeAlgorithm = undefined;
  controller.abortAlgorithm = undefined;
  controller.strategySizeAlgorithm = undefined;
}

function writableControllerClose(controller) {
  enqueueValueWithSize(controller, closeSentinel, 0);
  writableControllerAdvanceQueueIfNeeded(controller);
}

function writableControllerError(controller, error) {
  const stream = controller.stream;
  writableControllerClearAlgorithms(controller);
  writableStreamStartErroring(stream, error);
}

function writableControllerErrorIfNeeded(controller, error) {
  if (controller.stream.state === 'writable') writableControllerError(controller, error);
}

function writableControllerGetBackpressure(controller) {
  return writableControllerGetDesiredSize(controller) <= 0;
}

function writableControllerGetChunkSize(controller, chunk) {
  const sizeAlgorithm = controller.strategySizeAlgorithm;
  if (sizeAlgorithm === countSize) return 1;
  if (sizeAlgorithm === undefined) return 1; // the stream is erroring: the size no longer matters
  try {
    return sizeAlgorithm(chunk);
  } catch (error) {
    writableControllerErrorIfNeeded(controller, error);
    return 1;
  }
}

function writableControllerGetDesiredSize(controller) {
  return controller.strategyHWM - controller.queueTotalSize;
}

function writableControllerProcessClose(controller) {
  const stream = controller.stream;
  writableStreamMarkCloseRequestInFlight(stream);
  dequeueValue(controller);
  const sinkClosePromise = controller.closeAlgorithm();
  writableControllerClearAlgorithms(controller);
  uponPromise(
    sinkClosePromise,
    () => writableStreamFinishInFlightClose(stream),
    (reason) => writableStreamFinishInFlightCloseWithError(stream, reason));
}

function writableControllerProcessWrite(controller, chunk) {
  const stream = controller.stream;
  writableStreamMarkFirstWriteRequestInFlight(stream);
  const sinkWritePromise = controller.writeAlgorithm(chunk);
  uponPromise(
    sinkWritePromise,
    () => {
      writableStreamFinishInFlightWrite(stream);
      const state = stream.state;
      dequeueValue(controller);
      if (!writableStreamCloseQueuedOrInFlight(stream) && state === 'writable') {
        const backpressure = writableControllerGetBackpressure(controller);
        writableStreamUpdateBackpressure(stream, backpressure);
      }
      writableControllerAdvanceQueueIfNeeded(controller);
    },
    (reason) => {
      if (stream.state === 'writable') writableControllerClearAlgorithms(controller);
      writableStreamFinishInFlightWriteWithError(stream, reason);
    });
}

function writableControllerWrite(controller, chunk, chunkSize) {
  try {
    enqueueValueWithSize(controller, chunk, chunkSize);
  } catch (enqueueError) {
    writableControllerErrorIfNeeded(controller, enqueueError);
    return;
  }
  const stream = controller.stream;
  if (!writableStreamCloseQueuedOrInFlight(stream) && stream.state === 'writable') {
    const backpressure = writableControllerGetBackpressure(controller);
    writableStreamUpdateBackpressure(stream, backpressure);
  }
  writableControllerAdvanceQueueIfNeeded(controller);
}

// MARK: - TransformStream

class TransformStreamState {
  constructor(wrapper) {
    this.wrapper = wrapper;
    this.readable = undefined;
    this.writable = undefined;
    this.backpressure = undefined;
    this.backpressureChangePromise = undefined;
    this.controller = undefined;
  }
}

class TransformControllerState {
  constructor(wrapper) {
    this.wrapper = wrapper;
    this.stream = undefined;
    this.transformAlgorithm = undefined;
    this.flushAlgorithm = undefined;
    this.cancelAlgorithm = undefined;
    this.finishPromise = undefined;
  }
}

function transformSlots(value) {
  const slots = isObject(value) ? value[kSlots] : undefined;
  return slots instanceof TransformStreamState ? slots : undefined;
}

class TransformStream {
  constructor(transformer = undefined, writableStrategy = undefined, readableStrategy = undefined) {
    if (transformer === kConstruct) {
      this[kSlots] = new TransformStreamState(this);
      return;
    }
    if (transformer !== undefined && !isObject(transformer)) {
      throw new TypeError('The transformer must be an object');
    }
    const writableDict = toQueuingStrategy(writableStrategy, 'The writable strategy');
    const readableDict = toQueuingStrategy(readableStrategy, 'The readable strategy');
    const source = transformer === undefined ? null : transformer;
    const transformerDict = toTransformer(source);
    if (transformerDict.readableType !== undefined) throw new RangeError('Invalid readableType specified');
    if (transformerDict.writableType !== undefined) throw new RangeError('Invalid writableType specified');
    const readableHighWaterMark = extractHighWaterMark(readableDict, 0);
    const readableSizeAlgorithm = extractSizeAlgorithm(readableDict);
    const writableHighWaterMark = extractHighWaterMark(writableDict, 1);
    const writableSizeAlgorithm = extractSizeAlgorithm(writableDict);
    const stream = new TransformStreamState(this);
    this[kSlots] = stream;
    const startPromise = newDeferred();
    initializeTransformStream(stream, startPromise, writableHighWaterMark, writableSizeAlgorithm, readableHighWaterMark, readableSizeAlgorithm);
    setUpTransformControllerFromTransformer(stream, source, transformerDict);
    if (transformerDict.start !== undefined) {
      startPromise.resolve(FunctionPrototypeCall(transformerDict.start, source, stream.controller.wrapper));
    } else {
      startPromise.resolve(undefined);
    }
  }

  get readable() {
    const stream = transformSlots(this);
    if (stream === undefined) throw brandError('TransformStream');
    return stream.readable.wrapper;
  }

  get writable() {
    const stream = transformSlots(this);
    if (stream === undefined) throw brandError('TransformStream');
    return stream.writable.wrapper;
  }
}

function toTransformer(transformer) {
  if (transformer === null) {
    return { cancel: undefined, flush: undefined, readableType: undefined, start: undefined, transform: undefined, writableType: undefined };
  }
  const cancel = toCallback(transformer.cancel, 'The transformer cancel');
  const flush = toCallback(transformer.flush, 'The transformer flush');
  const readableType = transformer.readableType;
  const start = toCallback(transformer.start, 'The transformer start');
  const transform = toCallback(transformer.transform, 'The transformer transform');
  const writableType = transformer.writableType;
  return { cancel, flush, readableType, start, transform, writableType };
}

function initializeTransformStream(stream, startPromise, writableHighWaterMark, writableSizeAlgorithm, readableHighWaterMark, readableSizeAlgorithm) {
  const startAlgorithm = () => startPromise.promise;
  const writeAlgorithm = (chunk) => transformSinkWrite(stream, chunk);
  const abortAlgorithm = (reason) => transformSinkAbort(stream, reason);
  const closeAlgorithm = () => transformSinkClose(stream);
  stream.writable = createWritableStream(startAlgorithm, writeAlgorithm, closeAlgorithm, abortAlgorithm, writableHighWaterMark, writableSizeAlgorithm);
  const pullAlgorithm = () => transformSourcePull(stream);
  const cancelAlgorithm = (reason) => transformSourceCancel(stream, reason);
  stream.readable = createReadableStream(startAlgorithm, pullAlgorithm, cancelAlgorithm, readableHighWaterMark, readableSizeAlgorithm);
  stream.backpressure = undefined;
  stream.backpressureChangePromise = undefined;
  transformStreamSetBackpressure(stream, true);
  stream.controller = undefined;
}

function transformStreamError(stream, e) {
  defaultControllerError(stream.readable.controller, e);
  transformStreamErrorWritableAndUnblockWrite(stream, e);
}

function transformStreamErrorWritableAndUnblockWrite(stream, e) {
  transformControllerClearAlgorithms(stream.controller);
  writableControllerErrorIfNeeded(stream.writable.controller, e);
  transformStreamUnblockWrite(stream);
}

function transformStreamSetBackpressure(stream, backpressure) {
  if (stream.backpressureChangePromise !== undefined) stream.backpressureChangePromise.resolve(undefined);
  stream.backpressureChangePromise = newDeferred();
  stream.backpressure = backpressure;
}

function transformStreamUnblockWrite(stream) {
  if (stream.backpressure) transformStreamSetBackpressure(stream, false);
}

function transformControllerSlots(value) {
  const slots = isObject(value) ? value[kSlots] : undefined;
  return slots instanceof TransformControllerState ? slots : undefined;
}

class TransformStreamDefaultController {
  constructor(token = undefined) {
    if (token !== kConstruct) throw new TypeError('Illegal constructor');
  }

  get desiredSize() {
    const controller = transformControllerSlots(this);
    if (controller === undefined) throw brandError('TransformStreamDefaultController');
    return defaultControllerGetDesiredSize(controller.stream.readable.controller);
  }

  enqueue(chunk = undefined) {
    const controller = transformControllerSlots(this);
    if (controller === undefined) throw brandError('TransformStreamDefaultController');
    transformControllerEnqueue(controller, chunk);
  }

  error(reason = undefined) {
    const controller = transformControllerSlots(this);
    if (controller === undefined) throw brandError('TransformStreamDefaultController');
    transformStreamError(controller.stream, reason);
  }

  terminate() {
    const controller = transformControllerSlots(this);
    if (controller === undefined) throw brandError('TransformStreamDefaultController');
    transformControllerTerminate(controller);
  }
}

function setUpTransformController(stream, controller, transformAlgorithm, flushAlgorithm, cancelAlgorithm) {
  controller.stream = stream;
  stream.controller = controller;
  controller.transformAlgorithm = transformAlgorithm;
  controller.flushAlgorithm = flushAlgorithm;
  controller.cancelAlgorithm = cancelAlgorithm;
}

function setUpTransformControllerFromTransformer(stream, transformer, transformerDict) {
  const wrapper = new TransformStreamDefaultController(kConstruct);
  const controller = new TransformControllerState(wrapper);
  wrapper[kSlots] = controller;
  const { transform, flush, cancel } = transformerDict;
  const transformAlgorithm = transform === undefined
    ? (chunk) => {
      try {
        transformControllerEnqueue(controller, chunk);
        return resolved(undefined);
      } catch (e) {
        return rejected(e);
      }
    }
    : (chunk) => promiseCall(transform, transformer, [chunk, wrapper]);
  const flushAlgorithm = flush === undefined ? () => resolved(undefined) : () => promiseCall(flush, transformer, [wrapper]);
  const cancelAlgorithm = cancel === undefined ? () => resolved(undefined) : (reason) => promiseCall(cancel, transformer, [reason]);
  setUpTransformController(stream, controller, transformAlgorithm, flushAlgorithm, cancelAlgorithm);
}

/// A TransformStream over algorithms (for TextEncoderStream, CompressionStream and other engine streams).
function createTransformStream(transformAlgorithm, flushAlgorithm, cancelAlgorithm = () => resolved(undefined)) {
  const stream = new TransformStream(kConstruct)[kSlots];
  const startPromise = newDeferred();
  initializeTransformStream(stream, startPromise, 1, countSize, 0, countSize);
  const wrapper = new TransformStreamDefaultController(kConstruct);
  const controller = new TransformControllerState(wrapper);
  wrapper[kSlots] = controller;
  const wrap = (algorithm) => (...args) => {
    try {
      return resolved(algorithm(controller, ...args));
    } catch (e) {
      return rejected(e);
    }
  };
  setUpTransformController(stream, controller, wrap(transformAlgorithm), wrap(flushAlgorithm), cancelAlgorithm);
  startPromise.resolve(undefined);
  return stream;
}

function transformControllerClearAlgorithms(controller) {
  controller.transformAlgorithm = undefined;
  controller.flushAlgorithm = undefined;
  controller.cancelAlgorithm = undefined;
}

function transformControllerEnqueue(controller, chunk) {
  const stream = controller.stream;
  const readableController = stream.readable.controller;
  if (!defaultControllerCanCloseOrEnqueue(readableController)) {
    throw new TypeError('Readable side is not in a state that permits enqueue');
  }
  try {
    defaultControllerEnqueue(readableController, chunk);
  } catch (e) {
    transformStreamErrorWritableAndUnblockWrite(stream, e);
    throw stream.readable.storedError;
  }
  const backpressure = defaultControllerHasBackpressure(readableController);
  if (backpressure !== stream.backpressure) transformStreamSetBackpressure(stream, true);
}

function transformControllerTerminate(controller) {
  const stream = controller.stream;
  defaultControllerClose(stream.readable.controller);
  transformStreamErrorWritableAndUnblockWrite(stream, new TypeError('The TransformStream was terminated'));
}

function transformControllerPerformTransform(controller, chunk) {
  const transformPromise = controller.transformAlgorithm(chunk);
  return then(transformPromise, undefined, (r) => {
    transformStreamError(controller.stream, r);
    throw r;
  });
}

function transformSinkWrite(stream, chunk) {
  const controller = stream.controller;
  if (stream.backpressure) {
    return then(stream.backpressureChangePromise.promise, () => {
      const writable = stream.writable;
      if (writable.state === 'erroring') throw writable.storedError;
      return transformControllerPerformTransform(controller, chunk);
    });
  }
  return transformControllerPerformTransform(controller, chunk);
}

function transformSinkAbort(stream, reason) {
  const controller = stream.controller;
  if (controller.finishPromise !== undefined) return controller.finishPromise.promise;
  const readable = stream.readable;
  controller.finishPromise = newDeferred();
  const cancelPromise = controller.cancelAlgorithm(reason);
  transformControllerClearAlgorithms(controller);
  uponPromise(
    cancelPromise,
    () => {
      if (readable.state === 'errored') {
        controller.finishPromise.reject(readable.storedError);
      } else {
        defaultControllerError(readable.controller, reason);
        controller.finishPromise.resolve(undefined);
      }
    },
    (r) => {
      defaultControllerError(readable.controller, r);
      controller.finishPromise.reject(r);
    });
  return controller.finishPromise.promise;
}

function transformSinkClose(stream) {
  const controller = stream.controller;
  if (controller.finishPromise !== undefined) return controller.finishPromise.promise;
  const readable = stream.readable;
  controller.finishPromise = newDeferred();
  const flushPromise = controller.flushAlgorithm();
  transformControllerClearAlgorithms(controller);
  uponPromise(
    flushPromise,
    () => {
      if (readable.state === 'errored') {
        controller.finishPromise.reject(readable.storedError);
      } else {
        defaultControllerClose(readable.controller);
        controller.finishPromise.resolve(undefined);
      }
    },
    (r) => {
      defaultControllerError(readable.controller, r);
      controller.finishPromise.reject(r);
    });
  return controller.finishPromise.promise;
}

function transformSourcePull(stream) {
  transformStreamSetBackpressure(stream, false);
  return stream.backpressureChangePromise.promise;
}

function transformSourceCancel(stream, reason) {
  const controller = stream.controller;
  if (controller.finishPromise !== undefined) return controller.finishPromise.promise;
  const writable = stream.writable;
  controller.finishPromise = newDeferred();
  const cancelPromise = controller.cancelAlgorithm(reason);
  transformControllerClearAlgorithms(controller);
  uponPromise(
    cancelPromise,
    () => {
      if (writable.state === 'errored') {
        controller.finishPromise.reject(writable.storedError);
      } else {
        writableControllerErrorIfNeeded(writable.controller, reason);
        transformStreamUnblockWrite(stream);
        controller.finishPromise.resolve(undefined);
      }
    },
    (r) => {
      writableControllerErrorIfNeeded(writable.controller, r);
      transformStreamUnblockWrite(stream);
      controller.finishPromise.reject(r);
    });
  return controller.finishPromise.promise;
}

// MARK: - Piping

function readableStreamPipeTo(source, dest, preventClose, preventAbort, preventCancel, signal) {
  const reader = acquireDefaultReader(source);
  const writer = acquireWriter(dest);
  source.disturbed = true;
  let shuttingDown = false;
  let currentWrite = resolved(undefined);
  const result = newDeferred();
  let abortAlgorithm;

  const waitForWritesToFinish = () => {
    const oldCurrentWrite = currentWrite;
    return then(currentWrite, () => (oldCurrentWrite !== currentWrite ? waitForWritesToFinish() : undefined));
  };
  const finalize = (isError, error) => {
    writerRelease(writer);
    defaultReaderRelease(reader);
    if (signal !== undefined) EventTargetPrototypeRemoveEventListener(signal, 'abort', abortAlgorithm);
    if (isError) result.reject(error);
    else result.resolve(undefined);
  };
  const shutdownWithAnAction = (action, originalIsError, originalError) => {
    if (shuttingDown) return;
    shuttingDown = true;
    const doTheRest = () => {
      uponPromise(action(), () => finalize(originalIsError, originalError), (newError) => finalize(true, newError));
    };
    if (dest.state === 'writable' && !writableStreamCloseQueuedOrInFlight(dest)) {
      uponPromise(waitForWritesToFinish(), doTheRest);
    } else {
      doTheRest();
    }
  };
  const shutdown = (isError, error) => {
    if (shuttingDown) return;
    shuttingDown = true;
    if (dest.state === 'writable' && !writableStreamCloseQueuedOrInFlight(dest)) {
      uponPromise(waitForWritesToFinish(), () => finalize(isError, error));
    } else {
      finalize(isError, error);
    }
  };

  if (signal !== undefined) {
    abortAlgorithm = () => {
      const error = AbortSignalPrototypeGetReason(signal);
      const abortDest = () => (!preventAbort && dest.state === 'writable' ? writableStreamAbort(dest, error) : resolved(undefined));
      const cancelSource = () => (!preventCancel && source.state === 'readable' ? readableStreamCancel(source, error) : resolved(undefined));
      shutdownWithAnAction(() => {
        const results = [];
        if (!preventAbort) results[results.length] = abortDest();
        if (!preventCancel) results[results.length] = cancelSource();
        return waitForAll(results);
      }, true, error);
    };
    if (AbortSignalPrototypeGetAborted(signal)) {
      abortAlgorithm();
      return result.promise;
    }
    EventTargetPrototypeAddEventListener(signal, 'abort', abortAlgorithm);
  }

  // The pipe loop: wait until the writer is ready, read, write, repeat. It is a small state machine rather
  // than a chain of promises: a chunk already queued is written in the same turn, and a step only waits (on
  // the ready promise or a pending read) when it has to. One read is outstanding at a time, so one request
  // object serves every read.
  let reading = false;
  let looping = false;
  let sourceDone = false;
  const readRequest = {
    chunk(chunk) {
      reading = false;
      currentWrite = then(writerWrite(writer, chunk), undefined, noop);
      if (!looping) pipeStep();
    },
    close() {
      reading = false;
      sourceDone = true;
    },
    error() {
      reading = false;
      sourceDone = true;
    },
  };
  const pipeStep = () => {
    looping = true;
    while (!shuttingDown && !sourceDone && !reading) {
      const ready = writer.readyPromise;
      if (ready.pending) {
        uponPromise(ready.promise, pipeStep);
        break;
      }
      reading = true;
      defaultReaderRead(reader, readRequest);
    }
    looping = false;
  };
  // Errors must be propagated forward.
  if (source.state === 'errored') {
    onSourceErrored(source.storedError);
  } else {
    uponPromise(reader.closedPromise.promise, undefined, onSourceErrored);
  }
  function onSourceErrored(storedError) {
    if (!preventAbort) shutdownWithAnAction(() => writableStreamAbort(dest, storedError), true, storedError);
    else shutdown(true, storedError);
  }
  // Errors must be propagated backward.
  if (dest.state === 'errored') {
    onDestErrored(dest.storedError);
  } else {
    uponPromise(writer.closedPromise.promise, undefined, onDestErrored);
  }
  function onDestErrored(storedError) {
    if (!preventCancel) shutdownWithAnAction(() => readableStreamCancel(source, storedError), true, storedError);
    else shutdown(true, storedError);
  }
  // Closing must be propagated forward.
  if (source.state === 'closed') {
    onSourceClosed();
  } else {
    uponPromise(reader.closedPromise.promise, onSourceClosed);
  }
  function onSourceClosed() {
    if (!preventClose) shutdownWithAnAction(() => writerCloseWithErrorPropagation(writer));
    else shutdown();
  }
  // Closing must be propagated backward.
  if (writableStreamCloseQueuedOrInFlight(dest) || dest.state === 'closed') {
    const destClosed = new TypeError('The destination stream is closed');
    if (!preventCancel) shutdownWithAnAction(() => readableStreamCancel(source, destClosed), true, destClosed);
    else shutdown(true, destClosed);
  }
  pipeStep();
  return result.promise;
}

// MARK: - TextEncoderStream / TextDecoderStream

// The encoding file's public classes (TextDecoder knows every encoding and its options).
const TextEncoderCtor = TextEncoder;
const TextDecoderCtor = TextDecoder;

function genericTransformSlots(value, brand) {
  const slots = isObject(value) ? value[kSlots] : undefined;
  return slots?.brand === brand ? slots : undefined;
}

class TextEncoderStream {
  constructor() {
    const encoder = new TextEncoderCtor();
    const state = { brand: 'TextEncoderStream', transform: undefined, pendingHighSurrogate: '' };
    const transformAlgorithm = (controller, chunk) => {
      let input = state.pendingHighSurrogate + `${chunk}`;
      state.pendingHighSurrogate = '';
      const last = input.length > 0 ? MethodCharCodeAt(input, input.length - 1) : 0;
      if (last >= 0xd800 && last <= 0xdbff) {
        state.pendingHighSurrogate = input[input.length - 1];
        input = MethodSlice(input, 0, -1);
      }
      if (input.length > 0) transformControllerEnqueue(controller, encoder.encode(input));
    };
    const flushAlgorithm = (controller) => {
      if (state.pendingHighSurrogate !== '') transformControllerEnqueue(controller, new Uint8Array([0xef, 0xbf, 0xbd]));
    };
    state.transform = createTransformStream(transformAlgorithm, flushAlgorithm);
    this[kSlots] = state;
  }

  get encoding() {
    if (genericTransformSlots(this, 'TextEncoderStream') === undefined) throw brandError('TextEncoderStream');
    return 'utf-8';
  }

  get readable() {
    const state = genericTransformSlots(this, 'TextEncoderStream');
    if (state === undefined) throw brandError('TextEncoderStream');
    return state.transform.readable.wrapper;
  }

  get writable() {
    const state = genericTransformSlots(this, 'TextEncoderStream');
    if (state === undefined) throw brandError('TextEncoderStream');
    return state.transform.writable.wrapper;
  }
}

function toBufferSource(chunk) {
  if (ArrayBufferIsView(chunk)) return chunk;
  if (isArrayBuffer(chunk) || isSharedArrayBuffer(chunk)) return chunk;
  throw new TypeError('The chunk must be an ArrayBuffer or ArrayBufferView');
}

class TextDecoderStream {
  constructor(label = undefined, options = undefined) {
    const decoder = new TextDecoderCtor(label === undefined ? 'utf-8' : label, options);
    const state = { brand: 'TextDecoderStream', transform: undefined, decoder };
    const transformAlgorithm = (controller, chunk) => {
      const output = decoder.decode(toBufferSource(chunk), { stream: true });
      if (output !== '') transformControllerEnqueue(controller, output);
    };
    const flushAlgorithm = (controller) => {
      const output = decoder.decode();
      if (output !== '') transformControllerEnqueue(controller, output);
    };
    state.transform = createTransformStream(transformAlgorithm, flushAlgorithm);
    this[kSlots] = state;
  }

  get encoding() {
    const state = genericTransformSlots(this, 'TextDecoderStream');
    if (state === undefined) throw brandError('TextDecoderStream');
    return state.decoder.encoding;
  }

  get fatal() {
    const state = genericTransformSlots(this, 'TextDecoderStream');
    if (state === undefined) throw brandError('TextDecoderStream');
    return state.decoder.fatal;
  }

  get ignoreBOM() {
    const state = genericTransformSlots(this, 'TextDecoderStream');
    if (state === undefined) throw brandError('TextDecoderStream');
    return state.decoder.ignoreBOM;
  }

  get readable() {
    const state = genericTransformSlots(this, 'TextDecoderStream');
    if (state === undefined) throw brandError('TextDecoderStream');
    return state.transform.readable.wrapper;
  }

  get writable() {
    const state = genericTransformSlots(this, 'TextDecoderStream');
    if (state === undefined) throw brandError('TextDecoderStream');
    return state.transform.writable.wrapper;
  }
}

// MARK: - Interface objects

/// Gives a class the shape of a WebIDL interface: enumerable operations and attributes, a toStringTag.
function exposeInterface(Class, name) {
  const prototype = Class.prototype;
  for (const key of ReflectOwnKeys(prototype)) {
    if (key === 'constructor') continue;
    const descriptor = ReflectGetOwnPropertyDescriptor(prototype, key);
    descriptor.enumerable = true;
    ObjectDefineProperty(prototype, key, descriptor);
  }
  for (const key of ReflectOwnKeys(Class)) {
    if (key === 'length' || key === 'name' || key === 'prototype') continue;
    const descriptor = ReflectGetOwnPropertyDescriptor(Class, key);
    descriptor.enumerable = true;
    ObjectDefineProperty(Class, key, descriptor);
  }
  ObjectDefineProperty(prototype, SymbolToStringTag, { value: name, configurable: true });
}

const interfaces = {
  ReadableStream, ReadableStreamDefaultReader, ReadableStreamBYOBReader, ReadableStreamBYOBRequest,
  ReadableStreamDefaultController, ReadableByteStreamController, WritableStream, WritableStreamDefaultWriter,
  WritableStreamDefaultController, TransformStream, TransformStreamDefaultController, ByteLengthQueuingStrategy,
  CountQueuingStrategy, TextEncoderStream, TextDecoderStream,
};
for (const name of ReflectOwnKeys(interfaces)) exposeInterface(interfaces[name], name);
ObjectDefineProperty(ReadableStream.prototype, SymbolAsyncIterator, {
  value: ReadableStream.prototype.values, writable: true, configurable: true,
});

/// Engine-side helpers for other runtime files (fetch bodies, compression): they work on public objects.
const streams = {
  /// A default-controlled ReadableStream over `pull(controller)` / `cancel(reason)` algorithms returning promises.
  createReadableStream(pull, cancel, highWaterMark = 1) {
    let stream;
    const pullAlgorithm = () => promiseCall(pull, undefined, [stream.controller.wrapper]);
    const cancelAlgorithm = (reason) => (cancel === undefined ? resolved(undefined) : promiseCall(cancel, undefined, [reason]));
    stream = createReadableStream(noop, pullAlgorithm, cancelAlgorithm, highWaterMark);
    return stream.wrapper;
  },
  /// A TransformStream whose `transform(enqueue, chunk, ready)` and `flush(enqueue, ready)` may throw (or
  /// return a rejected promise) to error it. `ready()` is undefined while the readable side wants more, else a
  /// promise that settles once it is read from: a transform that makes many chunks waits on it between them.
  createTransformStream(transform, flush) {
    let stream;
    const ready = () => (stream.backpressure ? stream.backpressureChangePromise.promise : undefined);
    stream = createTransformStream(
      (controller, chunk) => transform((value) => transformControllerEnqueue(controller, value), chunk, ready),
      (controller) => flush((value) => transformControllerEnqueue(controller, value), ready));
    return stream.wrapper;
  },
  isReadableStream: (value) => readableSlots(value) !== undefined,
  isWritableStream: (value) => writableSlots(value) !== undefined,
  /// Whether a ReadableStream has been read from or canceled.
  isDisturbed: (value) => readableSlots(value).disturbed,
  isLocked: (value) => readableSlots(value).reader !== undefined,
};

internal.streams = streams;
internal.ReadableStream = interfaces.ReadableStream;
internal.TransformStream = interfaces.TransformStream;
for (const name of ReflectOwnKeys(interfaces)) internal.defineGlobal(name, interfaces[name]);
