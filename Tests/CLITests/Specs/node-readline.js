// node:readline and node:readline/promises over any stream: 'line' events (\n, \r\n, \r), question, prompt,
// async iteration, close. Expectations are Node 20's output.
const readline = require("node:readline");
const readlinePromises = require("node:readline/promises");
const { Readable, PassThrough, Writable } = require("node:stream");

function sink() {
  const chunks = [];
  const output = new Writable({
    write(chunk, encoding, callback) {
      chunks.push(String(chunk));
      callback();
    },
  });
  output.chunks = chunks;
  return output;
}

(async () => {
  const lines = [];
  const rl = readline.createInterface({ input: Readable.from(["one\ntw", "o\r\nthree\rfour", "\nlast"]) });
  rl.on("line", (line) => lines.push(line));
  await new Promise((resolve) => rl.on("close", resolve));
  console.log("lines", JSON.stringify(lines));

  const iterated = [];
  const rl2 = readline.createInterface({ input: Readable.from(["a\nb\n", "c\n"]), crlfDelay: Infinity });
  for await (const line of rl2) iterated.push(line);
  console.log("for await", iterated.join(","));

  const input = new PassThrough();
  const output = sink();
  const rl3 = readline.createInterface({ input, output, prompt: "$ " });
  rl3.question("Name? ", (answer) => {
    console.log("answer", answer);
    rl3.prompt();
    input.write("cmd\n");
  });
  rl3.on("line", (line) => {
    console.log("line", line, rl3.getPrompt());
    rl3.close();
  });
  const closedPromise = new Promise((resolve) => rl3.on("close", resolve));
  input.write("Ada\n");
  await closedPromise;
  console.log("output", JSON.stringify(output.chunks.join("")));
  try {
    rl3.question("again?", () => {});
  } catch (error) {
    console.log("closed", error.code);
  }

  const promisesInput = new PassThrough();
  const rl4 = readlinePromises.createInterface({ input: promisesInput, output: sink() });
  setTimeout(() => promisesInput.write("42\n"), 1);
  const answer = await rl4.question("Number? ");
  console.log("promise answer", answer, typeof answer);
  rl4.close();

  const controlled = sink();
  readline.cursorTo(controlled, 3);
  readline.moveCursor(controlled, -1, 2);
  readline.clearLine(controlled, 0);
  readline.clearScreenDown(controlled);
  await new Promise((resolve) => setTimeout(resolve, 1));
  console.log("ansi", JSON.stringify(controlled.chunks.join("")));
})();
