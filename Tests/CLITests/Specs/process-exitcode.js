// process.exitCode decides the exit code when the loop ends; 'exit' listeners run in order and see it.
process.on("exit", (code) => console.log("first exit listener", code, process.exitCode));
process.on("exit", function (code) { console.log("second exit listener", code, this === process); });
setTimeout(() => {
  process.exitCode = 4;
  console.log("timer set exitCode");
}, 1);
console.log("end of script");
