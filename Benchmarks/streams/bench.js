// Streams benchmark: pipes `mib` MiB of 64 KiB chunks from a ReadableStream through a TransformStream into a
// WritableStream that counts bytes. Runs unchanged under jsbridge and Node; prints {"bytes", "ms"}.
//   <runtime> bench.js <identity|trivial> <mib>
const [kind = 'identity', mibText = '1024'] = process.argv.slice(2);
const chunkSize = 64 * 1024;
const total = Number(mibText) * 1024 * 1024;
const chunk = new Uint8Array(chunkSize).fill(7);

async function main() {
  let produced = 0;
  const source = new ReadableStream({
    pull(controller) {
      if (produced >= total) {
        controller.close();
        return;
      }
      produced += chunkSize;
      controller.enqueue(chunk);
    },
  });
  const transform = kind === 'identity'
    ? new TransformStream()
    : new TransformStream({ transform(value, controller) { controller.enqueue(value); } });
  let bytes = 0;
  const sink = new WritableStream({ write(value) { bytes += value.byteLength; } });
  const started = performance.now();
  await source.pipeThrough(transform).pipeTo(sink);
  const ms = performance.now() - started;
  if (bytes !== total) throw new Error(`expected ${total} bytes, got ${bytes}`);
  console.log(JSON.stringify({ bytes, ms }));
}

main();
