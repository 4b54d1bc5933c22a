// compression.js - CompressionStream and DecompressionStream (WHATWG Compression Standard) for gzip, deflate
// and deflate-raw, over zlib (the natives in JSBridge's CompressionNatives.swift). Loaded on first use.

const {
  ArrayBufferIsView, FunctionPrototypeBind, MethodIndexOf, ObjectDefineProperty, ObjectGetOwnPropertyDescriptor,
  PromisePrototypeThen, ReflectGetPrototypeOf, ReflectOwnKeys, SymbolToStringTag, TypeError, Uint8Array,
} = internal.primordials;

const callFunction = Function.prototype.call;
const uncurry = (fn) => FunctionPrototypeBind(callFunction, fn);
const { streams, TransformStream } = internal;
const TransformStreamPrototypeGetReadable = uncurry(ObjectGetOwnPropertyDescriptor(TransformStream.prototype, 'readable').get);
const TransformStreamPrototypeGetWritable = uncurry(ObjectGetOwnPropertyDescriptor(TransformStream.prototype, 'writable').get);
const TypedArray = ReflectGetPrototypeOf(Uint8Array);
const TypedArrayPrototypeGetBuffer = uncurry(ObjectGetOwnPropertyDescriptor(TypedArray.prototype, 'buffer').get);
const TypedArrayPrototypeGetByteOffset = uncurry(ObjectGetOwnPropertyDescriptor(TypedArray.prototype, 'byteOffset').get);
const TypedArrayPrototypeGetByteLength = uncurry(ObjectGetOwnPropertyDescriptor(TypedArray.prototype, 'byteLength').get);
const DataViewPrototypeGetBuffer = uncurry(ObjectGetOwnPropertyDescriptor(DataView.prototype, 'buffer').get);
const DataViewPrototypeGetByteOffset = uncurry(ObjectGetOwnPropertyDescriptor(DataView.prototype, 'byteOffset').get);
const DataViewPrototypeGetByteLength = uncurry(ObjectGetOwnPropertyDescriptor(DataView.prototype, 'byteLength').get);
const ArrayBufferPrototypeGetByteLength = uncurry(ObjectGetOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get);

const formats = ['deflate', 'deflate-raw', 'gzip'];
const kSlots = Symbol('slots');

function formatIndex(format) {
  const name = `${format}`;
  const index = MethodIndexOf(formats, name);
  if (index < 0) throw new TypeError(`Unsupported compression format: '${name}'`);
  return index;
}

/// [buffer, offset, length] of a BufferSource chunk (not shared); anything else is a TypeError.
function bufferSourceRange(chunk) {
  if (ArrayBufferIsView(chunk)) {
    let isDataView = true;
    try {
      DataViewPrototypeGetByteLength(chunk);
    } catch {
      isDataView = false;
    }
    const buffer = isDataView ? DataViewPrototypeGetBuffer(chunk) : TypedArrayPrototypeGetBuffer(chunk);
    const offset = isDataView ? DataViewPrototypeGetByteOffset(chunk) : TypedArrayPrototypeGetByteOffset(chunk);
    const length = isDataView ? DataViewPrototypeGetByteLength(chunk) : TypedArrayPrototypeGetByteLength(chunk);
    return [ownBuffer(buffer), offset, length];
  }
  try {
    const length = ArrayBufferPrototypeGetByteLength(chunk);
    return [chunk, 0, length];
  } catch {
    throw new TypeError('The chunk must be an ArrayBuffer or ArrayBufferView');
  }
}

// The natives read ArrayBuffers only: a view on a SharedArrayBuffer is refused, as BufferSource does.
function ownBuffer(buffer) {
  try {
    ArrayBufferPrototypeGetByteLength(buffer);
  } catch {
    throw new TypeError('The chunk must not be on a SharedArrayBuffer');
  }
  return buffer;
}

/// A TransformStream over a zlib stream: each native call answers at most 64 KiB of output, and the transform
/// enqueues them one at a time, waiting while the readable side has back-pressure (its desiredSize is not
/// positive), so a small input that inflates to gigabytes is read in bounded chunks as the reader pulls.
function zlibTransform(format, decompress) {
  const push = internal.zlibCreate(formatIndex(format), decompress);
  const drain = (enqueue, ready, output) => {
    while (output !== undefined) {
      enqueue(new Uint8Array(output));
      const wait = ready();
      if (wait !== undefined) return PromisePrototypeThen(wait, () => drain(enqueue, ready, push(undefined, 0, 0, false)));
      output = push(undefined, 0, 0, false);
    }
    return undefined;
  };
  return streams.createTransformStream(
    (enqueue, chunk, ready) => {
      const [buffer, offset, length] = bufferSourceRange(chunk);
      return drain(enqueue, ready, push(buffer, offset, length, false));
    },
    (enqueue, ready) => drain(enqueue, ready, push(undefined, 0, 0, true)));
}

function slots(value, brand) {
  const state = value !== null && typeof value === 'object' ? value[kSlots] : undefined;
  if (state?.brand !== brand) throw new TypeError(`Illegal invocation: the receiver is not a ${brand}`);
  return state;
}

class CompressionStream {
  constructor(format) {
    if (arguments.length === 0) throw new TypeError('CompressionStream requires a format');
    this[kSlots] = { brand: 'CompressionStream', transform: zlibTransform(format, false) };
  }

  get readable() {
    return TransformStreamPrototypeGetReadable(slots(this, 'CompressionStream').transform);
  }

  get writable() {
    return TransformStreamPrototypeGetWritable(slots(this, 'CompressionStream').transform);
  }
}

class DecompressionStream {
  constructor(format) {
    if (arguments.length === 0) throw new TypeError('DecompressionStream requires a format');
    this[kSlots] = { brand: 'DecompressionStream', transform: zlibTransform(format, true) };
  }

  get readable() {
    return TransformStreamPrototypeGetReadable(slots(this, 'DecompressionStream').transform);
  }

  get writable() {
    return TransformStreamPrototypeGetWritable(slots(this, 'DecompressionStream').transform);
  }
}

for (const [name, Class] of /** @type {[string, any][]} */ ([
  ['CompressionStream', CompressionStream], ['DecompressionStream', DecompressionStream],
])) {
  for (const key of ReflectOwnKeys(Class.prototype)) {
    if (key === 'constructor') continue;
    const descriptor = ObjectGetOwnPropertyDescriptor(Class.prototype, key);
    descriptor.enumerable = true;
    ObjectDefineProperty(Class.prototype, key, descriptor);
  }
  ObjectDefineProperty(Class.prototype, SymbolToStringTag, { value: name, configurable: true });
  internal.defineGlobal(name, Class);
}
